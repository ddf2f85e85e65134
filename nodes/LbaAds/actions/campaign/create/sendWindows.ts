import type { IDataObject, IExecuteFunctions, NodeHint } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { checkCampaign } from './campaignSchema';
import { checkLocations } from './locationCheck';
import { campaignKey, type CreateRequest, type ZoneRule } from './parameters';
import { invalidCampaign, itemLabel, refusal } from './wording';
import type { Prepared } from '../../engine/operation';
import type { TargetingLocation } from '../../../../shared/api/locations';
import type { Transport } from '../../../../shared/transport';
import { clock, localDate, parseDate, readInZone, shownWindow, workflowZone, writtenOut, type DateRole } from '../../../helpers/dates';
import { INDONESIAN_ZONES, provinceZone } from '../../../helpers/indonesianZones';
import { SAY } from '../../../../shared/instructions';

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

/** Options › Allow Night Start: a channel may start between NIGHT_FROM and NIGHT_UNTIL local time. */
export const NIGHT_OPTION = 'allowNightStart';
/** The night, in the recipients' local time (docs/choices.md): no campaign starts then unless allowed. */
const NIGHT_FROM = 21;
const NIGHT_UNTIL = 8;
const NIGHT_HOURS = `${NIGHT_FROM}:00 to 0${NIGHT_UNTIL}:00`;
/** The Indonesian zone of an offset, for a channel whose place is unknown (its dates' own offset; else WIB). */
const ZONE_BY_OFFSET: Record<number, string> = { 420: 'Asia/Jakarta', 480: 'Asia/Makassar', 540: 'Asia/Jayapura' };

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
	const nightAllowed = nightStartAllowed(ctx, itemIndex);
	let advised = false;
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
		// In the recipients' hours: their place's zone; unknown place, the zone its dates name, else WIB.
		const recipients = placeZone ?? recipientsByOffset(readIn?.zone, start);
		const said = (message: string) => (request.dryRun ? warnings.push(`${channelLabel}: ${message.replace(/ \(API: .*\)$/, '')}`) : problems.push(`${itemLabel(itemIndex)} › ${channelLabel} › ${message}`));
		// The form to write it in, said once per item (after its first such channel).
		const foreign = end.toMillis() > now ? foreignWallClock(ctx, rawChannels[index], clockFields(ctx, index), recipients, placeName, !advised) : undefined;
		if (foreign) advised = true;
		const night = end.toMillis() > now && !foreign && !nightAllowed ? nightStart(start, now, recipients, placeName, rawChannels[index]?.startDate) : undefined;
		if (foreign) said(`${foreign} (API: channels[${index}].startDate)`);
		if (night) said(`${night} (API: channels[${index}].startDate)`);
		// A night start (allowed, or refused above) counts its own night too.
		const nights = end.toMillis() > now ? nightsThrough(DateTime.fromMillis(Math.max(start.toMillis(), now)), end, recipients.zone) : 0;
		const atNight = nights ? `This window runs through ${nights === 1 ? 'a night' : `${nights} nights`} (${NIGHT_HOURS} ${recipients.abbreviation}), and the service may send at any hour of it.` : undefined;
		if (atNight && request.dryRun) warnings.push(`${channelLabel}: ${atNight}`);
		return {
			channel: index + 1,
			place: placeName,
			sendWindow: `${window} (${shownZone}, ${placeName})`,
			from: writtenOut(start, recipients.zone, recipients.abbreviation),
			until: writtenOut(end, recipients.zone, recipients.abbreviation),
			...(atNight ? { atNight } : {}),
			datesReadIn: readIn ? `${readIn.zone} (${readIn.source})` : datesAsGiven(ctx, rawChannels[index]),
		};
	});
	if (problems.length) {
		throw refusal(
			ctx,
			itemIndex,
			problems,
			SAY.windowInFuture(String(NIGHT_UNTIL), String(NIGHT_FROM), tomorrowInWib(now)),
		);
	}
	request.warnings = warnings.length ? warnings : undefined;
	for (const warning of warnings) {
		ctx.addExecutionHints({ message: `${itemLabel(itemIndex)}, ${warning}`, type: 'warning', location: 'outputPane' });
	}
}

type Recipients = { zone: string; abbreviation: string };

/** Tomorrow in WIB ("2026-11-27"): a date an example can show that is never over. */
const tomorrowInWib = (now: number) => DateTime.fromMillis(now, { zone: 'Asia/Jakarta' }).plus({ days: 1 }).toFormat('yyyy-MM-dd');

function recipientsByOffset(readZone: string | undefined, start: DateTime): Recipients {
	const zone = (readZone && INDONESIAN_ZONES[readZone] ? readZone : undefined) ?? ZONE_BY_OFFSET[start.offset] ?? 'Asia/Jakarta';
	return { zone, abbreviation: INDONESIAN_ZONES[zone] };
}

