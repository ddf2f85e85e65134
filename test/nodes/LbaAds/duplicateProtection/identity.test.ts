/**
 * "One execution" as n8n means it (issue 35): each way a campaign is run again, staged in
 * n8n-core's engine with n8n's own execution context (`establishExecutionContext`, run by
 * WorkflowExecute): a Retry as n8n's ExecutionService.retry builds it, an Execute step through
 * `runPartialWorkflow2`, a sub-execution with the caller's context as the Execute Workflow node
 * passes it. The rule: a Retry never re-sends what the execution it retries created; a new
 * execution never re-sends the same campaign by meaning; a changed campaign is sent. The titles
 * start with the row names of the identity matrix in docs/duplicate-protection.md.
 */
import type { IDataObject, INode, IRun, RelatedExecution } from 'n8n-workflow';
import { DateTime, Settings } from 'luxon';

import { chain, errorOf, manualTrigger, type RunOptions, type RunResult } from '../../../harness';
import { campaigns, channel, createParameters, fault, lbaNode, useHistory, useSandbox } from '../setup';

const context = useSandbox();
const history = useHistory('identity');
const store = history.store;
/** The run options of this test's saved workflow: its id and its credential. */
const saved = (): RunOptions => ({ credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } }, workflowId: history.workflowId });

const six = Array.from({ length: 6 }, (_, index) => ({ name: `promo-${index + 1}` }));
const nowDates = [channel({ startDate: '={{ $now.plus({ minutes: 5 }) }}', endDate: '={{ $now.plus({ days: 3 }) }}' })];
/** Dates that move with the clock, one at a time (so a 503 at item 4 leaves items 1-3 created). */
const withNow = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, nowDates);
const fixed = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } });
const failAtItem4 = () => fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
const noOp = (name: string): INode => ({ id: name, name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [100, 0], parameters: {} });
/**
 * Moves the clock to its next second: the service takes dates to the second, so two executions in
 * one second with `$now` dates give the same campaign by meaning (and its key holds it back).
 * `Date.now()` (what luxon's `$now` and the node read) runs with real time plus an offset that this
 * moves, so no test waits out the rest of a second (12 of them did), and every real wait still
 * moves it as much (n8n's 1 s between two tries of Retry On Fail). Timers and I/O stay real.
 */
const realNow = Date.now.bind(Date);
let offsetMs = 0;
/** How far luxon's clock (what `$today` reads: setup.ts) is from `Date.now()`. */
const luxonOffset = () => Settings.now() - Date.now();
async function nextSecond(): Promise<void> {
	const now = Date.now();
	offsetMs += (Math.floor(now / 1000) + 1) * 1000 - now;
}
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs));
afterAll(() => jest.restoreAllMocks());

/** Start (the items pinned) -> LBA, run as `options` say. */
async function run(parameters: IDataObject, items: IDataObject[], options: RunOptions & { node?: Partial<INode> } = {}): Promise<RunResult & { items: IDataObject[] }> {
	const { node, ...runOptions } = options;
	const result = await context.n8n.runWorkflow(
		{ nodes: [manualTrigger(), lbaNode(parameters, node)], connections: chain('Start', 'LBA'), pinData: { Start: items.map((json) => ({ json })) } },
		{ ...saved(), ...runOptions },
	);
	const ran = result.run.data.resultData.runData.LBA;
	return { ...result, items: result.error || !ran ? [] : result.output('LBA', 0, ran.length - 1).map((item) => item.json) };
}

const retryOf = (after: IRun): RunOptions => ({ again: { kind: 'retry', after } });
const establishedAt = (result: RunResult) => result.run.data.executionData?.runtimeData?.establishedAt;
/** 'retry:created' (held by the retry key), 'held:created' (by the campaign's key), or the status of a sent campaign. */
const outcomes = (items: IDataObject[]) =>
	items.map((json) => (json.skipped ? `${/this one retries/.test(String(json.reason)) ? 'retry' : 'held'}:${String(json.earlierOutcome)}` : String(json.status)));

async function sentCounts(): Promise<number[]> {
	const counts = new Map<string, number>();
	for (const { request } of await campaigns(context)) counts.set(String(request.name), (counts.get(String(request.name)) ?? 0) + 1);
	return [...counts.values()];
}

/** A caller's execution context as n8n establishes it (a parent execution's runtimeData). */
async function callerContext(): Promise<IDataObject> {
	const parent = await context.n8n.runWorkflow({ nodes: [manualTrigger(), noOp('Execute Workflow')], connections: chain('Start', 'Execute Workflow') }, { workflowId: 'parent' });
	return parent.run.data.executionData!.runtimeData as unknown as IDataObject;
}
const calledBy = (executionContext: IDataObject, executionId: string): RunOptions => ({
	parentExecution: { executionId, workflowId: 'parent', executionContext, shouldResume: true } as RelatedExecution,
});

