/**
 * The retry key's parts, one at a time, on a stand-in for n8n's node context: where the item came
 * from counts (its execution, its run, its place and lineage, the first item's saved data), and
 * nothing of what was written or computed does. (The engine-level proofs are in identity.test.ts.)
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { EXECUTION_MARK, executionIdentity, itemLineage, itemRetryKey } from '../../../../nodes/LbaAds/duplicateProtection/itemOrigin';

const TARGET = 'https://api.example.co.id';

interface Stage {
	parameters?: IDataObject;
	type?: string;
	/** The LBA node's input: Prepare's output items. */
	items?: IDataObject[];
	/** The first node's items (the trigger's, or a sub-workflow's Execute Workflow Trigger's). */
	triggerItems?: IDataObject[];
	runIndex?: number;
	executionId?: string;
	/** n8n's execution context (runtimeData); null: an engine without one. */
	context?: IDataObject | null;
	parentExecution?: IDataObject;
	runData?: IDataObject;
}

const written: IDataObject = {
	resource: 'campaign',
	operation: 'create',
	name: '={{ $json.name }}',
	channels: { channel: [{ sender: 'LBADEMO', locationId: 161, smsQty: 500, message: 'Diskon', startDate: '={{ $now }}', telcoId: 'tsel' }] },
	duplicateProtection: 'content',
	options: { timezone: 'Asia/Jakarta' },
};

/** Start (2 items) -> Prepare (one item per trigger item, paired) -> LBA. */
function runDataOf(stage: Stage): IDataObject {
	if (stage.runData) return stage.runData;
	const trigger = stage.triggerItems ?? [{ at: '2026-12-01T08:00:00.000+07:00' }, { at: '2026-12-01T08:00:00.000+07:00' }];
	const items = stage.items ?? [{ name: 'promo-1' }, { name: 'promo-1' }];
	return {
		Start: [{ startTime: 1_650_000_000_000, source: [], data: { main: [trigger.map((json) => ({ json }))] } }],
		Prepare: [{ startTime: 1_650_000_000_100, source: [{ previousNode: 'Start' }], data: { main: [items.map((json, item) => ({ json, pairedItem: { item } }))] } }],
	};
}

/** A fresh node context each call, as n8n gives each run of the node; `context` is kept between calls like n8n's. */
function context(stage: Stage = {}): IExecuteFunctions {
	const executionContext = stage.context === null ? undefined : (stage.context ?? { version: 1, establishedAt: 1_700_000_000_000, source: 'manual', [EXECUTION_MARK]: 'run-a' });
	const runData = runDataOf(stage);
	const input = ((runData.Prepare as Array<{ data: { main: IDataObject[][] } }> | undefined)?.[0]?.data.main[0] ?? []) as Array<{ json: IDataObject }>;
	return {
		getNode: () => ({ name: 'LBA', type: stage.type ?? 'n8n-nodes-lba-ads.lbaAds', parameters: stage.parameters ?? written }),
		getInputData: () => input,
		getExecuteData: () => ({ source: { main: [{ previousNode: 'Prepare' }] } }),
		getWorkflowDataProxy: () => ({ $runIndex: stage.runIndex ?? 0 }),
		getExecutionId: () => stage.executionId ?? '17',
		getExecutionContext: () => executionContext,
		runExecutionData: { resultData: { runData }, parentExecution: stage.parentExecution },
	} as unknown as IExecuteFunctions;
}

const key = (stage: Stage = {}, itemIndex = 0) => itemRetryKey(context(stage), itemIndex, TARGET);

