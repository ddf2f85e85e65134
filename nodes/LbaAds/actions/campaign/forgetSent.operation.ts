import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forgetCampaigns } from '../../duplicateProtection/campaignGuard';
import { keysFromUser, serviceTarget } from '../../duplicateProtection/keys';
import type { OperationModule } from '../engine/operation';
import { toolDescription } from '../../helpers/aiTool';

/**
 * Forgets what this node's duplicate protection recorded, so the campaigns can be sent again
 * on purpose. Like the Remove Duplicates node's "Clear Deduplication History", it works on the
 * history of the node it runs on: switch the Create node to this operation, run the step,
 * switch back.
 */

const showFor = { show: { resource: ['campaign'], operation: ['forgetSent'] } };

const description: INodeProperties[] = [
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
		placeholder: 'e.g. {{ $json.forgetKeys }}',
		description:
			"What to forget: a created or skipped item's forgetKeys (every key that holds its campaign back), a key an error names, or the text of a custom key",
		displayOptions: { show: { ...showFor.show, forget: ['keys'] } },
	},
];

/** The key to forget, or 'all' (then read once, for the whole run). */
type ForgetRequest = { key: string } | 'all';

export const forgetSent: OperationModule<ForgetRequest> = {
	option: {
		name: 'Forget Sent',
		value: 'forgetSent',
		action: 'Forget sent campaigns',
		description: "Clear this node's duplicate-protection history, so campaigns can be sent again on purpose",
	},
	description,
	operation: {
		checkAllBeforeSending: true,
		usesService: false,

		prepare(ctx, itemIndex) {
			if (ctx.getNodeParameter('forget', 0) === 'all') return 'all';
			const key = String(ctx.getNodeParameter('forgetKey', itemIndex, '') ?? '').trim();
			if (key !== '') return { key };
			throw new NodeOperationError(ctx.getNode(), `Idempotency Key of item ${itemIndex} is empty; nothing was forgotten for it`, {
				itemIndex,
				description: 'Give the keys to forget, e.g. {{ $json.forgetKeys }} from a created or skipped item.',
			});
		},

		// One store call for the whole run.
		async sendAll(ctx, prepared) {
			if (ctx.getNodeParameter('forget', 0) === 'all') return { forAllItems: { forgotten: 'all', entriesBefore: await forgetCampaigns(ctx, 'all') } };
			// A custom key's own text names a key per service: the one this node's credential points to.
			const target = await credentialTarget(ctx);
			const keys = new Map(prepared.map(({ itemIndex, request }) => [itemIndex, keysFromUser((request as { key: string }).key, target)]));
			const entriesBefore = await forgetCampaigns(ctx, [...keys.values()].flat());
			return { perItem: new Map([...keys].map(([itemIndex, forgotten]) => [itemIndex, [{ forgotten: forgotten.join(' '), entriesBefore }]])) };
		},
	},
};

/** The target of the node's credential, when it has one (Forget Sent works without it). */
async function credentialTarget(ctx: IExecuteFunctions): Promise<string | undefined> {
	const type = ctx.getNodeParameter('authentication', 0, 'accessToken') === 'oAuth2' ? 'lbaAdsOAuth2Api' : 'lbaAdsApi';
	try {
		const credentials = await ctx.getCredentials(type);
		return credentials?.baseUrl ? serviceTarget(String(credentials.baseUrl)) : undefined;
	} catch {
		return undefined;
	}
}
