/**
 * Issue 52, "the hour the marketer meant": a window that is over is never billed, a Send From that
 * has passed is said plainly, and a date without an offset is read in the recipients' hours unless
 * the workflow (or Options > Timezone) names an Indonesian zone. "Now" is setup.ts's TEST_NOW,
 * 2026-11-26 09:00 WIB.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { getGlobalState, setGlobalState } from 'n8n-workflow';

import { chain, errorOf, manualTrigger } from '../../../../harness';
import { aSecondLater, campaigns, campaignsPerName, channel, createParameters, fault, lbaNode, requests, runNode, useHistory, useSandbox } from '../../setup';

const context = useSandbox();
/** One saved workflow per test: its runs share duplicate protection's history. */
const history = useHistory('windows');

const MAKASSAR = 7371; // Kota Makassar, Sulawesi Selatan: WITA
const JAYAPURA = 9471; // Kota Jayapura, Papua: WIT
const PONTIANAK = 6171; // Kota Pontianak, Kalimantan Barat: WIB (Asia/Pontianak)

function hintsOf(result: Awaited<ReturnType<typeof runNode>>): string[] {
	return (result.run.data.resultData.runData.LBA?.[0]?.hints ?? []).map((hint) => hint.message);
}

const preview = (parameters: IDataObject) => ({ ...parameters, runMode: 'preview' });

async function sentDates() {
	return (await campaigns(context)).flatMap((campaign) =>
		(campaign.request.channels as IDataObject[]).map(({ startDate, endDate }) => `${String(startDate)} ${String(endDate)}`),
	);
}

