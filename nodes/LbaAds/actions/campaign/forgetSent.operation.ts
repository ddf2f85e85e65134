import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forgetCampaigns } from '../../duplicateProtection/campaignGuard';
import { keysFromUser, serviceTarget } from '../../duplicateProtection/keys';
import type { Operation, OperationModule } from '../engine/operation';
import { runsAsTool, toolDescription } from '../../helpers/aiTool';
import { SAY } from '../../../shared/instructions';

/**
 * Forgets what a node's duplicate protection recorded, so that campaigns can be sent again on
 * purpose. A node's history is its own (n8n keeps it per node), so forgetting is done by the
 * Create node itself: its Mode "Forget Sent Campaigns" (create/runMode.ts) runs this with its own
 * fields, and keeps every field of the campaign. This operation is the same work for workflows
 * saved with it.
 */

const showFor = { show: { resource: ['campaign'], operation: ['forgetSent'] } };

/** The two fields of forgetting, under the names of the node that shows them. */
export interface ForgetFields {
	/** 'all' or 'keys'. */
	what: string;
	/** The keys to forget (a held item's forgetKeys, a key, or a custom key's text). */
	key: string;
}

/** The fields of forgetting, shown with `show`. */
export function forgetFields(names: ForgetFields, show: NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>): INodeProperties[] {
	return [
		{
			displayName: 'Forget',
			name: names.what,
			type: 'options',
			noDataExpression: true,
			default: 'keys',
			options: [
				{ name: 'All Campaigns', value: 'all', description: "Clear this node's whole history of sent campaigns: every campaign can be sent again" },
				{ name: 'Some Keys', value: 'keys', description: 'Only the campaigns these keys name (one entry per input item)' },
			],
			displayOptions: { show },
		},
		{
			displayName: 'Keys to Forget',
			name: names.key,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. retry:v4:2e5f… content:v2:45a2…',
			description:
				"The forgetKeys of a held-back or created item of this node's output (every key that holds its campaign back), a key an error names, or the text of a custom key",
			displayOptions: { show: { ...show, [names.what]: ['keys'] } },
		},
	];
}

/** The key to forget, or 'all' (then read once, for the whole run). */
type ForgetRequest = { key: string } | 'all';

/** Forgetting, with the fields `names` of the node that runs it. */
export function forgetOperation(names: ForgetFields): Operation<ForgetRequest> {
	return {
		checkAllBeforeSending: true,
		usesService: false,

		prepare(ctx, itemIndex) {
			if (ctx.getNodeParameter(names.what, 0) === 'all') return 'all';
			const key = String(ctx.getNodeParameter(names.key, itemIndex, '') ?? '').trim();
			if (key !== '') return { key };
			throw new NodeOperationError(ctx.getNode(), `Keys to Forget of item ${itemIndex + 1} is empty; nothing was forgotten for it`, {
				itemIndex,
				description: SAY.pasteKeysToForget,
			});
		},

		// One store call for the whole run.
		async sendAll(ctx, prepared) {
			if (ctx.getNodeParameter(names.what, 0) === 'all') {
				const { entriesBefore, entriesAfter } = await forgetCampaigns(ctx, 'all');
				return { forAllItems: { forgotten: 'all', message: "This node's whole history of sent campaigns was cleared: every campaign can be sent again.", entriesBefore, entriesAfter } };
			}
			// A custom key's own text names a key per service: the one this node's credential points to.
			const target = await credentialTarget(ctx);
			const keys = new Map(prepared.map(({ itemIndex, request }) => [itemIndex, keysFromUser((request as { key: string }).key, target)]));
			const { entriesBefore, entriesAfter, found } = await forgetCampaigns(ctx, [...keys.values()].flat());
			const held = new Set(found);
			const perItem = new Map(
				[...keys].map(([itemIndex, given]) => {
					const forgotten = given.filter((key) => held.has(key));
					const notFound = given.filter((key) => !held.has(key));
					const message = !given.length
						? `Nothing recognisable as a key was given: nothing was forgotten. ${SAY.copyForgetKeys}`
						: forgotten.length
							? `Forgot ${forgotten.length} key${forgotten.length === 1 ? '' : 's'}: the next run sends that campaign again.`
							: `No key matched anything in this node's history: nothing was forgotten. ${SAY.copyForgetKeysOwnHistory}`;
					return [itemIndex, [{ message, forgotten: forgotten.join(' '), notFound: notFound.join(' '), entriesBefore, entriesAfter }]];
				}),
			);
			const unmatched = [...perItem].filter(([, [json]]) => !json.forgotten).map(([itemIndex]) => itemIndex + 1);
			if (unmatched.length) {
				ctx.addExecutionHints?.({
					message: `Forget: the keys of item${unmatched.length === 1 ? '' : 's'} ${unmatched.join(', ')} matched nothing in this node's history, so nothing was forgotten for ${unmatched.length === 1 ? 'it' : 'them'}. ${SAY.useForgetKeys}`,
					type: 'warning',
					location: 'outputPane',
				});
			}
			return { perItem };
		},
	};
}

/** The target of the node's credential, when it has one (forgetting works without it). */
async function credentialTarget(ctx: IExecuteFunctions): Promise<string | undefined> {
	const type = ctx.getNodeParameter('authentication', 0, 'accessToken') === 'oAuth2' ? 'lbaAdsOAuth2Api' : 'lbaAdsApi';
	try {
		const credentials = await ctx.getCredentials(type);
		return credentials?.baseUrl ? serviceTarget(String(credentials.baseUrl)) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * As an AI tool, Forget Sent can reach only the tool node's own history, which holds nothing (only
 * a Create node records), so a call says so and forgets nothing (docs/choices.md).
 */
function notAsTool(operation: Operation<ForgetRequest>): Operation<ForgetRequest> {
	return {
		...operation,
		prepare(ctx, itemIndex) {
			if (!runsAsTool(ctx)) return operation.prepare(ctx, itemIndex);
			throw new NodeOperationError(
				ctx.getNode(),
				`Forget Sent does nothing as a tool: each tool node keeps its own record of sent campaigns, and this one sends none. Nothing was forgotten. To send a campaign the Create tool held again, ${SAY.sendOneAgainFromTool.replace(/\.$/, '')}`,
				{ itemIndex },
			);
		},
	};
}

export const forgetSent: OperationModule<ForgetRequest> = {
	option: {
		name: 'Forget Sent',
		value: 'forgetSent',
		action: 'Forget sent campaigns',
		description: "Clear this node's duplicate-protection history (the Create node's Mode does this without changing its setup)",
	},
	description: [
		toolDescription(
			'campaign',
			'forgetSent',
			'Does nothing: a tool node keeps its own record of sent campaigns, and this one sends none, so it cannot free a campaign ' +
				`another tool sent. ${SAY.toolForgetNot} To send a campaign the Create tool held again, ${SAY.sendOneAgainFromTool}`,
		),
		{
			displayName:
				`A node's history of sent campaigns is its own. ${SAY.forgetOnCreateNode} its campaign setup stays as it is. (Switching a configured Create node to this operation loses its fields.)`,
			name: 'forgetNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor,
		},
		// Not for the tool: its keys would name nothing in its own (empty) history.
		...forgetFields({ what: 'forget', key: 'forgetKey' }, { ...showFor.show, '@tool': [false] }),
	],
	operation: notAsTool(forgetOperation({ what: 'forget', key: 'forgetKey' })),
};
