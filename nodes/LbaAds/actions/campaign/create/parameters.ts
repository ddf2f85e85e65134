import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isResourceLocatorValue, jsonParse, NodeOperationError } from 'n8n-workflow';

import type { CampaignBody } from './campaignSchema';
import { campaignByMeaning, campaignIdentity } from './campaignMeaning';
import type { Spending } from './spendingLimits';
import { itemLabel, refusal } from './wording';
import { shownValue } from '../../../../shared/parameterValues';
import { runsAsTool } from '../../../helpers/aiTool';
import { isValidZone, posixOffsetZone, readInZone, workflowZone } from '../../../helpers/dates';
import { INDONESIAN_ZONES } from '../../../helpers/indonesianZones';
import { contentKey, customKey, serviceTarget, type ProtectionMode } from '../../../duplicateProtection/keys';
import { createdFor, inSubExecution, retryKeysOf, startedAs, type CreatedRecord, type DatesOrigin, type RetryIdentity } from '../../../duplicateProtection/itemOrigin';
import { datesReadClock } from './clockDates';
import { keysFromUser } from '../../../duplicateProtection/keys';
import { previewMode } from './runMode';
import { SAY } from '../../../../shared/instructions';

/** Create Campaign's parameters, read for one item: what the panel, an expression or an AI model gave. */

export interface CreateRequest {
	body: CampaignBody;
	/** The idempotency key (undefined with Duplicate Protection off). */
	key?: string;
	/** The item's retry key (duplicate protection on): set once every item is prepared (`withRetryKeys`). */
	retryKey?: string;
	/** Which campaign of the execution it is, written with what is sent (itemOrigin.ts `rememberSending`). */
	retryIdentity?: RetryIdentity;
	/** When its parameters (and so its dates) were read (ms). */
	preparedAt: number;
	/** Where its campaigns go, as duplicate protection names it; undefined when nothing is kept. */
	target?: string;
	/** The campaign the execution this one retries created for it, when its context kept the id. */
	createdAs?: string;
	/** The campaign the retried execution created that this one may be, when the node cannot tell (itemOrigin.ts). */
	mayBe?: CreatedRecord;
	resend: boolean;
	/** Which dates had no UTC offset and the timezone they were read in: the output says so. */
	zoneNote?: { assumedTimezone: string; datesWithoutOffset: string[] };
	/** How its dates are read (sendWindows.ts settles them once the places are known). */
	dates: { rule: ZoneRule; campaign: IDataObject; fromJson: boolean };
	/** Per channel: its window in its recipients' hours, and in whose hours its dates were read. */
	sendWindows?: IDataObject[];
	/** What a marketer must know before paying: a Send From that has passed, a window read in another zone. */
	warnings?: string[];
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

/**
 * Duplicate protection's key for one item: the campaign by its meaning (dates as instants) and its
 * target, or a custom key. With Off, the campaign's key is its retry key, which needs every item
 * of the run (`withRetryKeys`): nothing is held back by content, but a Retry never sends again
 * what the execution it retries created. `protect` is false when there is nothing to keep (an
 * unsaved workflow with Off: n8n keeps the history per saved workflow, and it sends as asked).
 */
export function campaignKey(ctx: IExecuteFunctions, itemIndex: number, body: CampaignBody, baseUrl: string): Pick<CreateRequest, 'key' | 'target'> {
	const mode = ctx.getNodeParameter('duplicateProtection', itemIndex, 'content') as ProtectionMode;
	if (mode === 'off' && !ctx.getWorkflow().id) return {};
	const target = serviceTarget(baseUrl);
	if (mode === 'off') return { target };
	if (mode === 'content') return { key: contentKey(campaignByMeaning(body), target), target };
	const value = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	const key = customKey(value, target);
	if (key === undefined) {
		throw new NodeOperationError(ctx.getNode(), `Idempotency Key of item ${itemIndex + 1} is empty; nothing was sent`, {
			itemIndex,
			description:
				`With Duplicate Protection set to Custom Key, every item needs a key of its own, e.g. {{ $json.orderId }}. ${SAY.customKeyFieldExists}`,
		});
	}
	const missing = missingPart(value);
	if (missing) {
		throw new NodeOperationError(ctx.getNode(), `Idempotency Key of item ${itemIndex + 1} is "${shownKey(value)}": a part of it came out ${missing}; nothing was sent`, {
			itemIndex,
			description: `A field the key reads is missing from this item, so every such item would get the same key and all but the first would be held back. ${SAY.customKeyEveryItem('{{ $json.orderId }}')}`,
		});
	}
	return { key, target };
}

/** Joins the parts of a key: `{{ $json.storeId + '-' + $today.toISODate() }}`. */
const KEY_JOINS = /[-_:|.,+]/;

/**
 * "undefined", "null" or "NaN" as a word of a custom key, or a part left empty (a join at its
 * start or end, two joins in a row: an empty cell, a field of spaces): an expression read a field
 * the item lacks or that was empty.
 */
function missingPart(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value);
	const words = text.split(/[^A-Za-z]+/);
	const missing = ['undefined', 'null', 'NaN'].find((word) => words.includes(word));
	if (missing) return missing;
	const parts = text.trim().split(KEY_JOINS);
	return parts.length > 1 && parts.some((part) => part.trim() === '') ? 'empty' : undefined;
}