describe('Campaign > Create: a window that is over', () => {
	const over = channel({ startDate: '2026-11-20T09:00:00+07:00', endDate: '2026-11-25T21:00:00+07:00' });

	it('Publish refuses a channel whose Send Until has passed, in the panel\'s words, before anything is sent', async () => {
		const result = await runNode(context, createParameters({}, [channel(), over]), [{}], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 2 › Send Until: 2026-11-25 21:00 WIB has passed (it is now 2026-11-26 09:00 WIB); nothing would be sent in a window that is over (API: channels[1].endDate is in the past). Nothing was sent.',
		);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('Preview shows it as a warning that Publish would refuse, and sends nothing', async () => {
		const result = await runNode(context, preview(createParameters({}, [over])), [{}], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)).toBeUndefined();
		const warning = 'Channel 1: Send Until (2026-11-25 21:00 WIB) has passed, so Publish would refuse this campaign: nothing would be sent in a window that is over.';
		expect(result.items[0].json.warnings).toContain(warning);
		expect(hintsOf(result)).toContain(`Item 1, ${warning}`);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('a Send From ten minutes past is said too (a minute of grace, not an hour): the channel starts at once (issue 58)', async () => {
		// The node's clock here is the tests' fixed 2026-11-26 09:00 WIB (setup.ts): ten minutes before it.
		const justPast = channel({ startDate: '2026-11-26T08:50:00+07:00', endDate: '2026-11-26T18:00:00+07:00' });
		const dry = await runNode(context, preview(createParameters({}, [justPast])), [{}], { timezone: 'Asia/Jakarta' });
		expect(dry.items[0].json.warnings).toEqual([expect.stringMatching(/^Channel 1: Send From \(2026-11-26 08:50 WIB\) has passed, so this channel starts sending at once/)]);
	});

	it('a Send From that has passed starts at once: sent as written, and said in the output and a hint, in Publish and Preview', async () => {
		const started = channel({ startDate: '2026-11-20T09:00:00+07:00' });
		const warning = 'Channel 1: Send From (2026-11-20 09:00 WIB) has passed, so this channel starts sending at once (now, 2026-11-26 09:00 WIB), not at the time written.';
		const dry = await runNode(context, preview(createParameters({}, [started])), [{}], { timezone: 'Asia/Jakarta' });
		expect(dry.items[0].json.warnings).toContain(warning);
		expect(hintsOf(dry)).toContain(`Item 1, ${warning}`);

		const sent = await runNode(context, createParameters({}, [started]), [{}], { timezone: 'Asia/Jakarta' });
		expect(sent.items[0].json).toMatchObject({ status: 'Published', warnings: [warning] });
		expect(hintsOf(sent)).toContain(`Item 1, ${warning}`);
		expect(await sentDates()).toEqual(['2026-11-20T09:00:00+07:00 2026-12-07T21:00:00+07:00']);
	});
});

describe('Campaign > Create: the recipients\' local time', () => {
	const twoPlaces = createParameters({}, [
		channel({ locationId: MAKASSAR, startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' }),
		channel({ locationId: JAYAPURA, startDate: '2026-12-01 09:00:00', endDate: '2026-12-01 18:00:00' }),
	]);

	it.each([['UTC'], ['America/New_York']])('a workflow on %s reads each channel\'s dates in its own place\'s zone, and says so', async (timezone) => {
		const result = await runNode(context, twoPlaces, [{}], { timezone });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00', '2026-12-01T09:00:00+09:00 2026-12-01T18:00:00+09:00']);
		expect(result.items[0].json).toMatchObject({
			sendWindows: [
				{
					channel: 1,
					place: 'Kota Makassar',
					sendWindow: '2026-12-01 09:00 to 18:00 WITA (Asia/Makassar, Kota Makassar)',
					datesReadIn: `Asia/Makassar (the zone of Kota Makassar, Sulawesi Selatan, as the workflow's timezone (${timezone}) is not WIB, WITA or WIT)`,
				},
				{
					channel: 2,
					place: 'Kota Jayapura',
					sendWindow: '2026-12-01 09:00 to 18:00 WIT (Asia/Jayapura, Kota Jayapura)',
					datesReadIn: `Asia/Jayapura (the zone of Kota Jayapura, Papua, as the workflow's timezone (${timezone}) is not WIB, WITA or WIT)`,
				},
			],
			assumedTimezone: 'Asia/Makassar (channels[0]), Asia/Jayapura (channels[1])',
			datesWithoutOffset: ['channels[0].startDate', 'channels[0].endDate', 'channels[1].startDate', 'channels[1].endDate'],
		});
	});

	it('the preview says the same, and its request is what Publish sends', async () => {
		const dry = await runNode(context, preview(twoPlaces), [{}], { timezone: 'UTC' });
		const body = (dry.items[0].json.request as IDataObject).body as IDataObject;
		expect((body.channels as IDataObject[]).map(({ startDate }) => startDate)).toEqual(['2026-12-01T09:00:00+08:00', '2026-12-01T09:00:00+09:00']);
		expect((dry.items[0].json.sendWindows as IDataObject[]).map(({ sendWindow }) => sendWindow)).toEqual([
			'2026-12-01 09:00 to 18:00 WITA (Asia/Makassar, Kota Makassar)',
			'2026-12-01 09:00 to 18:00 WIT (Asia/Jayapura, Kota Jayapura)',
		]);
		expect(dry.items[0].json.warnings).toContain('channels[0].startDate, channels[0].endDate, channels[1].startDate, channels[1].endDate had no UTC offset and were read in Asia/Makassar (channels[0]), Asia/Jayapura (channels[1]).');
	});

	it('an Indonesian workflow zone is the marketer\'s own: dates are read in it, and a place in another zone is told its own hours', async () => {
		const result = await runNode(context, twoPlaces, [{}], { timezone: 'Asia/Jakarta' });
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+07:00 2026-12-01T18:00:00+07:00', '2026-12-01T09:00:00+07:00 2026-12-01T18:00:00+07:00']);
		const json = result.items[0].json;
		expect((json.sendWindows as IDataObject[]).map(({ sendWindow, datesReadIn }) => [sendWindow, datesReadIn])).toEqual([
			['2026-12-01 10:00 to 19:00 WITA (Asia/Makassar, Kota Makassar)', "Asia/Jakarta (the workflow's timezone)"],
			['2026-12-01 11:00 to 20:00 WIT (Asia/Jayapura, Kota Jayapura)', "Asia/Jakarta (the workflow's timezone)"],
		]);
		expect(json.warnings).toEqual([
			"Channel 1: its dates have no UTC offset and were read in Asia/Jakarta (the workflow's timezone), but Kota Makassar is in WITA: its recipients get the SMS 2026-12-01 10:00 to 19:00 WITA.",
			"Channel 2: its dates have no UTC offset and were read in Asia/Jakarta (the workflow's timezone), but Kota Jayapura is in WIT: its recipients get the SMS 2026-12-01 11:00 to 20:00 WIT.",
		]);
		expect(json.assumedTimezone).toBe('Asia/Jakarta');
	});

	it('Asia/Pontianak is WIB; Options > Timezone wins over every other rule', async () => {
		const pontianak = createParameters({ options: { timezone: 'Asia/Makassar' } }, [channel({ locationId: PONTIANAK, startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' })]);
		const result = await runNode(context, pontianak, [{}], { timezone: 'UTC' });
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00']);
		expect(result.items[0].json.sendWindows).toEqual([
			{
				channel: 1,
				place: 'Kota Pontianak',
				sendWindow: '2026-12-01 08:00 to 17:00 WIB (Asia/Pontianak, Kota Pontianak)',
				from: 'Tuesday 1 December 2026, 08:00 WIB',
				until: 'Tuesday 1 December 2026, 17:00 WIB',
				datesReadIn: 'Asia/Makassar (Options › Timezone)',
			},
		]);
	});

	it('dates with an offset are sent as written, whatever the zones', async () => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: MAKASSAR, startDate: '2026-12-01 09:00 +07:00', endDate: '2026-12-01T18:00:00+08:00' })]), [{}], { timezone: 'UTC' });
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+07:00 2026-12-01T18:00:00+08:00']);
		expect(result.items[0].json.sendWindows).toEqual([
			{
				channel: 1,
				place: 'Kota Makassar',
				sendWindow: '2026-12-01 10:00 to 18:00 WITA (Asia/Makassar, Kota Makassar)',
				from: 'Tuesday 1 December 2026, 10:00 WITA',
				until: 'Tuesday 1 December 2026, 18:00 WITA',
				datesReadIn: 'as written, with their UTC offsets',
			},
		]);
		expect(result.items[0].json.assumedTimezone).toBeUndefined();
	});

	it("a plain Send Until (a day, no time) is the end of that day in its place's zone: a one-day window in Makassar runs to 23:59:59 WITA", async () => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: MAKASSAR, startDate: '2026-12-01 09:00', endDate: '2026-12-02' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-02T23:59:59+08:00']);
	});

	it("one date with an offset and one without, in a channel or across channels: the one without is read in its own place's zone, not WIB", async () => {
		const mixed = createParameters({}, [
			channel({ locationId: MAKASSAR, startDate: '2026-12-01T09:00:00+08:00', endDate: '2026-12-01 18:00' }),
			channel({ locationId: MAKASSAR, startDate: '2026-12-01T09:00:00+08:00', endDate: '2026-12-01T18:00:00+08:00' }),
			channel({ locationId: JAYAPURA, startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' }),
		]);
		const result = await runNode(context, mixed, [{}], { timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual([
			'2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00',
			'2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00',
			'2026-12-01T09:00:00+09:00 2026-12-01T18:00:00+09:00',
		]);
	});

	it("the executions list's Retry of a failed execution, $now dates without an offset read in the place's hours: what it created is held, the rest sent, each campaign once", async () => {
		// Send From tomorrow at this second, Makassar's wall clock, written without an offset (read in WITA).
		const wita = (days: number) => `={{ $now.setZone('Asia/Makassar').plus({ days: ${days} }).toFormat("yyyy-MM-dd'T'HH:mm:ss") }}`;
		const perPromo = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ locationId: MAKASSAR, startDate: wita(1), endDate: wita(2) })]);
		const promos = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const failed = await runNode(context, perPromo, promos, { timezone: 'UTC', workflowId: history.workflowId });
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		// The Retry reads $now a second later (the clock moved, not waited for): new dates, so a's
		// content key is new too; only the Retry's memory of its execution holds it.
		const retry = await aSecondLater(() => runNode(context, perPromo, promos, { timezone: 'UTC', workflowId: history.workflowId, again: { kind: 'retry', after: failed.run } }));
		expect(errorOf(retry)).toBeUndefined();
		expect(retry.items.map(({ json }) => (json.skipped ? `held:${String(json.earlierOutcome)}` : String(json.status)))).toEqual(['held:created', 'Published', 'Published']);
		expect(await campaignsPerName(context)).toEqual({ a: 1, b: 1, c: 1 });
		expect((await sentDates()).every((dates) => /^\S+\+08:00 \S+\+08:00$/.test(dates))).toBe(true);
	});

	it('a service that lists no places: a date without an offset on a non-Indonesian workflow zone is refused, naming the zone', async () => {
		await fault(context, { path: '/lba/locations', status: 404, times: 10, body: { success: false, error: { code: 'NOT_FOUND', message: 'No such path' } } });
		const result = await runNode(context, createParameters({}, [channel({ locationId: MAKASSAR, startDate: '2026-12-01 09:00', endDate: '2026-12-01T18:00:00+08:00' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 1 › Send From: "2026-12-01 09:00" has no UTC offset, and the workflow\'s timezone (UTC) is not WIB, WITA or WIT, so the node reads such dates in the zone of the channel\'s place; this LBA service does not list its places, so that zone is unknown. Nothing was sent.',
		);
		expect(errorOf(result)?.description).toMatch(/^Set Options › Timezone to the zone the dates are written in \(Asia\/Jakarta for WIB/);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('the place\'s zone can make Send Until come before Send From: refused in that zone\'s words', async () => {
		// 09:30 WIT is 07:30 WIB: before the Send From written with +07:00.
		const result = await runNode(context, createParameters({}, [channel({ locationId: JAYAPURA, startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-01 09:30' })]), [{}], { timezone: 'UTC' });
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 1 › Send Until: 2026-12-01 09:30 Asia/Jayapura is before Send From (2026-12-01 09:00 +07:00) (API: channels[0].endDate must be after startDate). Nothing was sent.',
		);
	});
});

describe("Campaign > Create: n8n's Default timezone and zones the node cannot use", () => {
	const bandung = createParameters({}, [channel({ startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' })]);
	let saved: ReturnType<typeof getGlobalState>;
	beforeEach(() => (saved = getGlobalState()));
	afterEach(() => setGlobalState(saved));

	async function runWithWorkflowZone(zone: string) {
		// The harness's runNode reads "DEFAULT" itself; n8n hands it to the node as the text.
		const result = await context.n8n.runWorkflow(
			{ nodes: [manualTrigger(), lbaNode(bandung)], connections: chain('Start', 'LBA'), pinData: { Start: [{ json: {} }] } } as never,
			{ credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } } as never, timezone: zone },
		);
		return { ...result, items: result.error ? [] : result.output('LBA') };
	}

	it('a workflow zone of DEFAULT is the instance\'s timezone, as n8n reads it (an Indonesian one: its hours)', async () => {
		setGlobalState({ ...saved, defaultTimezone: 'Asia/Makassar' });
		const result = await runWithWorkflowZone('DEFAULT');
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00']);
		expect(result.items[0].json.sendWindows).toEqual([
			expect.objectContaining({ datesReadIn: "Asia/Makassar (the n8n instance's timezone (the workflow's is Default))" }),
		]);
	});

	it('a workflow zone of DEFAULT on an instance on UTC: the place\'s own zone', async () => {
		setGlobalState({ ...saved, defaultTimezone: 'UTC' });
		const result = await runWithWorkflowZone('DEFAULT');
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+07:00 2026-12-01T18:00:00+07:00']);
	});

	it.each([['DEFAULT'], ['local'], ['Asia/Jakrta']])('Options > Timezone "%s" is refused by name', async (zone) => {
		const result = await runNode(context, { ...bandung, options: { timezone: zone } }, [{}], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)?.message).toBe(
			`Item 1 › Options › Timezone: "${zone}" is not a timezone; use an IANA name such as Asia/Jakarta (WIB), Asia/Makassar (WITA) or Asia/Jayapura (WIT). Nothing was sent.`,
		);
		expect(await requests(context)).toHaveLength(0);
	});
});

describe("Campaign > Create: Options › Recipients' Local Time", () => {
	const twoPlaces = createParameters({ options: { recipientsLocalTime: true } }, [
		channel({ locationId: MAKASSAR, startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' }),
		channel({ locationId: JAYAPURA, startDate: '2026-12-01 09:00', endDate: '2026-12-01 18:00' }),
	]);

	it('on a Jakarta workflow, Makassar 09:00 is 09:00 WITA and Jayapura 09:00 is 09:00 WIT', async () => {
		const result = await runNode(context, twoPlaces, [{}], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00', '2026-12-01T09:00:00+09:00 2026-12-01T18:00:00+09:00']);
		expect((result.items[0].json.sendWindows as IDataObject[]).map(({ datesReadIn }) => datesReadIn)).toEqual([
			"Asia/Makassar (the zone of Kota Makassar, Sulawesi Selatan, as Options › Recipients' Local Time is on)",
			"Asia/Jayapura (the zone of Kota Jayapura, Papua, as Options › Recipients' Local Time is on)",
		]);
		expect(result.items[0].json.warnings).toBeUndefined();
	});

	it('given as the text "true" (a sheet\'s cell through an expression), it is on: Makassar 09:00 is 09:00 WITA, not WIB (issue 58)', async () => {
		const fromSheet = { ...twoPlaces, options: { recipientsLocalTime: '={{ $json.localTime }}' } };
		const result = await runNode(context, fromSheet, [{ localTime: 'true' }], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)).toBeUndefined();
		expect(await sentDates()).toEqual(['2026-12-01T09:00:00+08:00 2026-12-01T18:00:00+08:00', '2026-12-01T09:00:00+09:00 2026-12-01T18:00:00+09:00']);
	});

	it('with Options › Timezone too, the item is refused before anything is sent: the two say different things', async () => {
		const both = { ...twoPlaces, options: { recipientsLocalTime: true, timezone: 'Asia/Jakarta' } };
		const result = await runNode(context, both, [{}], { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Options: Timezone ("Asia/Jakarta") and Recipients\' Local Time both say in whose hours dates without an offset are read. Nothing was sent.',
		);
		expect(await requests(context)).toHaveLength(0);
	});
});

describe('Campaign > Create: Preview and the created item open on what a marketer checks', () => {
	const twoChannels = createParameters({}, [channel({ locationId: MAKASSAR }), channel({ message: '🎉 ' + 'x'.repeat(79), smsQty: 100 })]);

	it('Preview: first that nothing was sent, the name, each window in its recipients\' hours and the SMS; the request last; a hint above the output', async () => {
		const result = await runNode(context, preview(twoChannels), [{}, {}], { timezone: 'Asia/Jakarta' });
		const json = result.items[0].json;
		const keys = Object.keys(json);
		expect(keys.slice(0, 5)).toEqual(['preview', 'campaignName', 'sendWindows', 'smsPerRecipient', 'smsBilled']);
		expect(keys[keys.length - 1]).toBe('request');
		expect(json).toMatchObject({ preview: 'Preview: nothing was sent or billed. Set Mode to Publish to send it.', campaignName: 'Weekend promo', smsBilled: 500 + 2 * 100 });
		expect(hintsOf(result).filter((hint) => hint.startsWith('Preview:'))).toEqual(['Preview: nothing was sent or billed. Set Mode to Publish to send it.']);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('a created campaign: its name, id and status first, then its windows and SMS; no Preview hint', async () => {
		const result = await runNode(context, twoChannels, [{}], { timezone: 'Asia/Jakarta' });
		const json = result.items[0].json;
		expect(Object.keys(json).slice(0, 6)).toEqual(['campaignName', 'campaignId', 'status', 'sendWindows', 'smsPerRecipient', 'smsBilled']);
		expect(json).toMatchObject({ campaignName: 'Weekend promo', status: 'Published', smsBilled: 700 });
		expect(hintsOf(result).some((hint) => hint.startsWith('Preview:'))).toBe(false);
	});
});

describe("Campaign > Create: the panel says in whose hours a date is read, before the run", () => {
	// n8n's editor shows a node hint whose displayCondition is true (useNodeHelpers.getNodeHints),
	// evaluated by the workflow's own expression engine, in the workflow's timezone.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { LbaAds } = require('../../../../../dist/nodes/LbaAds/LbaAds.node') as { LbaAds: new () => { description: { hints: Array<{ message: string; displayCondition: string }> } } };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Workflow } = require('n8n-workflow') as typeof import('n8n-workflow');
	const lba = new LbaAds();
	const hints = lba.description.hints;

	function shown(options: IDataObject, timezone: string, operation = 'create', more: IDataObject = {}): string[] {
		const parameters = { resource: 'campaign', operation, options, ...more };
		const node = { id: 'n', name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters } as unknown as INode;
		// The node's own type: n8n keeps only the parameters its description has.
		const nodeTypes = { getByName: () => lba, getByNameAndVersion: () => lba, getKnownTypes: () => ({}) };
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypes as never, settings: { timezone } });
		return hints.filter(({ displayCondition }) => workflow.expression.getSimpleParameterValue(node, displayCondition, 'internal', {}) === true).map(({ message }) => message);
	}

	it.each([
		['Asia/Jakarta', 'WIB (Asia/Jakarta)'],
		['Asia/Makassar', 'WITA (Asia/Makassar)'],
		['Asia/Jayapura', 'WIT (Asia/Jayapura)'],
	])('a workflow on %s: read in %s', (timezone, zone) => {
		expect(shown({}, timezone)).toEqual([`Send From and Send Until without an offset are read in ${zone}, this workflow's timezone. For channels in another zone, turn on Options › Recipients' Local Time.`]);
	});

	it.each([
		['UTC', 'UTC'],
		['America/New_York', "America/New_York (n8n's default when the instance sets none)"],
		['Europe/Berlin', 'another zone'],
	])("a workflow on %s: each channel's own place's zone, the zone named, and $today's advice that works on any n8n", (timezone, named) => {
		expect(shown({}, timezone)).toEqual([
			`This workflow's timezone is ${named}, not WIB, WITA or WIT, so Send From and Send Until without an offset are read in each channel's own place's zone: its recipients' local time (Makassar 09:00 is 09:00 WITA). ` +
				"Dates from $today or $now keep this timezone (its 09:00 is not the recipients' 09:00): write the time as text instead, e.g. {{ $now.setZone('Asia/Jakarta').plus({ days: 1 }).toISODate() }} 09:00.",
		]);
	});

	it("a window typed over several days, or ending at 21:00 or later, is said to run through nights before the run (issue 61); a day's window, or dates from expressions, are not", () => {
		const nights = "A channel's window runs past 21:00 or over several days: the service may send at any hour of it, nights included (21:00 to 08:00 in its recipients' local time). Preview lists each channel's nights; a start at night is refused unless Options › Allow Night Start is on.";
		const window = (startDate: string, endDate: string) => shown({}, 'Asia/Jakarta', 'create', { channels: { channel: [{ startDate, endDate }] } });
		expect(window('2026-12-01 09:00', '2026-12-07 21:00')).toContain(nights);
		expect(window('2026-12-01 09:00', '2026-12-01 22:00')).toContain(nights);
		expect(window('2026-12-01 09:00', '2026-12-01 18:00')).not.toContain(nights);
		expect(window('={{ $now }}', '={{ $now.plus({ days: 3 }) }}')).not.toContain(nights);
	});

	it("the options say theirs, one hint at a time; other operations get none", () => {
		expect(shown({ recipientsLocalTime: true }, 'Asia/Jakarta')).toEqual([expect.stringMatching(/^Options › Recipients' Local Time is on/)]);
		expect(shown({ timezone: 'Asia/Makassar' }, 'UTC')).toEqual(['Options › Timezone is set: Send From and Send Until without an offset are read in the zone it names.']);
		expect(shown({}, 'Asia/Jakarta', 'getMany')).toEqual([]);
	});
});
