/**
 * The n8n-nodes-base node types the harness needs, re-created here because
 * n8n-nodes-base is not installed:
 * - `n8n-nodes-base.manualTrigger`: the usual start of a workflow. Same behaviour as
 *   n8n's (packages/nodes-base/nodes/ManualTrigger/ManualTrigger.node.ts): a trigger
 *   whose manual run emits one empty item. WorkflowExecute runs it through its real
 *   trigger path (TriggersAndPollers) in 'manual' mode.
 * - `n8n-nodes-base.noOp`: passes items through. n8n's CredentialsTester runs a
 *   credential's `test` request as a temporary noOp node, and the credentials helper
 *   recognises a test by that node type, so testCredential needs it too.
 * - `n8n-nodes-base.set` (Edit Fields), its JSON mode only: each item becomes the object
 *   its `jsonOutput` parameter gives (n8n's Set v3 with mode 'raw', Include Other Fields off).
 *   An upstream node whose edit a later node reads by name (`$('Config').item.json`).
 */
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const NO_OP_TYPE = 'n8n-nodes-base.noOp';
export const SET_TYPE = 'n8n-nodes-base.set';

export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		maxNodes: 1,
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

export class NoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export class SetJson implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Edit Fields (Set)',
		name: 'set',
		group: ['input'],
		version: [3, 3.4],
		description: 'Modify, add, or remove item fields',
		defaults: { name: 'Edit Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'options', options: [{ name: 'JSON', value: 'raw' }], default: 'raw' },
			{ displayName: 'JSON', name: 'jsonOutput', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, item) => {
				const value = this.getNodeParameter('jsonOutput', item) as unknown;
				return { json: (typeof value === 'string' ? JSON.parse(value) : value) as INodeExecutionData['json'], pairedItem: { item } };
			}),
		];
	}
}
