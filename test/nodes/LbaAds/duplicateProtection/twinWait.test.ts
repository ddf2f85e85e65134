/**
 * Waiting for a twin (twinWait.ts): another execution sending the same campaign now. In n8n-core's
 * engine with the harness's copy of n8n's store; the other execution is staged in that store: its
 * key and its "sending" mark, then its release (its claim and mark gone) just before this run asks
 * about the campaign again.
 */
import { createHash } from 'node:crypto';

import { InMemoryDeduplicator } from '../../../harness';
import { sendingMark, sendingSlotOf } from '../../../../nodes/LbaAds/duplicateProtection/keys';
import { campaigns, createParameters, fault, runNode, useHistory, useSandbox } from '../setup';
import { justBeforeAskedAgain, keyOf as keyOfCampaign } from './otherExecution';

const context = useSandbox();
const history = useHistory('twin');
const { store } = history;
const byName = createParameters({ name: '={{ $json.name }}' });
const hash = InMemoryDeduplicator.hash;
const nodeRow = () => store.rows.get(`${history.workflowId}|n:lba`)!;
const filler = (name: string) => createHash('md5').update(name).digest('base64');

const keyOf = (name: string) => keyOfCampaign(context, history, byName, name);

describe('a twin released by the other execution and claimed by this run, in a full history', () => {
	it('claiming it pushes out no other campaign: the oldest campaign stays held back as created', async () => {
		// The oldest campaign of the history: its key and retry key are its first entries.
		const oldest = await runNode(context, byName, [{ name: 'oldest' }], { workflowId: history.workflowId });
		expect(oldest.items[0].json.status).toBe('Published');
		const key = await keyOf('twin');
		// Another execution is sending "twin" now (its key and its live "sending" mark); the history is full (40,000 entries).
		const otherMark = sendingMark(key, sendingSlotOf(Date.now()) + 1);
		const row = nodeRow();
		const own = row.data as string[];
		row.data = [...own, ...Array.from({ length: 40_000 - own.length - 2 }, (_, index) => filler(`filler-${index}`)), hash(key), hash(otherMark)];
		// It is refused, and releases the key; other executions record two entries meanwhile, so the history stays full.
		const undo = justBeforeAskedAgain(history, key, { taken: [key, otherMark], addedHashes: [filler('meanwhile-1'), filler('meanwhile-2')] });
		try {
			// This run claims the released twin and sends it; the service refuses it too.
			await fault(context, { method: 'POST', path: '/lba/campaign', status: 400, body: { success: false, error: { code: 'G-400003', message: 'invalid' } }, times: 1 });
			const twin = await runNode(context, byName, [{ name: 'twin' }], { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
			expect(twin.items[0].json.error).toEqual(expect.stringMatching(/the campaign was not created$/));
		} finally {
			undo();
		}

		const again = await runNode(context, byName, [{ name: 'oldest' }], { workflowId: history.workflowId });
		expect(again.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again' });
		expect((await campaigns(context)).map(({ request }) => request.name)).toEqual(['oldest']);
	});
});
