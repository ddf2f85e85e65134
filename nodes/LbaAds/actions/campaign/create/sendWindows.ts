import type { IDataObject, IExecuteFunctions, NodeHint } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { checkCampaign } from './campaignSchema';
import { checkLocations } from './locationCheck';
import { campaignKey, type CreateRequest, type ZoneRule } from './parameters';
import { invalidCampaign, itemLabel, refusal } from './wording';
import type { Prepared } from '../../engine/operation';
import type { TargetingLocation } from '../../../../shared/api/locations';
import type { Transport } from '../../../../shared/transport';
import { clock, localDate, parseDate, readInZone, shownWindow, type DateRole } from '../../../helpers/dates';
import { INDONESIAN_ZONES, provinceZone } from '../../../helpers/indonesianZones';

/**
 * A campaign's dates in its recipients' hours, once the run knows its places (GET /lba/locations,
 * fetched once per run by locationCheck.ts): a date written without an offset is read in the zone
 * the item's ZoneRule names (parameters.ts), per channel when that is its Location's own zone; a
 * window that is over is refused (Publish) or said to be (Preview); a Send From that has passed is
 * said plainly, as the channel then starts at once. docs/dates-and-errors.md#dates.
 */

/** The zone a campaign is checked in before its places are known, when its dates wait for them. */
export const PROVISIONAL_ZONE = 'Asia/Jakarta';

/** A Send From less than this far in the past is "now" (a date from {{ $now }}), not worth a warning. */
const START_GRACE_MS = 60_000;

const DATE_FIELDS: Array<{ field: 'startDate' | 'endDate'; role: DateRole; label: string }> = [
	{ field: 'startDate', role: 'start', label: 'Send From' },
	{ field: 'endDate', role: 'end', label: 'Send Until' },
];

/** Create's check with the service: every Location ID, then every item's dates in its places' hours. */
export async function checkPlacesAndWindows(
	ctx: IExecuteFunctions,
	prepared: Array<Prepared<CreateRequest>>,
	transport: Transport,
): Promise<Map<number, Error>> {
	const { refused, known } = await checkLocations(ctx, prepared, transport);
	const places = known ? new Map(known.map((place) => [place.locationId, place])) : undefined;
	for (const { itemIndex, request } of prepared) {
		if (refused.has(itemIndex)) continue;
		try {
			settleWindows(ctx, itemIndex, request, places, transport.baseUrl);
		} catch (error) {
			refused.set(itemIndex, error as Error);
		}
	}
	return refused;
}

