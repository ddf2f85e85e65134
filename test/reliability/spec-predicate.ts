/**
 * An independent answer to "is this input valid, and what exactly must be sent?", written
 * from docs/lba-api.md, the bounds sandbox/openapi.yaml documents where the spec is silent,
 * and the input conveniences the README promises (trimmed text, digit strings, telco in any
 * case, dates without offset read in the timezone, plain dates, epoch milliseconds).
 *
 * It shares no code with the node: no zod, no luxon. Dates are checked with calendar
 * arithmetic and the platform's Intl time-zone data. It only has to be right for the input
 * forms the generators in bad-input.reliability.test.ts produce.
 */

export const BOUNDS = {
	name: 255,
	description: 1000,
	sender: 11,
	message: 160,
	smsQty: 10_000_000,
	locationId: 2_147_483_647,
	channels: 99,
	maxOffsetMinutes: 18 * 60,
};
export const CATEGORY_IDS = Array.from({ length: 24 }, (_, index) => index + 3); // spec 2.2: 3..26
export const TELCO_IDS = ['isat', 'xl', 'tsel']; // spec 2.3

export type Verdict<T> = { ok: true; value: T } | { ok: false; why: string };

const fail = (why: string): { ok: false; why: string } => ({ ok: false, why });

export function text(value: unknown, max: number): Verdict<string> {
	if (typeof value !== 'string') return fail('not text');
	// Sent trimmed and in Unicode NFC (docs/choices.md), and counted as sent.
	const trimmed = value.trim().normalize('NFC');
	if (trimmed === '') return fail('blank');
	if ([...trimmed].length > max) return fail(`longer than ${max}`);
	return { ok: true, value: trimmed };
}

export function wholeNumber(value: unknown, min: number, max: number): Verdict<number> {
	const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number)) return fail('not a whole number');
	if (number < min || number > max) return fail('out of range');
	return { ok: true, value: number };
}

export function telco(value: unknown): Verdict<string> {
	if (typeof value !== 'string') return fail('not text');
	const id = value.trim().toLowerCase();
	return TELCO_IDS.includes(id) ? { ok: true, value: id } : fail('unknown telco');
}

// ---- dates ----------------------------------------------------------------------------