const shownKey = (value: unknown) => {
	const text = String(value);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/**
 * Each prepared item's retry key, from every item of the run (itemOrigin.ts numbers identical
 * campaigns by what the retried execution sent, else in order of their dates); with Off, also its
 * campaign key.
 */
export function withRetryKeys(ctx: IExecuteFunctions, prepared: Array<{ itemIndex: number; request: CreateRequest }>): void {
	const protectedItems = prepared.filter(({ request }) => request.target !== undefined);
	const byTarget = new Map<string, typeof protectedItems>();
	for (const item of protectedItems) byTarget.set(item.request.target!, [...(byTarget.get(item.request.target!) ?? []), item]);
	for (const [target, items] of byTarget) {
		const identities = items.map(({ itemIndex, request }) => ({ itemIndex, ...campaignIdentity(request.body), evaluatedAt: request.preparedAt }));
		const identified = retryKeysOf(ctx, identities, target, datesOrigin(ctx));
		for (const { itemIndex, request } of items) {
			const identity = identified.get(itemIndex)!;
			request.retryIdentity = identity;
			request.retryKey = identity.key;
			request.createdAs = createdFor(ctx, identity.key)?.campaignId;
			request.mayBe = identity.mayBe;
			if (request.key === undefined) request.key = identity.key;
			// Options > Resend Keys: the keys a held item names (its forgetKeys) pick it, no expression needed.
			const asked = keysFromUser(ctx.getNodeParameter('options.resendKeys', itemIndex, '') ?? '', target);
			if (asked.includes(request.key) || asked.includes(identity.key)) request.resend = true;
		}
	}
}

/** How the campaigns' dates were computed, as far as the node can know (itemOrigin.ts `DatesOrigin`). */
function datesOrigin(ctx: IExecuteFunctions): DatesOrigin {
	if (datesReadClock(ctx)) return 'ownClock';
	// A Retry reuses the saved output of the nodes before this one, unless a caller's Retry starts this sub-execution anew.
	return inSubExecution(ctx) ? 'unknown' : 'fixed';
}


/**
 * Refuses the run, before anything is sent, when Options › Resend (or Resend Keys) would send a
 * campaign again in an execution nobody started by hand (a schedule, a webhook, a caller): left on,
 * it would bill the same campaigns at every run, unnoticed (issue 60).
 */
export function refuseResendUnattended(ctx: IExecuteFunctions, prepared: Array<{ itemIndex: number; request: CreateRequest }>): void {
	// Not this run's mode alone: a Retry of a webhook's execution (mode "retry") runs the workflow as
	// that execution saved it, Resend on; a sub-workflow is "integrated" whoever ran its caller.
	const started = startedAs(ctx);
	if (started === 'manual') return;
	const mode = started === ctx.getMode() ? ctx.getMode() : `${ctx.getMode()} (of a ${started})`;
	const resent = prepared.filter(({ request }) => request.resend && !request.dryRun).map(({ itemIndex }) => itemIndex + 1);
	if (!resent.length) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`Options › Resend (or Resend Keys) would send item${resent.length > 1 ? 's' : ''} ${resent.join(', ')} again in this ${mode} execution; nothing was sent. Resend works only in a run started from the editor (its Retry, or a sub-workflow it calls, included), so that no schedule, webhook or chat bills the same campaigns again at every run`,
		{
			itemIndex: resent[0] - 1,
			description: SAY.resendOff,
		},
	);
}

export function resendOption(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const value = ctx.getNodeParameter('options.resend', itemIndex, false);
	return value === true || value === 'true';
}

/**
 * In whose hours a date written without an offset is read (docs/dates-and-errors.md#dates): the
 * Timezone option; else the workflow's timezone when it is Indonesian (WIB, WITA, WIT); else each
 * channel's own place (its Location's province), as a marketer in Indonesia means the recipients'
 * 09:00, not a server's. n8n's "DEFAULT" is the instance's timezone, as n8n reads it.
 */
export type ZoneRule =
	| { kind: 'fixed'; zone: string; source: string }
	| { kind: 'location'; why: string };

export function zoneRule(ctx: IExecuteFunctions, itemIndex: number): ZoneRule {
	const override = String(ctx.getNodeParameter('options.timezone', itemIndex, '') ?? '').trim();
	const recipients = ctx.getNodeParameter('options.recipientsLocalTime', itemIndex, false);
	if (recipients === true || recipients === 'true') {
		if (override) {
			throw refusal(
				ctx,
				itemIndex,
				[`${itemLabel(itemIndex)} › Options: Timezone ("${override}") and Recipients' Local Time both say in whose hours dates without an offset are read`],
				SAY.keepOneZoneOption,
			);
		}
		return { kind: 'location', why: "Options › Recipients' Local Time is on" };
	}
	if (override) {
		if (!isValidZone(override)) {
			throw refusal(
				ctx,
				itemIndex,
				[`${itemLabel(itemIndex)} › Options › Timezone: "${override}" is not a timezone; ${SAY.timezoneIana.replace(/\.$/, '')}`],
				SAY.emptyTimezoneOption,
			);
		}
		const reversed = posixOffsetZone(override);
		if (reversed) {
			throw refusal(
				ctx,
				itemIndex,
				[`${itemLabel(itemIndex)} › Options › Timezone: "${override}" is ${reversed}: in Etc/GMT names the sign is reversed, so 09:00 there is not what it seems`],
				SAY.timezoneNotEtcGmt,
			);
		}
		return { kind: 'fixed', zone: override, source: 'Options › Timezone' };
	}
	const { zone, source } = workflowZone(ctx);
	if (INDONESIAN_ZONES[zone]) return { kind: 'fixed', zone, source };
	return { kind: 'location', why: `the workflow's timezone (${zone}) is not WIB, WITA or WIT` };
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
			[`${itemLabel(itemIndex)} › Campaign (JSON): ${given}, not one campaign object; ${SAY.oneItemPerCampaign}`],
			SAY.severalCampaigns,
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