/** A zone as a message names it: "UTC, the workflow's timezone", "America/New_York, the n8n instance's timezone, n8n's default (…)". */
function namedZone(ctx: IExecuteFunctions, date: DateTime): string {
	const workflow = workflowZone(ctx);
	const offset = date.offset === 0 ? 'UTC' : `UTC${date.toFormat('ZZ')}`;
	const sameAsWorkflow = DateTime.fromMillis(date.toMillis(), { zone: workflow.zone });
	if (!sameAsWorkflow.isValid || sameAsWorkflow.offset !== date.offset) return offset;
	return `${workflow.zone === 'UTC' ? 'UTC' : workflow.zone}, ${workflow.source}`;
}

/** luxon's own text for a moment (`toISO()`: milliseconds and an offset), as n8n passes on a date an expression computed. */
const LUXON_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:Z|[+-]\d{2}:\d{2})$/;

/** A date an expression computed ($today, $now, DateTime): a luxon DateTime, or its text as n8n passes it on. */
function computedDate(value: unknown): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value.isValid ? value : undefined;
	if (typeof value !== 'string' || !LUXON_ISO.test(value.trim())) return undefined;
	const parsed = DateTime.fromISO(value.trim(), { setZone: true });
	return parsed.isValid ? parsed : undefined;
}

/**
 * A date from an expression ($today.set({ hour: 9 }), $now.startOf('day')) carries the workflow's
 * zone: on an instance left at UTC or n8n's default (New York), its "09:00" is not the recipients'.
 * Said when such a date sits on a whole hour of another offset than the recipients' (a moment
 * counted from $now, with its seconds, is not a time someone set; a date typed with an offset has
 * no milliseconds, so it is taken as written).
 */
function foreignWallClock(
	ctx: IExecuteFunctions,
	raw: IDataObject | undefined,
	fromClock: Set<string>,
	recipients: Recipients,
	placeName: string,
	withAdvice: boolean,
): string | undefined {
	const found = DATE_FIELDS.flatMap(({ field, label }) => {
		const date = fromClock.has(field) ? computedDate(raw?.[field]) : undefined;
		if (!date || date.offset === date.setZone(recipients.zone).offset) return [];
		if (date.minute || date.second || date.millisecond) return [];
		const there = date.setZone(recipients.zone).toFormat('HH:mm');
		return [`${label} is ${date.toFormat('HH:mm')} in ${namedZone(ctx, date)}, which is ${there} ${recipients.abbreviation} for the recipients in ${placeName}`];
	});
	if (!found.length) return undefined;
	if (!withAdvice) return found.join('; ');
	return (
		`${found.join('; ')}. A date from $today or $now keeps n8n's timezone, not the recipients'. ` +
		SAY.timeAsText
	);
}

/**
 * An expression that sets a time of day ($today, .set({ hour: 9 }), .startOf('hour')): its whole
 * hour is one of the workflow's zone. A moment counted from another (`$now.plus({ hours: 2 })`, a
 * trigger's time plus three days) is not a time of day someone set.
 */
