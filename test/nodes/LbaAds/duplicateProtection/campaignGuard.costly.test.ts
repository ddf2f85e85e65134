/**
 * The campaign guard's choices that cost money when wrong (issue 42, item 3), each with the
 * state that makes the choice matter: in n8n-core's engine with the harness's copy of n8n's
 * store, whose rows a test writes directly to stand for what a stopped or earlier run left.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { campaignGuard, HISTORY_MAX_CAMPAIGNS, twinWait, type Candidate } from '../../../../nodes/LbaAds/duplicateProtection/campaignGuard';
import { sendingMark, sendingSlotOf } from '../../../../nodes/LbaAds/duplicateProtection/keys';
import { campaigns, createParameters, fault, runNode, useHistory, useSandbox } from '../setup';

const context = useSandbox();
const history = useHistory('costly');
const { store } = history;
const byName = createParameters({ name: '={{ $json.name }}' });

/** Writes entries into the node's history as a run of this workflow would have left them. */
async function leaveInHistory(entries: string[]) {
	await store.checkProcessedAndRecord(entries, 'node', { workflow: { id: history.workflowId }, node: { id: 'lba' } } as never, { mode: 'entries' });
}

/** Runs one campaign named `name` and returns its key. */
async function createdKey(name: string): Promise<string> {
	const first = await runNode(context, byName, [{ name }], { workflowId: history.workflowId });
	expect(first.items[0].json.status).toBe('Published');
	return String(first.items[0].json.idempotencyKey);
}

describe('"N were sent earlier in this run" counts the campaigns that may have been created', () => {
	it('wave 1 lost its answers (502 after creating), wave 2 cannot claim: the advice never says nothing was sent', async () => {
		const five = Array.from({ length: 5 }, (_, index) => ({ name: `lost-${index}` }));
		// Wave 1 (concurrency 1: 4 items): each created, each answer lost.
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 4 });
		// Wave 1's claim (1 call on the node's row) and its settle (2) succeed; wave 2's claim fails.
		store.nodeRowCallsBeforeFailure = 3;
		const result = await runNode(context, { ...byName, options: { concurrency: 1 } }, five, {
			workflowId: history.workflowId,
			node: { onError: 'continueRegularOutput' },
		});
		expect(await campaigns(context)).toHaveLength(4);
		expect(result.items.slice(0, 4).map((item) => item.json.error)).toEqual(Array(4).fill(expect.stringMatching(/the campaign may have been created, so do not send it again$/)));
		const notSent = result.items[4].json;
		expect(notSent.error).toBe("Not sent: Duplicate protection could not use n8n's history of sent campaigns: permission denied for table processed_data");
		expect(notSent.description).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\./);
		// Following "Nothing was sent … set Duplicate Protection to Off" would pay for the four again.
		expect(notSent.description).not.toMatch(/Nothing was sent|Off/);
	});
});

describe("a settle takes out a stopped run's question beside the mark it makes true", () => {
	it('after a Resend is created, later runs say "created", not "may have been created"', async () => {
		const key = await createdKey('asked');
		// A run stopped between asking "was it created?" and taking its question out.
		await leaveInHistory([`asking:created:${key}`]);
		const doubted = await runNode(context, byName, [{ name: 'asked' }], { workflowId: history.workflowId });
		expect(doubted.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'unknown' });

		const resend = await runNode(context, { ...byName, options: { resend: true } }, [{ name: 'asked' }], { workflowId: history.workflowId });
		expect(resend.items[0].json).toMatchObject({ status: 'Published', idempotencyKey: key });

		const later = await runNode(context, byName, [{ name: 'asked' }], { workflowId: history.workflowId });
		expect(later.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again' });
		expect(await campaigns(context)).toHaveLength(2);
	});
});

describe('a campaign known created, with a stale "sending" mark beside it', () => {
	it('is held back as created at once, not waited for as a twin', async () => {
		const key = await createdKey('stale');
		// A run killed while it sent the same campaign again (a Resend) left its "sending" mark, still within its time.
		await leaveInHistory([sendingMark(key, sendingSlotOf(Date.now()) + 1)]);
		// The node as n8n loads it (dist/) reads how long to wait for a twin only when it waits for one.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = (require('../../../../dist/nodes/LbaAds/duplicateProtection/twinWait') as { twinWait: typeof twinWait }).twinWait;
		const { waitMs } = loaded;
		let twinWaits = 0;
		Object.defineProperty(loaded, 'waitMs', { configurable: true, get: () => (twinWaits++, waitMs) });
		try {
			const rerun = await runNode(context, byName, [{ name: 'stale' }], { workflowId: history.workflowId });
			expect(rerun.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again', idempotencyKey: key });
		} finally {
			Object.defineProperty(loaded, 'waitMs', { configurable: true, enumerable: true, writable: true, value: waitMs });
		}
		expect(twinWaits).toBe(0);
		expect(await campaigns(context)).toHaveLength(1);
	});
});

describe('the bound of a run: as many campaigns as the history remembers', () => {
	const node = { name: 'LBA' } as INode;
	const ctx = { getWorkflow: () => ({ id: 'bound' }), getNode: () => node } as unknown as IExecuteFunctions;
	const candidates = (count: number): Candidate[] =>
		Array.from({ length: count }, (_, itemIndex) => ({ itemIndex, key: `custom:v2:https://lba.test ${itemIndex}`, retryKey: `retry:v1:${itemIndex}`, resend: false }));

	it(`a run of exactly ${HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US')} campaigns is not refused`, () => {
		expect(HISTORY_MAX_CAMPAIGNS).toBe(10_000);
		expect(campaignGuard(ctx, candidates(10_000))).toMatchObject({ claim: expect.any(Function), settle: expect.any(Function) });
	});

	it('control: one more is refused', () => {
		expect(() => campaignGuard(ctx, candidates(10_001))).toThrow('This run has 10,001 campaigns, more than the 10,000 duplicate protection remembers; nothing was sent');
	});
});
