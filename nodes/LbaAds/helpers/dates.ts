import { DateTime } from 'luxon';

/**
 * The one place where user-supplied dates become the API's format:
 * ISO 8601 with a numeric UTC offset, e.g. 2026-12-01T09:00:00+07:00.
 *
 * Accepted inputs: the n8n date picker's value (an ISO string without offset),
 * ISO strings with or without offset, plain dates (2017-11-16), SQL-style
 * "2017-11-16 09:00", epoch milliseconds (number or digit string), JS Dates and
 * luxon DateTimes (what `{{ $now.plus({ days: 1 }) }}` produces).
 * Values without an offset are read in `zone` (the workflow's timezone).
 */

export type DateRole = 'start' | 'end';

export type ParsedDate = { ok: true; value: DateTime } | { ok: false; reason: string };

const DIGITS_ONLY = /^-?\d+$/;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Epoch millis before 2001-09-09 are 12 digits or fewer: almost certainly seconds or a typo. */
const SMALLEST_PLAUSIBLE_EPOCH_MS = 1_000_000_000_000;

/**
 * Whether `zone` names one zone: an IANA name ("Asia/Jakarta"), UTC or a fixed offset ("UTC+7").
 * Luxon's own words "default", "local" and "system" name whatever zone the process runs in, so they
 * are no zone to read a campaign's dates in (n8n stores "DEFAULT" for "the instance's zone").
 */
export function isValidZone(zone: string): boolean {
	if (['default', 'local', 'system'].includes(zone.trim().toLowerCase())) return false;
	return DateTime.local().setZone(zone).isValid;
}

/**
 * How far a date rounded to the hour or the day (`$now.startOf('hour')`, `$today`) moved between
 * two instants, in each of `zones`: the hours begun, then the days begun in each zone (ms).
 */
export function unitsBegun(fromMs: number, toMs: number, zones: string[]): number[] {
	const begun = (unit: 'day' | 'hour', zone: string) =>
		DateTime.fromMillis(toMs, { zone }).startOf(unit).toMillis() - DateTime.fromMillis(fromMs, { zone }).startOf(unit).toMillis();
	return [begun('hour', 'UTC'), ...zones.map((zone) => begun('day', zone))];
}

/** The node's clock for send windows (epoch ms); the node tests set it to a fixed time. */
export const clock = { now: (): number => Date.now() };

/**
 * A date as a marketer reads it in a zone: "2026-12-01 09:00", with the Indonesian abbreviation
 * when it is one ("WIB", "WITA", "WIT"), else the zone's name.
 */
export function localDate(instant: DateTime, zone: string, abbreviation?: string): { day: string; time: string; zone: string } {
	const local = instant.setZone(zone);
	return { day: local.toFormat('yyyy-MM-dd'), time: local.toFormat(local.second ? 'HH:mm:ss' : 'HH:mm'), zone: abbreviation ?? zone };
}

/** "2026-12-01 09:00 to 18:00 WITA" (one day) or "2026-12-01 09:00 to 2026-12-07 21:00 WITA". */
export function shownWindow(start: DateTime, end: DateTime, zone: string, abbreviation?: string): string {
	const from = localDate(start, zone, abbreviation);
	const until = localDate(end, zone, abbreviation);
	return `${from.day} ${from.time} to ${until.day === from.day ? '' : `${until.day} `}${until.time} ${from.zone}`;
}

export function parseDate(input: unknown, zone: string, role: DateRole = 'start'): ParsedDate {
	if (input === undefined || input === null || input === '') {
		return { ok: false, reason: 'is required' };
	}
	if (DateTime.isDateTime(input)) {
		return checked(input, 'is not a valid date');
	}
	if (Object.prototype.toString.call(input) === '[object Date]') {
		return checked(DateTime.fromJSDate(input as Date, { zone }), 'is not a valid date');
	}
	if (typeof input === 'number') {
		return fromEpochMillis(input, zone);
	}
	if (typeof input !== 'string') {
		return { ok: false, reason: `must be a date, got ${typeof input}` };
	}

	const text = input.trim();
	if (DIGITS_ONLY.test(text)) {
		return fromEpochMillis(Number(text), zone);
	}
	if (PLAIN_DATE.test(text)) {
		// A plain end date means "through that day", so a one-day campaign is start = end = that date.
		const day = DateTime.fromISO(text, { zone });
		return checked(role === 'end' ? day.endOf('day').startOf('second') : day, `"${text}" is not a valid date`);
	}
	for (const parse of [DateTime.fromISO, DateTime.fromSQL, DateTime.fromRFC2822]) {
		const parsed = parse(text, { zone, setZone: true });
		if (parsed.isValid) return checked(parsed, `"${text}" is not a valid date`);
	}
	return {
		ok: false,
		reason: `"${text}" is not a date n8n can read; use ISO 8601 such as 2026-12-01T09:00:00+07:00`,
	};
}

