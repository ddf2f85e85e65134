import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolDescription } from '../../helpers/aiTool';
import { forgetCampaigns, keyFromUser } from '../../helpers/duplicateProtection';

/**
 * Forgets what this node's duplicate protection recorded, so the campaigns can be sent again
 * on purpose. Like the Remove Duplicates node's "Clear Deduplication History", it works on the
 * history of the node it runs on: switch the Create node to this operation, run the step,
 * switch back.
 */

const showFor = { show: { resource: ['campaign'], operation: ['forgetSent'] } };

export const description: INodeProperties[] = [
	toolDescription(
		'campaign',
		'forgetSent',
		"Clears this tool node's own record of sent campaigns. It does not affect other nodes or tools, " +
			'and it sends nothing. Only call it when the user explicitly asks for it.',
	),
	{
		displayName:
			'Run this on the same node that creates the campaigns: switch its operation here, execute the step, then switch back. Each node keeps its own history.',
		name: 'forgetNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
	{
		displayName: 'Forget',
		name: 'forget',
		type: 'options',
		noDataExpression: true,
		default: 'keys',
		options: [
			{ name: 'All Campaigns', value: 'all', description: "Clear this node's whole history of sent campaigns" },
			{ name: 'Some Keys', value: 'keys', description: 'One idempotency key per input item' },
		],
		displayOptions: showFor,
	},
	{
		displayName: 'Idempotency Key',
		name: 'forgetKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.idempotencyKey }}',
		description:
			'The key to forget: the idempotencyKey of a created or skipped item (content:… or custom:…), or the text of a custom key',
		displayOptions: { show: { ...showFor.show, forget: ['keys'] } },
	},
];

export async function forgetSent(ctx: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	if (ctx.getNodeParameter('forget', 0) === 'all') {
		const entriesBefore = await forgetCampaigns(ctx, 'all');
		return [{ json: { forgotten: 'all', entriesBefore }, pairedItem: items.map((_, item) => ({ item })) }];
	}
	const keys = new Map<number, string>();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const key = keyFromUser(ctx.getNodeParameter('forgetKey', itemIndex, ''));
		if (key !== undefined) {
			keys.set(itemIndex, key);
			continue;
		}
		const error = new NodeOperationError(ctx.getNode(), `Idempotency Key of item ${itemIndex} is empty; nothing was forgotten for it`, {
			itemIndex,
			description: 'Give the key to forget, e.g. {{ $json.idempotencyKey }} from a created or skipped item.',
		});
		if (!ctx.continueOnFail()) throw error;
		output[itemIndex] = { json: { error: error.message }, pairedItem: { item: itemIndex } };
	}
	const entriesBefore = await forgetCampaigns(ctx, [...keys.values()]);
	for (const [item, key] of keys) output[item] = { json: { forgotten: key, entriesBefore }, pairedItem: { item } };
	return output.filter(Boolean);
}
