/**
 * A settle that fails (n8n's store refuses the write after the campaigns were sent) keeps the
 * campaigns' answers: each item is its campaign, with its id, and the run warns that how they ended
 * was not recorded. The run does not fail: its caller would lose the ids of campaigns it paid for.
 */
import { errorOf, harnessDeduplicator } from '../../../../harness';
import { campaigns, createParameters, runNode, useSandbox } from '../../setup';

const context = useSandbox();
const store = harnessDeduplicator();
const four = Array.from({ length: 4 }, (_, index) => ({ name: `settle-${index + 1}` }));

beforeEach(() => store.reset());

it('the campaigns sent stay in the output with their ids, and the run says their outcome was not recorded', async () => {
	// The wave's claim is the store's first call on the node's row; its settle, the next, fails.
	store.nodeRowCallsBeforeFailure = 1;
	const result = await runNode(context, createParameters({ name: '={{ $json.name }}' }), four, { workflowId: 'settle-fails' });
	expect(errorOf(result)).toBeUndefined();
	const created = await campaigns(context);
	expect(created).toHaveLength(4);
	const ids = (created as unknown as Array<{ campaignId: string }>).map((campaign) => campaign.campaignId);
	expect(result.items.map((item) => String(item.json.campaignId)).sort()).toEqual(ids.sort());
	const hints = (result.run.data.resultData.runData.LBA[0] as { hints?: Array<{ message: string }> }).hints ?? [];
	expect(hints.map((hint) => hint.message)).toContainEqual(expect.stringMatching(/^Items 1, 2, 3, 4 were sent, but how they ended was not recorded \(/));
});
