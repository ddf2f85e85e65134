/**
 * Create Campaign's spending limits (Options > Max SMS per Campaign, Max Campaigns per
 * Execution), in n8n-core's engine against the sandbox: a campaign over a limit is refused
 * before anything is sent, the dry run shows the figures, and a model using the tool cannot
 * lift them. The real-n8n proof is in test/e2e/ai-agent.e2e.test.ts and mcp.e2e.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf, harnessDeduplicator } from '../../../../harness';
import { campaigns, channel, createParameters, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();
const store = harnessDeduplicator();
let workflowCounter = 0;
const workflowId = () => `limits-${++workflowCounter}`;
beforeEach(() => store.reset());

/** Two channels of 3,000 and 2,500 SMS; the second's message (UCS-2, 100 characters) takes 2 SMS per recipient. */
const twoChannels = [channel({ smsQty: 3000 }), channel({ smsQty: 2500, telcoId: 'isat', message: `Diskon “spesial” ${'x'.repeat(83)}` })];
const itemIndexOf = (result: { error?: unknown }) => (result.error as { context?: { itemIndex?: number } } | undefined)?.context?.itemIndex;
const byName = (options: IDataObject) => createParameters({ name: '={{ $json.name }}', options }, twoChannels);

describe('Max SMS per Campaign', () => {
	it('a campaign above it is refused with its index, the figures and what to change; nothing is sent', async () => {
		const result = await runNode(context, byName({ maxSmsPerCampaign: 5000 }), [{ name: 'big-1' }, { name: 'big-2' }], { workflowId: workflowId() });
		const error = errorOf(result);
		expect(error?.message).toBe(
			"Item 1 › SMS Quantity: 5,500 over the campaign's channels (8,000 SMS billed, counting SMS per recipient), above the spending limit Max SMS per Campaign (5,000). Nothing was sent.",
		);
		expect(error?.description).toBe(
			"Lower the channels' SMS Quantity to 5,000 in all, or split the campaign. The limit is set in the node's Options by the workflow's owner; an AI model using the tool cannot change it. Item 1 is the 1st input item (n8n's error details show Item Index 0).",
		);
		expect(itemIndexOf(result)).toBe(0);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});

	it('at the limit the campaign is sent; with continue on fail only the campaign over it is refused', async () => {
		const parameters = createParameters({ name: '={{ $json.name }}', options: { maxSmsPerCampaign: 5500 } }, twoChannels);
		const atLimit = await runNode(context, parameters, [{ name: 'exactly' }], { workflowId: workflowId() });
		expect(atLimit.items.map((item) => item.json.status)).toEqual(['Published']);

		const mixed = await runNode(
			context,
			createParameters({ name: '={{ $json.name }}', options: { maxSmsPerCampaign: 5000 } }, [channel({ smsQty: '={{ $json.qty }}' })]),
			[{ name: 'small', qty: 4000 }, { name: 'large', qty: 6000 }],
			{ workflowId: workflowId(), node: { continueOnFail: true } },
		);
		expect(mixed.items.map((item) => item.json.status ?? String(item.json.error).slice(0, 22))).toEqual(['Published', 'Item 2 › SMS Quantity:']);
		expect(mixed.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect((await campaigns(context)).map((campaign) => campaign.request.name)).toEqual(['exactly', 'small']);
	});

	it('0 (the default) is no limit', async () => {
		const result = await runNode(context, byName({}), [{ name: 'unlimited' }], { workflowId: workflowId() });
		expect(result.items[0].json.status).toBe('Published');
	});

	it('the dry run shows the figures and the limit that would refuse it, and sends nothing', async () => {
		const result = await runNode(context, byName({ maxSmsPerCampaign: 5000, dryRun: true }), [{ name: 'preview' }], { workflowId: workflowId() });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json.spending).toEqual({
			smsQuantity: 5500,
			smsBilled: 8000,
			maxSmsPerCampaign: 5000,
			maxCampaignsPerExecution: 0,
			campaignsSentInExecution: 0,
			wouldBeRefusedBy: ['Max SMS per Campaign (5,000)'],
		});
		expect(result.items[0].json.warnings).toContain('Sending it would be refused by the spending limit Max SMS per Campaign (5,000).');
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});
});

