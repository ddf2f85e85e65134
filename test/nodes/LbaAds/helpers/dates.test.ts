import { DateTime } from 'luxon';

import { clock, isValidZone, parseDate, readInZone, shownWindow, toApiDate } from '../../../../nodes/LbaAds/helpers/dates';

// The node's clock, fixed as in the node tests (2026-11-26 09:00 WIB): a refusal's example date is tomorrow's, 2026-11-27.
const realNow = clock.now;
beforeAll(() => (clock.now = () => Date.parse('2026-11-26T02:00:00Z')));
afterAll(() => (clock.now = realNow));

function api(input: unknown, zone: string, role: 'start' | 'end' = 'start'): string {
	const parsed = parseDate(input, zone, role);
	if (!parsed.ok) throw new Error(`expected a date, got: ${parsed.reason}`);
	return toApiDate(parsed.value);
}

function reason(input: unknown, zone = 'Asia/Jakarta'): string {
	const parsed = parseDate(input, zone);
	if (parsed.ok) throw new Error(`expected a rejection, got ${toApiDate(parsed.value)}`);
	return parsed.reason;
}

describe('dates: offset-less values are read in the workflow timezone', () => {
	it.each([
		// DST-free Indonesian zones: WIB +07, WITA +08, WIT +09
		['Asia/Jakarta', '2026-12-01T09:00:00', '2026-12-01T09:00:00+07:00'],
		['Asia/Makassar', '2026-12-01T09:00:00', '2026-12-01T09:00:00+08:00'],
		['Asia/Jayapura', '2026-12-01T09:00:00', '2026-12-01T09:00:00+09:00'],
		['UTC', '2026-12-01T09:00:00', '2026-12-01T09:00:00+00:00'],
		// A DST zone on both sides of its summer-time switch
		['Europe/Berlin', '2026-01-15T09:00:00', '2026-01-15T09:00:00+01:00'],
		['Europe/Berlin', '2026-07-15T09:00:00', '2026-07-15T09:00:00+02:00'],
		['America/New_York', '2026-11-02T09:00:00', '2026-11-02T09:00:00-05:00'],
		['America/New_York', '2026-10-30T09:00:00', '2026-10-30T09:00:00-04:00'],
	])('%s: %s -> %s', (zone, input, expected) => {
		expect(api(input, zone)).toBe(expected);
	});

	it('a local time inside a DST gap becomes a real instant, not an invalid one', () => {
		// 02:30 does not exist in Berlin on 2026-03-29 (clocks jump 02:00 -> 03:00).
		const sent = api('2026-03-29T02:30:00', 'Europe/Berlin');
		expect(sent).toMatch(/^2026-03-29T0[13]:30:00\+0[12]:00$/);
		expect(DateTime.fromISO(sent, { setZone: true }).isValid).toBe(true);
	});

	it('keeps an explicit offset as given, whatever the workflow timezone', () => {
		expect(api('2026-12-01T09:00:00+08:00', 'Asia/Jakarta')).toBe('2026-12-01T09:00:00+08:00');
		expect(api('2026-12-01T02:00:00Z', 'Asia/Jakarta')).toBe('2026-12-01T02:00:00+00:00');
	});

	it('never sends "Z": UTC is written as +00:00', () => {
		expect(api('2026-12-01T02:00:00.000Z', 'UTC')).toBe('2026-12-01T02:00:00+00:00');
	});
});

