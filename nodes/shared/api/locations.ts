import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Transport } from '../transport';
import { SAY } from '../instructions';

/**
 * Targeting locations: GET /lba/locations is not in the API document. Public client code of the
 * real service (2017) calls it and reads `results[i].locationId`, so the node uses it only where
 * it helps a person pick (the From List picker, Find Targeting Location), and says so plainly
 * when a service has no such list. By ID always works.
 */

export interface TargetingLocation extends IDataObject {
	locationId: number;
	name: string;
}

export const NO_LOCATION_LIST =
	`This LBA service offers no location list, so a Location ID cannot be looked up: ${SAY.enterLocationId}`;

/** The service's locations whose name contains `name`; throws NO_LOCATION_LIST when it has no list. */
export async function fetchLocations(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
	transport: Transport,
	name: string,
	itemIndex = 0,
): Promise<TargetingLocation[]> {
	let locations: TargetingLocation[] | undefined;
	try {
		locations = await requestLocations(transport, name, itemIndex);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), NO_LOCATION_LIST, {
			itemIndex,
			description: `GET /lba/locations failed: ${(error as Error).message}. Nothing else was sent.`,
		});
	}
	if (!locations) {
		throw new NodeOperationError(ctx.getNode(), NO_LOCATION_LIST, {
			itemIndex,
			description: 'GET /lba/locations answered, but not with a list of { locationId, name }.',
		});
	}
	return locations;
}

/**
 * GET /lba/locations (every location, or those whose name contains `name`): the list, or
 * undefined when the answer is not a list of { locationId, name }. A failed request throws the
 * transport's error, with its failure class.
 */
export async function requestLocations(transport: Transport, name: string, itemIndex = 0): Promise<TargetingLocation[] | undefined> {
	const body = await transport.request({ method: 'GET', path: '/lba/locations', qs: name ? { name } : undefined, itemIndex, retry: true });
	const results = Array.isArray(body?.results) ? (body.results as IDataObject[]) : undefined;
	const valid = results?.filter(
		(entry): entry is TargetingLocation =>
			Number.isInteger(Number(entry?.locationId)) && Number(entry.locationId) > 0 && typeof entry.name === 'string',
	);
	if (!valid || valid.length !== results?.length) return undefined;
	return valid.map((entry) => ({ ...entry, locationId: Number(entry.locationId) }));
}

/** Best first: the exact name, then "Kota <name>", then "Kabupaten <name>", then the service's order. */
export function rankLocations(locations: TargetingLocation[], name: string): TargetingLocation[] {
	const wanted = normalise(name);
	const rank = (location: TargetingLocation) => {
		const candidate = normalise(location.name);
		if (candidate === wanted) return 0;
		if (candidate === `kota ${wanted}`) return 1;
		if (candidate === `kabupaten ${wanted}`) return 2;
		return 3;
	};
	return locations.map((location, index) => ({ location, index, rank: rank(location) }))
		.sort((a, b) => a.rank - b.rank || a.index - b.index)
		.map(({ location }) => location);
}

function normalise(text: string): string {
	return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
