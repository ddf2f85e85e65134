import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isResourceLocatorValue, jsonParse, NodeOperationError } from 'n8n-workflow';

import type { CampaignBody } from './campaignSchema';
import { campaignByMeaning } from './campaignMeaning';
import type { Spending } from './spendingLimits';
import { itemLabel, refusal } from './wording';
import { shownValue } from '../../../../shared/parameterValues';
import { runsAsTool } from '../../../helpers/aiTool';
import { isValidZone, readInZone } from '../../../helpers/dates';
import { contentKey, customKey, serviceTarget, type ProtectionMode } from '../../../duplicateProtection/keys';
import { itemRetryKey } from '../../../duplicateProtection/itemOrigin';
import { previewMode } from './runMode';

/** Create Campaign's parameters, read for one item: what the panel, an expression or an AI model gave. */

export interface CreateRequest {
	body: CampaignBody;
	/** The idempotency key (undefined with Duplicate Protection off). */
	key?: string;
	/** The item's retry key (duplicate protection on). */
	retryKey?: string;
	resend: boolean;
	/** Which dates had no UTC offset and the timezone they were read in: the output says so. */
	zoneNote?: { assumedTimezone: string; datesWithoutOffset: string[] };
	/** Dry run: validate and convert, then show the request instead of sending it. */
	dryRun: boolean;
	/** Its SMS figures and the spending limits that apply. */
	spending: Spending;
}

/** Mode > Preview or Options > Dry Run on the node; on the tool, the model's `preview` argument. */
export function dryRun(ctx: IExecuteFunctions, itemIndex: number): boolean {
	if (previewMode(ctx)) return true;
	const option = ctx.getNodeParameter('options.dryRun', itemIndex, false);
	if (option === true || option === 'true') return true;
	if (!runsAsTool(ctx)) return false;
	const preview = ctx.getNodeParameter('preview', itemIndex, false);
	return preview === true || preview === 'true';
}

type CampaignKeys = Pick<CreateRequest, 'key' | 'retryKey'>;

/**
 * Duplicate protection's keys for one item: the campaign by its meaning (dates as instants) and
 * its target, or a custom key; and the item's retry key, which says where the item came from.
 * With Off, the campaign's key is its retry key: nothing is held back by content, but a Retry
 * never sends again what the execution it retries created. See duplicateProtection/keys.ts.
 */
export function campaignKeys(ctx: IExecuteFunctions, itemIndex: number, body: CampaignBody, baseUrl: string): CampaignKeys {
	const mode = ctx.getNodeParameter('duplicateProtection', itemIndex, 'content') as ProtectionMode;
	// An unsaved workflow has no history (n8n keeps it per saved workflow): with Off, it sends as asked.
	if (mode === 'off' && !ctx.getWorkflow().id) return {};
	const target = serviceTarget(baseUrl);
	const retryKey = itemRetryKey(ctx, itemIndex, target);
	if (mode === 'off') return { key: retryKey, retryKey };
	if (mode === 'content') {
		return { key: contentKey(campaignByMeaning(body), target), retryKey };
	}
	const value = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	const key = customKey(value, target);
	if (key === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'Idempotency Key is empty', {
			itemIndex,
			description:
				'Nothing was sent for this item. With Duplicate Protection set to Custom Key, every item needs a key, e.g. {{ $json.orderId }}.',
		});
	}
	return { key, retryKey };
}

export function resendOption(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const value = ctx.getNodeParameter('options.resend', itemIndex, false);
	return value === true || value === 'true';
}

export function timezone(ctx: IExecuteFunctions, itemIndex: number): string {
	const override = String(ctx.getNodeParameter('options.timezone', itemIndex, '') ?? '').trim();
	if (!override) return ctx.getTimezone();
	if (!isValidZone(override)) {
		throw refusal(
			ctx,
			itemIndex,
			[`${itemLabel(itemIndex)} › Options › Timezone: "${override}" is not a timezone; use an IANA name such as Asia/Jakarta (WIB), Asia/Makassar (WITA) or Asia/Jayapura (WIT)`],
			'Empty the option to use the workflow\'s timezone.',
		);
	}
	return override;
}

/** Dates given as wall-clock text were read in `zone`: worth saying, as an AI model often omits the offset. */
export function zoneNote(channels: unknown, zone: string): CreateRequest['zoneNote'] {
	if (!Array.isArray(channels)) return undefined;
	const datesWithoutOffset: string[] = [];
	channels.forEach((channel: IDataObject, index) => {
		for (const field of ['startDate', 'endDate']) {
			if (readInZone(channel?.[field])) datesWithoutOffset.push(`channels[${index}].${field}`);
		}
	});
	return datesWithoutOffset.length ? { assumedTimezone: zone, datesWithoutOffset } : undefined;
}

/** The campaign as the panel's fields (or the tool's) give it, for the campaign schema to check. */
export function campaignFromFields(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fromFields = ctx.getNodeParameter('channelsInput', itemIndex, 'fields') === 'fields';
	return {
		name: ctx.getNodeParameter('name', itemIndex),
		description: ctx.getNodeParameter('campaignDescription', itemIndex),
		categoryId: ctx.getNodeParameter('categoryId', itemIndex),
		channels: fromFields
			? ((ctx.getNodeParameter('channels.channel', itemIndex, []) as IDataObject[]) ?? []).map(withPlainLocationId)
			: (asList(jsonParameter(ctx, 'channelsJson', 'Channels (JSON)', itemIndex)) as IDataObject['channels']),
	};
}

/**
 * Campaign Input = JSON: the whole campaign in one value (one expression per item, as an HTTP
 * Request's JSON body). One channel object is taken as a list of one, as in Channels (JSON).
 */
export function campaignFromJson(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const campaign = jsonParameter(ctx, 'campaignJson', 'Campaign (JSON)', itemIndex);
	if (campaign === null || typeof campaign !== 'object' || Array.isArray(campaign)) {
		const given = Array.isArray(campaign) ? `an array of ${campaign.length}` : shownValue(campaign);
		throw refusal(
			ctx,
			itemIndex,
			[`${itemLabel(itemIndex)} › Campaign (JSON): ${given}, not one campaign object; give an object with name, description, categoryId and channels`],
			'For several campaigns, give one item per campaign.',
		);
	}
	const { channels } = campaign as IDataObject;
	return channels === undefined ? (campaign as IDataObject) : { ...(campaign as IDataObject), channels: asList(channels) as IDataObject['channels'] };
}

/** A JSON parameter's value: what an expression produced, or the parsed text. */
function jsonParameter(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): unknown {
	const value = ctx.getNodeParameter(name, itemIndex);
	if (typeof value !== 'string') return value; // an expression already produced it
	try {
		return jsonParse(value);
	} catch (error) {
		throw refusal(ctx, itemIndex, [`${itemLabel(itemIndex)} › ${label}: not valid JSON (${(error as Error).message})`]);
	}
}

/**
 * The panel's Location ID is a resource locator ({ __rl, mode, value }); workflows saved by 0.1.0
 * hold a plain number. Both become the value the campaign schema checks.
 */
export function withPlainLocationId(channel: IDataObject): IDataObject {
	const locationId = channel?.locationId as unknown;
	return isResourceLocatorValue(locationId) ? { ...channel, locationId: locationId.value } : channel;
}

/** One channel object is a list of one: what an AI model or an earlier node often gives. */
function asList(value: unknown): unknown {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value;
}