interface Wall {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function offsetText(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

function apiText(wall: Wall, offsetMinutes: number): string {
	return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${offsetText(offsetMinutes)}`;
}

function daysIn(year: number, month: number): number {
	const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function realWall(wall: Wall): boolean {
	return (
		wall.month >= 1 && wall.month <= 12 && wall.day >= 1 && wall.day <= daysIn(wall.year, wall.month) &&
		wall.hour <= 23 && wall.minute <= 59 && wall.second <= 59
	);
}

/** Milliseconds of a wall-clock time read as UTC (years 0-99 included). */
function wallAsUtc(wall: Wall): number {
	const date = new Date(0);
	date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
	date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
	return date.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a zone, from Intl. */
function wallIn(ms: number, zone: string): Wall {
	let format = formatters.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			era: 'short',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(zone, format);
	}
	const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
	const year = Number(parts.year);
	return {
		year: parts.era === 'BC' ? 1 - year : year,
		month: Number(parts.month),
		day: Number(parts.day),
		hour: Number(parts.hour),
		minute: Number(parts.minute),
		second: Number(parts.second),
	};
}

function sameWall(a: Wall, b: Wall): boolean {
	return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;
}

/** An instant in a zone as the API writes it (whole seconds, numeric offset). */
function instantText(ms: number, zone: string): Verdict<{ text: string; seconds: number }> {
	const seconds = Math.floor(ms / 1000);
	const wall = wallIn(seconds * 1000, zone);
	if (wall.year < 0 || wall.year > 9999) return fail('year outside 0000-9999');
	const offsetMinutes = (wallAsUtc(wall) - seconds * 1000) / 60000;
	return { ok: true, value: { text: apiText(wall, offsetMinutes), seconds } };
}

/**
 * Every instant a zone-less wall-clock time may mean: one normally, two in a DST overlap,
 * and in a DST gap the two readings with the offsets either side of it.
 */
function instantsOfWall(wall: Wall, zone: string): number[] {
	const asUtc = wallAsUtc(wall);
	const offsets = new Set<number>();
	for (const probe of [asUtc - 86_400_000, asUtc, asUtc + 86_400_000]) {
		offsets.add(wallAsUtc(wallIn(probe, zone)) - probe);
	}
	const exact = [...offsets].map((offset) => asUtc - offset).filter((ms) => sameWall(wallIn(ms, zone), wall));
	return exact.length > 0 ? exact : [...offsets].map((offset) => asUtc - offset);
}

export interface ApiDate {
	/** Texts the node may send; more than one only in a DST overlap or gap. */
	texts: string[];
	/** Whole seconds since the epoch of each text. */
	seconds: number[];
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const SQL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;
const PLAIN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MIN_EPOCH_MS = 1_000_000_000_000;

export function apiDate(value: unknown, zone: string, role: 'start' | 'end'): Verdict<ApiDate> {
	if (value === undefined || value === null || value === '') return fail('missing');
	if (typeof value === 'number' || (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value))) {
		const ms = Number(value);
		if (!Number.isFinite(ms) || Math.abs(ms) < MIN_EPOCH_MS || Math.abs(ms) > 8.64e15) return fail('not plausible epoch ms');
		const sent = instantText(ms, zone);
		return sent.ok ? { ok: true, value: { texts: [sent.value.text], seconds: [sent.value.seconds] } } : sent;
	}
	if (typeof value !== 'string') return fail('not a date');
	const input = value.trim();

	const iso = ISO.exec(input);
	if (iso) {
		const [, y, mo, d, h, mi, s, , offset] = iso;
		const wall = { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: s === undefined ? 0 : +s };
		if (!realWall(wall)) return fail('no such date or time');
		if (offset === undefined) return zoned(wall, zone);
		let offsetMinutes = 0;
		if (offset !== 'Z') {
			const digits = offset.slice(1).replace(':', '');
			const hours = Number(digits.slice(0, 2));
			const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
			if (minutes > 59) return fail('offset minutes over 59');
			offsetMinutes = (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
		}
		if (Math.abs(offsetMinutes) > BOUNDS.maxOffsetMinutes) return fail('offset beyond 18:00');
		const seconds = Math.floor((wallAsUtc(wall) - offsetMinutes * 60000) / 1000);
		return { ok: true, value: { texts: [apiText(wall, offsetMinutes)], seconds: [seconds] } };
	}
	const sql = SQL.exec(input);
	if (sql) {
		const [, y, mo, d, h, mi, s] = sql;
		const wall = { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: s === undefined ? 0 : +s };
		return realWall(wall) ? zoned(wall, zone) : fail('no such date or time');
	}
	const plain = PLAIN.exec(input);
	if (plain) {
		const [, y, mo, d] = plain;
		// A plain end date means through that day (README).
		const wall = role === 'end'
			? { year: +y, month: +mo, day: +d, hour: 23, minute: 59, second: 59 }
			: { year: +y, month: +mo, day: +d, hour: 0, minute: 0, second: 0 };
		return realWall(wall) ? zoned(wall, zone) : fail('no such date');
	}
	return fail('not a date form the node documents');
}

function zoned(wall: Wall, zone: string): Verdict<ApiDate> {
	const texts: string[] = [];
	const seconds: number[] = [];
	for (const ms of instantsOfWall(wall, zone)) {
		const sent = instantText(ms, zone);
		if (!sent.ok) return sent;
		texts.push(sent.value.text);
		seconds.push(sent.value.seconds);
	}
	return { ok: true, value: { texts, seconds } };
}

export function validZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

// ---- campaign ---------------------------------------------------------------------------

const CHANNEL_KEYS = ['sender', 'locationId', 'smsQty', 'message', 'startDate', 'endDate', 'telcoId'];

export interface ExpectedChannel {
	sender: string;
	locationId: number;
	smsQty: number;
	message: string;
	startDate: ApiDate;
	endDate: ApiDate;
	telcoId: string;
}

export interface ExpectedCampaign {
	name: string;
	description: string;
	categoryId: number;
	channels: ExpectedChannel[];
}

export function campaign(
	input: { name: unknown; description: unknown; categoryId: unknown; channels: unknown },
	zone: string,
): Verdict<ExpectedCampaign> {
	if (!validZone(zone)) return fail('unknown timezone');
	const name = text(input.name, BOUNDS.name);
	if (!name.ok) return fail(`name: ${name.why}`);
	const description = text(input.description, BOUNDS.description);
	if (!description.ok) return fail(`description: ${description.why}`);
	const categoryId = wholeNumber(input.categoryId, 3, 26);
	if (!categoryId.ok) return fail(`categoryId: ${categoryId.why}`);

	let channels = input.channels;
	if (typeof channels === 'string') {
		try {
			channels = JSON.parse(channels);
		} catch {
			return fail('channels: not JSON');
		}
	}
	if (!Array.isArray(channels)) return fail('channels: not a list');
	if (channels.length < 1 || channels.length > BOUNDS.channels) return fail('channels: count');
	const expected: ExpectedChannel[] = [];
	for (const [index, raw] of channels.entries()) {
		const why = (detail: string) => fail(`channels[${index}]: ${detail}`);
		if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return why('not an object');
		const channel = raw as Record<string, unknown>;
		const unknown = Object.keys(channel).filter((key) => !CHANNEL_KEYS.includes(key));
		if (unknown.length > 0) return why(`unknown field ${unknown[0]}`);
		const sender = text(channel.sender, BOUNDS.sender);
		const message = text(channel.message, BOUNDS.message);
		const locationId = wholeNumber(channel.locationId, 1, BOUNDS.locationId);
		const smsQty = wholeNumber(channel.smsQty, 1, BOUNDS.smsQty);
		const telcoId = telco(channel.telcoId);
		const startDate = apiDate(channel.startDate, zone, 'start');
		const endDate = apiDate(channel.endDate, zone, 'end');
		for (const [field, verdict] of Object.entries({ sender, message, locationId, smsQty, telcoId, startDate, endDate })) {
			if (!verdict.ok) return why(`${field}: ${verdict.why}`);
		}
		if (!startDate.ok || !endDate.ok || !sender.ok || !message.ok || !locationId.ok || !smsQty.ok || !telcoId.ok) return why('unreachable');
		// Whatever reading of a DST-ambiguous time the node picks, the end must be later.
		if (Math.min(...endDate.value.seconds) <= Math.max(...startDate.value.seconds)) {
			if (Math.max(...endDate.value.seconds) <= Math.min(...startDate.value.seconds)) return why('end not after start');
			return why('end vs start depends on a DST reading (skip)');
		}
		expected.push({
			sender: sender.value,
			locationId: locationId.value,
			smsQty: smsQty.value,
			message: message.value,
			startDate: startDate.value,
			endDate: endDate.value,
			telcoId: telcoId.value,
		});
	}
	return { ok: true, value: { name: name.value, description: description.value, categoryId: categoryId.value, channels: expected } };
}

/** Differences between a sent body and the expected campaign; empty when it matches. */
export function bodyDifferences(sent: Record<string, unknown>, expected: ExpectedCampaign): string[] {
	const differences: string[] = [];
	const same = (field: string, actual: unknown, wanted: unknown) => {
		if (actual !== wanted) differences.push(`${field}: sent ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
	};
	const keys = Object.keys(sent).sort().join(',');
	if (keys !== 'categoryId,channels,description,name') differences.push(`fields ${keys}`);
	same('name', sent.name, expected.name);
	same('description', sent.description, expected.description);
	same('categoryId', sent.categoryId, expected.categoryId);
	const channels = Array.isArray(sent.channels) ? (sent.channels as Array<Record<string, unknown>>) : [];
	same('channels.length', channels.length, expected.channels.length);
	expected.channels.forEach((wanted, index) => {
		const channel = channels[index] ?? {};
		for (const key of ['sender', 'locationId', 'smsQty', 'message', 'telcoId'] as const) {
			same(`channels[${index}].${key}`, channel[key], wanted[key]);
		}
		for (const key of ['startDate', 'endDate'] as const) {
			if (!wanted[key].texts.includes(channel[key] as string)) {
				differences.push(`channels[${index}].${key}: sent ${JSON.stringify(channel[key])}, expected one of ${wanted[key].texts.join(' | ')}`);
			}
		}
	});
	return differences;
}

// ---- coordinates and limit -------------------------------------------------------------

const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export function coordinate(value: unknown, limit: number): Verdict<number> {
	const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number)) return fail('not a finite number');
	if (Math.abs(number) > limit) return fail('out of range');
	return { ok: true, value: number };
}

export function limit(value: unknown): Verdict<number> {
	return wholeNumber(value, 1, Infinity);
}
