/**
 * Resend from an expression (issue 42, item 3). An expression such as {{ $json.resend }} gives the
 * text "true" when the value comes from a sheet, a CSV file or a webhook's query string; read as
 * "not Resend", the campaign the user asked to send again is held back and never sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { resendOption } from '../../../../../../nodes/LbaAds/actions/campaign/create/parameters';
import { campaigns, createParameters, runNode, useHistory, useSandbox } from '../../../setup';

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
