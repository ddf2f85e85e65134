import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { fetchLocations, rankLocations } from '../../shared/api/locations';
import { transportFor } from '../../shared/transport';

/**
 * The channel's Location ID "From List": GET /lba/locations filtered by what the user types.
 * A service without the list gets one clear line in the picker (the thrown message); By ID still works.
 */
export async function searchLocations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const transport = await transportFor(this, this.getNodeParameter('authentication', 'accessToken'));
	const search = (filter ?? '').trim();
	// "bandung": Kota Bandung before Kabupaten Bandung, as Find Targeting Location ranks them.
	const locations = rankLocations(await fetchLocations(this, transport, search), search);
	return {
		results: locations.map((location) => ({
			name: `${location.name}${typeof location.province === 'string' ? `, ${location.province}` : ''} (${location.locationId})`,
			value: String(location.locationId),
		})),
	};
}