describe('Max Campaigns per Execution', () => {
	it('a run over it sends none of its campaigns, even with continue on fail, and says which item went over', async () => {
		const items = [1, 2, 3].map((n) => ({ name: `c-${n}` }));
		const stopped = await runNode(context, byName({ maxCampaignsPerExecution: 2 }), items, { workflowId: workflowId() });
		expect(errorOf(stopped)?.message).toBe('Items 1-3 › Max Campaigns per Execution (2): this run has 3 campaigns, over this spending limit. Nothing of this run was sent.');
		expect(errorOf(stopped)?.description).toMatch(/^Send at most 2 more campaigns in this execution, or fewer items per run\./);
		expect(itemIndexOf(stopped)).toBe(2); // the first campaign beyond the limit
		const continued = await runNode(context, byName({ maxCampaignsPerExecution: 2 }), items, { workflowId: workflowId(), node: { continueOnFail: true } });
		expect(continued.items.map((item) => String(item.json.error).slice(0, 48))).toEqual(items.map(() => 'Items 1-3 › Max Campaigns per Execution (2): thi'));
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});

	it('at the limit every campaign is sent; dry-run items do not count', async () => {
		const result = await runNode(context, byName({ maxCampaignsPerExecution: 2 }), [{ name: 'a' }, { name: 'b' }], { workflowId: workflowId() });
		expect(result.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
		const previews = await runNode(context, byName({ maxCampaignsPerExecution: 1, dryRun: true }), [{ name: 'p1' }, { name: 'p2' }, { name: 'p3' }], { workflowId: workflowId() });
		// Three previews under a limit of one: none counts, so none is refused.
		expect(errorOf(previews)).toBeUndefined();
		expect(previews.items.map((item) => item.json.dryRun)).toEqual([true, true, true]);
		// One real campaign beside two previews, under a limit of one: it is sent.
		const mixed = await runNode(context, byName({ maxCampaignsPerExecution: 1, dryRun: '={{ $json.name !== "real" }}' }), [{ name: 'p4' }, { name: 'real' }, { name: 'p5' }], {
			workflowId: workflowId(),
		});
		expect(errorOf(mixed)).toBeUndefined();
		expect(mixed.items.map((item) => item.json.dryRun ?? item.json.status)).toEqual([true, 'Published', true]);
	});
});

describe('on the tool, the limits hold whatever the model sends', () => {
	const TOOL = { type: 'n8n-nodes-lba-ads.lbaAdsTool' };
	const toolCall = (smsQty: number) => ({
		name: 'Agent campaign',
		description: 'From the agent',
		category: 'Food & Drinks',
		channels: [{ sender: 'LBADEMO', locationId: 3273, smsQty, message: 'Promo!', startDate: '2026-12-05T09:00:00+07:00', endDate: '2026-12-06T21:00:00+07:00', telcoId: 'tsel' }],
		// A model may add fields of its own: the limits are not among the fields it fills.
		maxSmsPerCampaign: 0,
		options: { maxSmsPerCampaign: 0 },
	});

	it('a campaign over the limit is refused; the whole message reaches the model; nothing is sent', async () => {
		const result = await runNode(context, { resource: 'campaign', operation: 'create', options: { maxSmsPerCampaign: 1000 } }, [toolCall(50_000)], {
			node: TOOL,
			workflowId: workflowId(),
		});
		const message = errorOf(result)?.message ?? '';
		expect(message).toMatch(/^Item 1 › SMS Quantity: 50,000 over the campaign's channels \(50,000 SMS billed/);
		expect(message).toContain('above the spending limit Max SMS per Campaign (1,000)');
		expect(message).toContain('an AI model using the tool cannot change it.');
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
		const within = await runNode(context, { resource: 'campaign', operation: 'create', options: { maxSmsPerCampaign: 1000 } }, [toolCall(1000)], {
			node: TOOL,
			workflowId: workflowId(),
		});
		expect(within.items[0].json.status).toBe('Published');
	});
});
