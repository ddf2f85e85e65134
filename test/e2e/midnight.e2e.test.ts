// Issue 59, "dates the clock moved are recognized for what they are", in real n8n: n8n's own clock
// is set 30 s before a boundary (libfaketime: lib/env.js settableClock), a series of one SMS
// fails on its third campaign (503), and the execution is retried from the executions list once
// the boundary has passed, so every date is computed again a day (or an hour) later. Counted per
// campaign meant (name and dates) from the sandbox's journal: each campaign once, the two created
// ones held naming their own campaignId in order, the third sent. The boundaries: midnight in WIT
// and in WITA (the workflow's zone, `$today` as the user page once advised), and midnight in WIB,
// which is also the hour everywhere: the node's own advice on n8n's default zone, and an hourly grid;
// then 01:00 WIB, seconds after the first runs: a minute grid and a quarter-hour grid.
// Each failed on the pairing of issue 59's report ("the same dates first"): day 1 held as day 2's
// campaign, day 2 billed twice. Last, the report's first case: a child's sheet of one daily SMS,
// day 1's row gone, retried after midnight in n8n's default zone: day 2 is not held as day 1's
// campaign (it was, naming day 1's campaignId, before the `unclear` rule), and its advice is followed.
import { DateTime } from 'luxon';

import * as e2e from './lib';

type Json = Record<string, any>;

const LBA = 'Create campaigns';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long before its boundary the first runs start: they take seconds (a late one starts all over a week later). */
const LEAD_MS = 30_000;

/** Start -> "Series" (three rows, `at` 1 to 3) -> Create campaigns, one SMS `name` (`<prefix>-1`) at the dates given. */
function series(id: string, name: string, locationId: number, dates: { startDate: string; endDate: string }, timezone?: string) {
	const rows = e2e.node(`${id}-rows`, 'Series', 'n8n-nodes-base.code', 2, { jsCode: 'return [1, 2, 3].map((at) => ({ json: { at } }));' });
	const lba = e2e.lbaNode(
		`${id}-lba`,
		LBA,
		e2e.createCampaignParameters({ name, channels: { channel: [e2e.channel({ sender: 'WARUNGKITA', message: 'Promo pagi!', locationId, ...dates })] } }),
	);
	const workflow = e2e.workflow(id, `Midnight: ${name}`, [e2e.manualTrigger(`${id}-start`), rows, lba], e2e.chain('Start', 'Series', LBA));
	// No timezone: n8n's default, as a new workflow is saved.
	return timezone ? { ...workflow, settings: { ...workflow.settings, timezone } } : { ...workflow, settings: { executionOrder: 'v1' } };
}
/** The user page's example until issue 61: `$today` in the workflow's zone, a day per row. */
const TODAY_SERIES = { startDate: '={{ $today.plus({ days: $json.at }).set({ hour: 9 }) }}', endDate: '={{ $today.plus({ days: $json.at }).set({ hour: 18 }) }}' };
/** The node's advice (SAY.timeAsText): the day in WIB, the time as text read in each place's hours. */
const ADVICE_SERIES = {
	startDate: "={{ $now.setZone('Asia/Jakarta').plus({ days: $json.at }).toISODate() }} 09:00",
	endDate: "={{ $now.setZone('Asia/Jakarta').plus({ days: $json.at }).toISODate() }} 18:00",
};
/** An hourly grid from the hour begun, in the workflow's zone (WIB). */
const HOURLY_GRID = { startDate: "={{ $now.startOf('hour').plus({ hours: $json.at }) }}", endDate: "={{ $now.startOf('hour').plus({ hours: $json.at + 2 }) }}" };
/** A minute grid, and a quarter-hour grid from the quarter begun: a Retry after their boundary moves each slot onto the next one's dates. */
const MINUTE_GRID = { startDate: "={{ $now.startOf('minute').plus({ minutes: $json.at }) }}", endDate: "={{ $now.startOf('minute').plus({ minutes: $json.at, hours: 6 }) }}" };
const QUARTER = '$now.set({ minute: Math.floor($now.minute / 15) * 15 }).startOf(\'minute\')';
const QUARTER_GRID = { startDate: `={{ ${QUARTER}.plus({ minutes: 15 * $json.at }) }}`, endDate: `={{ ${QUARTER}.plus({ minutes: 15 * $json.at, hours: 6 }) }}` };

