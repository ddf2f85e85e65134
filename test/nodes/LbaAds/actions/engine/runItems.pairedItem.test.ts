/**
 * pairedItem as the node returns it. n8n fills a missing pairedItem itself when a node returns as
 * many items as it got, so a test of the run's output cannot see ours dropped; this one reads what
 * `execute()` returned, before n8n touches it: each output item names its input item, with
 * continue on fail too (a failed item, a held-back repeat, a created one).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { harnessDeduplicator } from '../../../../harness';
import { createParameters, fault, runNode, useSandbox } from '../../setup';

// The class the harness loads (from dist/, through the package's n8n section).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LbaAds } = require('../../../../../dist/nodes/LbaAds/LbaAds.node') as typeof import('../../../../../nodes/LbaAds/LbaAds.node');

const context = useSandbox();
const store = harnessDeduplicator();
const returned: INodeExecutionData[][][] = [];
const execute = LbaAds.prototype.execute;

beforeAll(() => {
	LbaAds.prototype.execute = async function (this: IExecuteFunctions) {
		const output = await execute.call(this);
		returned.push(JSON.parse(JSON.stringify(output)) as INodeExecutionData[][]);
		return output;
	};
});
afterAll(() => {
	LbaAds.prototype.execute = execute;
});
beforeEach(() => {
	store.reset();
	returned.length = 0;
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