describe('dates: every input shape a workflow can produce', () => {
	const instant = Date.UTC(2026, 11, 1, 2, 0, 0); // 2026-12-01 02:00 UTC = 09:00 WIB

	it('epoch milliseconds as number and as digit string', () => {
		expect(api(instant, 'Asia/Jakarta')).toBe('2026-12-01T09:00:00+07:00');
		expect(api(String(instant), 'Asia/Jakarta')).toBe('2026-12-01T09:00:00+07:00');
	});

	it('JS Date and luxon DateTime (what $now / DateTime expressions return)', () => {
		expect(api(new Date(instant), 'Asia/Jakarta')).toBe('2026-12-01T09:00:00+07:00');
		expect(api(DateTime.fromMillis(instant, { zone: 'Asia/Makassar' }), 'Asia/Jakarta')).toBe(
			'2026-12-01T10:00:00+08:00',
		);
	});

	it('plain dates: start of day for Start, end of day for End', () => {
		expect(api('2017-11-16', 'Asia/Jakarta', 'start')).toBe('2017-11-16T00:00:00+07:00');
		expect(api('2017-11-16', 'Asia/Jakarta', 'end')).toBe('2017-11-16T23:59:59+07:00');
	});

	it('SQL-style and RFC 2822 strings', () => {
		expect(api('2026-12-01 09:00', 'Asia/Jakarta')).toBe('2026-12-01T09:00:00+07:00');
		expect(api('Tue, 01 Dec 2026 09:00:00 +0700', 'UTC')).toBe('2026-12-01T09:00:00+07:00');
	});

	it('rejects what is not a date, saying why', () => {
		expect(reason('')).toBe('is required');
		expect(reason(undefined)).toBe('is required');
		expect(reason('next tuesday')).toMatch(/not a date/);
		expect(reason('2026-02-30')).toMatch(/not a valid date/);
		expect(reason(1_700_000_000)).toMatch(/seconds\?/);
		expect(reason(Number.NaN)).toMatch(/finite/);
		expect(reason({ year: 2026 })).toMatch(/must be a date/);
		expect(reason(new Date('nope'))).toMatch(/not a valid date/);
	});
});

describe('dates typed as people type them (issue 52): taken as typed, never "now"', () => {
	it.each([
		['2026-12-01 09:00', '2026-12-01T09:00:00+08:00'],
		['2026-12-01 09:00:00', '2026-12-01T09:00:00+08:00'],
		['2026-12-01T09:00', '2026-12-01T09:00:00+08:00'],
		['2026-12-01T09:00:00', '2026-12-01T09:00:00+08:00'],
		[' 2026-12-01 09:00 ', '2026-12-01T09:00:00+08:00'],
		['2026-12-01 09:00+07:00', '2026-12-01T09:00:00+07:00'],
		['2026-12-01 09:00 +07:00', '2026-12-01T09:00:00+07:00'],
		['2026-12-01 09:00:00+0700', '2026-12-01T09:00:00+07:00'],
		['2026-12-01 09:00:00 +07:00', '2026-12-01T09:00:00+07:00'],
		['2026-12-01T09:00+09:00', '2026-12-01T09:00:00+09:00'],
	])('%s (read in Asia/Makassar when it has no offset) -> %s', (input, expected) => {
		expect(api(input, 'Asia/Makassar')).toBe(expected);
		expect(readInZone(input)).toBe(!/[+-]\d{2}:?\d{2}\s*$/.test(input));
	});

	it('refuses what it cannot read, saying the form to use', () => {
		expect(reason('next monday')).toBe('"next monday" is not a date the node can read ("next monday" is no day it knows); type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB)');
	});
});

