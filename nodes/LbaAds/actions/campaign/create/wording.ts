import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CampaignProblem } from './campaignSchema';
import { CATEGORY_LIST } from './campaignSchema';
import { runsAsTool } from '../../../helpers/aiTool';
import { SAY } from '../../../../shared/instructions';

/**
 * How Create words a refusal before anything is sent: where the problem is, as the panel shows
 * it, first ("Item 2 › Channel 1 › Message"), then what is wrong in the panel's words, then the
 * API's own words ("(API: channels[0].message must be at most 160 characters)"). The message
 * stands alone: an AI model, and an Error Trigger workflow, see only the message.
 */

/**
 * "Item 1" is the first item, as a person counts the rows of n8n's output panel (n8n's own error
 * details show the index from 0 as "Item Index"; the description says so). docs/choices.md.
 */
export function itemLabel(itemIndex: number): string {
	return `Item ${itemIndex + 1}`;
}

/** "Items 1-3, 5": item numbers (from 1), runs of consecutive items shortened. */
export function itemsLabel(itemIndexes: number[]): string {
	const sorted = [...new Set(itemIndexes)].sort((a, b) => a - b);
	if (sorted.length === 1) return itemLabel(sorted[0]);
	const runs: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		runs.push(end === start ? `${sorted[start] + 1}` : `${sorted[start] + 1}-${sorted[end] + 1}`);
		start = end + 1;
	}
	const shown = runs.length > 10 ? [...runs.slice(0, 10), '…'] : runs;
	return `Items ${shown.join(', ')}`;
}

/** What became of the run: without continueOnFail nothing of it was sent (every item is checked first). */
function outcome(ctx: IExecuteFunctions): string {
	return ctx.continueOnFail() ? 'Not sent; the other items go on.' : 'Nothing was sent.';
}

/**
 * An item refused before sending: its problems, each starting with its place in the panel
 * ("Item 2 › Channel 1 › Message: …"), then what was sent.
 */
export function refusal(ctx: IExecuteFunctions, itemIndex: number, problems: string[], description?: string): NodeOperationError {
	// A model calls the tool with one item at a time: n8n's numbering is no news to it.
	const numbering = runsAsTool(ctx) ? undefined : `${itemLabel(itemIndex)} is the ${ordinal(itemIndex + 1)} input item (n8n's error details show Item Index ${itemIndex}).`;
	return new NodeOperationError(ctx.getNode(), `${problems.join('. ')}. ${outcome(ctx)}`, {
		itemIndex,
		description: [description, numbering].filter(Boolean).join(' ') || undefined,
	});
}

function ordinal(n: number): string {
	const tens = n % 100;
	if (tens >= 11 && tens <= 13) return `${n}th`;
	return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

const FIELD_LABELS: Record<string, string> = {
	name: 'Name',
	description: 'Description',
	categoryId: 'Category',
	channels: 'Channels',
};

const CHANNEL_FIELD_LABELS: Record<string, string> = {
	sender: 'Sender',
	locationId: 'Location ID',
	smsQty: 'SMS Quantity',
	message: 'Message',
	startDate: 'Send From',
	endDate: 'Send Until',
	telcoId: 'Telco',
};

/**
 * Where a field is in the panel: 'channels[1].endDate' -> 'Channel 2 › Send Until', 'name' -> 'Name',
 * 'campaign' (the whole object) -> 'Campaign' (or `campaignLabel`, e.g. 'Campaign (JSON)').
 */
export function readableField(field: string, campaignLabel = 'Campaign'): string {
	if (field === 'campaign') return campaignLabel;
	if (FIELD_LABELS[field]) return FIELD_LABELS[field];
	const match = /^channels\[(\d+)\](?:\.(\w+))?$/.exec(field);
	if (!match) return field;
	const label = match[2] ? ` › ${CHANNEL_FIELD_LABELS[match[2]] ?? match[2]}` : '';
	return `Channel ${Number(match[1]) + 1}${label}`;
}

/**
 * A campaign its rules refuse: "Item 2 › Channel 1 › Message: 189 of 160 characters (29 too many)
 * (API: channels[0].message must be at most 160 characters)", one such part per problem.
 */
export function invalidCampaign(ctx: IExecuteFunctions, itemIndex: number, problems: CampaignProblem[], fromJson: boolean): NodeOperationError {
	const campaignLabel = fromJson ? 'Campaign (JSON)' : 'Campaign';
	const parts = problems.map(
		({ field, message, panel }) => `${itemLabel(itemIndex)} › ${readableField(field, campaignLabel)}: ${panel} (API: ${field} ${message})`,
	);
	const categories = problems.some(({ field }) => field === 'categoryId') ? ` Categories: ${CATEGORY_LIST}.` : '';
	const what = problems.length === 1 ? 'it' : 'them';
	const where = fromJson ? ' (in Campaign (JSON))' : '';
	// With On Error → Continue the other items were sent: a new run of them all may send them again ($now dates).
	const fix = runsAsTool(ctx) ? '' : ctx.continueOnFail() ? SAY.fixInPanelOnlyThis(what, where) : SAY.fixInPanel(what, where);
	return refusal(ctx, itemIndex, parts, `${fix}${categories}`.trim());
}