/**
 * Issue 59's report, first case: a sheet of the same daily SMS at 09:00 WIB, read by a sub-workflow
 * (its Code node stands for the sheet: whole minutes, computed again by the parent's Retry), and
 * another promo between its days. Each attempt has names of its own (a late first run starts over).
 */
const SHEET = 'Sheet';
const SUB = 'Run sub-workflow';
const sheetRow = (name: string, day: number, hour: string) => ({ name, startDate: `2036-12-0${day}T${hour}:00+07:00`, endDate: `2036-12-0${day}T18:00:00+07:00` });
function sheetRows(attempt: number, dailyDays: number[]) {
	const daily = (day: number) => sheetRow(`mid-sheet${attempt}-daily`, day, '09:00');
	const rows = [...dailyDays.slice(0, 1).map(daily), sheetRow(`mid-sheet${attempt}-other`, 1, '10:00'), ...dailyDays.slice(1).map(daily)];
	return `return ${JSON.stringify(rows)}.map((json) => ({ json }));`;
}
const SHEET_CHILD = e2e.workflow(
	'midSheetChild',
	'Midnight: the sheet (child)',
	[
		e2e.executeWorkflowTrigger('midSheetChild-trigger'),
		e2e.node('midSheetChild-rows', SHEET, 'n8n-nodes-base.code', 2, { jsCode: sheetRows(1, [1, 2, 3]) }),
		e2e.lbaNode(
			'midSheetChild-lba',
			LBA,
			e2e.createCampaignParameters({
				name: '={{ $json.name }}',
				channels: { channel: [e2e.channel({ sender: 'WARUNGKITA', message: 'Promo pagi!', locationId: 3273, startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' })] },
				options: { concurrency: 1 },
			}),
		),
	],
	e2e.chain('Called', SHEET, LBA),
);
// No timezone: n8n's default (America/New_York here: GENERIC_TIMEZONE unset), as a new workflow is saved.
const NEW_YORK = 'America/New_York';
const SHEET_PARENT = e2e.workflow('midSheet', 'Midnight: the sheet', [e2e.manualTrigger('midSheet-start'), e2e.executeWorkflowNode('midSheet-sub', SUB, SHEET_CHILD.id)], e2e.chain('Start', SUB));

const WIT = series('midWit', 'mid-wit-1', 9471, TODAY_SERIES, 'Asia/Jayapura'); // Kota Jayapura, Papua
const WITA = series('midWita', 'mid-wita-1', 7371, TODAY_SERIES, 'Asia/Makassar'); // Kota Makassar, Sulawesi Selatan
const ADVICE = series('midAdvice', 'mid-advice-1', 3273, ADVICE_SERIES); // Kota Bandung, Jawa Barat (WIB)
const GRID = series('midGrid', 'mid-grid-1', 3273, HOURLY_GRID, 'Asia/Jakarta');
const MINUTES = series('midMinutes', 'mid-minutes-1', 3273, MINUTE_GRID, 'Asia/Jakarta');
const QUARTERS = series('midQuarters', 'mid-quarters-1', 3273, QUARTER_GRID, 'Asia/Jakarta');

/** The next `hourUtc`:00 UTC at least ten minutes from now (the tests' clock). */
function nextAt(hourUtc: number): number {
	const from = Date.now() + 10 * 60_000;
	const day = new Date(from);
	const at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hourUtc);
	return at > from ? at : at + DAY;
}

const startOf = (campaign: e2e.JournalCampaign) => String(campaign.request.channels[0].startDate);

e2e.describeE2E(`A Retry across midnight and the hour, n8n ${e2e.n8nVersion()}'s own clock set 30 s before each`, () => {
	let setup: e2e.LbaN8n | undefined;
	let steps: e2e.UserSteps;
	let clock: ReturnType<typeof e2e.settableClock> | undefined;
	// Each boundary after the last (the clock is only set forward): WIT's midnight (15:00 UTC), WITA's an
	// hour later, WIB's an hour after that; all a week later after a first run that ended too late.
	let wit = 0;

	beforeAll(async () => {
		clock = e2e.settableClock();
		setup = await e2e.startLbaN8n('midnight', { workflows: [WIT, WITA, ADVICE, GRID, MINUTES, QUARTERS, SHEET_CHILD, SHEET_PARENT], publish: [SHEET_CHILD.id], env: clock.env });
		steps = e2e.userSteps(setup);
		wit = nextAt(15);
	}, 15 * 60 * 1000);
	afterAll(async () => {
		try {
			await setup?.close();
		} finally {
			clock?.cleanup();
		}
	});

	/** n8n's clock, from the Date header of its answers (to the second). */
	async function n8nNow(): Promise<number> {
		const res = await fetch(`${setup!.n8n!.baseUrl}/healthz`);
		return Date.parse(res.headers.get('date') ?? '');
	}
	async function untilN8nClock(reached: (now: number) => boolean, what: string) {
		const deadline = Date.now() + 3 * 60_000;
		for (;;) {
			const now = await n8nNow();
			if (reached(now)) return now;
			if (Date.now() > deadline) throw new Error(`n8n's clock never ${what} (it read ${new Date(now).toISOString()})`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/**
	 * Each workflow run 30 s before `boundary`, its third campaign refused (503), then retried
	 * once n8n's clock has passed it. When a first run ended too late (a loaded machine), all starts
	 * over a week later: no date of that series is then one this one sent.
	 */
	async function acrossBoundary(hoursAfterWit: number, workflows: Array<{ id: string; prefix: string }>, lead = LEAD_MS) {
		for (let attempt = 1; ; attempt++) {
			const boundary = wit + hoursAfterWit * HOUR;
			const since = Date.now();
			clock!.set(boundary - lead);
			await untilN8nClock((now) => Math.abs(now - (boundary - lead)) < 5_000, `read ${lead / 1000} s before ${new Date(boundary).toISOString()}`);
			// Signed in again: a session lasts 7 days of n8n's clock, and a week later it is over.
			await setup!.rest.login();
			const failed: e2e.FinishedExecution[] = [];
			for (const { id } of workflows) {
				await steps.fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
				try {
					failed.push(await steps.run(id));
				} finally {
					await steps.clearFaults();
				}
			}
			if (Math.max(...failed.map((run) => run.stoppedAt)) >= boundary - 2_000) {
				if (attempt < 2) {
					wit += 7 * DAY;
					continue;
				}
				throw new Error(`the first runs ended after ${new Date(boundary - 2_000).toISOString()}, too late to retry them across that boundary`);
			}
			const sentFirst = await Promise.all(workflows.map(async ({ prefix }) => (await steps.journal(prefix)).filter((c) => Date.parse(c.receivedAt) >= since)));
			for (const [index, run] of failed.entries()) {
				expect(run.status).toBe('error');
				// Two created before the 503 (the message names why, if not).
				expect([sentFirst[index].length, sentFirst[index].length === 2 ? '' : run.error?.message]).toEqual([2, '']);
			}
			await untilN8nClock((now) => now >= boundary + 2_000, `passed ${new Date(boundary).toISOString()}`);
			const retried: e2e.FinishedExecution[] = [];
			for (const [index, { id }] of workflows.entries()) retried.push(await steps.retry(id, failed[index].executionId));
			return await Promise.all(
				workflows.map(async ({ prefix }, index) => ({
					retried: retried[index],
					before: sentFirst[index],
					after: (await steps.journal(prefix)).filter((c) => Date.parse(c.receivedAt) >= since),
				})),
			);
		}
	}

	/**
	 * Each campaign once; the two created ones held naming their own campaignId, in order; the third
	 * sent, computed again after the boundary: `unit` (a day, an hour) later than in the first run.
	 */
	function eachOnce({ retried, before, after }: { retried: e2e.FinishedExecution; before: e2e.JournalCampaign[]; after: e2e.JournalCampaign[] }, unit: number) {
		expect(retried.status).toBe('success');
		expect(retried.output(LBA).map((item: Json) => (item.skipped ? `held as ${item.campaignId}` : item.status))).toEqual([
			`held as ${before[0].campaignId}`,
			`held as ${before[1].campaignId}`,
			'Published',
		]);
		expect(after).toHaveLength(3);
		const starts = after.map((campaign) => Date.parse(startOf(campaign)));
		// Rows 1 and 2 as first sent; row 3 moved by the boundary: 0, 1 and 3 units after row 1.
		expect(starts.map((start) => (start - starts[0]) / unit)).toEqual([0, 1, 3]);
	}

	test("midnight in WIT, the workflow's zone (Asia/Jayapura): a $today series of one SMS, retried 2 s after midnight, each day once", async () => {
		const [result] = await acrossBoundary(0, [{ id: WIT.id, prefix: 'mid-wit' }]);
		eachOnce(result, DAY);
	}, 10 * 60 * 1000);

	test("midnight in WITA, the workflow's zone (Asia/Makassar): the same, an hour later", async () => {
		const [result] = await acrossBoundary(1, [{ id: WITA.id, prefix: 'mid-wita' }]);
		eachOnce(result, DAY);
	}, 10 * 60 * 1000);

	test("midnight in WIB, the hour everywhere: the node's own advice on n8n's default zone, and an hourly grid of $now.startOf('hour'), each campaign once", async () => {
		e2e.follows('timeAsText');
		const [advice, grid] = await acrossBoundary(2, [
			{ id: ADVICE.id, prefix: 'mid-advice' },
			{ id: GRID.id, prefix: 'mid-grid' },
		]);
		eachOnce(advice, DAY);
		eachOnce(grid, HOUR);
	}, 10 * 60 * 1000);

	test("a minute grid and a quarter-hour grid of $now in the node's own fields (the workflow's zone WIB), retried seconds after their boundary (every slot moved onto the next one's dates): each campaign once, the created ones held naming their own", async () => {
		// 20 s before 01:00 WIB: the Retry reads the clock about 22 s after the first run did, nearer
		// the next slot's dates than the minute that began (the report's pairing took those).
		const [minutes, quarters] = await acrossBoundary(
			3,
			[
				{ id: MINUTES.id, prefix: 'mid-minutes' },
				{ id: QUARTERS.id, prefix: 'mid-quarters' },
			],
			20_000,
		);
		eachOnce(minutes, 60_000);
		eachOnce(quarters, 15 * 60_000);
	}, 10 * 60 * 1000);

	test("a sub-workflow's sheet of the same daily SMS at 09:00 WIB, another promo refused between its days; the created day marked sent, the parent retried after midnight in the workflow's zone: the next day is not held as the first day's campaign; its advice followed, each campaign once", async () => {
		e2e.follows('lookForCampaign', 'ifAnother');
		const byStart = (campaigns: e2e.JournalCampaign[]) => campaigns.map((campaign) => `${String(campaign.request.name).replace(/^mid-sheet\d+-/, '')} ${startOf(campaign)}`);
		const saveSheet = async (attempt: number, days: number[]) => {
			await steps.setNode(SHEET_CHILD.id, SHEET, (node: Json) => ({ ...node, parameters: { jsCode: sheetRows(attempt, days) } }));
			await setup!.rest.activateWorkflow(SHEET_CHILD.id); // 2.x runs a sub-workflow's published version
		};
		for (let attempt = 1; ; attempt++) {
			const prefix = `mid-sheet${attempt}`;
			// Midnight in New York (05:00 UTC in winter, 04:00 in summer), after the boundaries of the tests before.
			const boundary = DateTime.fromMillis(wit + 2 * HOUR, { zone: NEW_YORK }).plus({ days: 1 }).startOf('day').toMillis();
			await saveSheet(attempt, [1, 2, 3]);
			clock!.set(boundary - LEAD_MS);
			await untilN8nClock((now) => Math.abs(now - (boundary - LEAD_MS)) < 5_000, `read ${LEAD_MS / 1000} s before ${new Date(boundary).toISOString()}`);
			await setup!.rest.login();
			// Day 1 created, the other promo refused (503): the child and its parent fail.
			await steps.fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
			let failed: e2e.FinishedExecution;
			try {
				failed = await steps.run(SHEET_PARENT.id);
			} finally {
				await steps.clearFaults();
			}
			if (failed.stoppedAt >= boundary - 2_000) {
				if (attempt < 2) {
					wit += 7 * DAY;
					continue;
				}
				throw new Error(`the first run ended after ${new Date(boundary - 2_000).toISOString()}, too late to retry it across midnight`);
			}
			expect(failed.status).toBe('error');
			const [day1, ...none] = await steps.journal(prefix);
			expect(none).toEqual([]);
			expect(byStart([day1])).toEqual(['daily 2036-12-01T09:00:00+07:00']);
			// The marketer marks day 1 sent (its row leaves the sheet), then retries after midnight.
			await saveSheet(attempt, [2, 3]);
			await untilN8nClock((now) => now >= boundary + 2_000, `passed ${new Date(boundary).toISOString()}`);
			const retried = await steps.retry(SHEET_PARENT.id, failed.executionId);
			expect(retried.status).toBe('success');
			// The sheet now: day 2, the other promo, day 3.
			const [day2, other, day3] = retried.output(SUB);
			expect([other.status, day3.status]).toEqual(['Published', 'Published']);
			// Day 2 moved exactly the day that began: the node cannot tell it from day 1 computed again. Not
			// "created" (nothing sent), naming the campaign it may be, with the way to send it.
			expect(day2).toMatchObject({ skipped: true, earlierOutcome: 'unclear', mayBeCampaignId: day1.campaignId });
			expect(day2.campaignId).toBeUndefined();
			expect(day2.howToResend).toMatch(/^Look for campaign \S+ in LBA Ads\. If it is this campaign, do nothing\. If it is another: copy this item's sendAgainKey, set this node's Mode to Send One Again, paste it into Send Again Key, click Execute step, then set Mode back to Publish\./);
			// It is another (day 2, not day 1): in the child's editor, Mode Send One Again with its key, Execute step, Mode back to Publish.
			await steps.setNode(SHEET_CHILD.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'sendAgain', sendAgainKey: day2.sendAgainKey } }));
			const stepped = await steps.run(SHEET_CHILD.id, 'Called');
			expect([stepped.status, stepped.error?.message]).toEqual(['success', undefined]);
			await steps.setNode(SHEET_CHILD.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'publish' } }));
			await setup!.rest.activateWorkflow(SHEET_CHILD.id);
			// Counted per campaign meant (name and start): each once.
			expect(byStart(await steps.journal(prefix)).sort()).toEqual([
				'daily 2036-12-01T09:00:00+07:00',
				'daily 2036-12-02T09:00:00+07:00',
				'daily 2036-12-03T09:00:00+07:00',
				'other 2036-12-01T10:00:00+07:00',
			]);
			return;
		}
	}, 10 * 60 * 1000);
});
