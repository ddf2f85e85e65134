import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CampaignBody } from './campaignSchema';
import { smsCount } from './smsSegments';
import { itemLabel, itemsLabel, refusal } from './wording';
import { SAY } from '../../../../shared/instructions';

/**
 * Spending limits the workflow's owner sets on Create Campaign (Options). A model using the node
 * as a tool cannot change them: they are not among the fields it fills, and being fixed values
 * (noDataExpression) the editor offers no "let the model define this" button on them either.
 * 0 means no limit, so a workflow saved before the limits existed works as it did.
 */
export const SPENDING_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Max Campaigns per Execution',
		name: 'maxCampaignsPerExecution',
		type: 'number',
		default: 0,
		noDataExpression: true,
		typeOptions: { minValue: 0 },
		description:
			'The most campaigns this node may send in one execution, counted over all its runs in it (e.g. every call an AI agent makes to the tool). An execution that would go over sends none of its campaigns. 0: no limit.',
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: 'Max SMS per Campaign',
		name: 'maxSmsPerCampaign',
		type: 'number',
		default: 0,
		noDataExpression: true,
		typeOptions: { minValue: 0 },
		description:
			'The most SMS one campaign may ask for: its SMS Quantity summed over its channels. A campaign above it is refused before anything is sent. 0: no limit.',
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
];

export interface Spending {
	/** The campaign's SMS Quantity summed over its channels (what Max SMS per Campaign limits). */
	smsQuantity: number;
	/** SMS Quantity times each channel's SMS per recipient: the SMS billed if every one is delivered. */
	smsBilled: number;
	maxSmsPerCampaign: number;
	maxCampaignsPerExecution: number;
}

const LIMIT_NOTE = "The limit is set in the node's Options by the workflow's owner; an AI model using the tool cannot change it.";
const count = (value: number) => value.toLocaleString('en-US');
const campaigns = (value: number) => `${count(value)} campaign${value === 1 ? '' : 's'}`;

/** The campaign's figures and the limits that apply to it. */
export function spendingOf(ctx: IExecuteFunctions, itemIndex: number, body: CampaignBody): Spending {
	let smsQuantity = 0;
	let smsBilled = 0;
	for (const channel of body.channels) {
		smsQuantity += channel.smsQty;
		smsBilled += channel.smsQty * smsCount(channel.message).segments;
	}
	return { smsQuantity, smsBilled, maxSmsPerCampaign: limit(ctx, 'options.maxSmsPerCampaign', itemIndex), maxCampaignsPerExecution: limit(ctx, 'options.maxCampaignsPerExecution', itemIndex) };
}

/** The limit Max SMS per Campaign refuses this campaign for, in words, or undefined. */
export function smsLimitProblem(spending: Spending): string | undefined {
	if (!spending.maxSmsPerCampaign || spending.smsQuantity <= spending.maxSmsPerCampaign) return undefined;
	return `its SMS Quantity totals ${count(spending.smsQuantity)} over its channels (${count(spending.smsBilled)} SMS billed, counting SMS per recipient), above Max SMS per Campaign (${count(spending.maxSmsPerCampaign)})`;
}

export function refuseOverSmsLimit(ctx: IExecuteFunctions, itemIndex: number, spending: Spending): void {
	if (!smsLimitProblem(spending)) return;
	throw refusal(
		ctx,
		itemIndex,
		[
			`${itemLabel(itemIndex)} › SMS Quantity: ${count(spending.smsQuantity)} over the campaign's channels (${count(spending.smsBilled)} SMS billed, counting SMS per recipient), above the spending limit Max SMS per Campaign (${count(spending.maxSmsPerCampaign)})`,
		],
		`${SAY.lowerSmsQuantity(count(spending.maxSmsPerCampaign))} ${LIMIT_NOTE}`,
	);
}

/**
 * The node's own memory in this execution. n8n's Agents module (N8N_ENABLED_MODULES=agents) runs a
 * node tool with no execution at all, where n8n's getContext fails with "`executionData` is not
 * initialized": said instead in words that name the module and what to do (issue 58).
 */
function executionMemory(ctx: IExecuteFunctions): IDataObject {
	try {
		return ctx.getContext('node') as IDataObject;
	} catch (error) {
		if (!/executionData. is not initialized/.test((error as Error).message)) throw new NodeOperationError(ctx.getNode(), error as Error);
		throw new NodeOperationError(
			ctx.getNode(),
			"Create Campaign cannot run in n8n's Agents module: it runs the node without an execution, where its spending limits and duplicate protection cannot be kept; nothing was sent",
			{ description: SAY.agentsModuleUseWorkflow },
		);
	}
}

/** Campaigns this node already let through in this execution (earlier runs: loops, an agent's earlier calls). */
const SENT_IN_EXECUTION = 'lbaCampaignsAllowed';

/**
 * Max Campaigns per Execution, checked before the first request of a run: the run's campaigns
 * plus those this node let through earlier in the execution. Over it, none of the run's are sent.
 */
export function reserveCampaigns(ctx: IExecuteFunctions, toSend: Array<{ itemIndex: number; spending: Spending }>): void {
	if (!toSend.length) return;
	const max = toSend[0].spending.maxCampaignsPerExecution;
	const context = executionMemory(ctx);
	const earlier = Number(context[SENT_IN_EXECUTION] ?? 0);
	if (max && earlier + toSend.length > max) {
		const first = toSend[Math.max(0, max - earlier)];
		const items = itemsLabel(toSend.map(({ itemIndex }) => itemIndex));
		throw new NodeOperationError(
			ctx.getNode(),
			`${items} › Max Campaigns per Execution (${count(max)}): this run has ${campaigns(toSend.length)}${earlier ? ` and ${campaigns(earlier)} ${earlier === 1 ? 'was' : 'were'} sent earlier in this execution` : ''}, over this spending limit. Nothing of this run was sent.`,
			{
				itemIndex: first.itemIndex,
				description: `${SAY.sendAtMost(count(Math.max(0, max - earlier)), max - earlier === 1 ? '' : 's')} ${LIMIT_NOTE}`,
			},
		);
	}
	context[SENT_IN_EXECUTION] = earlier + toSend.length;
}

/** What a dry run shows of the limits: the figures, and which limit would refuse the campaign. */
export function spendingPreview(ctx: IExecuteFunctions, spending: Spending): IDataObject {
	const earlier = Number(executionMemory(ctx)[SENT_IN_EXECUTION] ?? 0);
	const wouldBeRefusedBy: string[] = [];
	if (smsLimitProblem(spending)) wouldBeRefusedBy.push(`Max SMS per Campaign (${count(spending.maxSmsPerCampaign)})`);
	if (spending.maxCampaignsPerExecution && earlier + 1 > spending.maxCampaignsPerExecution) {
		wouldBeRefusedBy.push(`Max Campaigns per Execution (${count(spending.maxCampaignsPerExecution)})`);
	}
	return { ...spending, campaignsSentInExecution: earlier, wouldBeRefusedBy };
}

function limit(ctx: IExecuteFunctions, name: string, itemIndex: number): number {
	const value = Number(ctx.getNodeParameter(name, itemIndex, 0));
	return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
