/**
 * The retry key's parts, one at a time, on a stand-in for n8n's node context: which campaign of
 * the execution an item is (its execution, its run, the campaign without its dates, its place
 * among identical ones in order of their dates), and nothing of where its item sat. (The
 * engine-level proofs are in identity.test.ts, the real-n8n ones in test/e2e.)
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	CREATED_FIELD,
	createdFor,
	EXECUTION_MARK,
	executionIdentity,
	movedByClock,
	rememberCreated,
	rememberSending,
	retryKeysOf,
	sentFor,
	type CampaignIdentity,
} from '../../../../nodes/LbaAds/duplicateProtection/itemOrigin';

const TARGET = 'https://api.example.co.id';

interface Stage {
	type?: string;
	/** The LBA node's input items (only a tool's count). */
	items?: IDataObject[];
	runIndex?: number;
	executionId?: string;
	/** n8n's execution context (runtimeData); null: an engine without one. */
	context?: IDataObject | null;
	parentExecution?: IDataObject;
	runData?: IDataObject;
	/** n8n's execution mode: 'retry' for the executions list's Retry. */
	mode?: string;
	/** The workflow's timezone setting: a zone, or n8n's Default (the instance's zone, New York: n8n's own default). */
	workflowTimezone?: string;
}

const defaultContext = (): IDataObject => ({ version: 1, establishedAt: 1_700_000_000_000, source: 'manual', [EXECUTION_MARK]: 'run-a' });

function context(stage: Stage = {}): IExecuteFunctions {
	const executionContext = stage.context === null ? undefined : (stage.context ?? defaultContext());
	return {
		getNode: () => ({ name: 'LBA', type: stage.type ?? 'n8n-nodes-lba-ads.lbaAds', parameters: {} }),
		getInputData: () => (stage.items ?? []).map((json) => ({ json })),
		getWorkflowDataProxy: () => ({ $runIndex: stage.runIndex ?? 0 }),
		getExecutionId: () => stage.executionId ?? '17',
		getMode: () => stage.mode ?? 'manual',
		getExecutionContext: () => executionContext,
		...(stage.workflowTimezone
			? { getTimezone: () => (stage.workflowTimezone === 'DEFAULT' ? 'America/New_York' : stage.workflowTimezone), getWorkflowSettings: () => ({ timezone: stage.workflowTimezone }) }
			: {}),
		runExecutionData: { resultData: { runData: stage.runData ?? {} }, parentExecution: stage.parentExecution },
	} as unknown as IExecuteFunctions;
}

const H = 3_600_000;
const at = (hour: number) => Date.UTC(2026, 11, 1, hour);
const campaign = (itemIndex: number, name: string, startHour = 2, message = 'Diskon'): CampaignIdentity => ({
	itemIndex,
	shape: { name, channels: [{ locationId: 3273, message }] },
	dates: [at(startHour), at(startHour + 48)],
});
const keysOf = (campaigns: CampaignIdentity[], stage: Stage = {}) => new Map([...retryKeysOf(context(stage), campaigns, TARGET)].map(([index, { key }]) => [index, key]));
/** The key each campaign gets, by its name and first date (what a marketer calls the campaign). */
const byCampaign = (campaigns: CampaignIdentity[], stage: Stage = {}) => {
	const keys = keysOf(campaigns, stage);
	return new Map(campaigns.map((each) => [`${(each.shape as IDataObject).name} ${each.dates[0]}`, keys.get(each.itemIndex)]));
};

