/**
 * Every use of n8n's store under the history lock (historyStore.ts `storeCall`): a lock error's
 * words stand as the lock gives them, but its description starts with what this run sent before.
 * In n8n-core's engine with the harness's copy of n8n's store.
 */
import { campaigns, createParameters, fault, holdNextLatency, runNode, useHistory, useSandbox } from '../setup';

const context = useSandbox();
const history = useHistory('store-call');
const { store } = history;
const byName = createParameters({ name: '={{ $json.name }}' });

describe('a lock error midway through a run', () => {
	it('says how many campaigns earlier waves sent, never "Nothing was sent"', async () => {
		const five = Array.from({ length: 5 }, (_, index) => ({ name: `midway-${index}` }));
		// Wave 1 (concurrency 1: items 1-4); its last request is held at the service.
		await fault(context, { method: 'POST', path: '/lba/campaign', latencyMs: 1, skip: 3, times: 1 });
		const slow = holdNextLatency(context);
		const running = runNode(context, { ...byName, options: { concurrency: 1 } }, five, { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		await slow.arrived;
		// Meanwhile a Remove Duplicates node with Scope Workflow writes the workflow's row, where the lock is taken.
		await store.checkProcessedAndRecord(['order-1'], 'workflow', { workflow: { id: history.workflowId }, node: { id: 'remove-duplicates' } } as never, { mode: 'entries' });
		slow.release();
		const result = await running;

		expect(await campaigns(context)).toHaveLength(4);
		expect(result.items.slice(0, 4).map((item) => item.json.status)).toEqual(Array(4).fill('Published'));
		const notSent = result.items[4].json;
		expect(notSent.error).toMatch(/^Not sent: Duplicate protection cannot take its lock/);
		// Wave 1's four campaigns are held back by a Retry; following "Nothing was sent" advice would pay for them again.
		expect(notSent.description).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\. /);
		expect(notSent.description).not.toMatch(/Nothing was sent/);
	});
});