function settleWindows(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: CreateRequest,
	places: Map<number, TargetingLocation> | undefined,
	baseUrl: string,
): void {
	const { rule, campaign, fromJson } = request.dates;
	const rawChannels = (Array.isArray(campaign.channels) ? campaign.channels : []) as IDataObject[];
	const readZones = request.body.channels.map((channel) => zoneOfChannel(rule, places?.get(channel.locationId)));

	if (rule.kind === 'location' && rawChannels.some(hasDateWithoutOffset)) {
		readInPlaces(ctx, itemIndex, request, rule, rawChannels, readZones, places, fromJson);
		Object.assign(request, campaignKey(ctx, itemIndex, request.body, baseUrl));
	}

	const now = clock.now();
	const problems: string[] = [];
	const warnings: string[] = [];
	request.sendWindows = request.body.channels.map((channel, index) => {
		const place = places?.get(channel.locationId);
		const placeZone = provinceZone(place?.province);
		const start = DateTime.fromISO(channel.startDate, { setZone: true });
		const end = DateTime.fromISO(channel.endDate, { setZone: true });
		// In its recipients' hours when its place is known; else in the zone its dates were read in, or as written.
		const shownZone = placeZone?.zone ?? readZones[index]?.zone ?? start.zoneName ?? 'UTC';
		const abbreviation = placeZone?.abbreviation ?? INDONESIAN_ZONES[shownZone];
		const placeName = place?.name ?? `Location ${channel.locationId}`;
		const window = shownWindow(start, end, shownZone, abbreviation);
		const channelLabel = `Channel ${index + 1}`;
		const withoutOffset = hasDateWithoutOffset(rawChannels[index]);
		const readIn = withoutOffset ? readZones[index] : undefined;
		if (readIn && placeZone && offsetAt(start, readIn.zone) !== offsetAt(start, placeZone.zone)) {
			warnings.push(
				`${channelLabel}: its dates have no UTC offset and were read in ${readIn.zone} (${readIn.source}), but ${placeName} is in ${placeZone.abbreviation}: its recipients get the SMS ${window}.`,
			);
		}
		const at = (instant: DateTime) => {
			const local = localDate(instant, shownZone, abbreviation);
			return `${local.day} ${local.time} ${local.zone}`;
		};
		const nowThere = at(DateTime.fromMillis(now).startOf('minute'));
		if (end.toMillis() <= now) {
			const until = at(end);
			if (request.dryRun) {
				warnings.push(`${channelLabel}: Send Until (${until}) has passed, so Publish would refuse this campaign: nothing would be sent in a window that is over.`);
			} else {
				problems.push(
					`${itemLabel(itemIndex)} › ${channelLabel} › Send Until: ${until} has passed (it is now ${nowThere}); nothing would be sent in a window that is over (API: channels[${index}].endDate is in the past)`,
				);
			}
		} else if (start.toMillis() < now - START_GRACE_MS) {
			warnings.push(`${channelLabel}: Send From (${at(start)}) has passed, so this channel starts sending at once (now, ${nowThere}), not at the time written.`);
		}
		return {
			channel: index + 1,
			place: placeName,
			sendWindow: `${window} (${shownZone}, ${placeName})`,
			datesReadIn: readIn ? `${readIn.zone} (${readIn.source})` : 'as written, with their UTC offsets',
		};
	});
	if (problems.length) {
		throw refusal(ctx, itemIndex, problems, 'Give each channel a Send Until in the future (and a Send From), then run again; Preview shows the window in each place\'s hours.');
	}
	request.warnings = warnings.length ? warnings : undefined;
	for (const warning of warnings) {
		ctx.addExecutionHints({ message: `${itemLabel(itemIndex)}, ${warning}`, type: 'warning', location: 'outputPane' });
	}
}

/** In whose hours a channel's dates without an offset are read; undefined when its place's zone is unknown. */
function zoneOfChannel(rule: ZoneRule, place: TargetingLocation | undefined): { zone: string; source: string } | undefined {
	if (rule.kind === 'fixed') return { zone: rule.zone, source: rule.source };
	const zone = provinceZone(place?.province);
	if (!zone || !place) return undefined;
	return {
		zone: zone.zone,
		source: `the zone of ${place.name}, ${String(place.province)}, as ${rule.why}`,
	};
}

/**
 * The item's campaign checked again with each channel's dates read in its place's zone: the
 * dates without an offset become instants there (luxon DateTimes, so an error shows the zone).
 */