describe('the retry key: which campaign of the execution it is', () => {
	const rows = [campaign(0, 'A'), campaign(1, 'B'), campaign(2, 'C'), campaign(3, 'D')];

	it('rows reordered, added or removed before the node: each campaign keeps its key', () => {
		const first = byCampaign(rows);
		const changed = [campaign(0, 'NEW'), campaign(1, 'D'), campaign(2, 'C'), campaign(3, 'A')];
		const again = byCampaign(changed);
		for (const name of ['A', 'C', 'D']) expect(again.get(`${name} ${at(2)}`)).toBe(first.get(`${name} ${at(2)}`));
		expect(new Set(first.values())).not.toContain(again.get(`NEW ${at(2)}`));
	});

	it('dates moved by the clock do not count; what the campaign says does', () => {
		const moved = rows.map((each) => ({ ...each, dates: each.dates.map((date) => date + 90_000) }));
		expect([...keysOf(moved).values()]).toEqual([...keysOf(rows).values()]);
		expect(keysOf([campaign(0, 'A', 2, 'Fixed text')]).get(0)).not.toBe(keysOf(rows).get(0));
	});

	it('identical campaigns are numbered in order of their dates, then of their items, wherever they sit', () => {
		const morningEvening = [campaign(0, 'A', 1), campaign(1, 'A', 10), campaign(2, 'A', 1)];
		const first = keysOf(morningEvening);
		expect(new Set(first.values()).size).toBe(3);
		// The evening one first, the dates an hour later: the evening campaign keeps the evening key.
		const again = keysOf([campaign(0, 'A', 11), campaign(1, 'A', 2), campaign(2, 'A', 2)]);
		expect(again.get(0)).toBe(first.get(1));
		expect(new Set([again.get(1), again.get(2)])).toEqual(new Set([first.get(0), first.get(2)]));
	});

	it("the execution: another mark in n8n's context is another execution; a Retry copies the mark", () => {
		const first = keysOf(rows);
		expect(keysOf(rows, { context: { ...defaultContext(), [EXECUTION_MARK]: 'run-b' } }).get(0)).not.toBe(first.get(0));
		expect(keysOf(rows, { executionId: '18', context: { ...defaultContext(), source: 'retry' } }).get(0)).toBe(first.get(0));
	});

	it('an execution without a mark gets a random one, written into its context', () => {
		const fresh: IDataObject = { version: 1, establishedAt: 1_700_000_000_000, source: 'manual' };
		const key = keysOf(rows, { context: fresh }).get(0);
		expect(fresh[EXECUTION_MARK]).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
		expect(keysOf(rows, { context: { version: 1, establishedAt: 1_700_000_000_000, source: 'manual' } }).get(0)).not.toBe(key);
	});

	it("in a sub-execution, the caller's mark counts (n8n passes the caller's context by reference)", () => {
		const callerContext: IDataObject = { version: 1, establishedAt: 1_600_000_000_000 };
		const caller = { workflowId: 'parent', executionId: '3', executionContext: callerContext };
		const first = keysOf(rows, { parentExecution: caller, context: { establishedAt: 1_700_000_000_000 } }).get(0);
		expect(callerContext[EXECUTION_MARK]).toEqual(expect.any(String));
		const afterParentRetry = keysOf(rows, { parentExecution: { ...caller, executionId: '9', executionContext: { ...callerContext } }, context: { establishedAt: 1 } }).get(0);
		expect(afterParentRetry).toBe(first);
		expect(keysOf(rows, { parentExecution: { ...caller, workflowId: 'other parent' } }).get(0)).not.toBe(first);
	});

	it('not the run index (Loop Over Items): a loop\'s rounds shifted by a row added before a Retry keep their campaigns\' keys (issue 59)', () => {
		expect(keysOf(rows, { runIndex: 1 }).get(0)).toBe(keysOf(rows).get(0));
	});

	it("in tool mode, the model's arguments and call id, not the run: n8n gives each Retry On Fail try of a tool call a new run", () => {
		const tool = { type: 'n8n-nodes-lba-ads.lbaAdsTool', items: [{ name: 'promo-1', toolCallId: 'call_1' }] };
		expect(keysOf([campaign(0, 'A')], { ...tool, runIndex: 1 }).get(0)).toBe(keysOf([campaign(0, 'A')], { ...tool, runIndex: 0 }).get(0));
		expect(keysOf([campaign(0, 'A')], { ...tool, items: [{ name: 'promo-1', toolCallId: 'call_2' }] }).get(0)).not.toBe(keysOf([campaign(0, 'A')], tool).get(0));
	});
});

