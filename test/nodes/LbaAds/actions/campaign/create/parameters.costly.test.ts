/**
 * Resend from an expression (issue 42, item 3). An expression such as {{ $json.resend }} gives the
 * text "true" when the value comes from a sheet, a CSV file or a webhook's query string; read as
 * "not Resend", the campaign the user asked to send again is held back and never sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { dryRun, resendOption } from '../../../../../../nodes/LbaAds/actions/campaign/create/parameters';
import { campaigns, channel, createParameters, runNode, useHistory, useSandbox } from '../../../setup';

/** A node context whose Options > Resend evaluated to `value`. */
const resendIs = (value: unknown) =>
	({
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'options.resend' ? value : fallback),
	}) as unknown as IExecuteFunctions;

describe('resendOption', () => {
	it('takes the text "true" (an expression over a sheet, a CSV file or a webhook) as Resend', () => {
		expect(resendOption(resendIs('true'), 0)).toBe(true);
	});

	it('control: the boolean true is Resend; false, "false", nothing and other text are not', () => {
		expect(resendOption(resendIs(true), 0)).toBe(true);
		for (const value of [false, 'false', undefined, '', 'yes']) expect([value, resendOption(resendIs(value), 0)]).toEqual([value, false]);
	});
});

describe('Resend given as the text "true", in the engine', () => {
	const context = useSandbox();
	const history = useHistory('resend-text');
	const byName = createParameters({ name: '={{ $json.name }}' });

	it('sends again the campaign an earlier run created', async () => {
		const first = await runNode(context, byName, [{ name: 'again' }], { workflowId: history.workflowId });
		expect(first.items[0].json.status).toBe('Published');
		const resend = await runNode(context, { ...byName, options: { resend: '={{ $json.resend }}' } }, [{ name: 'again', resend: 'true' }], { workflowId: history.workflowId });
		expect(resend.items[0].json).toMatchObject({ status: 'Published' });
		expect(resend.items[0].json.skipped).toBeUndefined();
		expect(await campaigns(context)).toHaveLength(2);
	});
});

/**
 * Dry Run and the tool's Preview Only given as text (issue 53, item 3). Options > Dry Run from an
 * expression over a sheet, a CSV file or a webhook gives the text "true"; the tool's Preview Only is
 * a string field (its default is the model's boolean), so a user who types true there gives the
 * text "true". Read as "publish", the campaign the user meant to preview is sent and billed.
 */
describe('dryRun', () => {
	/** A node context (the node, or its tool when `tool`) whose parameters are `parameters`. */
	const withParameters = (parameters: Record<string, unknown>, tool = false) =>
		({
			getNode: () => ({ type: tool ? 'n8n-nodes-lba-ads.lbaAdsTool' : 'n8n-nodes-lba-ads.lbaAds' }),
			getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name in parameters ? parameters[name] : fallback),
		}) as unknown as IExecuteFunctions;

	it('takes Options > Dry Run given as the text "true" as a dry run', () => {
		expect(dryRun(withParameters({ 'options.dryRun': 'true' }), 0)).toBe(true);
	});

	it("takes the tool's Preview Only given as the text \"true\" as a preview", () => {
		expect(dryRun(withParameters({ preview: 'true' }, true), 0)).toBe(true);
	});

	it('control: true is a dry run; false, "false" and nothing are not', () => {
		expect(dryRun(withParameters({ 'options.dryRun': true }), 0)).toBe(true);
		expect(dryRun(withParameters({ preview: true }, true), 0)).toBe(true);
		for (const value of [false, 'false', undefined]) {
			expect([value, dryRun(withParameters({ 'options.dryRun': value }), 0)]).toEqual([value, false]);
			expect([value, dryRun(withParameters({ preview: value }, true), 0)]).toEqual([value, false]);
		}
	});
});

describe('Dry Run and Preview Only given as the text "true", in the engine', () => {
	const context = useSandbox();
	const history = useHistory('dry-run-text');

	it('Options > Dry Run from an expression giving "true" previews and sends nothing', async () => {
		const parameters = createParameters({ name: '={{ $json.name }}', options: { dryRun: '={{ $json.dryRun }}' } });
		const result = await runNode(context, parameters, [{ name: 'sheet row', dryRun: 'true' }], { workflowId: history.workflowId });
		expect(result.items[0].json).toMatchObject({ dryRun: true, sent: false });
		expect(await campaigns(context)).toHaveLength(0);
	});

	it("the tool's Preview Only typed as true previews, whatever the model says", async () => {
		const call = { name: 'Typed preview', description: 'Preview only', category: 'Shopping', channels: [{ ...channel(), startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-02T09:00:00+07:00' }] };
		const tool = { type: 'n8n-nodes-lba-ads.lbaAdsTool' };
		const result = await runNode(context, { resource: 'campaign', operation: 'create', preview: 'true' }, [call], { node: tool, workflowId: history.workflowId });
		expect(result.items[0].json).toMatchObject({ dryRun: true, sent: false });
		expect(await campaigns(context)).toHaveLength(0);
	});
});