function readInPlaces(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: CreateRequest,
	rule: Extract<ZoneRule, { kind: 'location' }>,
	rawChannels: IDataObject[],
	readZones: Array<{ zone: string; source: string } | undefined>,
	places: Map<number, TargetingLocation> | undefined,
	fromJson: boolean,
): void {
	const unknown: string[] = [];
	const channels = rawChannels.map((raw, index) => {
		const zone = readZones[index]?.zone;
		const converted: IDataObject = { ...raw };
		const fields = DATE_FIELDS.filter(({ field }) => readInZone(raw?.[field]));
		if (fields.length && !zone) {
			unknown.push(
				`${itemLabel(itemIndex)} › Channel ${index + 1} › ${fields.map(({ label }) => label).join(', ')}: ` +
					`${fields.map(({ field }) => `"${String(raw[field]).trim()}"`).join(', ')} ${fields.length > 1 ? 'have' : 'has'} no UTC offset, and ${rule.why}, so the node reads such dates in the zone of the channel's place; ` +
					placeUnknown(request.body.channels[index]?.locationId, places),
			);
		}
		for (const { field, role } of zone ? fields : []) {
			const parsed = parseDate(raw[field], zone!, role);
			if (parsed.ok) converted[field] = parsed.value as unknown as IDataObject;
		}
		return converted;
	});
	if (unknown.length) {
		throw refusal(
			ctx,
			itemIndex,
			unknown,
			'Set Options › Timezone to the zone the dates are written in (Asia/Jakarta for WIB, Asia/Makassar for WITA, Asia/Jayapura for WIT), set the workflow\'s timezone to one of them, or write each date with its offset (2026-12-01T09:00:00+07:00).',
		);
	}
	const check = checkCampaign({ ...request.dates.campaign, channels }, 'UTC');
	if (!check.ok) throw invalidCampaign(ctx, itemIndex, check.problems, fromJson);
	request.body = check.body;
	const read = rawChannels.flatMap((raw, index) =>
		DATE_FIELDS.filter(({ field }) => readInZone(raw?.[field])).map(({ field }) => ({ path: `channels[${index}].${field}`, zone: readZones[index]!.zone })),
	);
	// One zone, as before; several: each with the channels read in it ("Asia/Makassar (channels[0]), Asia/Jayapura (channels[1])").
	const zones = [...new Set(read.map(({ zone }) => zone))];
	const channelsIn = (zone: string) => [...new Set(read.filter((date) => date.zone === zone).map(({ path }) => path.split('.')[0]))].join(', ');
	request.zoneNote = {
		assumedTimezone: zones.length === 1 ? zones[0] : zones.map((zone) => `${zone} (${channelsIn(zone)})`).join(', '),
		datesWithoutOffset: read.map(({ path }) => path),
	};
}

function placeUnknown(locationId: number | undefined, places: Map<number, TargetingLocation> | undefined): string {
	if (!places) return 'this LBA service does not list its places, so that zone is unknown';
	const place = locationId === undefined ? undefined : places.get(locationId);
	if (!place?.province) return `the service lists no province for Location ${locationId}${place ? ` (${place.name})` : ''}, so its zone is unknown`;
	return `"${String(place.province)}" (Location ${locationId}, ${place.name}) is no Indonesian province the node knows, so its zone is unknown`;
}

function hasDateWithoutOffset(channel: IDataObject | undefined): boolean {
	return DATE_FIELDS.some(({ field }) => readInZone(channel?.[field]));
}

function offsetAt(instant: DateTime, zone: string): number {
	return instant.setZone(zone).offset;
}

/**
 * Before a run, in the panel: in whose hours Send From and Send Until without an offset are read
 * (issue 52). n8n evaluates each condition in the workflow's own timezone, so `$now.zoneName` is it.
 */
export function zoneHints(): NodeHint[] {
	const isCreate = "$parameter.resource === 'campaign' && $parameter.operation === 'create'";
	const option = (name: string) => `($parameter.options || {}).${name}`;
	const noChoice = `!${option('timezone')} && !${option('recipientsLocalTime')}`;
	const zones = Object.keys(INDONESIAN_ZONES);
	const hint = (message: string, condition: string): NodeHint => ({
		message,
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'beforeExecution',
		displayCondition: `={{ ${isCreate} && ${condition} }}`,
	});
	return [
		...zones.map((zone) =>
			hint(
				`Send From and Send Until without an offset are read in ${INDONESIAN_ZONES[zone]} (${zone}), this workflow's timezone. For channels in another zone, turn on Options › Recipients' Local Time.`,
				`${noChoice} && $now.zoneName === '${zone}'`,
			),
		),
		hint(
			"This workflow's timezone is not WIB, WITA or WIT, so Send From and Send Until without an offset are read in each channel's own place's zone: its recipients' local time (Makassar 09:00 is 09:00 WITA).",
			`${noChoice} && !${JSON.stringify(zones)}.includes($now.zoneName)`,
		),
		hint(
			"Options › Recipients' Local Time is on: Send From and Send Until without an offset are read in each channel's own place's zone (Makassar 09:00 is 09:00 WITA).",
			`!!${option('recipientsLocalTime')}`,
		),
		hint(
			'Options › Timezone is set: Send From and Send Until without an offset are read in the zone it names.',
			`!!${option('timezone')} && !${option('recipientsLocalTime')}`,
		),
	];
}
