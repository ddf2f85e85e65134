/**
 * What n8n's node picker shows for the package. n8n lists an app's node and its trigger ("LBA
 * Ads", "LBA Ads Trigger") as one entry, and gives that entry the trigger's description (the
 * editor's generateMergedNodesAndActions, n8n 1.x and 2.x). So the trigger carries the action
 * node's own description too: a marketer searching for LBA Ads reads what the node does, and that
 * publishing bills. The trigger's own events are listed in the entry's actions.
 */
export const LBA_ADS_DESCRIPTION =
	'Publish location-based SMS campaigns (sent at once, billed), reverse-geocode coordinates and list data packages';
