import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkCampaign } from './campaignSchema';
import { campaignFailure, createdOutput, smsPerRecipient } from './output';
import type { CreateRequest } from './parameters';
import { checkPlacesAndWindows } from './sendWindows';
import { refuseOverSmsLimit, spendingOf } from './spendingLimits';
import { invalidCampaign } from './wording';
import { campaignGuard } from '../../../duplicateProtection/campaignGuard';
import { contentKey, readSendAgainKey, sentAgainKey, serviceTarget } from '../../../duplicateProtection/keys';
import { campaignByMeaning } from './campaignMeaning';
import type { Operation } from '../../engine/operation';
import { SAY } from '../../../../shared/instructions';

/**
 * Mode "Send One Again" of the Create node (issue 60): one held campaign sent again, alone, by an
 * action the editor always offers (Execute step), whatever its dates and whatever the execution
 * that held it can still do (a Retry that succeeded, a stopped or crashed run, a sub-workflow, a
 * schedule). The campaign comes from the held item's `sendAgainKey` (keys.ts): as it was sent,
 * dates included, so nothing is computed again. The key is recorded in the node's history before
 * the request, so running the node again sends nothing more; outside the editor the mode refuses,
 * so a node left in it fails loudly instead of publishing nothing.
 */

export const SEND_AGAIN_FIELD = 'sendAgainKey';

const shortText = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}…` : text);

export const sendOneAgain: Operation<CreateRequest> = {
	checkAllBeforeSending: true,
	usesService: true,
	// Its places and its window in the recipients' hours, as Publish checks them: a window that is over is refused.
	checkWithService: checkPlacesAndWindows,

	prepare(ctx, itemIndex, transport) {
		const mode = ctx.getMode();
		if (mode !== 'manual') {
			throw new NodeOperationError(ctx.getNode(), `Mode is Send One Again, which sends one campaign from the editor only; this ${mode} execution sent nothing`, {
				itemIndex,
				description: 'Until its Mode is back to Publish, this node publishes none of the workflow\'s campaigns.',
			});
		}
		const text = String(ctx.getNodeParameter(SEND_AGAIN_FIELD, itemIndex, '') ?? '').trim();
		const read = readSendAgainKey(text);
		if (!read) {
			throw new NodeOperationError(ctx.getNode(), `Send Again Key of item ${itemIndex + 1} is not a send-again key ("${shortText(text)}"); nothing was sent`, {
				itemIndex,
				description: SAY.pasteWholeSendAgainKey,
			});
		}
		const target = serviceTarget(transport?.baseUrl ?? '');
		if (read.target !== target) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Send Again Key of item ${itemIndex + 1} names a campaign sent to ${read.target}, but this node's credential points to ${target}; nothing was sent`,
				{ itemIndex, description: SAY.selectFirstCredential },
			);
		}
		const check = checkCampaign(read.campaign, 'UTC');
		if (!check.ok) throw invalidCampaign(ctx, itemIndex, check.problems, true);
		const spending = spendingOf(ctx, itemIndex, check.body);
		refuseOverSmsLimit(ctx, itemIndex, spending);
		const key = sentAgainKey(text);
		return {
			body: check.body,
			key,
			retryKey: key,
			target,
			resend: false,
			dates: { rule: { kind: 'fixed', zone: 'UTC', source: 'the Send Again Key' }, campaign: read.campaign, fromJson: true },
			dryRun: false,
			spending,
			preparedAt: Date.now(),
		};
	},

	guard(ctx, prepared) {
		// Once sent, the campaign's own key too (Campaign Content): the workflow's next run holds it back.
		const content = ctx.getNodeParameter('duplicateProtection', 0, 'content') === 'content';
		const guard = campaignGuard(
			ctx,
			prepared.map(({ itemIndex, request }) => ({
				itemIndex,
				key: request.key!,
				retryKey: request.retryKey!,
				resend: false,
				alsoRecord: content ? [contentKey(campaignByMeaning(request.body), request.target!)] : undefined,
			})),
		);
		return {
			async claim(itemIndexes) {
				const held = await guard.claim(itemIndexes);
				for (const json of held.values()) {
					if (json.earlierOutcome === 'sameRun') continue;
					json.reason = 'Already sent again from this key by this node; not sent again';
					json.howToResend = `Nothing to do: this key sends its campaign once. ${SAY.setModeBackToPublish}`;
				}
				return held;
			},
			settle: (results) => guard.settle(results),
		};
	},

	async send(ctx, request, transport, itemIndex) {
		const sms = smsPerRecipient(request.body);
		try {
			const response = await transport.request({ method: 'POST', path: '/lba/campaign', body: request.body as unknown as IDataObject, itemIndex, retry: false });
			return [{ sentAgain: true, ...createdOutput(request, sms, response, { idempotencyKey: request.key }) }];
		} catch (error) {
			throw campaignFailure(error);
		}
	},

	describeDone(json) {
		if (json.skipped) return `not sent (${String(json.earlierOutcome)})`;
		return `campaign ${String(json.campaignId ?? '?')} sent again`;
	},
};