describe('what the execution created, kept in its context', () => {
	it('a created campaign is named for a Retry (the context a Retry copies; the caller\'s in a sub-execution)', () => {
		const callerContext: IDataObject = { version: 1 };
		const child = context({ parentExecution: { workflowId: 'parent', executionContext: callerContext } });
		rememberSending(child, { key: 'retry:v4:k' }, [at(2), at(50)], at(1));
		rememberCreated(child, 'retry:v4:k', '3F9A1C0B7D2E4A65');
		expect(Object.keys(callerContext[CREATED_FIELD] as IDataObject)).toEqual(['retry:v4:k']);
		const retriedChild = context({ parentExecution: { workflowId: 'parent', executionContext: JSON.parse(JSON.stringify(callerContext)) } });
		expect(createdFor(retriedChild, 'retry:v4:k')).toMatchObject({ campaignId: '3F9A1C0B7D2E4A65', dates: [at(2), at(50)] });
		expect(createdFor(retriedChild, 'retry:v4:other')).toBeUndefined();
	});

	it('moved by the clock: every date forward by one amount, by the time since, or by the hours or days begun meanwhile (rounded dates)', () => {
		const record = { campaignId: 'X', dates: [at(2), at(50)], at: at(1) };
		expect(movedByClock(record, [at(2), at(50)], at(1))).toBe(true);
		expect(movedByClock(record, [at(2) + 90_000, at(50) + 90_000], at(1) + 90_000)).toBe(true);
		// $today the next day: the Retry came an hour later, after midnight in Jakarta (17:00 UTC).
		const lateEvening = { ...record, at: Date.UTC(2026, 11, 1, 16, 30) };
		expect(movedByClock(lateEvening, [at(2) + 24 * H, at(50) + 24 * H], Date.UTC(2026, 11, 1, 17, 30), ['Asia/Jakarta'])).toBe(true);
		// The same move with no midnight between (in WIB, at 08:00 and 09:00): another campaign, tomorrow's.
		expect(movedByClock(record, [at(2) + 24 * H, at(50) + 24 * H], at(2), ['Asia/Jakarta'])).toBe(false);
		// $now.startOf('hour'): an hour on when an hour began.
		expect(movedByClock({ ...record, at: at(1) + 15 * 60_000 }, [at(2) + H, at(50) + H], at(1) + 35 * 60_000)).toBe(false);
		expect(movedByClock({ ...record, at: at(1) + 50 * 60_000 }, [at(2) + H, at(50) + H], at(2) + 5 * 60_000)).toBe(true);
		// The evening campaign of the same shape as the morning's, seconds later: not it.
		expect(movedByClock(record, [at(2) + 9 * H, at(50) + 9 * H], at(1) + 5_000, ['Asia/Jakarta'])).toBe(false);
		expect(movedByClock(record, [at(2) - H, at(50) - H], at(3))).toBe(false); // moved back
		expect(movedByClock(record, [at(2) + H, at(50)], at(3))).toBe(false); // the window changed
		expect(movedByClock(record, [at(2) + 2 * H, at(50) + 2 * H + 30 * 60_000], at(3))).toBe(false); // its start moved by the clock, its end by more
		expect(movedByClock(record, [at(2) + 7 * 24 * H, at(50) + 7 * 24 * H], at(3))).toBe(false); // a week later, an hour after
		expect(movedByClock(record, [at(2)], at(3))).toBe(false); // a channel less
	});

	it('a Retry numbers identical campaigns by what was sent: one removed or added before it moves no other campaign', () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const first = retryKeysOf(ctx, [campaign(0, 'A', 2), campaign(1, 'A', 11)], TARGET);
		// The morning one sent and created, the evening one sent and refused.
		rememberSending(ctx, first.get(0)!, [at(2), at(50)], at(1));
		rememberCreated(ctx, first.get(0)!.key, 'MORNING');
		rememberSending(ctx, first.get(1)!, [at(11), at(59)], at(1));
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		// The morning row gone (marked sent): the evening campaign keeps its own number, not the morning's.
		const evening = retryKeysOf(retried, [{ ...campaign(0, 'A', 11), evaluatedAt: at(1) + 5_000 }], TARGET);
		expect(evening.get(0)!.key).toBe(first.get(1)!.key);
		expect(createdFor(retried, evening.get(0)!.key)).toBeUndefined();
		// A new one of that shape before both, dates moved 90 s by the clock: each keeps its own, the new one a free number.
		const moved = (hour: number) => [at(hour) + 90_000, at(hour + 48) + 90_000];
		const again = retryKeysOf(retried, [0, 2, 11].map((hour, index) => ({ ...campaign(index, 'A', hour), dates: moved(hour), evaluatedAt: at(1) + 90_000 })), TARGET);
		expect(again.get(1)!.key).toBe(first.get(0)!.key);
		expect(createdFor(retried, again.get(1)!.key)?.campaignId).toBe('MORNING');
		expect(again.get(2)!.key).toBe(first.get(1)!.key);
		expect([first.get(0)!.key, first.get(1)!.key]).not.toContain(again.get(0)!.key);
	});
});