const SETS_TIME_OF_DAY = /\$today|\.set\s*\(|\.startOf\s*\(/;

/**
 * The date fields of a channel that the node's own parameters set to a time of day (a date field's
 * expression, or the JSON expression that holds the channels). A date from data (a sheet, an API,
 * `{{ $json.start }}`) is taken as written.
 */
function clockFields(ctx: IExecuteFunctions, index: number): Set<string> {
	const parameters = rawParameters(ctx);
	const reads = (value: unknown) => typeof value === 'string' && value.startsWith('=') && SETS_TIME_OF_DAY.test(value);
	if (parameters.campaignInput === 'json' || parameters.channelsInput === 'json') {
		const json = parameters.campaignInput === 'json' ? parameters.campaignJson : parameters.channelsJson;
		return new Set(reads(json) ? DATE_FIELDS.map(({ field }) => field) : []);
	}
	const channel = (((parameters.channels as IDataObject | undefined)?.channel as IDataObject[] | undefined) ?? [])[index];
	return new Set(DATE_FIELDS.filter(({ field }) => reads(channel?.[field])).map(({ field }) => field));
}

/** The node's parameters as written, read once per run (n8n copies the node on every getNode(); a run may have thousands of items). */
const parametersOfRun = new WeakMap<object, IDataObject>();
function rawParameters(ctx: IExecuteFunctions): IDataObject {
	if (!parametersOfRun.has(ctx)) parametersOfRun.set(ctx, ctx.getNode().parameters as IDataObject);
	return parametersOfRun.get(ctx)!;
}

/** Options › Allow Night Start for an item: as written, or its expression's value for that item. */
function nightStartAllowed(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const written = (rawParameters(ctx).options as IDataObject | undefined)?.[NIGHT_OPTION];
	const value = typeof written === 'string' && written.startsWith('=') ? ctx.getNodeParameter(`options.${NIGHT_OPTION}`, itemIndex, false) : written;
	return value === true || value === 'true';
}

/** Whether a channel would start sending at night in its recipients' hours: when, and why. */
function nightStart(start: DateTime, now: number, recipients: Recipients, placeName: string, raw: unknown): string | undefined {
	const begins = DateTime.fromMillis(Math.max(start.toMillis(), now)).setZone(recipients.zone);
	if (begins.hour >= NIGHT_UNTIL && begins.hour < NIGHT_FROM) return undefined;
	const when = writtenOut(begins.startOf('minute'), recipients.zone, recipients.abbreviation);
	const why =
		start.toMillis() < now
			? `Send From (${writtenOut(start, recipients.zone, recipients.abbreviation)}) has passed, so it would start at once`
			: typeof raw === 'string' && /^\s*[\d/.-]+\s*$/.test(raw) && !/^\s*\d+\s*$/.test(raw)
				? 'a date without a time is midnight'
				: 'as written';
	return `sending would start ${when} (${why}), at night for the recipients in ${placeName}; no campaign starts from ${NIGHT_HOURS} in its recipients' local time unless Options › Allow Night Start is on`;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * How many nights (NIGHT_FROM to NIGHT_UNTIL in `zone`) a window reaches into: night k runs from
 * day k's NIGHT_FROM to day k+1's NIGHT_UNTIL, in local time (Indonesia's zones keep one offset all
 * year), so the count is arithmetic, not a walk over the days.
 */
function nightsThrough(begins: DateTime, end: DateTime, zone: string): number {
	const offsetMs = begins.setZone(zone).offset * 60_000;
	const from = begins.toMillis() + offsetMs;
	const until = end.toMillis() + offsetMs;
	const first = Math.floor((from - (24 + NIGHT_UNTIL) * HOUR_MS) / DAY_MS) + 1;
	const last = Math.ceil((until - NIGHT_FROM * HOUR_MS) / DAY_MS) - 1;
	return Math.max(0, last - first + 1);
}

/** datesReadIn of dates that named their moment: an expression's (in its zone) or an offset written. */
function datesAsGiven(ctx: IExecuteFunctions, raw: IDataObject | undefined): string {
	const computed = DATE_FIELDS.map(({ field }) => computedDate(raw?.[field])).find((date) => date !== undefined);
	return computed ? `as the expression gave them, in ${namedZone(ctx, computed)}` : 'as written, with their UTC offsets';
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
			SAY.setTimezoneOption,
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

/** What $today and $now give on an instance outside Indonesia, and the form that works on any. */
export const TODAY_ADVICE =
	`Dates from $today or $now keep this timezone (its 09:00 is not the recipients' 09:00): ${SAY.timeAsTextInstead}`;
/** The zones the note names: n8n's default, UTC as containers set it, and any other (named generically). */
const FOREIGN_ZONES = [
	{ zone: 'America/New_York', named: "America/New_York (n8n's default when the instance sets none)" },
	{ zone: 'UTC', named: 'UTC' },
	{ zone: 'Etc/UTC', named: 'UTC' },
	{ zone: '', named: 'another zone' },
];

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
				`Send From and Send Until without an offset are read in ${INDONESIAN_ZONES[zone]} (${zone}), this workflow's timezone. ${SAY.recipientsLocalTime}`,
				`${noChoice} && $now.zoneName === '${zone}'`,
			),
		),
		...FOREIGN_ZONES.map(({ zone, named }) =>
			hint(
				`This workflow's timezone is ${named}, not WIB, WITA or WIT, so Send From and Send Until without an offset are read in each channel's own place's zone: its recipients' local time (Makassar 09:00 is 09:00 WITA). ${TODAY_ADVICE}`,
				`${noChoice} && ${zone ? `$now.zoneName === '${zone}'` : `!${JSON.stringify([...zones, ...FOREIGN_ZONES.map((each) => each.zone).filter(Boolean)])}.includes($now.zoneName)`}`,
			),
		),
		hint(
			"Options › Recipients' Local Time is on: Send From and Send Until without an offset are read in each channel's own place's zone (Makassar 09:00 is 09:00 WITA).",
			`!!${option('recipientsLocalTime')}`,
		),
		hint(
			'Options › Timezone is set: Send From and Send Until without an offset are read in the zone it names.',
			`!!${option('timezone')} && !${option('recipientsLocalTime')}`,
		),
		// Typed dates (not expressions) of a window over several days, or ending at 21:00 or later.
		hint(
			`A channel's window runs past 21:00 or over several days: the service may send at any hour of it, nights included (${NIGHT_HOURS} in its recipients' local time). Preview lists each channel's nights; a start at night is refused unless Options › Allow Night Start is on.`,
			"(($parameter.channels || {}).channel || []).some((c) => typeof c.startDate === 'string' && typeof c.endDate === 'string' && !c.startDate.startsWith('=') && !c.endDate.startsWith('=') && " +
				`(c.startDate.trim().slice(0, 10) !== c.endDate.trim().slice(0, 10) || Number(c.endDate.trim().slice(11, 13)) >= ${NIGHT_FROM}))`,
		),
	];
}
