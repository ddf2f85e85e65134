import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CreateRequest } from './parameters';
import { itemLabel, itemsLabel, refusal } from './wording';
import type { Prepared } from '../../engine/operation';
import { requestLocations, type TargetingLocation } from '../../../../shared/api/locations';
import { ApiRequestError, type Transport } from '../../../../shared/transport';
import { SAY } from '../../../../shared/instructions';

/**
 * Every channel's Location ID checked against the service's list (GET /lba/locations, one request
 * per run) before any campaign of the run is sent, dry runs included: a campaign for a place the
 * service does not know is refused with the item, the channel and the nearest known places, so
 * nothing is billed for a typo. A service without the list (the API document has none: a 404, or
 * an answer that is not a list) cannot be checked against: the campaigns go out with their IDs as
 * given, and a warning says so. A list that fails otherwise (a token, a 401, a 5xx after the read's
 * retries) refuses the run: nothing is sent, and a new run checks again. docs/choices.md.
 */
export async function checkLocationIds(
	ctx: IExecuteFunctions,
	prepared: Array<Prepared<CreateRequest>>,
	transport: Transport,
): Promise<Map<number, Error>> {
	return (await checkLocations(ctx, prepared, transport)).refused;
}

/** The same check, with the service's list (undefined when it has none): sendWindows.ts reads each place's province from it. */
export async function checkLocations(
	ctx: IExecuteFunctions,
	prepared: Array<Prepared<CreateRequest>>,
	transport: Transport,
): Promise<{ refused: Map<number, Error>; known?: TargetingLocation[] }> {
	const refused = new Map<number, Error>();
	const known = await knownLocations(ctx, transport, prepared.map(({ itemIndex }) => itemIndex));
	if (!known) return { refused };
	const ids = new Set(known.map(({ locationId }) => locationId));
	for (const { itemIndex, request } of prepared) {
		const problems = request.body.channels.flatMap(({ locationId }, index) =>
			ids.has(locationId)
				? []
				: [
						`${itemLabel(itemIndex)} › Channel ${index + 1} › Location ID: ${locationId} is not a place LBA Ads knows` +
							`${typoOf(locationId, known)} (API: channels[${index}].locationId ${locationId} is not in GET /lba/locations)`,
					],
		);
		if (problems.length) {
			refused.set(
				itemIndex,
				refusal(ctx, itemIndex, problems, SAY.pickPlace),
			);
		}
	}
	return { refused, known };
}

/** The answers of a service that does not serve the list at all. */
const NO_LIST_STATUSES = [404, 405, 501];

/** The service's locations, or undefined when it has no list to check against (with a warning). */
async function knownLocations(ctx: IExecuteFunctions, transport: Transport, itemIndexes: number[]): Promise<TargetingLocation[] | undefined> {
	// A refusal that says why on its own (the credential, the token, a 403) goes through as the
	// transport worded it, nothing sent: only the other failures are caught here.
	const answer = await requestLocations(transport, '', itemIndexes[0]).then(
		(list) => ({ list }),
		(error: unknown) => {
			if (error instanceof ApiRequestError && !NO_LIST_STATUSES.includes(error.failureClass.status ?? 0) && !error.failureClass.transient) {
				error.addClause('the campaign was not created (nothing is sent before Location IDs are checked)');
				return Promise.reject(error);
			}
			return { error };
		},
	);
	if ('error' in answer) {
		const { error } = answer;
		// Only a service without the endpoint has no list; a failed token, a 401 or a 5xx is a failure of this run.
		if (error instanceof ApiRequestError && NO_LIST_STATUSES.includes(error.failureClass.status ?? 0)) {
			notChecked(ctx, `GET /lba/locations answered HTTP ${error.failureClass.status ?? error.httpCode ?? '?'}`);
			return undefined;
		}
		throw new NodeOperationError(
			ctx.getNode(),
			`${itemsLabel(itemIndexes)} › Location ID: could not be checked, as GET /lba/locations failed (${(error as Error).message}). Nothing was sent.`,
			{
				itemIndex: itemIndexes[0],
				description:
					'Before it sends a campaign, the node checks every Location ID against the list of places the service knows, so that no campaign is billed for a place that does not exist. ' + SAY.retryLocationsInAMoment,
			},
		);
	}
	const locations: TargetingLocation[] | undefined = answer.list;
	if (!locations?.length) {
		notChecked(ctx, locations ? 'GET /lba/locations listed no places' : 'GET /lba/locations did not answer with a list of places');
		return undefined;
	}
	return locations;
}

function notChecked(ctx: IExecuteFunctions, why: string): void {
	ctx.addExecutionHints({
		message: `Location IDs not checked: this LBA service does not list its places (${why}), so each Location ID is used as given. ${SAY.checkLocationIds}`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** How many known places an unknown Location ID's refusal names. */
const NEAREST_COUNT = 3;

/** The known places an unknown ID may be a typo of, in words; none when no known ID is one typo away. */
function typoOf(locationId: number, known: TargetingLocation[]): string {
	const near = nearestLocations(locationId, known);
	if (!near.length) return ', and no known ID is one typo away';
	return `; did you mean ${near.map(({ locationId: id, name }) => `${id} ${name}`).join(', ')}`;
}

/**
 * The known places an unknown Location ID may be a typo of: one digit edit away (a wrong, missing
 * or extra digit, two digits swapped: 3237 for 3273), the closest numbers first. Places further
 * away are not "near" to a marketer (999999 is not near Papua's 9429), so none are named.
 */
export function nearestLocations(locationId: number, known: TargetingLocation[]): TargetingLocation[] {
	const wanted = String(locationId);
	return known
		.map((location) => ({ location, edits: digitEdits(wanted, String(location.locationId)), gap: Math.abs(location.locationId - locationId) }))
		.filter(({ edits }) => edits <= 1)
		.sort((a, b) => a.gap - b.gap || a.location.locationId - b.location.locationId)
		.slice(0, NEAREST_COUNT)
		.map(({ location }) => location);
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function digitEdits(a: string, b: string): number {
	const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
		}
	}
	return d[a.length][b.length];
}