describe('a Retry after midnight, dates from $today (09:00 and 18:00 WIB, one shape)', () => {
	const WIB = ['Asia/Jakarta'];
	const day = (d: number, hourWib: number) => Date.UTC(2026, 11, d, hourWib - 7);
	const slot = (itemIndex: number, d: number, hourWib: number, evaluatedAt: number): CampaignIdentity => ({
		itemIndex,
		shape: { name: 'A', channels: [{ locationId: 3273, message: 'Diskon' }] },
		dates: [day(d, hourWib), day(d, hourWib + 3)],
		evaluatedAt,
	});
	function firstRun(sentSlots: number[]) {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const ran = day(1, 8);
		const first = retryKeysOf(ctx, [slot(0, 1, 9, ran), slot(1, 1, 18, ran)], TARGET);
		for (const index of sentSlots) rememberSending(ctx, first.get(index)!, [day(1, index ? 18 : 9), day(1, index ? 21 : 12)], ran);
		return { first, retried: context({ context: JSON.parse(JSON.stringify(stage.context)) }) };
	}

	it('the evening campaign, its morning row gone, keeps its own number 26 hours later (a day and 2 hours: the day explains its move)', () => {
		const { first, retried } = firstRun([0, 1]);
		const later = day(2, 10);
		expect(movedByClock({ dates: [day(1, 9), day(1, 12)], at: day(1, 8) }, [day(2, 18), day(2, 21)], later, WIB)).toBe(false);
		const keys = retryKeysOf(retried, [slot(0, 2, 18, later)], TARGET);
		expect(keys.get(0)!.key).toBe(first.get(1)!.key);
	});

	it('only the morning one was sent: the evening one is not taken for it, and gets a number of its own', () => {
		const { first, retried } = firstRun([0]);
		const keys = retryKeysOf(retried, [slot(0, 2, 18, day(2, 10))], TARGET);
		expect(keys.get(0)!.key).not.toBe(first.get(0)!.key);
		// Nothing was sent as it: in a Retry, its number is its own dates (issue 59: another Retry's free places are unknown here).
		expect(keys.get(0)!.ordinal).toBe(`d:${[day(2, 18), day(2, 21)].join()}`);
	});
});