/** A time followed by "Z", "+07:00", "+0700" or "+07", or a trailing zone name ("… 09:00 Asia/Jakarta", "… GMT"). */
const EXPLICIT_ZONE = /(?:\d{2}(?::?\d{2}){1,2}(?:[.,]\d+)?\s*(?:[zZ]|[+-]\d{2}(?::?\d{2})?)|\s(?:[A-Za-z_]+\/[A-Za-z_]+|GMT|UTC|UT))$/;

/**
 * Whether a date value is a wall-clock time that only the timezone setting turns into an instant
 * ("2026-12-01T09:00", "2026-12-01"): what an AI model or a spreadsheet often gives.
 * Epoch numbers, JS Dates, luxon DateTimes and text with an offset name their instant themselves.
 */
export function readInZone(input: unknown): boolean {
	if (typeof input !== 'string') return false;
	const text = input.trim();
	return text !== '' && !DIGITS_ONLY.test(text) && !EXPLICIT_ZONE.test(text);
}

/** ISO 8601 with a numeric offset (never "Z"), seconds precision. */
export function toApiDate(value: DateTime): string {
	return value.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

/**
 * The instant an API date names, in UTC ("2026-11-26T02:00:00Z"): the same instant written with
 * any offset gives the same text (duplicate protection's keys compare campaigns by it).
 */
export function utcInstant(apiDate: string): string {
	const parsed = DateTime.fromISO(apiDate, { setZone: true });
	return parsed.isValid ? parsed.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'") : apiDate;
}

/** The instant an API date names, in epoch milliseconds (NaN when it names none). */
export function instantMs(apiDate: string): number {
	const parsed = DateTime.fromISO(apiDate, { setZone: true });
	return parsed.isValid ? parsed.toMillis() : Number.NaN;
}

function fromEpochMillis(millis: number, zone: string): ParsedDate {
	if (!Number.isFinite(millis)) return { ok: false, reason: 'is not a finite number' };
	if (Math.abs(millis) < SMALLEST_PLAUSIBLE_EPOCH_MS) {
		return {
			ok: false,
			reason: `${millis} is too small for epoch milliseconds (seconds? multiply by 1000)`,
		};
	}
	return checked(DateTime.fromMillis(millis, { zone }), `${millis} is not a valid timestamp`);
}

/** What the API format can say: a four-digit year (RFC 3339) and a real-world offset. */
const MAX_OFFSET_MINUTES = 18 * 60;

function checked(value: DateTime, reason: string): ParsedDate {
	if (!value.isValid) return { ok: false, reason };
	if (value.year < 0 || value.year > 9999) {
		return { ok: false, reason: `year ${value.year} is outside 0000-9999, which ISO 8601 dates without extension can carry` };
	}
	if (Math.abs(value.offset) > MAX_OFFSET_MINUTES) {
		return { ok: false, reason: `UTC offset ${value.toFormat('ZZ')} is outside -18:00 to +18:00` };
	}
	return { ok: true, value };
}

/**
 * A date as an error shows it to a person, with its timezone: "2026-12-05 08:00 Asia/Jakarta"
 * (read in a timezone), "2026-12-05 10:00 +08:00" (given with an offset), seconds when not zero.
 */
export function shownDate(value: DateTime): string {
	const time = value.toFormat(value.second ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd HH:mm');
	if (value.zone.type === 'iana') return `${time} ${value.zoneName}`;
	return `${time} ${value.offset === 0 ? 'UTC' : value.toFormat('ZZ')}`;
}
