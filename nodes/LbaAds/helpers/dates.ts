import { DateTime } from 'luxon';
import * as n8nWorkflow from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';
import { SAY } from '../../shared/instructions';

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
 * two instants, in each of `zones` and UTC: the hours begun, then the days begun (ms). Hours are
 * counted in each zone too: a zone half an hour off UTC (India's) begins its hours at hh:30 UTC.
 * `gridsMs` adds grids within the hour (a quarter of an hour: the quarters begun), in each zone.
 */
export function unitsBegun(fromMs: number, toMs: number, zones: string[], gridsMs: number[] = []): number[] {
	const begun = (unit: 'day' | 'hour', zone: string) =>
		DateTime.fromMillis(toMs, { zone }).startOf(unit).toMillis() - DateTime.fromMillis(fromMs, { zone }).startOf(unit).toMillis();
	const all = [...new Set(['UTC', ...zones])];
	const local = (ms: number, zone: string) => ms + DateTime.fromMillis(ms, { zone }).offset * 60_000;
	const steps = (grid: number, zone: string) => (Math.floor(local(toMs, zone) / grid) - Math.floor(local(fromMs, zone) / grid)) * grid;
	const inHour = gridsMs.flatMap((grid) => all.map((zone) => steps(grid, zone)));
	return [...new Set([...all.map((zone) => begun('hour', zone)), ...inHour])].concat(all.map((zone) => begun('day', zone)));
}

/**
 * "Etc/GMT+7" is UTC−7 (the POSIX sign, reversed): said as people read it ("UTC−7"), or undefined
 * for any other zone. No one in Indonesia means it; a marketer who writes it means UTC+7.
 */
export function posixOffsetZone(zone: string): string | undefined {
	const match = /^Etc\/GMT([+-])(\d{1,2})$/i.exec(zone.trim());
	return match && match[2] !== '0' ? `UTC${match[1] === '+' ? '−' : '+'}${Number(match[2])}` : undefined;
}

/** n8n's own zone when an instance sets none (GENERIC_TIMEZONE unset). */
export const N8N_DEFAULT_ZONE = 'America/New_York';

/** The workflow's timezone as n8n reads it: "DEFAULT" (or none) is the instance's (GENERIC_TIMEZONE). */
export function workflowZone(ctx: IExecuteFunctions): { zone: string; source: string } {
	// n8n hands a workflow without a zone of its own the instance's (getTimezone); its settings tell them apart.
	const settings = typeof ctx.getWorkflowSettings === 'function' ? (ctx.getWorkflowSettings() as { timezone?: unknown }) : undefined;
	const zone = String((settings ? settings.timezone : ctx.getTimezone()) ?? '').trim();
	if (zone && zone.toUpperCase() !== 'DEFAULT') return { zone, source: "the workflow's timezone" };
	// n8n-workflow keeps the instance's timezone in its global state (n8n sets it at start).
	const instance = (n8nWorkflow as { getGlobalState?: () => { defaultTimezone?: string } }).getGlobalState?.().defaultTimezone;
	const instanceZone = String(instance ?? ctx.getTimezone() ?? 'DEFAULT');
	return { zone: instanceZone, source: `the n8n instance's timezone${instanceZone === N8N_DEFAULT_ZONE ? ", n8n's default" : ''} (the workflow's is Default)` };
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
	return asIndonesiansWriteIt(text, zone, role);
}


/** The zone words Indonesians write after a time, and the zones they name. */
export const ZONE_WORDS: Readonly<Record<string, string>> = { WIB: 'Asia/Jakarta', WITA: 'Asia/Makassar', WIT: 'Asia/Jayapura' };
/** Month names in Indonesian and English, in full and shortened ("Des", "Agt", "Okt"). */
const MONTHS: Readonly<Record<string, number>> = Object.fromEntries(
	[
		['jan', 'januari', 'january'],
		['feb', 'peb', 'februari', 'pebruari', 'february'],
		['mar', 'maret', 'march'],
		['apr', 'april'],
		['mei', 'may'],
		['jun', 'juni', 'june'],
		['jul', 'juli', 'july'],
		['agu', 'agt', 'agus', 'agustus', 'aug', 'august'],
		['sep', 'sept', 'september'],
		['okt', 'oktober', 'oct', 'october'],
		['nov', 'nop', 'november', 'nopember'],
		['des', 'desember', 'dec', 'december'],
	].flatMap((names, index) => names.map((name) => [name, index + 1])),
);
const WEEKDAY = /^(?:senin|selasa|rabu|kamis|jum'?at|sabtu|minggu|ahad|mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+/i;
const ZONE_WORD = /\s*\b(WIB|WITA|WIT)$/i;
const TIME = /(?:^|\s+|T)(?:pukul\s+|jam\s+)?(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?\s*(am|pm)?$/i;
const DAY_FIRST = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const YEAR_FIRST = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const MONTH_NAME = /^(\d{1,2})\s+([a-z]+)\.?\s+(\d{4})$/i;

/**
 * A date as Indonesians type it (issue 61): day first ("10/12/2026" is 10 December), a time with a
 * dot or one hour digit ("09.00", "9:00"), "WIB", "WITA" or "WIT" after the time, a month's name
 * in Indonesian or English ("10 Des 2026"). Anything else is refused with its exact reason and the
 * hint's own form, never guessed.
 */
function asIndonesiansWriteIt(input: string, zone: string, role: DateRole): ParsedDate {
	// The example is tomorrow at 09:00 WIB: one a marketer may copy as it is without a window that is over.
	const tomorrow = DateTime.fromMillis(clock.now(), { zone: 'Asia/Jakarta' }).plus({ days: 1 });
	const example = SAY.typeDateAs(tomorrow.toFormat('yyyy-MM-dd 09:00'), tomorrow.toFormat('dd/MM/yyyy 09.00'));
	const refuse = (why: string): ParsedDate => ({ ok: false, reason: `"${input}" ${why}; ${example}` });
	let text = input.replace(WEEKDAY, '').trim();
	const zoneWord = ZONE_WORD.exec(text)?.[1]?.toUpperCase();
	if (zoneWord) text = text.replace(ZONE_WORD, '').trim();
	const time = TIME.exec(text);
	const dayText = time ? text.slice(0, time.index).trim() : text;
	if (!dayText) return refuse(time ? 'is a time without a day' : 'is no date');
	const [, year, month, day] = YEAR_FIRST.exec(dayText) ?? [];
	const dayFirst = DAY_FIRST.exec(dayText);
	const named = MONTH_NAME.exec(dayText);
	const parts = year
		? { year: Number(year), month: Number(month), day: Number(day) }
		: dayFirst
			? { year: Number(dayFirst[3]), month: Number(dayFirst[2]), day: Number(dayFirst[1]) }
			: named
				? { year: Number(named[3]), month: MONTHS[named[2].toLowerCase()], day: Number(named[1]) }
				: undefined;
	if (!parts) return refuse(`is not a date the node can read ("${dayText}" is no day it knows)`);
	if (named && !parts.month) return refuse(`names no month the node knows ("${named[2]}"; Des, Desember and Dec all work)`);
	if (parts.month < 1 || parts.month > 12) {
		return refuse(`has month ${parts.month}, which does not exist (day and month are read day first, as Indonesians write them: ${dayFirst?.[1] ?? parts.day}/${dayFirst?.[2] ?? parts.month} is day ${parts.day} of month ${parts.month})`);
	}
	let hour = time ? Number(time[1]) : 0;
	const meridiem = time?.[4]?.toLowerCase();
	if (meridiem && (hour < 1 || hour > 12)) return refuse(`has ${time![1]} ${time![4]}, an hour that does not exist`);
	if (meridiem === 'pm' && hour < 12) hour += 12;
	if (meridiem === 'am' && hour === 12) hour = 0;
	const minute = time ? Number(time[2]) : 0;
	const second = time?.[3] ? Number(time[3]) : 0;
	if (hour > 23 || minute > 59 || second > 59) return refuse(`has the time ${time![0].trim()}, which does not exist`);
	const value = DateTime.fromObject({ ...parts, hour, minute, second }, { zone: zoneWord ? ZONE_WORDS[zoneWord] : zone });
	if (!value.isValid) return refuse(`is a day that does not exist (${parts.day} ${MONTH_NAMES[parts.month - 1]} ${parts.year})`);
	return checked(!time && role === 'end' ? value.endOf('day').startOf('second') : value, `"${input}" is not a valid date`);
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const two = (value: number) => String(value).padStart(2, '0');

/** A moment as a person reads it, written out in a zone: "Thursday 10 December 2026, 09:00 WIB" (English names, no Intl: a run writes thousands). */
export function writtenOut(instant: DateTime, zone: string, abbreviation?: string): string {
	const local = instant.setZone(zone);
	const time = `${two(local.hour)}:${two(local.minute)}${local.second ? `:${two(local.second)}` : ''}`;
	return `${WEEKDAY_NAMES[local.weekday - 1]} ${local.day} ${MONTH_NAMES[local.month - 1]} ${local.year}, ${time} ${abbreviation ?? zone}`;
}

/** A time followed by "Z", "+07:00", "+0700" or "+07", or a trailing zone name ("… 09:00 Asia/Jakarta", "… GMT", "… 09.00 WIB"). */
const EXPLICIT_ZONE = /(?:\d{2}(?::?\d{2}){1,2}(?:[.,]\d+)?\s*(?:[zZ]|[+-]\d{2}(?::?\d{2})?)|\s(?:[A-Za-z_]+\/[A-Za-z_]+|GMT|UTC|UT|WIB|WITA|WIT|wib|wita|wit))$/;

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