describe('what pairs a Retry\'s campaign with what was sent (issue 58: each rule a test fails without)', () => {
	const SLOW = 4 * 60_000;
	it('nodes before this one may take minutes longer in the Retry (a slow request in a sub-workflow): dates read 4 minutes late still pair', () => {
		const record = { dates: [at(2), at(50)], at: at(1) };
		expect(movedByClock(record, [at(2) + H + SLOW, at(50) + H + SLOW], at(1) + H)).toBe(true);
	});

	it('a created campaign whose dates, computed again before the node, came 9 minutes later than the clock explains (within the 10 minutes allowed) is held as created, not sent again', () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const read = at(1) + 30_000; // 01:00:30 UTC: no hour or day begins in the next half hour, in any of the clock's zones
		const dates = [at(2) + 30_000, at(50) + 30_000];
		const first = retryKeysOf(ctx, [{ ...campaign(0, 'L'), dates, evaluatedAt: read }], TARGET);
		rememberSending(ctx, first.get(0)!, dates, read);
		rememberCreated(ctx, first.get(0)!.key, 'SLOW');
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		// Retried 20 minutes on; the sub-workflow's slow request made its dates 9 minutes later still.
		const moved = dates.map((date) => date + 20 * 60_000 + 9 * 60_000);
		const again = retryKeysOf(retried, [{ ...campaign(0, 'L'), dates: moved, evaluatedAt: read + 20 * 60_000 }], TARGET);
		expect(again.get(0)!.key).toBe(first.get(0)!.key);
		expect(createdFor(retried, again.get(0)!.key)?.campaignId).toBe('SLOW');
	});

	it("two campaigns of one shape a quarter of an hour apart, the created one's row gone before the Retry: the other is not taken for it, it gets its own number (sent)", () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const read = at(1) + 30_000;
		const slot = (minutes: number, since = 0) => [at(2) + 30_000 + (minutes + since) * 60_000, at(50) + 30_000 + (minutes + since) * 60_000];
		const first = retryKeysOf(ctx, [0, 15].map((m, index) => ({ ...campaign(index, 'Q'), dates: slot(m), evaluatedAt: read })), TARGET, 'ownClock');
		// Only the first was sent (created); the run stopped before the second.
		rememberSending(ctx, first.get(0)!, slot(0), read);
		rememberCreated(ctx, first.get(0)!.key, 'FIRST');
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const again = retryKeysOf(retried, [{ ...campaign(0, 'Q'), dates: slot(15, 1), evaluatedAt: read + 60_000 }], TARGET, 'ownClock');
		expect(again.get(0)!.key).toBe(first.get(1)!.key);
		expect(createdFor(retried, again.get(0)!.key)).toBeUndefined();
	});

	it("the time since the dates were read explains a move of 37 minutes, with no hour or day begun: $now's dates", () => {
		const record = { dates: [at(2), at(50)], at: at(1) + 10 * 60_000 };
		expect(movedByClock(record, [at(2) + 37 * 60_000, at(50) + 37 * 60_000], at(1) + 47 * 60_000, ['UTC'])).toBe(true);
	});

	it("a day begun in WIB (not in UTC, nor in the workflow's zone) explains a $today series moved a day: Indonesia's zones are the clock's too", () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const wibDay = (d: number) => [Date.UTC(2026, 11, d, 2), Date.UTC(2026, 11, d, 11)]; // 09:00 to 18:00 WIB
		const lateEvening = Date.UTC(2026, 11, 1, 16, 30); // 23:30 WIB
		const first = retryKeysOf(ctx, [{ ...campaign(0, 'S'), dates: wibDay(2), evaluatedAt: lateEvening }], TARGET, 'ownClock');
		rememberSending(ctx, first.get(0)!, wibDay(2), lateEvening);
		rememberCreated(ctx, first.get(0)!.key, 'DAY1');
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const afterMidnight = Date.UTC(2026, 11, 1, 17, 30); // 00:30 WIB, still the 1st in UTC
		const again = retryKeysOf(retried, [{ ...campaign(0, 'S'), dates: wibDay(3), evaluatedAt: afterMidnight }], TARGET, 'ownClock');
		expect(again.get(0)!.key).toBe(first.get(0)!.key);
		expect(createdFor(retried, again.get(0)!.key)?.campaignId).toBe('DAY1');
	});

	it('the pairs the clock explains best are taken first: day 1 moved a day is day 1, not day 2 five minutes on', () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const wibDay = (d: number) => [Date.UTC(2026, 11, d, 2), Date.UTC(2026, 11, d, 11)];
		const read = Date.UTC(2026, 11, 1, 16, 58); // 23:58 WIB
		const first = retryKeysOf(ctx, [2, 3].map((d, index) => ({ ...campaign(index, 'S'), dates: wibDay(d), evaluatedAt: read })), TARGET, 'ownClock');
		for (const index of [0, 1]) rememberSending(ctx, first.get(index)!, wibDay(index + 2), read);
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const fiveMinutesOn = read + 5 * 60_000; // 00:03 WIB: a day begun, and 5 minutes since
		const again = retryKeysOf(retried, [3, 4].map((d, index) => ({ ...campaign(index, 'S'), dates: wibDay(d), evaluatedAt: fiveMinutesOn })), TARGET, 'ownClock');
		expect([again.get(0)!.key, again.get(1)!.key]).toEqual([first.get(0)!.key, first.get(1)!.key]);
	});

	it('the pairs the clock explains best are taken first: $now slots 3 minutes apart, retried 3 minutes on, each keep their own', () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const slot = (minutes: number) => [at(2) + minutes * 60_000, at(50) + minutes * 60_000];
		const first = retryKeysOf(ctx, [0, 3].map((m, index) => ({ ...campaign(index, 'S'), dates: slot(m), evaluatedAt: at(1) })), TARGET, 'ownClock');
		for (const [index, m] of [0, 3].entries()) rememberSending(ctx, first.get(index)!, slot(m), at(1));
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const again = retryKeysOf(retried, [3, 6].map((m, index) => ({ ...campaign(index, 'S'), dates: slot(m), evaluatedAt: at(1) + 3 * 60_000 })), TARGET, 'ownClock');
		expect([again.get(0)!.key, again.get(1)!.key]).toEqual([first.get(0)!.key, first.get(1)!.key]);
	});

	it("an hourly grid of $now.startOf('hour') retried across midnight in WIB: each slot moved an hour, none taken for the slot 23 hours later (a day's move explains that pair as well)", () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const slotAt = (hour: number, shift = 0) => [Date.UTC(2026, 11, 2, 0) + (hour + shift) * H, Date.UTC(2026, 11, 2, 3) + (hour + shift) * H];
		const read = Date.UTC(2026, 11, 1, 16, 58); // 23:58 WIB
		const first = retryKeysOf(ctx, Array.from({ length: 30 }, (_, hour) => ({ ...campaign(hour, 'G'), dates: slotAt(hour), evaluatedAt: read })), TARGET, 'ownClock');
		for (let hour = 0; hour < 30; hour++) rememberSending(ctx, first.get(hour)!, slotAt(hour), read);
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const again = retryKeysOf(retried, Array.from({ length: 30 }, (_, hour) => ({ ...campaign(hour, 'G'), dates: slotAt(hour, 1), evaluatedAt: read + 4 * 60_000 })), TARGET, 'ownClock');
		expect(Array.from({ length: 30 }, (_, hour) => again.get(hour)!.key)).toEqual(Array.from({ length: 30 }, (_, hour) => first.get(hour)!.key));
	});

	it('fixed dates: the same dates are the same campaign in a Retry (its recorded number); other dates of that shape are another campaign', () => {
		const stage = { context: defaultContext() };
		const ctx = context(stage);
		const first = retryKeysOf(ctx, [campaign(0, 'F', 2)], TARGET, 'fixed');
		rememberSending(ctx, first.get(0)!, [at(2), at(50)], at(1));
		const retried = context({ context: JSON.parse(JSON.stringify(stage.context)) });
		const again = retryKeysOf(retried, [campaign(0, 'F', 3), campaign(1, 'F', 2)], TARGET, 'fixed');
		expect(again.get(1)!.key).toBe(first.get(0)!.key);
		expect(again.get(0)!.key).not.toBe(first.get(0)!.key);
	});

	it('a record keeps when its dates were read, not when it was sent (a wave sent 15 minutes after its items were prepared)', () => {
		const ctx = context({ context: defaultContext() });
		const [identity] = [...retryKeysOf(ctx, [campaign(0, 'R')], TARGET).values()];
		const preparedAt = Date.now() - 15 * 60_000;
		rememberSending(ctx, identity, [at(2), at(50)], preparedAt);
		expect(sentFor(ctx, identity.key)?.at).toBe(preparedAt);
	});
});

