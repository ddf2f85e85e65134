/**
 * Issue 61, scheduled launches in the recipients' hours: dates from `$today` and `$now` keep n8n's
 * zone (UTC, or New York when the instance sets none), so "09:00" from them is refused unless it is
 * the recipients' 09:00; the node's advice is a form that works on any n8n; nothing starts at night
 * (21:00 to 08:00 in the recipients' local time) unless Options › Allow Night Start says so; a zone
 * is never read backwards; dates typed the Indonesian way are read as meant and said back written
 * out. "Now" is setup.ts's TEST_NOW (2026-11-26 09:00 WIB), and `$now` runs on from it.
 */
import type { IDataObject } from 'n8n-workflow';
import { getGlobalState, setGlobalState } from 'n8n-workflow';

import { chain, errorOf, manualTrigger } from '../../../../harness';
import { campaigns, channel, createParameters, lbaNode, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();

const MAKASSAR = 7371; // Kota Makassar: WITA
/** The node's advice for a daily launch (sendWindows.ts TODAY_ADVICE): the day from the clock, the time as text. */
const ADVISED = (days: number, time: string) => `={{ $now.setZone('Asia/Jakarta').plus({ days: ${days} }).toISODate() }} ${time}`;
/** What marketers wrote from the node's old advice. */
const FROM_TODAY = { startDate: '={{ $today.plus({ days: 1 }).set({ hour: 9 }) }}', endDate: '={{ $today.plus({ days: 1 }).set({ hour: 18 }) }}' };

async function sentDates(): Promise<string[]> {
	return (await campaigns(context)).flatMap((campaign) =>
		(campaign.request.channels as IDataObject[]).map(({ startDate, endDate }) => `${String(startDate)} ${String(endDate)}`),
	);
}
const posts = async () => await requests(context, { method: 'POST', path: '/lba/campaign' });
const preview = (parameters: IDataObject) => ({ ...parameters, runMode: 'preview' });
/** The node's clock (send windows), set for one test: the dist module n8n loads. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeClock = (require('../../../../../dist/nodes/LbaAds/helpers/dates') as { clock: { now(): number } }).clock;

describe("Issue 61: $today and $now keep n8n's zone; the node's advice works on any n8n", () => {
	let saved: ReturnType<typeof getGlobalState>;
	beforeEach(() => (saved = getGlobalState()));
	afterEach(() => setGlobalState(saved));

	it("the old advice on a UTC workflow: refused before anything is sent, saying the recipients' hour and the form that works", async () => {
		const result = await runNode(context, createParameters({}, [channel(FROM_TODAY)]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toBe(
			"Item 1 › Channel 1 › Send From is 09:00 in UTC, the workflow's timezone, which is 16:00 WIB for the recipients in Kota Bandung; Send Until is 18:00 in UTC, the workflow's timezone, which is 01:00 WIB for the recipients in Kota Bandung. " +
				"A date from $today or $now keeps n8n's timezone, not the recipients'. Write the time as text, read in the recipients' local time: {{ $now.setZone('Asia/Jakarta').plus({ days: 1 }).toISODate() }} 09:00 (API: channels[0].startDate). Nothing was sent.",
		);
		expect(await posts()).toHaveLength(0);
	});

	it("on an instance left at n8n's default zone (New York, the workflow's Default): named as such, 21:00 WIB", async () => {
		setGlobalState({ ...saved, defaultTimezone: 'America/New_York' });
		// The workflow's Default, as n8n stores it (the harness sets a zone on a workflow without one;
		// real n8n's, with none at all, is scheduled-launch.e2e.test.ts's).
		const result = await context.n8n.runWorkflow(
			{ nodes: [manualTrigger(), lbaNode(createParameters({}, [channel(FROM_TODAY)]))], connections: chain('Start', 'LBA'), pinData: { Start: [{ json: {} }] } } as never,
			{ credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } } as never, timezone: 'DEFAULT' },
		);
		expect(errorOf(result)?.message).toContain(
			"Send From is 09:00 in America/New_York, the n8n instance's timezone, n8n's default (the workflow's is Default), which is 21:00 WIB for the recipients in Kota Bandung",
		);
		expect(await posts()).toHaveLength(0);
	});

	it.each([['UTC'], ['America/New_York'], ['Asia/Jakarta']])('the advice followed on a %s workflow: 09:00 to 18:00 tomorrow in the recipients\' hours', async (timezone) => {
		const result = await runNode(context, createParameters({}, [channel({ startDate: ADVISED(1, '09:00'), endDate: ADVISED(1, '18:00') })]), [{}], { timezone });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-11-27T09:00:00+07:00 2026-11-27T18:00:00+07:00']);
		expect(result.items[0].json.sendWindows).toEqual([
			expect.objectContaining({ from: 'Friday 27 November 2026, 09:00 WIB', until: 'Friday 27 November 2026, 18:00 WIB' }),
		]);
	});

	it("the advice on a UTC workflow, a channel in Makassar: 09:00 WITA, its recipients' 09:00", async () => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: MAKASSAR, startDate: ADVISED(1, '09:00'), endDate: ADVISED(1, '18:00') })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-11-27T09:00:00+08:00 2026-11-27T18:00:00+08:00']);
	});

	it('a date counted from $now (with its minutes and seconds) is not a time someone set: sent, said to be as the expression gave it', async () => {
		const result = await runNode(context, createParameters({}, [channel({ startDate: '={{ $now.plus({ hours: 2 }) }}', endDate: '={{ $now.plus({ days: 2 }) }}' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json.sendWindows).toEqual([expect.objectContaining({ datesReadIn: "as the expression gave them, in UTC, the workflow's timezone" })]);
	});
});

describe('Issue 61: nothing starts at night by accident (21:00 to 08:00 in the recipients\' local time)', () => {
	afterEach(() => (nodeClock.now = () => Date.parse('2026-11-26T02:00:00Z')));

	it('a date alone is midnight: refused in Publish, naming the hour and the option; sent with Allow Night Start', async () => {
		const alone = [channel({ startDate: '2026-12-10', endDate: '2026-12-10' })];
		const refused = await runNode(context, createParameters({}, alone), [{}], { timezone: 'UTC' });
		expect(errorOf(refused)?.message).toBe(
			"Item 1 › Channel 1 › sending would start Thursday 10 December 2026, 00:00 WIB (a date without a time is midnight), at night for the recipients in Kota Bandung; no campaign starts from 21:00 to 08:00 in its recipients' local time unless Options › Allow Night Start is on (API: channels[0].startDate). Nothing was sent.",
		);
		expect(errorOf(refused)?.description).toMatch(/^Give each channel a Send Until in the future and a Send From from 08:00 to 21:00 in its recipients' local time, e\.g\. 2026-11-27 09:00 \(typed so/);
		expect(await posts()).toHaveLength(0);
		const allowed = await runNode(context, createParameters({ options: { allowNightStart: true } }, alone), [{}], { timezone: 'UTC' });
		expect(errorOf(allowed)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-10T00:00:00+07:00 2026-12-10T23:59:59+07:00']);
	});

	it('the advice followed (a time typed with the day): 09:00 WIB, sent', async () => {
		const result = await runNode(context, createParameters({}, [channel({ startDate: '2026-12-10 09:00', endDate: '2026-12-10 18:00' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-10T09:00:00+07:00 2026-12-10T18:00:00+07:00']);
	});

	it('a Send From that has passed starts at once: at 01:46 WIB that is at night, refused', async () => {
		nodeClock.now = () => Date.parse('2026-11-26T01:46:00+07:00');
		const result = await runNode(context, createParameters({}, [channel({ startDate: '2026-11-25 20:00', endDate: '2026-11-26 18:00' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toMatch(
			/^Item 1 › Channel 1 › sending would start Thursday 26 November 2026, 01:46 WIB \(Send From \(Wednesday 25 November 2026, 20:00 WIB\) has passed, so it would start at once\), at night/,
		);
		expect(await posts()).toHaveLength(0);
	});

	it('08:00 is day, 20:59 is day, 21:00 is night: the edges', async () => {
		for (const [start, night] of [['2026-12-10 08:00', false], ['2026-12-10 20:59', false], ['2026-12-10 21:00', true], ['2026-12-10 07:59', true]] as const) {
			const result = await runNode(context, preview(createParameters({}, [channel({ startDate: start, endDate: '2026-12-11 23:00' })])), [{}], { timezone: 'UTC' });
			const warnings = (result.items[0].json.warnings as string[]) ?? [];
			expect([start, warnings.some((warning) => warning.includes('at night for the recipients'))]).toEqual([start, night]);
		}
	});

	it("Preview says a night start as a warning that Publish would refuse, and a window's nights in the recipients' hours", async () => {
		const result = await runNode(context, preview(createParameters({}, [channel({ locationId: MAKASSAR, startDate: '2026-12-10 22:00', endDate: '2026-12-13 18:00' })])), [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json.warnings).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^Channel 1: sending would start Thursday 10 December 2026, 22:00 WITA \(as written\), at night for the recipients in Kota Makassar/),
				'Channel 1: This window runs through 3 nights (21:00 to 08:00 WITA), and the service may send at any hour of it.',
			]),
		);
		expect(await posts()).toHaveLength(0);
	});

	it('a window within one day says no night; Publish output says the nights of a longer one', async () => {
		const day = await runNode(context, createParameters({}, [channel({ startDate: '2026-12-10 09:00', endDate: '2026-12-10 20:00' })]), [{}], { timezone: 'UTC' });
		expect(day.items[0].json.sendWindows).toEqual([expect.not.objectContaining({ atNight: expect.anything() })]);
		const week = await runNode(context, createParameters({ name: 'Week' }, [channel({ startDate: '2026-12-10 09:00', endDate: '2026-12-16 20:00' })]), [{}], { timezone: 'UTC' });
		expect(week.items[0].json.sendWindows).toEqual([expect.objectContaining({ atNight: 'This window runs through 6 nights (21:00 to 08:00 WIB), and the service may send at any hour of it.' })]);
	});
});

describe('Issue 61: a zone is never read backwards; dates typed the Indonesian way', () => {
	it.each([
		['Etc/GMT+7', 'UTC−7'],
		['Etc/GMT-8', 'UTC+8'],
	])('Options › Timezone %s is refused as %s, naming the zones to use', async (zone, meaning) => {
		const result = await runNode(context, createParameters({ options: { timezone: zone } }, [channel({ startDate: '2026-12-10 09:00', endDate: '2026-12-10 18:00' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toBe(
			`Item 1 › Options › Timezone: "${zone}" is ${meaning}: in Etc/GMT names the sign is reversed, so 09:00 there is not what it seems. Nothing was sent.`,
		);
		expect(errorOf(result)?.description).toMatch(/^Use Asia\/Jakarta for WIB, Asia\/Makassar for WITA or Asia\/Jayapura for WIT/);
		expect(await posts()).toHaveLength(0);
	});

	it('day first, a dot in the time, WITA after it: read as meant and said back written out, in Preview and Publish', async () => {
		const typed = [channel({ startDate: '10/12/2026 09.00', endDate: '10 Des 2026 18.00' }), channel({ locationId: MAKASSAR, startDate: '10/12/2026 09.00 WITA', endDate: '11/12/2026 9:00 WITA' })];
		const dry = await runNode(context, preview(createParameters({}, typed)), [{}], { timezone: 'UTC' });
		expect(errorOf(dry)).toBeUndefined();
		expect(dry.items[0].json.sendWindows).toEqual([
			expect.objectContaining({ from: 'Thursday 10 December 2026, 09:00 WIB', until: 'Thursday 10 December 2026, 18:00 WIB' }),
			expect.objectContaining({ from: 'Thursday 10 December 2026, 09:00 WITA', until: 'Friday 11 December 2026, 09:00 WITA' }),
		]);
		const sent = await runNode(context, createParameters({}, typed), [{}], { timezone: 'UTC' });
		expect(errorOf(sent)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-10T09:00:00+07:00 2026-12-10T18:00:00+07:00', '2026-12-10T09:00:00+08:00 2026-12-11T09:00:00+08:00']);
	});

	it('a time without a day, a month that does not exist: refused naming the reason and the form to type, nothing sent', async () => {
		const result = await runNode(context, createParameters({}, [channel({ startDate: '9:00 AM', endDate: '12/25/2026 18:00' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 1 › Send From: "9:00 AM" is a time without a day; type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB) (API: channels[0].startDate must be a date and time in ISO 8601 with a UTC offset). ' +
				'Item 1 › Channel 1 › Send Until: "12/25/2026 18:00" has month 25, which does not exist (day and month are read day first, as Indonesians write them: 12/25 is day 12 of month 25); type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB) (API: channels[0].endDate must be a date and time in ISO 8601 with a UTC offset). Nothing was sent.',
		);
		expect(await posts()).toHaveLength(0);
	});
});
