import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forgetFields, forgetOperation } from '../forgetSent.operation';
import type { Operation } from '../../engine/operation';
import { SEND_AGAIN_FIELD, sendOneAgain } from './sendAgain';
import { SAY } from '../../../../shared/instructions';

/**
 * What executing the Create node does: publish (the default: sends and bills), preview (a dry run),
 * forget what it sent, or send one held campaign again (sendAgain.ts). Forgetting is done here, on the node whose history it is, so that the
 * campaign's fields stay: n8n drops the fields an operation hides, and these show in every mode.
 */

const showFor = { resource: ['campaign'], operation: ['create'] };
const FORGET_FIELDS = { what: 'forgetWhat', key: 'forgetKeys' };

export const RUN_MODE_FIELDS: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'runMode',
		type: 'options',
		noDataExpression: true,
		default: 'publish',
		options: [
			{
				name: 'Forget Sent Campaigns (Sends Nothing)',
				value: 'forget',
				description: "Clear this node's memory of campaigns it sent, so that they can be sent again; this campaign's setup below stays as it is",
			},
			{
				name: 'Preview (Sends Nothing)',
				value: 'preview',
				description: 'Check each campaign and show the exact request and the SMS per recipient; nothing is sent or billed',
			},
			{
				name: 'Publish (Sends SMS, Billed)',
				value: 'publish',
				description: 'Publish each campaign at once: its SMS go to real subscribers and are billed',
			},
			{
				name: 'Send One Again (Billed)',
				value: 'sendAgain',
				description: "Send again, once, the one campaign whose sendAgainKey (from a held or failed item) is pasted below; the campaign's setup below is not used and stays",
			},
		],
		description: 'What executing this node does',
		displayOptions: { show: { ...showFor, '@tool': [false] } },
	},
	{
		displayName: `Executing this node publishes each campaign at once: its SMS go to real subscribers and are billed. ${SAY.previewFirst}`,
		name: 'publishNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...showFor, runMode: ['publish'], '@tool': [false] } },
	},
	{
		displayName: `This mode sends nothing: it forgets campaigns this node sent. ${SAY.publishAfterForget}`,
		name: 'forgetModeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...showFor, runMode: ['forget'] } },
	},
	...forgetFields(FORGET_FIELDS, { ...showFor, runMode: ['forget'] }),
	{
		displayName:
			`This mode sends one campaign again, once, as it was first sent: the one whose sendAgainKey is pasted below. ${SAY.sendAgainNotice}`,
		name: 'sendAgainModeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...showFor, runMode: ['sendAgain'] } },
	},
	{
		displayName: 'Send Again Key',
		name: SEND_AGAIN_FIELD,
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. again:v1:eyJ0YXJnZXQiOi…',
		description: "The sendAgainKey of a held-back item, or of a failed one that may have been created, copied from this node's output",
		displayOptions: { show: { ...showFor, runMode: ['sendAgain'] } },
	},
];

const forgetting = forgetOperation(FORGET_FIELDS);

/** The work of Mode "Forget Sent Campaigns" or "Send One Again" instead of publishing; undefined in the other modes. */
export function runModeInstead(ctx: IExecuteFunctions): Operation<unknown> | undefined {
	const mode = ctx.getNodeParameter('runMode', 0, 'publish');
	if (mode === 'forget') return forgetting as Operation<unknown>;
	if (mode === 'sendAgain') return sendOneAgain as Operation<unknown>;
	return undefined;
}

/** Mode "Preview": a dry run of every item. */
export function previewMode(ctx: IExecuteFunctions): boolean {
	return ctx.getNodeParameter('runMode', 0, 'publish') === 'preview';
}