describe("a $today series retried across midnight in WITA, WIT and the workflow's zone (n8n's Default: the instance's, New York)", () => {
	// Each zone's midnight is a day begun in that zone alone: in no other of the clock's zones, and
	// not an hour's move. 09:00 to 18:00 local, days 2 to 4, read at 23:58 local on day 1.
	const CASES: Array<[string, string, Stage]> = [
		['WITA', 'Asia/Makassar', {}],
		['WIT', 'Asia/Jayapura', {}],
		["the workflow's zone", 'America/New_York', { workflowTimezone: 'DEFAULT' }],
	];
	const local = (zone: string, day: number, hour: number, minute = 0) => DateTime.fromObject({ year: 2026, month: 12, day, hour, minute }, { zone }).toMillis();
	const series = (zone: string, days: number[], read: number) =>
		days.map((day, index) => ({ ...campaign(index, 'S'), dates: [local(zone, day, 9), local(zone, day, 18)], evaluatedAt: read }));
	function sentDays2To4(zone: string, stage: Stage) {
		const first = { context: defaultContext(), ...stage };
		const ctx = context(first);
		const read = local(zone, 1, 23, 58);
		const keys = retryKeysOf(ctx, series(zone, [2, 3, 4], read), TARGET, 'ownClock');
		for (const index of [0, 1, 2]) rememberSending(ctx, keys.get(index)!, series(zone, [2, 3, 4], read)[index].dates, read);
		for (const index of [0, 1, 2]) rememberCreated(ctx, keys.get(index)!.key, `DAY${index + 2}`);
		return { keys, retried: () => context({ ...stage, context: JSON.parse(JSON.stringify(first.context)) }) };
	}

	it.each(CASES)('%s: retried before its midnight, the same days: each held as its own campaign', (_label, zone, stage) => {
		const { keys, retried } = sentDays2To4(zone, stage);
		const ctx = retried();
		const again = retryKeysOf(ctx, series(zone, [2, 3, 4], local(zone, 1, 23, 59)), TARGET, 'ownClock');
		expect([0, 1, 2].map((index) => createdFor(ctx, again.get(index)!.key)?.campaignId)).toEqual(['DAY2', 'DAY3', 'DAY4']);
		expect([0, 1, 2].map((index) => again.get(index)!.key)).toEqual([0, 1, 2].map((index) => keys.get(index)!.key));
	});

	it.each(CASES)("%s: retried 5 minutes after its midnight, days 3 to 5: each held as the campaign it was, none as the next day's", (_label, zone, stage) => {
		const { keys, retried } = sentDays2To4(zone, stage);
		const ctx = retried();
		const again = retryKeysOf(ctx, series(zone, [3, 4, 5], local(zone, 2, 0, 3)), TARGET, 'ownClock');
		expect([0, 1, 2].map((index) => createdFor(ctx, again.get(index)!.key)?.campaignId)).toEqual(['DAY2', 'DAY3', 'DAY4']);
		expect([0, 1, 2].map((index) => again.get(index)!.key)).toEqual([0, 1, 2].map((index) => keys.get(index)!.key));
	});
});

