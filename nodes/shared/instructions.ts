/**
 * Every instruction the package gives: each sentence (or step after a colon) that tells a person
 * or an AI model what to do, written once, by id. The nodes' errors, hints, notices, descriptions,
 * held items' howToResend and the tools' descriptions take them from here; the user page quotes
 * the `page` ones word for word. The test in real n8n that follows one to the letter and counts
 * campaigns says so with `e2e.follows('<id>')` (test/e2e); `withoutJourney` says why none does yet.
 * docs/instructions.md is generated from this file (`npm run docs:instructions`), and
 * test/docs/instructions.test.ts fails when the product shows an instruction that is not here.
 * A template takes what the site knows (a count, a key) already written as text.
 */
/**
 * The day from the clock and the time as text (issue 61): what the node advises for dates that
 * follow the clock. Read in the recipients' local time, its 09:00 is theirs on any n8n.
 */
export const TIME_AS_TEXT = "{{ $now.setZone('Asia/Jakarta').plus({ days: 1 }).toISODate() }} 09:00";

interface Instruction {
	say: string | ((...parts: string[]) => string);
	/** Why no journey follows it yet (one that does calls `e2e.follows('<id>')` in test/e2e). */
	withoutJourney?: string;
	/** On the user page (docs/duplicate-protection.md), word for word. */
	page?: true;
}


/** What a tool user does with a send-again key (a tool node has no Mode); its own node, so that a key is sent once. */
const FROM_TOOL_STEPS =
	'The user then, in the editor, makes a new workflow with one LBA Ads node set to Resource Campaign and Operation Create (not the tool), the same credential, any text in its Name and Description fields (this mode does not use them) and Mode Send One Again, pastes the key into Send Again Key and clicks Execute step. ' +
	'Only this campaign is sent, once. Keep that workflow for any later key: another node would send the same key again, billed again.';

