/**
 * pairedItem as the node returns it. n8n fills a missing pairedItem itself when a node returns as
 * many items as it got, so a test of the run's output cannot see ours dropped; this one reads what
 * `execute()` returned, before n8n touches it: each output item names its input item, with
 * continue on fail too (a failed item, a held-back repeat, a created one).
 */
import { harnessDeduplicator } from '../../../../harness';
import { createParameters, fault, runNode, useReturnedByExecute, useSandbox } from '../../setup';

const context = useSandbox();
const store = harnessDeduplicator();
const returned = useReturnedByExecute();

beforeEach(() => {
	store.reset();
});

it('with continue on fail, every item execute() returns names its input item: created, failed, held back as a repeat', async () => {
	await fault(context, { method: 'POST', path: '/lba/campaign', status: 400, times: 1 });
	const items = [{ name: 'fails' }, { name: 'made' }, { name: 'made' }];
	await runNode(context, createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } }), items, { workflowId: 'paired', node: { onError: 'continueRegularOutput' } });
	expect(returned).toHaveLength(1);
	const [output] = returned[0];
	expect(output.map((item) => (item.json.error ? 'error' : item.json.skipped ? 'skipped' : 'created'))).toEqual(['error', 'created', 'skipped']);
	expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
});
