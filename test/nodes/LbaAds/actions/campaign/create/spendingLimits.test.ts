/**
 * Max Campaigns per Execution across runs of one execution (a loop, or an AI agent calling the
 * tool again): n8n gives a node the same context object for the whole execution
 * (`getContext('node')`), and the limit counts what earlier runs let through in it. The engine and
 * real n8n show the rest (create.spendingLimits.test.ts, test/e2e/ai-agent.e2e.test.ts).
 */
import type { IDataObject, IExecuteFunctions, INode, IRunExecutionData } from 'n8n-workflow';
import { NodeHelpers, type NodeOperationError } from 'n8n-workflow';

import { reserveCampaigns, type Spending } from '../../../../../../nodes/LbaAds/actions/campaign/create/spendingLimits';

const spending = (maxCampaignsPerExecution: number): Spending => ({ smsQuantity: 1, smsBilled: 1, maxSmsPerCampaign: 0, maxCampaignsPerExecution });

/** One execution's node context, as n8n keeps it between runs of the node. */
function execution(): IExecuteFunctions {
	const nodeContext: IDataObject = {};
	return { getContext: () => nodeContext, getNode: () => ({ name: 'LBA Ads' }) } as unknown as IExecuteFunctions;
}

describe('Max Campaigns per Execution across runs of one execution', () => {
	it('an agent calling the tool three times with one campaign each passes a cap of 2 only twice', () => {
		const ctx = execution();
		const call = () => reserveCampaigns(ctx, [{ itemIndex: 0, spending: spending(2) }]);
		expect(call).not.toThrow();
		expect(call).not.toThrow();
		expect(call).toThrow('Item 1 › Max Campaigns per Execution (2): this run has 1 campaign and 2 campaigns were sent earlier in this execution, over this spending limit. Nothing of this run was sent.');
	});

	it('another execution starts from zero', () => {
		reserveCampaigns(execution(), [{ itemIndex: 0, spending: spending(1) }]);
		expect(() => reserveCampaigns(execution(), [{ itemIndex: 0, spending: spending(1) }])).not.toThrow();
	});
});

describe("n8n's Agents module (a node tool run without an execution)", () => {
	it('is refused in words that name the module and what to do, not with "`executionData` is not initialized" (issue 58)', () => {
		const node = { name: 'LBA Ads', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;
		// n8n's own getContext on run data without executionData, as the ephemeral node executor gives it.
		const ctx = { getContext: (type: 'node') => NodeHelpers.getContext({ resultData: { runData: {} } } as unknown as IRunExecutionData, type, node), getNode: () => node } as unknown as IExecuteFunctions;
		expect(() => NodeHelpers.getContext({ resultData: { runData: {} } } as unknown as IRunExecutionData, 'node', node)).toThrow('`executionData` is not initialized');
		let thrown: NodeOperationError | undefined;
		try {
			reserveCampaigns(ctx, [{ itemIndex: 0, spending: spending(2) }]);
		} catch (error) {
			thrown = error as NodeOperationError;
		}
		expect(thrown?.message).toBe(
			"Create Campaign cannot run in n8n's Agents module: it runs the node without an execution, where its spending limits and duplicate protection cannot be kept; nothing was sent",
		);
		expect(thrown?.description).toBe("Give it to an AI Agent node in a workflow as a tool (the agent's Tools), or use the Create node in a workflow: there the node runs in an execution.");
	});
});