describe('the retry key: where the item came from counts', () => {
	it("the execution: another mark in n8n's execution context is another execution, even in the same millisecond", () => {
		expect(key({ context: { version: 1, establishedAt: 1_700_000_000_000, source: 'manual', [EXECUTION_MARK]: 'run-b' } })).not.toBe(key());
	});

	it('an execution without a mark gets a random one, written into its context (saved with it, copied by a Retry)', () => {
		const first: IDataObject = { version: 1, establishedAt: 1_700_000_000_000, source: 'manual' };
		const second: IDataObject = { ...first };
		const a = key({ context: first });
		expect(first[EXECUTION_MARK]).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
		expect(key({ context: second })).not.toBe(a); // same establishedAt, another execution
		// A Retry copies the context, mark included: the same key.
		expect(key({ executionId: '18', context: { ...first, source: 'retry' } })).toBe(a);
	});

	it("in a sub-execution, the caller's mark counts, written into the caller's context (n8n passes it by reference)", () => {
		const callerContext: IDataObject = { version: 1, establishedAt: 1_600_000_000_000 };
		const caller = { workflowId: 'parent', executionId: '3', executionContext: callerContext };
		const first = key({ parentExecution: caller, context: { establishedAt: 1_700_000_000_000 } });
		expect(callerContext[EXECUTION_MARK]).toEqual(expect.any(String));
		const afterParentRetry = key({ parentExecution: { ...caller, executionId: '9', executionContext: { ...callerContext } }, context: { establishedAt: 1_700_000_099_999 } });
		expect(afterParentRetry).toBe(first);
		expect(key({ parentExecution: { ...caller, workflowId: 'other parent' } })).not.toBe(first);
		expect(key({ parentExecution: { ...caller, executionContext: { establishedAt: 1_600_000_000_000 } } })).not.toBe(first);
	});

	it('the item index: two items with the same input are two campaigns', () => {
		expect(key({}, 1)).not.toBe(key({}, 0));
	});

	it('the run index (Loop Over Items): the same item in another run of the node is another campaign', () => {
		expect(key({ runIndex: 1 })).not.toBe(key({ runIndex: 0 }));
	});

	it("the first item's saved data (a sub-workflow run once per item: each call's one item is the caller's)", () => {
		expect(key({ triggerItems: [{ order: 1 }] })).not.toBe(key({ triggerItems: [{ order: 2 }] }));
	});

	it('the lineage: an item paired with another trigger item is another item', () => {
		const runData = runDataOf({});
		const prepare = (runData.Prepare as Array<{ data: { main: Array<Array<{ pairedItem: { item: number } }>> } }>)[0];
		const crossed = JSON.parse(JSON.stringify(runData)) as IDataObject;
		(crossed.Prepare as typeof prepare[])[0].data.main[0][0].pairedItem = { item: 1 };
		expect(key({ runData: crossed, triggerItems: [{ a: 1 }, { a: 1 }] })).not.toBe(key({ runData }));
		expect(itemLineage(context(), 1).path).toEqual([
			['Prepare', 0, 0, 1],
			['Start', 0, 0, 1],
		]);
	});
});

describe('the retry key: what was written or computed does not count', () => {
	it.each([
		['the message edited (any parameter of the node)', { parameters: { ...written, channels: { channel: [{ message: 'Fixed link' }] } } }],
		['Duplicate Protection changed', { parameters: { ...written, duplicateProtection: 'off' } }],
		['the input computed again ($now in a Set node before the LBA node)', { items: [{ name: 'promo-1', at: '2026-12-01T08:00:05' }, { name: 'promo-1' }] }],
	])('%s', (_name, stage) => {
		expect(key(stage as Stage)).toBe(key());
	});

	it('a Date in the first item reads as its saved text (a Retry reads run data back from the database)', () => {
		const at = new Date('2026-12-01T01:00:00.000Z');
		expect(key({ triggerItems: [{ at }, { at }] })).toBe(key({ triggerItems: [{ at: at.toISOString() }, { at: at.toISOString() }] }));
	});

	it('in tool mode, the run index: n8n gives each Retry On Fail try of a tool call a new run', () => {
		const tool = { type: 'n8n-nodes-lba-ads.lbaAdsTool', items: [{ name: 'promo-1', toolCallId: 'call_1' }] };
		expect(key({ ...tool, runIndex: 1 })).toBe(key({ ...tool, runIndex: 0 }));
		// The call itself counts: n8n 2.x puts the model's call id in the tool's input.
		expect(key({ ...tool, items: [{ name: 'promo-1', toolCallId: 'call_2' }] })).not.toBe(key(tool));
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