describe('dates typed the Indonesian way (issue 61): read as meant, day first, or refused with the exact reason', () => {
	it.each([
		['10/12/2026 09:00', '2026-12-10T09:00:00+08:00', true],
		['10-12-2026 09.00', '2026-12-10T09:00:00+08:00', true],
		['10.12.2026 09.00', '2026-12-10T09:00:00+08:00', true],
		['2026-12-10 9:00', '2026-12-10T09:00:00+08:00', true],
		['2026-12-10 09.00', '2026-12-10T09:00:00+08:00', true],
		['2026-12-10 09:00 WIB', '2026-12-10T09:00:00+07:00', false],
		['10/12/2026 09.00 wita', '2026-12-10T09:00:00+08:00', false],
		['2026-12-10 09:00 WIT', '2026-12-10T09:00:00+09:00', false],
		['10 Des 2026 09:00', '2026-12-10T09:00:00+08:00', true],
		['10 Desember 2026 pukul 09.00', '2026-12-10T09:00:00+08:00', true],
		['Kamis, 10 Des 2026 09.00 WIB', '2026-12-10T09:00:00+07:00', false],
		['3 Agustus 2027 14.30', '2027-08-03T14:30:00+08:00', true],
		['10/12/2026 9:00 PM', '2026-12-10T21:00:00+08:00', true],
		['1/2/2027 09:00', '2027-02-01T09:00:00+08:00', true],
	])('%s (Asia/Makassar unless it names its zone) -> %s', (input, expected, withoutZone) => {
		expect(api(input, 'Asia/Makassar')).toBe(expected);
		expect(readInZone(input)).toBe(withoutZone);
	});

	it('a date alone is that day: its start for Send From, its end for Send Until', () => {
		expect(api('10/12/2026', 'Asia/Jakarta')).toBe('2026-12-10T00:00:00+07:00');
		expect(api('10/12/2026', 'Asia/Jakarta', 'end')).toBe('2026-12-10T23:59:59+07:00');
	});

	it.each([
		['9:00 AM', 'is a time without a day'],
		['09.00 WIB', 'is a time without a day'],
		['12/25/2026 09:00', 'has month 25, which does not exist (day and month are read day first, as Indonesians write them: 12/25 is day 12 of month 25)'],
		['31/02/2026 09:00', 'is a day that does not exist (31 February 2026)'],
		['10 Dek 2026 09:00', 'names no month the node knows ("Dek"; Des, Desember and Dec all work)'],
		['2026-12-10 24.30', 'has the time 24.30, which does not exist'],
		['10/12/2026 13:00 PM', 'has 13 PM, an hour that does not exist'],
	])('%s: refused, saying why and the form to type', (input, why) => {
		expect(reason(input)).toBe(`"${input}" ${why}; type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB)`);
	});
});

describe('zones: what the node can read dates in', () => {
	it.each([['Asia/Jakarta', true], ['UTC', true], ['UTC+7', true], ['DEFAULT', false], ['default', false], ['local', false], ['system', false], ['Asia/Jakrta', false]])('%s -> %s', (zone, valid) => {
		expect(isValidZone(zone)).toBe(valid);
	});

	it('shows a window in a zone\'s own hours, the day once when it is one day', () => {
		const start = DateTime.fromISO('2026-12-01T09:00:00+08:00', { setZone: true });
		expect(shownWindow(start, start.plus({ hours: 9 }), 'Asia/Makassar', 'WITA')).toBe('2026-12-01 09:00 to 18:00 WITA');
		expect(shownWindow(start, start.plus({ days: 6 }), 'Asia/Jakarta', 'WIB')).toBe('2026-12-01 08:00 to 2026-12-07 08:00 WIB');
		expect(shownWindow(start, start.plus({ hours: 1 }), 'UTC')).toBe('2026-12-01 01:00 to 02:00 UTC');
	});
});

describe('readInZone: which values only the timezone setting turns into an instant', () => {
	test.each([
		['2026-12-01', true],
		['2026-12-01T09:00', true],
		['2026-12-01T09:00:00', true],
		['2026-12-01 09:00', true],
		['2026-12-01T09:00:00+07:00', false],
		['2026-12-01T09:00+0700', false],
		['2026-12-01T09:00:00Z', false],
		['2026-12-01T09:00:00.000Z', false],
		['2026-12-01 09:00 +07:00', false],
		['Tue, 01 Dec 2026 09:00:00 +0700', false],
		['Tue, 01 Dec 2026 09:00:00 GMT', false],
		['2026-12-01 09:00 Asia/Jakarta', false],
		['1764554400000', false],
	])('%s -> %s', (value, expected) => {
		expect(readInZone(value)).toBe(expected);
	});

	test('numbers, JS Dates and luxon DateTimes name their instant', () => {
		expect(readInZone(1764554400000)).toBe(false);
		expect(readInZone(new Date())).toBe(false);
		expect(readInZone(DateTime.now())).toBe(false);
	});
});