export const INSTRUCTIONS = {
	// Sending one campaign again (issue 60): the one action, whatever n8n offers.
	sendOneAgain: { say: "copy this item's sendAgainKey, set this node's Mode to Send One Again, paste it into Send Again Key, click Execute step, then set Mode back to Publish. Only this campaign is sent, once." },
	// A tool node has no Mode (n8n shows a tool's fields only for its model): a Create node in the editor sends it.
	sendOneAgainFromTool: { say: `show the user the held result's sendAgainKey. ${FROM_TOOL_STEPS}` },
	sendOneAgainFromToolWithKey: { say: (key) => `show the user this key: ${key}. ${FROM_TOOL_STEPS}` },
	sendOneAgainWithKey: { say: (key) => `set this node's Mode to Send One Again, paste ${key} into Send Again Key, click Execute step, then set Mode back to Publish.` },
	toSendAgainOnPurpose: { say: 'To send it again on purpose (a second campaign, billed again):' },
	waitThenLook: { say: 'Wait a few minutes, then look for it in LBA Ads.' },
	ifThereNothing: { say: 'If it is there, do nothing.' },
	ifMissing: { say: 'If it is missing:' },
	doNotRunAgainForIt: { say: 'Do not run the workflow again for it: the other execution is creating this campaign (a new run with $now dates would create another).' },
	onceThatFinished: { say: 'Once that execution has finished (see Executions), look for the campaign in LBA Ads.' },
	onlyIfMissing: { say: 'Only if it is missing:' },
	lookForCampaign: { say: (campaignId) => `Look for campaign ${campaignId} in LBA Ads.` },
	ifThisCampaignNothing: { say: 'If it is this campaign, do nothing.' },
	ifAnother: { say: 'If it is another:' },
	pasteWholeSendAgainKey: { say: "Copy the whole sendAgainKey (it starts with again:v1:) of the held or failed item from this node's output, and paste it into Send Again Key." },
	setModeBackToPublish: { say: 'Set Mode back to Publish.' },
	sendAgainNotice: { say: 'Click Execute step, then set Mode back to Publish (in any other run this mode refuses and sends nothing).' },
	selectFirstCredential: {
		say: 'Select the credential the campaign was first sent with, then click Execute step again.',
		withoutJourney:
			'Said only when a send-again key is pasted into a node whose credential points to another service; following it sends the campaign once, as the journey of sendOneAgain does.',
	},

	// A failed or stopped run.
	retryOnceDatabaseAnswers: { say: "Keep Duplicate Protection as it is and Retry this execution once n8n's database answers: the Retry holds back the campaigns already sent and sends the rest." },
	runAgainOnceDatabaseAnswers: { say: "run the workflow again once n8n's database answers." },
	doNotRunAgainInstead: { say: 'Do not run the workflow again instead: its dates use $now, so a new execution would send them again as new campaigns.' },
	retryAfterOthers: { say: 'Retry this execution once the other executions of this workflow have finished: what was sent is held back.' },
	saveBeforeCreating: {
		say: 'Save the workflow before creating campaigns',
		withoutJourney:
			"No path a user takes in n8n 2.40.7 runs the node in a workflow without an id (read in its compiled source: the editor saves a new workflow before its first run; webhooks, Retry, MCP, Chat Hub and an AI Agent's tools run saved workflows; the CLI's execute takes --id only). The one exception is the Agents module (off unless N8N_ENABLED_MODULES=agents), where the node stops earlier and no workflow can be saved. n8n 1.x and the engine harness show it (test/nodes).",
	},
	agentsModuleUseWorkflow: {
		say: "Give it to an AI Agent node in a workflow as a tool (the agent's Tools), or use the Create node in a workflow: there the node runs in an execution.",
		withoutJourney:
			"The Agents module is off unless N8N_ENABLED_MODULES=agents, and n8n 2.40.7 marks it experimental; test/nodes stages its ephemeral run (no execution data), and ai-agent.e2e follows the way it advises (an AI Agent node's tool in a workflow).",
	},
	checkPossiblySent: {
		say: 'check them in LBA Ads before sending any of them again.',
		withoutJourney:
			'Said only after a lost or overrun lock (a paused process, a late write); the simulation (test/nodes/…/simulation) stages those states, and no path a user takes in n8n reaches them on purpose.',
	},
	fixSharedRow: { say: 'To fix it: (1) in that Remove Duplicates node, set Scope to Node (its default); (2) add a new Remove Duplicates node, set Operation to "Clear Deduplication History", Mode to "Clean Database" and Scope to Workflow, execute that step once, then delete it; (3) then Retry this execution, or run the workflow again if nothing was sent: what was sent is held back.' },
	retryLocationsInAMoment: { say: 'In a moment, Retry this execution (Executions > Retry): a Retry holds back what the execution it retries sent, whatever its dates; a new run might not.' },
	lookBeforeRunningAfterStop: { say: 'if you stop one, look in LBA Ads before running the workflow again.' },
	raiseTimeoutForNextRuns: { say: 'If the service is often slow, raise "Timeout" in the node\'s options for the next runs; do not run the workflow again for this campaign.' },
	waitThenLookIfMissingSend: { say: 'Wait a few minutes, then look for it in LBA Ads; only if it is missing, send it again:' },

	// Fixing input before anything is sent.
	fixInPanel: { say: (what, where) => `Fix ${what} in the panel${where}, then run again.` },
	fixInPanelOnlyThis: {
		say: (what, where) =>
			`Fix ${what} in the panel${where}, then run the workflow again with only this item (for example, its row alone in the input): the other items of this run were sent, and a new run holds them back only if their dates come out the same.`,
	},
	addChannel: { say: 'add at least one channel' },
	customKeyFieldExists: { say: 'Check that the field the key reads exists on this item.' },
	customKeyEveryItem: { say: (example) => `Use a field every item has (check its name in the input), e.g. ${example}.` },
	oneItemPerCampaign: { say: 'give an object with name, description, categoryId and channels' },
	severalCampaigns: { say: 'For several campaigns, give one item per campaign.' },
	timezoneIana: { say: 'use an IANA name such as Asia/Jakarta (WIB), Asia/Makassar (WITA) or Asia/Jayapura (WIT).' },
	emptyTimezoneOption: { say: "Empty the option to read each channel's dates in the workflow's timezone (when it is WIB, WITA or WIT) or else in its Location's own zone." },
	timezoneNotEtcGmt: { say: "Use Asia/Jakarta for WIB, Asia/Makassar for WITA or Asia/Jayapura for WIT (or empty the option to read each channel's dates in its recipients' local time)." },
	keepOneZoneOption: {
		say: "Keep one: Recipients' Local Time reads each channel's dates in its own place's zone (Makassar 09:00 is 09:00 WITA); Timezone reads them all in one zone.",
		withoutJourney: 'Said when both zone options are set; either one kept sends the same campaign as the zone journeys (send-hours.e2e, instructions.e2e › a WIB workflow, a channel in Makassar).',
	},
	typeDateAs: { say: (typed, dayFirst) => `type it as ${typed} (or ${dayFirst} WIB)` },
	typeDateHint: { say: 'Type it as 2026-12-01 09:00 (seconds and an offset such as +08:00 are optional).' },
	timeAsText: { say: `Write the time as text, read in the recipients' local time: ${TIME_AS_TEXT}` },
	timeAsTextInstead: { say: `write the time as text instead, e.g. ${TIME_AS_TEXT}.` },
	oncePerDay: { say: `To send once per day, write the day from the clock and the time as text, read in the recipients' local time (e.g. ${TIME_AS_TEXT}: the same all day in WIB, on any n8n), or set Duplicate Protection to Custom Key with a key per day, e.g. {{ $json.name + '-' + $now.setZone('Asia/Jakarta').toISODate() }}.` },
	windowInFuture: {
		say: (nightUntil, nightFrom, tomorrow) =>
			`Give each channel a Send Until in the future and a Send From from 0${nightUntil}:00 to ${nightFrom}:00 in its recipients' local time, e.g. ${tomorrow} 09:00 (typed so, it is read in the recipients' local time), then run again; Preview shows the window in each place's hours.`,
	},
	setTimezoneOption: { say: "Set Options › Timezone to the zone the dates are written in (Asia/Jakarta for WIB, Asia/Makassar for WITA, Asia/Jayapura for WIT), set the workflow's timezone to one of them, or write each date with its offset (2026-12-01T09:00:00+07:00)." },
	recipientsLocalTime: { say: "For channels in another zone, turn on Options › Recipients' Local Time." },
	pickPlace: { say: 'Pick the place with Location ID → From List, or look its ID up with Location → Find Targeting Location.' },
	checkLocationIds: { say: 'Check them with your LBA account manager.' },
	enterLocationId: { say: 'enter the Location ID you were given (By ID), or map place names to IDs yourself, e.g. in an n8n Data Table' },
	lowerSmsQuantity: { say: (limit) => `Lower the channels' SMS Quantity to ${limit} in all, or split the campaign.` },
	sendAtMost: { say: (more, plural) => `Send at most ${more} more campaign${plural} in this execution, or fewer items per run.` },
	atMostItems: { say: (max) => `Give this node at most ${max} items per execution: for example, split the list and start one execution per part with Execute Workflow.` },
	resendOff: { say: "Turn Resend off and empty Resend Keys in the node's Options, then save (and publish) the workflow. To send one held campaign again, use Mode → Send One Again in the editor." },

	// Modes and options, in the panel.
	pickCategory: { say: 'pick the category closest to your offer' },
	previewFirst: { say: 'Set Mode to Preview to check a campaign first.' },
	publishAfterPreview: { say: 'Set Mode to Publish to send it.' },
	publishAfterForget: { say: "Set Mode back to Publish afterwards; the campaign's setup below is kept." },
	resendOffAfter: { say: 'Only in a run started from the editor (or its Retry); any other run is refused. To send one campaign again, use Mode → Send One Again instead. Turn it off again after that run' },
	resendKeysEmptyAfter: { say: "Paste the forgetKeys of each held-back item to send again (copied from this node's output): only those items are sent again, billed again, in a run started from the editor or its Retry (any other run is refused). Empty it after that run." },
	pasteKeysToForget: { say: "Paste the keys to forget: the forgetKeys of a held-back or created item, copied from this node's output before switching its Mode." },
	copyForgetKeys: { say: 'Copy forgetKeys from an item of this same node.' },
	copyForgetKeysOwnHistory: { say: "Copy forgetKeys from an item of this same node's output (each node keeps its own history)." },
	useForgetKeys: { say: "Use forgetKeys from an item of this same node's output." },
	forgetOnCreateNode: { say: "To forget campaigns of a Create node, set that node's Mode to Forget Sent Campaigns and execute it:" },

	// Tools: what a model is told.
	toolNeverAgain: { say: 'Never call it again for a campaign after an error that says the campaign may have been created.' },
	toolCallOnce: { say: "Call it only when the user has confirmed the campaign's name, message, sender, location, operators, SMS quantity and dates, and call it once per campaign." },
	toolPreviewFirst: { say: 'Call it first with preview: true to check the campaign and show the user the exact request, the SMS per recipient and any warnings: that sends nothing and costs nothing; then call it with preview: false to publish.' },
	toolIsoDates: { say: 'Give dates in ISO 8601 with the UTC offset of the place, e.g. 2026-12-01T09:00:00+07:00 (WIB).' },
	toolAskLocationId: { say: 'then ask the user for the Location ID.' },
	toolForgetNot: { say: 'Do not call it.' },
	toolCityName: { say: 'Give a regency or city name, e.g. {{ $json.city }} after a Reverse Geocode.' },
	toolDegrees: { say: 'Give decimal degrees, e.g. -6.9147 and 107.6098 for Bandung.' },

	// The service and the credential.
	lowerConcurrency: { say: 'Lower "Max Concurrent Requests" in the node\'s options or try again later.' },
	raiseTimeout: { say: 'Raise "Timeout" in the node\'s options if the service is slow.' },
	checkBaseUrlAndId: { say: "Check the Base URL in the LBA Ads credential (the service's root) and any id in the path." },
	checkBaseUrl: { say: 'check the Base URL in the LBA Ads credential' },
	checkId: {
		say: 'Check the id in the path',
		withoutJourney:
			"No path in the product can show it. It is said only of a 404 RESOURCE_NOT_FOUND, which the sandbox answers only on a path template (readPathParams in sandbox/router.js), and sandbox/openapi.yaml has none; the node's requests all go to fixed paths without an id. The first read by id (ARCHITECTURE.md's Location → Get) makes it reachable.",
	},
	checkServiceRunning: {
		say: 'Check the Base URL in the credential and that the service is running.',
		withoutJourney: 'Said when the service cannot be reached at all (connection refused, DNS); test/nodes/shared/transport stages it against a closed port. Nothing is sent either way.',
	},
	checkTokenUrl: {
		say: 'The token URL (<Base URL>/oauth/token) failed; check the Base URL or try again later.',
		withoutJourney: 'Said when the OAuth2 token endpoint itself fails (5xx); the credential test and test/nodes/shared/transport stage it. Nothing is sent either way.',
	},
	checkClientSecret: { say: 'Check the Client ID and Client Secret in the LBA Ads OAuth2 credential.' },
	checkCredential: { say: 'check the LBA Ads credential' },
	newToken: {
		say: 'Create a new token or re-enter it in the credential.',
		withoutJourney: 'Said on a 401 with a static token; test/nodes/shared/transport and the credential test stage it. Nothing is sent either way.',
	},
	useOauth2: { say: 'For a token n8n fetches and renews itself, use the LBA Ads OAuth2 API credential with your client key and secret.' },
	askForSandbox: { say: "To try the node without sending SMS, ask whoever set up your n8n for the LBA sandbox's address:" },
	useHttpRequest: { say: 'use the HTTP Request node with the LBA Ads credential' },
	httpRequestSteps: { say: 'In an HTTP Request node, set Authentication to "Predefined Credential Type", pick "LBA Ads API" (or "LBA Ads OAuth2 API") and your credential, and give the full URL (your Base URL plus the path).' },

	// The user page (docs/duplicate-protection.md), word for word.
	pageRetrySteps: {
		say: 'Open Executions, pick the failed execution, click Retry, then Retry with original workflow (after a saved fix: with currently saved workflow).',
		page: true,
	},
	pageRetryAgain: { say: 'If the Retry fails too, Retry it the same way.', page: true },
	pageChangeOnlyWhatFailed: {
		say: 'Between the run and its Retry, change only what failed:',
		page: true,
	},
	pageNoRetryAfterNewRun: {
		say: 'If you already ran it again, never Retry the failed execution: it would send them once more.',
		withoutJourney: "The journey would bill campaigns twice on purpose to show the harm; marketer-paths.e2e › 6. follows the safe way (a new run after Stop, with a key per day).",
		page: true,
	},
	pageLookForTwice: { say: 'Look in LBA Ads for what was sent twice.', page: true },
	pageOncePerDay: {
		say: 'To make "once a day" mean once a day, write the day from the clock and the time as text:',
		page: true,
	},
	pageAfterStop: {
		say: 'look in LBA Ads first and remove what is there from the rows.',
		page: true,
	},
	pageWait: { say: 'Wait a few minutes.', page: true },
	pageLook: { say: 'Look for the campaign in LBA Ads.', page: true },
	pageIfMissingCopy: {
		say: "If it is there, do nothing. If it is missing, copy the item's sendAgainKey and send it again.",
		page: true,
	},
	pageDoNotRunAgain: {
		say: 'Do not run again for it.',
		page: true,
	},
	pageOnceFinished: {
		say: 'Once that execution has finished (see Executions; after a crash, at sendingUntil), look in LBA Ads.',
		page: true,
	},
	pageOnlyIfMissing: {
		say: 'Only if it is missing, send it with Send One Again.',
		page: true,
	},
	pageUnclear: {
		say: 'If that campaign in LBA Ads is this one, do nothing; if not, send it with Send One Again.',
		page: true,
	},
	pageCopiedWorkflow: {
		say: 'Make its first run a Preview (Mode → Preview), remove from its rows what LBA Ads holds, then set Mode to Publish.',
		page: true,
	},
	pageSetProtection: { say: 'Set Duplicate Protection on the Create node:', page: true },
	pageSaveFirst: { say: 'Save the workflow first.', page: true },
	pageFixOrCheck: { say: 'Fix it, or check in LBA Ads.', page: true },
	pageSendOneAgain: {
		say: "On the same Create node, set Mode → Send One Again, paste the held item's sendAgainKey into Send Again Key, click Execute step, then set Mode back to Publish.",
		page: true,
	},
	pageResendOff: { say: 'Turn it off again after that run.', page: true },
	pageForget: {
		say: "Copy the held item's whole forgetKeys from the output, then set Mode → Forget Sent Campaigns on the same Create node, choose Some Keys, paste it into Keys to Forget, click Execute step, then set Mode back to Publish.",
		page: true,
	},
	pageNotOperation: { say: 'Do not switch the Operation to Forget Sent:', page: true },
	pageNestedDates: {
		say: "take its dates from the top workflow's items.",
		page: true,
	},
} satisfies Record<string, Instruction>;

export type InstructionId = keyof typeof INSTRUCTIONS;

/** Each instruction's text (a template takes its parts as text), for the nodes' code: `SAY.waitThenLook`. */
export const SAY = Object.fromEntries(Object.entries(INSTRUCTIONS).map(([id, entry]) => [id, entry.say])) as {
	[Id in InstructionId]: (typeof INSTRUCTIONS)[Id]['say'];
};
