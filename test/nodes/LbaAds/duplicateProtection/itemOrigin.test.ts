/**
 * The retry key's parts, one at a time, on a stand-in for n8n's node context: each part counts,
 * and nothing else of the node does. (The engine-level proofs are in identity.test.ts.)
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CAMPAIGN_PARAMETERS } from '../../../../nodes/LbaAds/actions/campaign/create/parameters';
import { executionIdentity, itemRetryKey } from '../../../../nodes/LbaAds/duplicateProtection/itemOrigin';

const TARGET = 'https://api.example.co.id';

interface Stage {
	parameters?: IDataObject;
	type?: string;
	items?: IDataObject[];
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
	campaignInput: 'fields',
	name: '={{ $json.name }}',
	campaignDescription: 'Weekend',
	categoryId: 10,
	channelsInput: 'fields',
	channels: { channel: [{ sender: 'LBADEMO', locationId: 161, smsQty: 500, message: 'Diskon', startDate: '={{ $now }}', endDate: '={{ $now.plus({ days: 1 }) }}', telcoId: 'tsel' }] },
	duplicateProtection: 'content',
	options: { timezone: 'Asia/Jakarta' },
};

/** A fresh node context each call, as n8n gives each run of the node. */
function context(stage: Stage = {}): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'LBA', type: stage.type ?? 'n8n-nodes-lba-ads.lbaAds', parameters: stage.parameters ?? written }),
		getInputData: () => (stage.items ?? [{ name: 'promo-1' }, { name: 'promo-1' }]).map((json) => ({ json })),
		getWorkflowDataProxy: () => ({ $runIndex: stage.runIndex ?? 0 }),
		getExecutionId: () => stage.executionId ?? '17',
		getExecutionContext: () => (stage.context === null ? undefined : (stage.context ?? { version: 1, establishedAt: 1_700_000_000_000, source: 'manual' })),
		runExecutionData: { resultData: { runData: stage.runData ?? {} }, parentExecution: stage.parentExecution },
	} as unknown as IExecuteFunctions;
}

const key = (stage: Stage = {}, itemIndex = 0) => itemRetryKey(context(stage), itemIndex, TARGET, CAMPAIGN_PARAMETERS);
const withParameters = (change: (parameters: IDataObject) => void): Stage => {
	const parameters = JSON.parse(JSON.stringify(written)) as IDataObject;
	change(parameters);
	return { parameters };
};

describe('the retry key: each part counts', () => {
	it('the execution context: another established time is another execution', () => {
		expect(key({ context: { version: 1, establishedAt: 1_700_000_000_001, source: 'manual' } })).not.toBe(key());
	});

	it('the execution id does not count when n8n gives a context (a Retry is a new id with the same context)', () => {
		expect(key({ executionId: '18', context: { version: 1, establishedAt: 1_700_000_000_000, source: 'retry' } })).toBe(key());
	});

	it("in a sub-execution, the caller's context counts, not the sub-execution's own", () => {
		const caller = { workflowId: 'parent', executionId: '3', executionContext: { version: 1, establishedAt: 1_600_000_000_000 } };
		const first = key({ parentExecution: caller, context: { establishedAt: 1_700_000_000_000 } });
		const afterParentRetry = key({ parentExecution: { ...caller, executionId: '9' }, context: { establishedAt: 1_700_000_099_999 } });
		expect(afterParentRetry).toBe(first);
		expect(key({ parentExecution: { ...caller, executionContext: { establishedAt: 1_600_000_000_001 } } })).not.toBe(first);
		expect(key({ parentExecution: { ...caller, workflowId: 'other parent' } })).not.toBe(first);
	});

	it('the item index: two items with the same input are two campaigns', () => {
		expect(key({}, 1)).not.toBe(key({}, 0));
	});

	it('the run index (Loop Over Items): the same item in another run of the node is another campaign', () => {
		expect(key({ runIndex: 1 })).not.toBe(key({ runIndex: 0 }));
	});

	it('the input item', () => {
		expect(key({ items: [{ name: 'promo-2' }] })).not.toBe(key());
	});

	it.each(CAMPAIGN_PARAMETERS.filter((name) => name !== 'options.timezone'))('the parameter %s, as written', (name) => {
		expect(key(withParameters((parameters) => (parameters[name] = '={{ "edited" }}')))).not.toBe(key());
	});

	it('the Timezone option (it places dates written without an offset)', () => {
		expect(key(withParameters((parameters) => ((parameters.options as IDataObject).timezone = 'Asia/Makassar')))).not.toBe(key());
	});
});

describe('the retry key: nothing else counts', () => {
	it.each([
		['Authentication', (p: IDataObject) => (p.authentication = 'oAuth2')],
		['Duplicate Protection', (p: IDataObject) => (p.duplicateProtection = 'customKey')],
		['the custom Idempotency Key', (p: IDataObject) => (p.idempotencyKey = '={{ $json.orderId }}')],
		['Resend', (p: IDataObject) => ((p.options as IDataObject).resend = true)],
		['Timeout', (p: IDataObject) => ((p.options as IDataObject).timeoutMs = 5000)],
		['Concurrency', (p: IDataObject) => ((p.options as IDataObject).concurrency = 1)],
		['Dry Run', (p: IDataObject) => ((p.options as IDataObject).dryRun = true)],
		['Max SMS per campaign', (p: IDataObject) => ((p.options as IDataObject).maxSmsPerCampaign = 100)],
		['Max campaigns per execution', (p: IDataObject) => ((p.options as IDataObject).maxCampaignsPerExecution = 3)],
		['a parameter a later release adds', (p: IDataObject) => (p.sendReport = true)],
		['an option a later release adds', (p: IDataObject) => ((p.options as IDataObject).trackClicks = true)],
	])('%s', (_name, change) => {
		expect(key(withParameters(change))).toBe(key());
	});

	it('in tool mode, the run index: n8n gives each Retry On Fail try of a tool call a new run', () => {
		const tool = { type: 'n8n-nodes-lba-ads.lbaAdsTool', items: [{ name: 'promo-1', toolCallId: 'call_1' }] };
		expect(key({ ...tool, runIndex: 1 })).toBe(key({ ...tool, runIndex: 0 }));
		// The call itself counts: n8n 2.x puts the model's call id in the tool's input.
		expect(key({ ...tool, items: [{ name: 'promo-1', toolCallId: 'call_2' }] })).not.toBe(key(tool));
	});
});

describe('the execution, without n8n\'s context', () => {
	it('an engine without one: the earliest start in the run data (kept by a Retry), then the execution id', () => {
		const runData = { Start: [{ startTime: 1_650_000_000_000 }], LBA: [{ startTime: 1_600_000_000_000 }] };
		expect(executionIdentity(context({ context: null, runData }))).toBe('started 1650000000000');
		expect(executionIdentity(context({ context: null }))).toBe('execution 17');
		expect(executionIdentity(context())).toBe('established 1700000000000');
	});
});
