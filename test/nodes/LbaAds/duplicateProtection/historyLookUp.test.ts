/**
 * What the history holds for a wave (historyLookUp.ts), where a choice costs money: in n8n-core's
 * engine with the harness's copy of n8n's store, whose rows a test writes directly to stand for
 * another execution.
 */
import { REASONS } from '../../../../nodes/LbaAds/duplicateProtection/guardWording';
import { sendingMark, sendingSlotOf } from '../../../../nodes/LbaAds/duplicateProtection/keys';
import { campaigns, createParameters, fault, runNode, useHistory, useSandbox } from '../setup';

const context = useSandbox();
const history = useHistory('look-up');
const { store } = history;
const byName = createParameters({ name: '={{ $json.name }}' });

// The node as n8n loads it (dist/): how long a run waits for a twin, shortened here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { twinWait } = require('../../../../dist/nodes/LbaAds/duplicateProtection/twinWait') as { twinWait: Record<string, number> };
const twinWaitAsShipped = { ...twinWait };
afterEach(() => Object.assign(twinWait, twinWaitAsShipped));

describe('Resend of a recorded campaign that another execution is sending now', () => {
	it('waits for that execution instead of racing it: not sent while it is sending', async () => {
		// An earlier run's answer was lost (502 after creating): the campaign is recorded, "may have been created".
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 });
		const lost = await runNode(context, byName, [{ name: 'raced' }], { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(lost.items[0].json.error).toMatch(/may have been created/);
		const key = String(lost.items[0].json.description).match(/content:v2:[0-9a-f]{64}/)![0];
		// Another execution is resending it right now: its "sending" mark, within its time.
		await store.checkProcessedAndRecord([sendingMark(key, sendingSlotOf(Date.now()) + 1)], 'node', { workflow: { id: history.workflowId }, node: { id: 'lba' } } as never, { mode: 'entries' });

		Object.assign(twinWait, { waitMs: 300, firstPollMs: 50, maxPollMs: 100 });
		const resend = await runNode(context, { ...byName, options: { resend: true } }, [{ name: 'raced' }], { workflowId: history.workflowId });
		expect(resend.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'sending', reason: REASONS.key.sending, idempotencyKey: key });
		// Only the earlier run's campaign: the Resend did not race the execution sending it.
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('control: with no execution sending it, Resend sends it', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 });
		await runNode(context, byName, [{ name: 'alone' }], { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		const resend = await runNode(context, { ...byName, options: { resend: true } }, [{ name: 'alone' }], { workflowId: history.workflowId });
		expect(resend.items[0].json).toMatchObject({ status: 'Published' });
		expect(await campaigns(context)).toHaveLength(2);
	});
});