describe('a Retry never re-sends what the execution it retries created', () => {
	it('executions-list Retry (original workflow): $now dates, a 503 at item 4: the Retry keeps the context, 6 campaigns, 0 twice', async () => {
		await failAtItem4();
		const failed = await run(withNow, six);
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		await nextSecond();
		const retry = await run(withNow, six, retryOf(failed.run));
		expect(errorOf(retry)).toBeUndefined();
		expect(retry.run.mode).toBe('retry');
		expect(establishedAt(retry)).toBe(establishedAt(failed));
		expect(outcomes(retry.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it('executions-list Retry (saved workflow): Timeout, Concurrency and Duplicate Protection edited before it change nothing', async () => {
		await failAtItem4();
		const failed = await run(withNow, six);
		await nextSecond();
		const edited = { ...withNow, duplicateProtection: 'customKey', idempotencyKey: '={{ $json.name }}-{{ $now.toMillis() }}', options: { concurrency: 3, timeoutMs: 20_000 } };
		const retry = await run(edited, six, retryOf(failed.run));
		expect(outcomes(retry.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it('executions-list Retry (saved workflow) with the message edited for every item: another campaign for each, sent; nothing is called created that was not', async () => {
		await failAtItem4();
		const failed = await run(withNow, six);
		const edited = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [{ ...nowDates[0], message: 'Diskon 30% hari ini!' }]);
		const retry = await run(edited, six, retryOf(failed.run));
		expect(outcomes(retry.items)).toEqual(Array(6).fill('Published'));
		const messages = (await campaigns(context)).map((campaign) => (campaign.request.channels as IDataObject[])[0].message);
		expect(messages.slice(3)).toEqual(Array(6).fill('Diskon 30% hari ini!'));
	});

	it('executions-list Retry (saved workflow) with only the refused item fixed: the created ones are held, each naming its campaign', async () => {
		await failAtItem4();
		const failed = await run(withNow, six);
		const createdIds = (await campaigns(context)).map((campaign) => String(campaign.campaignId));
		expect(createdIds).toHaveLength(3);
		await nextSecond();
		const edited = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [{ ...nowDates[0], message: "={{ $json.name === 'promo-4' ? 'Fixed text' : 'Diskon 20% hari ini!' }}" }]);
		const retry = await run(edited, six, retryOf(failed.run));
		expect(outcomes(retry.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(retry.items.slice(0, 3).map((json) => json.campaignId)).toEqual(createdIds);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	// A Retry re-runs the failed node with its saved input: rows change before the node only in a
	// sub-workflow, which a parent Retry runs as a new execution (with the caller's context).
	it('sub-workflow, parent retried after its rows changed: a row added on top, rows reordered, created rows removed; each hold stays on its own campaign', async () => {
		const caller = await callerContext();
		await failAtItem4();
		await run(withNow, six, calledBy(caller, '111'));
		const created = await campaigns(context);
		const idOf = new Map(created.map((campaign) => [String(campaign.request.name), String(campaign.campaignId)]));
		await nextSecond();
		// promo-2 removed (marked sent upstream), a new row on top, the rest reversed.
		const rows = [{ name: 'promo-new' }, ...six.filter(({ name }) => name !== 'promo-2').reverse()];
		const retry = await run(withNow, rows, calledBy(caller, '112'));
		const byName = new Map(rows.map(({ name }, index) => [name, retry.items[index]]));
		for (const name of ['promo-1', 'promo-3']) expect(byName.get(name)).toMatchObject({ skipped: true, earlierOutcome: 'created', campaignId: idOf.get(name) });
		for (const name of ['promo-new', 'promo-4', 'promo-5', 'promo-6']) expect(byName.get(name)).toMatchObject({ status: 'Published' });
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1, 1]);
	});

	it('sub-workflow, parent retried, two campaigns per store that differ only in their $now dates (a Code node without pairedItem): each held on its own, in order of its dates', async () => {
		const caller = await callerContext();
		const twoPerStore = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [
			channel({ startDate: '={{ $now.plus({ hours: $json.slot === "evening" ? 10 : 1 }) }}', endDate: '={{ $now.plus({ days: 3 }) }}' }),
		]);
		const rows = ['a', 'b'].flatMap((store) => ['morning', 'evening'].map((slot) => ({ name: `store-${store}`, slot })));
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const failed = await run(twoPerStore, rows, calledBy(caller, '121'));
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		await nextSecond();
		// The child's Code node, run again, gives the evening rows first.
		const reordered = [rows[3], rows[1], rows[2], rows[0]];
		const retry = await run(twoPerStore, reordered, calledBy(caller, '122'));
		expect(outcomes(retry.items)).toEqual(['Published', 'retry:created', 'retry:created', 'retry:created']);
		// Each created campaign named by the item that holds it: same store, same slot.
		const created = await campaigns(context);
		expect(created).toHaveLength(4);
		for (const [index, row] of reordered.entries()) {
			if (index === 0) continue;
			const campaign = created.find((each) => each.campaignId === retry.items[index].campaignId);
			expect(campaign?.request.name).toBe(row.name);
			const start = Date.parse(String((campaign!.request.channels as IDataObject[])[0].startDate));
			const end = Date.parse(String((campaign!.request.channels as IDataObject[])[0].endDate));
			// The evening campaign starts 10 hours after $now, the morning one 1 hour: 3 days - 1 h or - 10 h before its end.
			expect(Math.round((end - start) / 3_600_000)).toBe(row.slot === 'evening' ? 62 : 71);
		}
	});

	it("sub-workflow, parent retried, the morning campaign's row gone (marked sent): the evening one of the same shape is sent, not held as the morning's", async () => {
		const caller = await callerContext();
		const slots = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' })]);
		const morning = { name: 'store-a', startDate: '2036-12-01T09:00:00+07:00', endDate: '2036-12-01T12:00:00+07:00' };
		const evening = { name: 'store-a', startDate: '2036-12-01T18:00:00+07:00', endDate: '2036-12-01T21:00:00+07:00' };
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const failed = await run(slots, [morning, evening], calledBy(caller, '131'));
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		const retry = await run(slots, [evening], calledBy(caller, '132'));
		expect(outcomes(retry.items)).toEqual(['Published']);
		const starts = (await campaigns(context)).map((campaign) => (campaign.request.channels as IDataObject[])[0].startDate);
		expect(starts).toEqual([morning.startDate, evening.startDate]);
	});

	it('sub-workflow, parent retried, $now dates, the morning campaign refused and its row filtered out: the evening one, created, is held naming its campaign (not sent twice)', async () => {
		const caller = await callerContext();
		const slots = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [
			channel({ startDate: '={{ $now.plus({ hours: $json.slot === "evening" ? 10 : 1 }) }}', endDate: '={{ $now.plus({ days: 3 }) }}' }),
		]);
		// The evening row first: it is created, the morning one refused.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const failed = await run(slots, [{ name: 'store-b', slot: 'evening' }, { name: 'store-b', slot: 'morning' }], calledBy(caller, '141'));
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		const [created, ...others] = await campaigns(context);
		expect(others).toEqual([]);
		await nextSecond();
		const retry = await run(slots, [{ name: 'store-b', slot: 'evening' }], calledBy(caller, '142'));
		expect(retry.items).toEqual([expect.objectContaining({ skipped: true, earlierOutcome: 'created', campaignId: created.campaignId })]);
		expect((await campaigns(context)).length).toBe(1);
	});

	it('Retry with fixed dates moved by the marketer (not by the clock): another campaign, sent', async () => {
		await failAtItem4();
		const failed = await run(fixed, six);
		const moved = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: '2027-02-01T09:00:00+07:00', endDate: '2027-02-03T09:00:00+07:00' })]);
		const retry = await run(moved, six, retryOf(failed.run));
		expect(outcomes(retry.items)).toEqual(Array(6).fill('Published'));
	});

	it('node Retry On Fail: $now dates, the second try sends only what the first did not', async () => {
		await failAtItem4();
		const result = await run(withNow, six, { node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } });
		expect(outcomes(result.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});
});

describe("a sub-workflow's execution is its caller's", () => {
	it('sub-workflow with parent retried: the child runs as a new execution with the same caller context: 6 campaigns, 0 twice', async () => {
		const caller = await callerContext();
		await failAtItem4();
		const first = await run(withNow, six, calledBy(caller, '101'));
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		await nextSecond();
		// A Retry of the parent copies its context (proven above); it starts the child as a new execution.
		const again = await run(withNow, six, calledBy(caller, '102'));
		expect(establishedAt(again)).not.toBe(establishedAt(first));
		expect(outcomes(again.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it("Retry On Fail on the parent's Execute Workflow node: the child again, in the same parent execution: 0 twice", async () => {
		const caller = await callerContext();
		await failAtItem4();
		await run(withNow, six, calledBy(caller, '201'));
		await nextSecond();
		const again = await run(withNow, six, calledBy(caller, '201'));
		expect(outcomes(again.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it("issue 59: $now dates in the node's fields, the child's rows changed before the parent's Retry (a node inserted adds a field, a value computed again): found by the clock, the created ones held, none sent twice", async () => {
		const caller = await callerContext();
		await failAtItem4();
		const first = await run(withNow, six, calledBy(caller, '381'));
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		await nextSecond();
		// Every row other than in the run: its item is not found again, the clock's move is.
		const changed = six.map((row) => ({ ...row, tag: 'x', stampedAt: new Date(Date.now()).toISOString() }));
		const retried = await run(withNow, changed, calledBy(JSON.parse(JSON.stringify(caller)), '382'));
		expect(outcomes(retried.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it("Retry On Fail on the child's LBA node: the second try in the child sends only what the first did not", async () => {
		await failAtItem4();
		const result = await run(withNow, six, { ...calledBy(await callerContext(), '301'), node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } });
		expect(outcomes(result.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
	});

	it('same sub-workflow called twice in one parent execution: each call\'s campaigns are its own; the same items with $now dates are new campaigns, none held as another call\'s (issue 59)', async () => {
		const caller = await callerContext();
		await run(withNow, six.slice(0, 3), calledBy(caller, '401'));
		await nextSecond();
		const otherItems = await run(withNow, six.slice(3), calledBy(caller, '401'));
		expect(outcomes(otherItems.items)).toEqual(['Published', 'Published', 'Published']);
		// The first call returned its items: its campaigns are its own, never this call's (a Retry never runs it again).
		const sameItems = await run(withNow, six.slice(0, 3), calledBy(caller, '401'));
		expect(outcomes(sameItems.items)).toEqual(['Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([2, 2, 2, 1, 1, 1]);
	});

	it("issue 59: the child's rows on a grid of whole minutes (one promo at 09:00 and 09:05, another between), 09:00 marked sent before the parent's Retry: 09:05 is neither held as 09:00's campaign nor sent; it names 09:00's campaign; Send One Again sends it, once", async () => {
		const caller = await callerContext();
		const grid = createParameters({ name: '={{ $json.name }}' }, [channel({ startDate: '={{ $json.start }}', endDate: '={{ $json.end }}' })]);
		const row = (name: string, start: string) => ({ name, start: `2026-12-07T${start}:00+07:00`, end: `2026-12-07T${start.replace(/^09/, '18')}:00+07:00` });
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const first = await run(grid, [row('grid-A', '09:00'), row('grid-B', '09:00'), row('grid-A', '09:05')], { ...calledBy(caller, '601'), node: { parameters: { ...grid, options: { concurrency: 1 } } } as never });
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		const [created] = await campaigns(context);
		await nextSecond();
		// The parent retried (a copy of its context, a new child execution), the 09:00 row gone.
		const retried = await run(grid, [row('grid-B', '09:00'), row('grid-A', '09:05')], calledBy(JSON.parse(JSON.stringify(caller)), '602'));
		expect(retried.items[0].status).toBe('Published');
		expect(retried.items[1]).toMatchObject({ skipped: true, earlierOutcome: 'unclear', mayBeCampaignId: created.campaignId });
		expect(retried.items[1].campaignId).toBeUndefined();
		expect(String(retried.items[1].reason)).toMatch(/^Not sent: the execution this one retries created campaign \S+ \(from 2026-12-07 09:00 WIB\), and this one \(from 2026-12-07 09:05 WIB\) differs from it only by what the clock moved meanwhile/);
		expect((retried.run.data.resultData.runData.LBA[0].hints ?? []).map((hint) => hint.message)).toContain(
			'Item 2 was not sent: this Retry cannot tell it from campaigns the retried execution created. Each item names the campaign it may be and what to do.',
		);
		// "If it is another": Mode Send One Again with its sendAgainKey, in the editor: sent, once.
		const sentAgain = await run({ ...grid, runMode: 'sendAgain', sendAgainKey: String(retried.items[1].sendAgainKey) }, [row('grid-B', '09:00'), row('grid-A', '09:05')]);
		expect(sentAgain.items[0]).toMatchObject({ sentAgain: true, status: 'Published' });
		// Mode back to Publish: the next run holds both back (the campaign sent again is recorded by its content).
		const again = await run(grid, [row('grid-B', '09:00'), row('grid-A', '09:05')], calledBy(await callerContext(), '603'));
		expect(outcomes(again.items)).toEqual(['held:created', 'held:created']);
		expect((await campaigns(context)).map((campaign) => `${String(campaign.request.name)} ${String((campaign.request.channels as IDataObject[])[0].startDate)}`)).toEqual([
			'grid-A 2026-12-07T09:00:00+07:00',
			'grid-B 2026-12-07T09:00:00+07:00',
			'grid-A 2026-12-07T09:05:00+07:00',
		]);
	});

	it("issue 59: the user page's $today series (days 1 to 3 at 09:00, one SMS) fails in the evening and is retried after midnight: day 1 held naming its campaign, days 2 and 3 sent, 3 campaigns for 3 (the old rule: 4)", async () => {
		// The node's own fields read the clock: every date moves on a Retry, so the next day's record is not this day's.
		const series = createParameters({ name: 'series', options: { concurrency: 1 } }, [
			channel({ startDate: '={{ $today.plus({ days: $json.n }).set({ hour: 9 }) }}', endDate: '={{ $today.plus({ days: $json.n }).set({ hour: 18 }) }}' }),
		]);
		const wib = () => DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
		const before = offsetMs;
		offsetMs += wib().plus({ days: 1 }).set({ hour: 20, minute: 0 }).toMillis() - wib().toMillis(); // 20:00 WIB
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const first = await run(series, [{ n: 1 }, { n: 2 }, { n: 3 }], { timezone: 'Asia/Jakarta' });
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		const [day1] = await campaigns(context);
		offsetMs += 5 * 3_600_000; // 01:00 WIB: $today is the next day
		const retried = await run(series, [{ n: 1 }, { n: 2 }, { n: 3 }], { timezone: 'Asia/Jakarta', ...retryOf(first.run) });
		expect(outcomes(retried.items)).toEqual(['retry:created', 'Published', 'Published']);
		expect(retried.items[0].campaignId).toBe(day1.campaignId);
		expect((await campaigns(context)).length).toBe(3);
		offsetMs = before; // the other tests' $now dates by day again
	});

	/**
	 * A grid the node's own fields round from $now (`slot`, a `step` apart), failing 10 s before its
	 * boundary and retried 5 s after it: every slot moved onto the next one's first dates, which
	 * differ from them by no time at all ("the same dates").
	 */
	async function gridRetriedAfterItsBoundary(slot: string, step: number, items: IDataObject[] = [{ n: 1 }, { n: 2 }, { n: 3 }]) {
		const grid = createParameters({ name: 'grid-series', options: { concurrency: 1 } }, [channel({ startDate: `={{ ${slot} }}`, endDate: `={{ ${slot}.plus({ hours: 6 }) }}` })]);
		const wib = () => DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
		const before = offsetMs;
		const now = wib();
		const boundary = now.startOf('hour').plus({ hours: 1 }); // also a minute's and a quarter's
		offsetMs += boundary.toMillis() - 10_000 - now.toMillis();
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const first = await run(grid, items, { timezone: 'Asia/Jakarta' });
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		const created = await campaigns(context);
		expect(created).toHaveLength(2);
		offsetMs += boundary.toMillis() + 5_000 - Date.now() - luxonOffset();
		const retried = await run(grid, items, { timezone: 'Asia/Jakarta', ...retryOf(first.run) });
		expect(outcomes(retried.items)).toEqual(['retry:created', 'retry:created', 'Published']);
		expect(retried.items.slice(0, 2).map((json) => json.campaignId)).toEqual(created.map((campaign) => campaign.campaignId));
		const starts = (await campaigns(context)).map((campaign) => Date.parse(String((campaign.request.channels as IDataObject[])[0].startDate)));
		// Slots 1 and 2 as first sent, slot 3 moved by the boundary: 0, 1 and 3 steps after slot 1.
		expect(starts.map((start) => (start - starts[0]) / step)).toEqual([0, 1, 3]);
		offsetMs = before;
	}

	it("issue 59: a minute grid of one SMS in the node's own fields fails 10 s before its minute and is retried 5 s after it: the created slots held naming their own campaigns, the third sent a minute on, 3 campaigns for 3", async () => {
		await gridRetriedAfterItsBoundary("$now.startOf('minute').plus({ minutes: $json.n })", 60_000);
	});

	it("issue 59: a quarter-hour grid of one SMS in the node's own fields fails 10 s before its quarter and is retried 5 s after it: the created slots held naming their own campaigns, the third sent a quarter on, 3 campaigns for 3", async () => {
		await gridRetriedAfterItsBoundary("$now.set({ minute: Math.floor($now.minute / 15) * 15 }).startOf('minute').plus({ minutes: 15 * $json.n })", 15 * 60_000);
	});

	it("issue 59: a minute grid from items alike in everything (its slots from $itemIndex), retried 5 s after its minute: each slot held as its own, the third sent, 3 campaigns for 3", async () => {
		await gridRetriedAfterItsBoundary("$now.startOf('minute').plus({ minutes: $itemIndex + 1 })", 60_000, [{}, {}, {}]);
	});

	it("issue 59: two LBA nodes fed the same rows, the second's promo a quarter of an hour after the first's ($now dates), the first refused at its third item and retried 7 minutes later across a quarter hour: the second node's campaigns are sent, none held as the first node's", async () => {
		// The second's whole window a quarter of an hour after the first's.
		const at = (minutes: number) => createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: `={{ $now.plus({ minutes: ${minutes} }) }}`, endDate: `={{ $now.plus({ days: 3, minutes: ${minutes} }) }}` })]);
		const workflow = {
			nodes: [manualTrigger(), lbaNode(at(60), { id: 'first', name: 'First' }), lbaNode(at(75), { id: 'second', name: 'Second' })],
			connections: { Start: { main: [[{ node: 'First', type: 'main' as const, index: 0 }, { node: 'Second', type: 'main' as const, index: 0 }]] } },
			pinData: { Start: six.slice(0, 3).map((json) => ({ json })) },
		};
		const before = offsetMs;
		const wib = () => DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
		const now = wib();
		const quarter = now.set({ minute: Math.floor(now.minute / 15) * 15 }).startOf('minute').plus({ minutes: 15 });
		offsetMs += quarter.toMillis() - 3 * 60_000 + 17_000 - now.toMillis(); // 2 min 43 s before a quarter hour ($now's dates with seconds)
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const first = await context.n8n.runWorkflow(workflow, saved());
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		offsetMs += 7 * 60_000;
		const retried = await context.n8n.runWorkflow(workflow, { ...saved(), ...retryOf(first.run) });
		expect(retried.error).toBeUndefined();
		expect(outcomes(retried.output('First').map(({ json }) => json))).toEqual(['retry:created', 'retry:created', 'Published']);
		expect(outcomes(retried.output('Second').map(({ json }) => json))).toEqual(['Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([2, 2, 2]);
		// Not numbered as the first node's campaigns (a clock move of 22 minutes is no step of a grid for
		// dates with seconds): its keys are its own, so no Forget of one frees the other.
		const retryKeyOf = (json: IDataObject) => String(json.forgetKeys).split(' ')[0];
		const firstKeys = retried.output('First').map(({ json }) => retryKeyOf(json));
		expect(retried.output('Second').filter(({ json }) => firstKeys.includes(retryKeyOf(json)))).toEqual([]);
		offsetMs = before;
	});

	it("issue 59: a minute grid in the node's own fields, the original retried again after its first Retry failed, a minute later each: what the first Retry created is held, none sent twice", async () => {
		const grid = createParameters({ name: 'grid-again', options: { concurrency: 1 } }, [channel({ startDate: "={{ $now.startOf('minute').plus({ minutes: $json.n }) }}", endDate: "={{ $now.startOf('minute').plus({ minutes: $json.n, hours: 6 }) }}" })]);
		const items = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
		const before = offsetMs;
		// The original creates slot 1, then slot 2 is refused: slots 3 and 4 leave no record.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const original = await run(grid, items, { timezone: 'Asia/Jakarta' });
		expect(errorOf(original)?.message).toMatch(/HTTP 503/);
		// Its first Retry, a minute later: slots 2 and 3 created, slot 4 refused (n8n still offers Retry on the original).
		offsetMs += 60_000;
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const firstRetry = await run(grid, items, { timezone: 'Asia/Jakarta', ...retryOf(original.run) });
		expect(errorOf(firstRetry)?.message).toMatch(/HTTP 503/);
		// The original retried again, another minute later (a copy of the original's context: it never saw the first Retry).
		offsetMs += 60_000;
		const secondRetry = await run(grid, items, { timezone: 'Asia/Jakarta', ...retryOf(original.run) });
		expect(secondRetry.error).toBeUndefined();
		expect(secondRetry.items.map((json) => (json.skipped ? 'held' : String(json.status)))).toEqual(['held', 'held', 'held', 'Published']);
		expect((await campaigns(context)).filter((campaign) => campaign.request.name === 'grid-again')).toHaveLength(4);
		offsetMs = before;
	});

	it("issue 59: a time of day set on $now (its seconds kept: $now.plus({ days: 1 }).set({ hour: 9, minute: 0 })), retried half an hour later with lower seconds: the created ones held, none sent twice", async () => {
		const atNine = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [
			channel({ startDate: '={{ $now.plus({ days: 1 }).set({ hour: 9, minute: 0 }) }}', endDate: '={{ $now.plus({ days: 1 }).set({ hour: 18, minute: 0 }) }}' }),
		]);
		const before = offsetMs;
		const now = DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
		offsetMs += now.startOf('minute').plus({ minutes: 1, seconds: 52 }).toMillis() - now.toMillis(); // hh:mm:52
		await failAtItem4();
		const first = await run(atNine, six, { timezone: 'Asia/Jakarta' });
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		// Half an hour later, at hh:mm:05: the dates' seconds lower than in the run (09:00:05, not 09:00:52).
		offsetMs += 30 * 60_000 + 13_000;
		const retried = await run(atNine, six, { timezone: 'Asia/Jakarta', ...retryOf(first.run) });
		expect(outcomes(retried.items)).toEqual(['retry:created', 'retry:created', 'retry:created', 'Published', 'Published', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
		offsetMs = before;
	});

	it("issue 59: $now dates in the node's fields, a child's rows stamped with $now; the parent's Retry fails again and the original is retried again: what the first Retry created is held, none sent twice", async () => {
		const caller = await callerContext();
		const stamped = () => six.map((row) => ({ ...row, stampedAt: new Date(Date.now()).toISOString() }));
		// The original: promo-1 and -2 created, promo-3 refused.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		expect(errorOf(await run(withNow, stamped(), calledBy(caller, '391')))?.message).toMatch(/HTTP 503/);
		const original = JSON.stringify(caller);
		// Its first Retry, on a whole minute (its $now dates whole minutes, as $today's would be): promo-3
		// and -4 created, promo-5 refused.
		const now = DateTime.fromMillis(Date.now() + luxonOffset());
		offsetMs += now.startOf('minute').plus({ minutes: 1 }).toMillis() + 200 - now.toMillis();
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		expect(errorOf(await run(withNow, stamped(), calledBy(JSON.parse(original), '392')))?.message).toMatch(/HTTP 503/);
		// The original retried again (a copy of its context: the first Retry's records are not in it).
		await nextSecond();
		const again = await run(withNow, stamped(), calledBy(JSON.parse(original), '393'));
		expect(again.error).toBeUndefined();
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it("issue 59: an LBA node run twice in one execution (two branches into it), a minute grid, its second run refused; the Retry resumes that run after the minute: its campaigns are sent, none held as the first run's", async () => {
		const grid = createParameters({ name: 'rounds', options: { concurrency: 1 } }, [channel({ startDate: "={{ $now.startOf('minute').plus({ minutes: $json.n }) }}", endDate: "={{ $now.startOf('minute').plus({ minutes: $json.n, hours: 6 }) }}" })]);
		const workflow = {
			nodes: [manualTrigger(), noOp('Morning rows'), noOp('Evening rows'), lbaNode(grid)],
			connections: { Start: { main: [[{ node: 'Morning rows', type: 'main' as const, index: 0 }, { node: 'Evening rows', type: 'main' as const, index: 0 }]] }, ...chain('Morning rows', 'LBA'), ...chain('Evening rows', 'LBA') },
			pinData: { 'Morning rows': [{ json: { n: 1 } }, { json: { n: 2 } }], 'Evening rows': [{ json: { n: 3 } }, { json: { n: 4 } }] },
		};
		const before = offsetMs;
		const now = DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
		offsetMs += now.startOf('minute').plus({ minutes: 1 }).toMillis() - 10_000 - now.toMillis(); // 10 s before a minute
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const first = await context.n8n.runWorkflow(workflow, { ...saved(), timezone: 'Asia/Jakarta' });
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		expect(first.run.data.resultData.runData.LBA).toHaveLength(2);
		offsetMs += 15_000; // 5 s after the minute: every slot moved onto the next one's dates
		const retried = await context.n8n.runWorkflow(workflow, { ...saved(), timezone: 'Asia/Jakarta', ...retryOf(first.run) });
		expect(retried.error).toBeUndefined();
		const runs = retried.run.data.resultData.runData.LBA;
		expect(retried.output('LBA', 0, runs.length - 1).map(({ json }) => json.status ?? json.earlierOutcome)).toEqual(['Published', 'Published']);
		expect((await campaigns(context)).filter((campaign) => campaign.request.name === 'rounds')).toHaveLength(4);
		offsetMs = before;
	});

	it("issue 59: Retry On Fail of an LBA node after another LBA node ran in the same execution: the second try holds what its first try created", async () => {
		const workflow = {
			nodes: [manualTrigger(), lbaNode(fixed, { id: 'before', name: 'Before' }), lbaNode(withNow, { id: 'after', name: 'After', retryOnFail: true, maxTries: 2, waitBetweenTries: 0 })],
			connections: chain('Start', 'Before', 'After'),
			pinData: { Start: [{ json: { name: 'before-1' } }] },
		};
		// After's items: Before's three outputs, named after-1 to after-3; its third refused once.
		const withRows = { ...workflow, nodes: workflow.nodes.map((node) => (node.name === 'After' ? { ...node, parameters: { ...withNow, name: "={{ ['after-1', 'after-2', 'after-3'][$itemIndex] }}" } } : node)) };
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 3 + 2, times: 1 }); // Before's three, then After's first two
		const result = await context.n8n.runWorkflow({ ...withRows, pinData: { Start: [{ json: { name: 'before-1' } }, { json: { name: 'before-2' } }, { json: { name: 'before-3' } }] } }, saved());
		expect(result.error).toBeUndefined();
		expect(outcomes(result.output('After').map(({ json }) => json))).toEqual(['retry:created', 'retry:created', 'Published']);
		expect(await sentCounts()).toEqual([1, 1, 1, 1, 1, 1]);
	});

	it("issue 59: two LBA nodes fed the same rows, the same promo morning and evening ($now dates): the Retry holds each node's campaigns as its own, never the morning's as the evening's", async () => {
		const at = (hours: number) => createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: `={{ $now.plus({ hours: ${hours} }) }}`, endDate: '={{ $now.plus({ days: 3 }) }}' })]);
		const workflow = {
			nodes: [manualTrigger(), lbaNode(at(1), { id: 'morning', name: 'Morning' }), lbaNode(at(10), { id: 'evening', name: 'Evening' })],
			connections: { Start: { main: [[{ node: 'Morning', type: 'main' as const, index: 0 }, { node: 'Evening', type: 'main' as const, index: 0 }]] } },
			pinData: { Start: six.slice(0, 3).map((json) => ({ json })) },
		};
		// Morning's three sent, Evening's first; its second refused.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 4, times: 1 });
		const first = await context.n8n.runWorkflow(workflow, saved());
		expect(errorOf(first)?.message).toMatch(/HTTP 503/);
		const sentFirst = await campaigns(context);
		await nextSecond();
		const retried = await context.n8n.runWorkflow(workflow, { ...saved(), ...retryOf(first.run) });
		expect(retried.error).toBeUndefined();
		expect(retried.output('Morning').map(({ json }) => json.campaignId)).toEqual(sentFirst.slice(0, 3).map((campaign) => campaign.campaignId));
		expect(outcomes(retried.output('Evening').map(({ json }) => json))).toEqual(['retry:created', 'Published', 'Published']);
		expect(retried.output('Evening')[0].json.campaignId).toBe(sentFirst[3].campaignId);
		// Each promo once a session: a morning start is within 5 hours from now (an hour on when sent).
		const perSession = (await campaigns(context)).map(({ request }) => `${String(request.name)} ${Date.parse(String((request.channels as IDataObject[])[0].startDate)) - Settings.now() > 5 * 3_600_000 ? 'evening' : 'morning'}`);
		expect(perSession.sort()).toEqual(['promo-1', 'promo-2', 'promo-3'].flatMap((name) => [`${name} evening`, `${name} morning`]));
	});

	it("issue 59: a quarter-hour grid of one promo from $now.startOf('hour') computed in a child: retried within the hour, the created slot is held; retried after hh:00, it is neither held nor sent but named (unclear), the others sent once", async () => {
		const grid = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: '={{ $json.start }}', endDate: '={{ $json.end }}' })]);
		// The child's rows, as a Set node computing $now.startOf('hour').plus(…) gives them (whole minutes).
		const rows = (name: string) => {
			const hour = DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' }).startOf('hour').plus({ hours: 2 });
			return [15, 30, 45].map((minutes) => ({ name, start: hour.plus({ minutes }).toISO(), end: hour.plus({ hours: 6, minutes }).toISO() }));
		};
		const startsOf = async (name: string) => (await campaigns(context)).filter((c) => c.request.name === name).map((c) => String((c.request.channels as IDataObject[])[0].startDate).slice(11, 16));
		const toTheHour = () => {
			const now = DateTime.fromMillis(Date.now() + luxonOffset(), { zone: 'Asia/Jakarta' });
			offsetMs += now.endOf('hour').toMillis() + 1 - now.toMillis() - 2 * 60_000; // 2 minutes before hh:00
		};
		const before = offsetMs;
		// Within the hour: the Retry computes the same slots; the created one is held as created.
		toTheHour();
		const callerA = await callerContext();
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		expect(errorOf(await run(grid, rows('qa'), calledBy(callerA, '911')))).toBeDefined();
		offsetMs += 30_000;
		const within = await run(grid, rows('qa'), calledBy(JSON.parse(JSON.stringify(callerA)), '912'));
		expect(outcomes(within.items)).toEqual(['retry:created', 'Published', 'Published']);
		// Across hh:00: every slot an hour on. The created one may be its own slot moved, or the next
		// grid's; the node cannot tell, so it neither sends it nor calls it created.
		toTheHour();
		const callerB = await callerContext();
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		expect(errorOf(await run(grid, rows('qb'), calledBy(callerB, '921')))).toBeDefined();
		const [created] = (await campaigns(context)).filter((c) => c.request.name === 'qb');
		offsetMs += 4 * 60_000; // 2 minutes past hh:00
		const across = await run(grid, rows('qb'), calledBy(JSON.parse(JSON.stringify(callerB)), '922'));
		expect(across.items[0]).toMatchObject({ skipped: true, earlierOutcome: 'unclear', mayBeCampaignId: created.campaignId });
		expect(across.items.slice(1).map((json) => json.status)).toEqual(['Published', 'Published']);
		expect((await startsOf('qb')).length).toBe(3); // the created slot, and the two the Retry sent: none twice
		offsetMs = before; // the other tests' clock
	});

	it('a parent that calls the child once per slot (Loop Over Items -> Execute Workflow), the same promo at 09:00 and 09:05: both sent in the first run, neither held as the other (issue 59)', async () => {
		const caller = await callerContext();
		const slotDates = createParameters({ name: 'slot-promo' }, [channel({ startDate: '={{ $json.start }}', endDate: '={{ $json.end }}' })]);
		const first = await run(slotDates, [{ start: '2026-12-07T09:00:00+07:00', end: '2026-12-07T18:00:00+07:00' }], calledBy(caller, '501'));
		const second = await run(slotDates, [{ start: '2026-12-07T09:05:00+07:00', end: '2026-12-07T18:05:00+07:00' }], calledBy(caller, '501'));
		expect([first.items[0].status, second.items[0].status]).toEqual(['Published', 'Published']);
		expect(second.items[0].campaignId).not.toBe(first.items[0].campaignId);
		expect((await campaigns(context)).map((campaign) => (campaign.request.channels as IDataObject[])[0].startDate)).toEqual(['2026-12-07T09:00:00+07:00', '2026-12-07T09:05:00+07:00']);
	});

	it("nested sub-workflows (the limit): a grandchild sees its caller's context, which is new when the top execution is retried", async () => {
		const top = await callerContext();
		const child = async (executionId: string) =>
			(await context.n8n.runWorkflow({ nodes: [manualTrigger(), noOp('Execute Workflow')], connections: chain('Start', 'Execute Workflow') }, { workflowId: 'child', ...calledBy(top, executionId) })).run.data
				.executionData!.runtimeData as unknown as IDataObject;
		const childFirst = await child('501');
		await nextSecond(); // n8n's establishedAt is in milliseconds: a Retry of the top comes later
		const childAgain = await child('502');
		// n8n's own merge: the child's context is the top's with the child's own establishedAt over it.
		expect(childFirst).toMatchObject({ source: 'integrated', parentExecutionId: '501' });
		expect(childAgain.establishedAt).not.toBe(childFirst.establishedAt);
		await run(withNow, six.slice(0, 2), calledBy(childFirst, '503'));
		await nextSecond();
		const nowAgain = await run(withNow, six.slice(0, 2), calledBy(childAgain, '504'));
		expect(outcomes(nowAgain.items)).toEqual(['Published', 'Published']);
		// Fixed dates: the campaign's own key holds them back at any depth (two other top executions, each retried once).
		const [fixedFirst, fixedRetried] = [await child('505'), await child('506')];
		await run(fixed, six.slice(0, 2), calledBy(fixedFirst, '507'));
		const fixedAgain = await run(fixed, six.slice(0, 2), calledBy(fixedRetried, '508'));
		expect(outcomes(fixedAgain.items)).toEqual(['held:created', 'held:created']);
	});
});

describe('a new execution never re-sends the same campaign by meaning; a changed campaign is sent', () => {
	it.each([
		['editor Execute workflow twice', 'manual'],
		['webhook called twice', 'webhook'],
		['schedule firing twice', 'trigger'],
	] as const)('%s: fixed dates held back; $now dates are new campaigns, sent', async (_row, mode) => {
		await run(fixed, six.slice(0, 2), { mode });
		expect(outcomes((await run(fixed, six.slice(0, 2), { mode })).items)).toEqual(['held:created', 'held:created']);
		await run(withNow, six.slice(2, 4), { mode });
		await nextSecond();
		expect(outcomes((await run(withNow, six.slice(2, 4), { mode })).items)).toEqual(['Published', 'Published']);
	});

	describe('Execute step', () => {
		/** Start -> Config (Edit Fields: the message) -> Prepare (its output pinned) -> LBA, the message read from Config by name. */
		const steps = (message: string, parameters: IDataObject) => ({
			nodes: [
				manualTrigger(),
				{ id: 'config', name: 'Config', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [100, 0], parameters: { mode: 'raw', jsonOutput: JSON.stringify({ message }) } } as INode,
				noOp('Prepare'),
				lbaNode(parameters),
			],
			connections: chain('Start', 'Config', 'Prepare', 'LBA'),
			pinData: { Start: [{ json: {} }], Prepare: [{ json: { name: 'promo-1' } }] },
		});
		const fromConfig = (dates: IDataObject[]) => createParameters({ name: '={{ $json.name }}' }, [{ ...dates[0], message: "={{ $('Config').item.json.message }}" }]);
		const runSteps = (message: string, parameters: IDataObject, options: RunOptions = {}) =>
			context.n8n.runWorkflow(steps(message, parameters), { ...saved(), ...options });
		const step = (after: IRun, dirtyNodeNames: string[] = []): RunOptions => ({ again: { kind: 'partial', after, destination: 'LBA', dirtyNodeNames } });

		it('Execute step after an upstream edit: the new text is sent (a new context, though the trigger keeps its run data)', async () => {
			const first = await runSteps('Diskon 20%', fromConfig(nowDates));
			expect(first.output('LBA')[0].json.status).toBe('Published');
			const edited = await runSteps('Diskon 30%', fromConfig(nowDates), step(first.run, ['Config']));
			expect(edited.run.data.resultData.runData.Start[0].startTime).toBe(first.run.data.resultData.runData.Start[0].startTime);
			expect(establishedAt(edited)).not.toBe(establishedAt(first));
			expect(edited.output('LBA')[0].json.status).toBe('Published');
			const sent = await campaigns(context);
			expect(sent.map(({ request }) => ((request.channels as IDataObject[])[0].message))).toEqual(['Diskon 20%', 'Diskon 30%']);
		});

		it('Execute step again unchanged: fixed dates held back; $now dates are new campaigns, sent', async () => {
			const first = await runSteps('Diskon 20%', fromConfig([channel()]));
			const again = await runSteps('Diskon 20%', fromConfig([channel()]), step(first.run));
			expect(again.output('LBA')[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created' });
			const withNowFirst = await runSteps('Diskon 40%', fromConfig(nowDates));
			await nextSecond();
			const withNowAgain = await runSteps('Diskon 40%', fromConfig(nowDates), step(withNowFirst.run));
			expect(withNowAgain.output('LBA')[0].json.status).toBe('Published');
		});
	});
});

describe("the user's ways out", () => {
	/** An answer lost at item 2 (a 502 after the service created it): its outcome is unknown. */
	async function lostAnswerThenRetry(parameters: IDataObject, heldBy: 'retry' | 'held') {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, skip: 1, times: 1 });
		const failed = await run(parameters, six.slice(0, 3));
		expect(errorOf(failed)?.description).toMatch(/set this node's Mode to Send One Again, paste again:v1:\S+ into Send Again Key, click Execute step, then set Mode back to Publish\. Its keys, for Forget Sent: retry:v4:[0-9a-f]{64} content:v2:[0-9a-f]{64}\.$/);
		await nextSecond();
		const retry = await run(parameters, six.slice(0, 3), retryOf(failed.run));
		// The one the failed execution created is held as created by it (its id known), whatever the dates.
		expect(outcomes(retry.items)).toEqual(['retry:created', `${heldBy}:unknown`, 'Published']);
		return { failed, retry };
	}

	it("Forget Sent (Some Keys) with the keys a failed item's error names ($now dates), then Retry (n8n's editor offers it: the execution failed): sent", async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, skip: 1, times: 1 });
		const failed = await run(withNow, six.slice(0, 3));
		const named = /Its keys, for Forget Sent: (.*?)\.$/.exec(String(errorOf(failed)?.description))![1];
		const forget = await context.n8n.runWorkflow(
			{ nodes: [manualTrigger(), lbaNode({ resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: named })], connections: chain('Start', 'LBA') },
			saved(),
		);
		expect(errorOf(forget)).toBeUndefined();
		await nextSecond();
		const again = await run(withNow, six.slice(0, 3), retryOf(failed.run));
		expect(outcomes(again.items)).toEqual(['retry:created', 'Published', 'Published']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
	});

	it('issue 59: a Retry of the original after its first Retry failed, a slot added before it: the slot the first Retry created is held, the new slot sent: each of the 5 campaigns once (the old numbering: 10:05 held as 10:10, never sent)', async () => {
		// A sub-workflow's rows on a grid of whole minutes: the same promo at 10:00, 10:10 and 10:20, another promo between.
		const caller = await callerContext();
		const grid = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }, [channel({ startDate: '={{ $json.start }}', endDate: '={{ $json.end }}' })]);
		const row = (name: string, start: string) => ({ name, start: `2036-12-07T${start}:00+07:00`, end: `2036-12-07T${start.replace(/^10/, '18')}:00+07:00` });
		const slots = [row('slot', '10:00'), row('other', '10:05'), row('slot', '10:10')];
		// The original: slot 10:00 created, "other" refused (503): it failed.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 1, times: 1 });
		const original = await run(grid, slots, calledBy(caller, '801'));
		expect(errorOf(original)).toBeDefined();
		const savedCaller = JSON.parse(JSON.stringify(caller)); // what n8n saved with the original (each Retry copies it)
		// The first Retry: 10:00 held; "other" and 10:10 created; a 10:20 row added meanwhile is refused (503): it failed too.
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const firstRetry = await run(grid, [...slots, row('slot', '10:20')], calledBy(JSON.parse(JSON.stringify(savedCaller)), '802'));
		expect(errorOf(firstRetry)).toBeDefined();
		// The original retried again (n8n offers it: its Retry did not succeed), with a 10:05 slot added on top.
		const secondRetry = await run(grid, [row('slot', '10:05'), ...slots, row('slot', '10:20')], calledBy(JSON.parse(JSON.stringify(savedCaller)), '803'));
		expect(errorOf(secondRetry)).toBeUndefined();
		const byName = (await campaigns(context)).map((campaign) => `${String(campaign.request.name)} ${String((campaign.request.channels as IDataObject[])[0].startDate).slice(11, 16)}`);
		expect(byName.sort()).toEqual(['other 10:05', 'slot 10:00', 'slot 10:05', 'slot 10:10', 'slot 10:20']);
		const outcome = Object.fromEntries(secondRetry.items.map((json, index) => [index, json.skipped ? `held ${String(json.earlierOutcome)}` : String(json.status)]));
		expect(outcome).toEqual({ 0: 'Published', 1: 'held created', 2: 'held created', 3: 'held created', 4: 'Published' });
	});

	it("the error's advice followed to the letter ($now dates, after the Retry succeeded: no Retry offered): Mode Send One Again with its key, Execute step: that campaign alone is sent again, once; left as it is, nothing more (issue 60)", async () => {
		const { failed, retry } = await lostAnswerThenRetry(withNow, 'retry');
		const named = /paste (again:v1:\S+) into Send Again Key/.exec(String(errorOf(failed)?.description))![1];
		expect(retry.items[1].sendAgainKey).toBe(named);
		await nextSecond();
		const sendAgain = { ...withNow, runMode: 'sendAgain', sendAgainKey: named };
		const again = await run(sendAgain, six.slice(0, 3));
		expect(again.items[0]).toMatchObject({ sentAgain: true, status: 'Published', campaignName: 'promo-2' });
		expect(outcomes(again.items.slice(1))).toEqual(['held:sameRun', 'held:sameRun']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
		// The campaign as it was first sent: its dates from the key, not computed again.
		const [firstSend, secondSend] = (await campaigns(context)).filter((campaign) => campaign.request.name === 'promo-2');
		expect(secondSend.request).toEqual(firstSend.request);
		const leftAsItIs = await run(sendAgain, six.slice(0, 1));
		expect(leftAsItIs.items[0]).toMatchObject({ skipped: true, reason: 'Already sent again from this key by this node; not sent again' });
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
		// In any run but the editor's, the mode refuses loudly (a node left in it would publish nothing).
		const scheduled = await run(sendAgain, six.slice(0, 1), { mode: 'trigger' });
		expect(errorOf(scheduled)?.message).toBe('Mode is Send One Again, which sends one campaign from the editor only; this trigger execution sent nothing');
	});

	it("a held item's howToResend followed (fixed dates): Send One Again with its sendAgainKey sends that campaign alone, once (issue 60)", async () => {
		await run(fixed, six.slice(0, 3));
		await nextSecond();
		const held = await run(fixed, six.slice(0, 3));
		expect(held.items[1].howToResend).toBe(
			"To send it again on purpose (a second campaign, billed again): copy this item's sendAgainKey, set this node's Mode to Send One Again, paste it into Send Again Key, click Execute step, then set Mode back to Publish. Only this campaign is sent, once.",
		);
		const again = await run({ ...fixed, runMode: 'sendAgain', sendAgainKey: String(held.items[1].sendAgainKey) }, six.slice(0, 1));
		expect(again.items[0]).toMatchObject({ sentAgain: true, status: 'Published' });
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
	});

	it('Send One Again refuses, sending nothing, a key cut short or sent to another service', async () => {
		const cut = await run({ ...fixed, runMode: 'sendAgain', sendAgainKey: 'again:v1:eyJ0YXJnZXQiOiJodHRw' }, six.slice(0, 1));
		expect(errorOf(cut)?.message).toBe('Send Again Key of item 1 is not a send-again key ("again:v1:eyJ0YXJnZXQiOiJodHRw"); nothing was sent');
		const elsewhere = `again:v1:${Buffer.from(JSON.stringify({ target: 'https://other.example.co.id', campaign: { name: 'x' } })).toString('base64url')}`;
		const other = await run({ ...fixed, runMode: 'sendAgain', sendAgainKey: elsewhere }, six.slice(0, 1));
		expect(errorOf(other)?.message).toMatch(/names a campaign sent to https:\/\/other\.example\.co\.id, but this node's credential points to http:\/\/127\.0\.0\.1:\d+; nothing was sent$/);
		expect(await campaigns(context)).toHaveLength(0);
	});

	it("a held item's forgetKeys pasted into Resend Keys, the workflow run again (fixed dates): that item alone is sent again", async () => {
		const first = await run(fixed, six.slice(0, 3));
		expect(outcomes(first.items)).toEqual(['Published', 'Published', 'Published']);
		await nextSecond();
		const held = await run(fixed, six.slice(0, 3));
		expect(outcomes(held.items)).toEqual(['held:created', 'held:created', 'held:created']);
		const again = await run({ ...fixed, options: { concurrency: 1, resendKeys: String(held.items[1].forgetKeys) } }, six.slice(0, 3));
		expect(outcomes(again.items)).toEqual(['held:created', 'Published', 'held:created']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
	});

	it('Forget Sent with the keys an error names, fixed dates: both holds go (its own key and its retry key)', async () => {
		const { failed } = await lostAnswerThenRetry(fixed, 'held');
		const named = /Its keys, for Forget Sent: (.*?)\.$/.exec(String(errorOf(failed)?.description))![1];
		const forget = await context.n8n.runWorkflow(
			{ nodes: [manualTrigger(), lbaNode({ resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: named })], connections: chain('Start', 'LBA') },
			saved(),
		);
		expect(forget.output('LBA')[0].json.forgotten).toBe(named);
		const again = await run(fixed, six.slice(0, 3), retryOf(failed.run));
		expect(outcomes(again.items)).toEqual(['retry:created', 'Published', 'held:created']);
	});

	it('Resend turned on, then Retry with the saved workflow: sends what the retried execution did not create, never what it created', async () => {
		const { failed } = await lostAnswerThenRetry(withNow, 'retry');
		const resend = await run({ ...withNow, options: { concurrency: 1, resend: true } }, six.slice(0, 3), retryOf(failed.run));
		expect(outcomes(resend.items)).toEqual(['retry:created', 'Published', 'retry:created']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
	});

	it('Resend or Resend Keys left on in a scheduled run, a webhook, its Retry or a sub-workflow it calls: refused before anything is sent, naming the items; from the editor (its sub-workflows too) it resends; Resend Keys that match nothing change nothing (issue 60)', async () => {
		await run(fixed, six.slice(0, 2));
		await nextSecond();
		const resend = { ...fixed, options: { concurrency: 1, resend: true } };
		for (const mode of ['trigger', 'webhook'] as const) {
			const scheduled = await run(resend, six.slice(0, 2), { mode });
			expect(errorOf(scheduled)?.message).toBe(
				`Options › Resend (or Resend Keys) would send items 1, 2 again in this ${mode} execution; nothing was sent. Resend works only in a run started from the editor (its Retry, or a sub-workflow it calls, included), so that no schedule, webhook or chat bills the same campaigns again at every run`,
			);
		}
		// The webhook's failed execution retried "with original workflow": still Resend on, still refused.
		const fromWebhook = await run(resend, six.slice(0, 2), { mode: 'webhook' });
		const retried = await run(resend, six.slice(0, 2), retryOf(fromWebhook.run));
		expect(errorOf(retried)?.message).toMatch(/^Options › Resend \(or Resend Keys\) would send items 1, 2 again in this retry \(of a webhook\) execution; nothing was sent\./);
		const held = await run(fixed, six.slice(0, 2));
		// A sub-workflow a webhook's execution calls: refused; one the editor's run calls: it resends.
		const webhookCaller = (await context.n8n.runWorkflow({ nodes: [manualTrigger(), noOp('Execute Workflow')], connections: chain('Start', 'Execute Workflow') }, { workflowId: 'parent', mode: 'webhook' })).run.data.executionData!.runtimeData as unknown as IDataObject;
		const keyed = { ...fixed, options: { concurrency: 1, resendKeys: String(held.items[1].forgetKeys) } };
		const child = await run(keyed, six.slice(0, 2), calledBy(webhookCaller, '701'));
		expect(errorOf(child)?.message).toMatch(/^Options › Resend \(or Resend Keys\) would send item 2 again in this integrated \(of a webhook\) execution; nothing was sent\./);
		const unmatched = await run({ ...keyed }, six.slice(2, 3), { mode: 'trigger' });
		expect(outcomes(unmatched.items)).toEqual(['Published']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 1]);
		const fromEditor = await run(keyed, six.slice(0, 2), calledBy(await callerContext(), '702'));
		expect(outcomes(fromEditor.items)).toEqual(['held:created', 'Published']);
		expect((await sentCounts()).sort()).toEqual([1, 1, 2]);
	});

	it('Execute step with Resend on: sent', async () => {
		const first = await run(fixed, six.slice(0, 1));
		const step = await run({ ...fixed, options: { concurrency: 1, resend: true } }, six.slice(0, 1), { again: { kind: 'partial', after: first.run, destination: 'LBA' } });
		expect(outcomes(step.items)).toEqual(['Published']);
	});
});

describe('honest advice with $now', () => {
	const eight = Array.from({ length: 8 }, (_, index) => ({ name: `wave-${index}` }));

	it('the store refuses in wave 2: the advice is Retry (not a new run), and the Retry sends each campaign once', async () => {
		store.nodeRowCallsBeforeFailure = 3;
		const failed = await run(withNow, eight);
		expect(errorOf(failed)?.description).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\. Keep Duplicate Protection as it is and Retry this execution .*Do not run the workflow again instead: its dates use \$now/);
		store.nodeRowCallsBeforeFailure = undefined;
		await nextSecond();
		const retry = await run(withNow, eight, retryOf(failed.run));
		expect(outcomes(retry.items)).toEqual([...Array(4).fill('retry:created'), ...Array(4).fill('Published')]);
		expect(await sentCounts()).toEqual(Array(8).fill(1));
	});

	it('fixed dates: the advice is Retry too, without the warning about $now', async () => {
		store.nodeRowCallsBeforeFailure = 3;
		const failed = await run(fixed, eight);
		expect(errorOf(failed)?.description).toMatch(/Retry this execution once n8n's database answers/);
		expect(errorOf(failed)?.description).not.toMatch(/\$now|Off/);
	});

	it('one execution hint says a new execution sends new campaigns, with $today at fixed hours and Custom Key as ways out (not a trigger timestamp: each run has a new one)', async () => {
		const result = await run(withNow, six.slice(0, 3));
		const hints = (result.run.data.resultData.runData.LBA[0].hints ?? []).map((hint) => hint.message).filter((message) => message.includes('$now'));
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatch(/a new execution sends a new campaign whenever its dates come out different \(with \$now, every time\); only a Retry.*the day from the clock and the time as text.*\$now\.setZone\('Asia\/Jakarta'\)\.plus\(\{ days: 1 \}\)\.toISODate\(\) \}\} 09:00.*on any n8n.*Custom Key/);
		const withFixed = await run(fixed, six.slice(3, 4));
		expect((withFixed.run.data.resultData.runData.LBA[0].hints ?? []).filter((hint) => hint.message.includes('$now'))).toEqual([]);
	});

	it("the trigger-timestamp pattern ($now only as the manual run's fallback, as in the shipped example) gets no such hint", async () => {
		const fromTimestamp = "={{ ($json.timestamp ? DateTime.fromISO($json.timestamp, { setZone: true }) : $now).plus({ hours: 1 }).startOf('hour') }}";
		const parameters = createParameters({ name: '={{ $json.name }}' }, [channel({ startDate: fromTimestamp, endDate: '={{ DateTime.fromISO($json.timestamp).plus({ days: 2 }) }}' })]);
		// In WIB, as the shipped example: a trigger's whole hour elsewhere is not the recipients' (create.scheduledLaunch.test.ts).
		const result = await run(parameters, [{ name: 'weekly', timestamp: '2026-12-01T08:00:00.000+07:00' }], { timezone: 'Asia/Jakarta' });
		expect(result.items[0].status).toBe('Published');
		expect((result.run.data.resultData.runData.LBA[0].hints ?? []).filter((hint) => hint.message.includes('$now'))).toEqual([]);
	});
});

describe('after a lock error: the Retry says what is true of what its execution sent', () => {
	it('the campaigns of the wave whose outcome n8n could not record are held as created (each its campaignId), not as "being sent" by a run that ended; the rest sent once', async () => {
		const eight = Array.from({ length: 8 }, (_, index) => ({ name: `lock-${index + 1}` }));
		// Wave 1's claim succeeds; its settle, and wave 2's claim, are refused: a database that turned read-only.
		store.nodeRowCallsBeforeFailure = 1;
		const failed = await run(withNow, eight);
		store.nodeRowCallsBeforeFailure = undefined;
		expect(errorOf(failed)).toBeDefined();
		const firstWave = await campaigns(context);
		expect(firstWave.map(({ request }) => request.name)).toEqual(['lock-1', 'lock-2', 'lock-3', 'lock-4']);

		await nextSecond();
		const retried = await run(withNow, eight, retryOf(failed.run));
		expect(errorOf(retried)).toBeUndefined();
		expect(retried.items.slice(0, 4).map((item) => [item.earlierOutcome, item.campaignId])).toEqual(firstWave.map(({ campaignId }) => ['created', campaignId]));
		expect(retried.items.slice(4).map((item) => item.status)).toEqual(Array(4).fill('Published'));
		expect(await sentCounts()).toEqual(Array(8).fill(1));
	});
});