describe("an hourly grid retried across the hour in a workflow zone half an hour off UTC (Asia/Kolkata)", () => {
	it("$now.startOf('hour') slots, read at 10:58 and retried at 11:03 India time (05:28 and 05:33 UTC, no UTC hour begun): each slot held as its own", () => {
		const zone = 'Asia/Kolkata';
		const stage: Stage = { context: defaultContext(), workflowTimezone: zone };
		const ctx = context(stage);
		const hourAt = (hour: number) => DateTime.fromObject({ year: 2026, month: 12, day: 2, hour }, { zone }).toMillis();
		const grid = (from: number, read: number) => [0, 1, 2].map((step) => ({ ...campaign(step, 'K'), dates: [hourAt(from + step), hourAt(from + step + 3)], evaluatedAt: read }));
		const read = DateTime.fromObject({ year: 2026, month: 12, day: 1, hour: 10, minute: 58 }, { zone }).toMillis();
		const first = retryKeysOf(ctx, grid(11, read), TARGET, 'ownClock');
		for (const step of [0, 1, 2]) rememberSending(ctx, first.get(step)!, grid(11, read)[step].dates, read);
		const retried = context({ ...stage, context: JSON.parse(JSON.stringify(stage.context)) });
		const again = retryKeysOf(retried, grid(12, read + 5 * 60_000), TARGET, 'ownClock');
		expect([0, 1, 2].map((step) => again.get(step)!.key)).toEqual([0, 1, 2].map((step) => first.get(step)!.key));
	});
});

describe("the execution, without n8n's context", () => {
	it('an engine without one: the earliest start in the run data (kept by a Retry), then the execution id', () => {
		const runData = { Start: [{ startTime: 1_650_000_000_000 }], LBA: [{ startTime: 1_600_000_000_000 }] };
		expect(executionIdentity(context({ context: null, runData }))).toBe('started 1650000000000');
		expect(executionIdentity(context({ context: null, runData: {} }))).toBe('execution id 17');
		expect(executionIdentity(context())).toBe('execution run-a');
	});
});
