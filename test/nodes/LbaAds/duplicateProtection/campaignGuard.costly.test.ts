/**
 * The campaign guard's choices that cost money when wrong (issue 42, item 3), each with the
 * state that makes the choice matter: in n8n-core's engine with the harness's copy of n8n's
 * store, whose rows a test writes directly to stand for what a stopped or earlier run left.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { InMemoryDeduplicator } from '../../../harness';
import { campaignGuard, HISTORY_MAX_CAMPAIGNS, type Candidate } from '../../../../nodes/LbaAds/duplicateProtection/campaignGuard';
import { REASONS } from '../../../../nodes/LbaAds/duplicateProtection/guardWording';
import { createdMark, SENDING_SLOT_MS, sendingMark, sendingSlotOf } from '../../../../nodes/LbaAds/duplicateProtection/keys';
import { campaigns, createParameters, fault, holdNextLatency, runNode, useHistory, useSandbox } from '../setup';
import { justBeforeAskedAgain as otherOutcomeLands, keyOf as keyOfCampaign } from './otherExecution';

const context = useSandbox();
const history = useHistory('costly');
const { store } = history;
const byName = createParameters({ name: '={{ $json.name }}' });

/** Writes entries into the node's history as a run of this workflow would have left them. */
async function leaveInHistory(entries: string[]) {
	await store.checkProcessedAndRecord(entries, 'node', { workflow: { id: history.workflowId }, node: { id: 'lba' } } as never, { mode: 'entries' });
}

// The node as n8n loads it (dist/): how long a run waits for a twin (another execution sending the same campaign), shortened by some tests.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { twinWait } = require('../../../../dist/nodes/LbaAds/duplicateProtection/twinWait') as { twinWait: Record<string, number> };
const twinWaitAsShipped = { ...twinWait };
afterEach(() => Object.assign(twinWait, twinWaitAsShipped));

const refusal = { method: 'POST', path: '/lba/campaign', status: 400, body: { success: false, error: { code: 'G-400003', message: 'invalid' } } };

const keyOf = (name: string) => keyOfCampaign(context, history, byName, name);
const justBeforeAskedAgain = (key: string, outcome: { taken?: string[]; added?: string[] }) => otherOutcomeLands(history, key, outcome);

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
		const rerun = await runNode(context, byName, [{ name: 'stale' }], { workflowId: history.workflowId });
		// Waited for as a twin, it would be told "created by another execution" once the wait found its mark.
		expect(rerun.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again', idempotencyKey: key });
		expect(await campaigns(context)).toHaveLength(1);
	});
});

describe('a campaign another execution is sending now (a twin)', () => {
	it('control: the run really waits for it, and reports the answer that arrives meanwhile', async () => {
		const key = await keyOf('awaited');
		// Another execution is sending it: its key and its "sending" mark, within its time; its "created" mark lands while this run waits.
		await leaveInHistory([key, sendingMark(key, sendingSlotOf(Date.now()) + 1)]);
		const undo = justBeforeAskedAgain(key, { added: [createdMark(key)] });
		try {
			const waited = await runNode(context, byName, [{ name: 'awaited' }], { workflowId: history.workflowId });
			expect(waited.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: REASONS.twin, idempotencyKey: key });
		} finally {
			undo();
		}
		expect(await campaigns(context)).toHaveLength(0);
	});

	it('released by the other execution, claimed and sent by this run, then refused: its keys are released, so a re-run sends it', async () => {
		const key = await keyOf('released');
		const otherMark = sendingMark(key, sendingSlotOf(Date.now()) + 1);
		await leaveInHistory([key, otherMark]);
		// The other execution's send is refused: it takes out its key and its mark while this run waits.
		const undo = justBeforeAskedAgain(key, { taken: [key, otherMark] });
		try {
			await fault(context, { ...refusal, times: 1 });
			const refused = await runNode(context, byName, [{ name: 'released' }], { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
			expect(refused.items[0].json.error).toEqual(expect.stringMatching(/the campaign was not created$/));
		} finally {
			undo();
		}
		// Refused twice, created by nobody: held back as "may have been created" it would never be sent.
		const rerun = await runNode(context, byName, [{ name: 'released' }], { workflowId: history.workflowId });
		expect(rerun.items[0].json).toMatchObject({ status: 'Published', idempotencyKey: key });
		expect(await campaigns(context)).toHaveLength(1);
	});
});

describe('"Nothing was sent" is never said after a campaign was sent', () => {
	it('exactly one campaign sent in wave 1 (the others refused), wave 2 cannot claim: the advice says one was sent', async () => {
		const five = Array.from({ length: 5 }, (_, index) => ({ name: `one-${index}` }));
		// Wave 1 (concurrency 1: 4 items): item 1 created, items 2-4 refused by the service.
		await fault(context, { ...refusal, skip: 1, times: 3 });
		// Wave 1's claim (1 call on the node's row) and its settle (2) succeed; wave 2's claim fails.
		store.nodeRowCallsBeforeFailure = 3;
		const result = await runNode(context, { ...byName, options: { concurrency: 1 } }, five, { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(result.items.map((item) => item.json.status ?? 'error')).toEqual(['Published', 'error', 'error', 'error', 'error']);
		const notSent = result.items[4].json;
		expect(notSent.error).toBe("Not sent: Duplicate protection could not use n8n's history of sent campaigns: permission denied for table processed_data");
		expect(notSent.description).toMatch(/^1 campaign was sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\./);
		expect(notSent.description).not.toMatch(/Nothing was sent|Off/);
		expect(await campaigns(context)).toHaveLength(1);
	});
});

/**
 * A run's "sending" mark must name a 5-minute slot by whose end the run has surely settled: until
 * then another execution waits for it instead of holding the campaign back as "may have been
 * created". The run's own clock (Date.now, which n8n's code reads) is moved as each test says.
 */
describe("a run's \"sending\" mark covers its whole sending period", () => {
	const realNow = Date.now;
	/** From now on the clock reads `at` (ms), and runs on from there. */
	const clockAt = (at: number) => {
		const offset = at - realNow();
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	};
	afterEach(() => jest.restoreAllMocks());
	const longest = { ...byName, options: { timeoutMs: 600_000 } };

	/** Starts a run of `name` at the longest Timeout, its request held at the service until `release()`. */
	async function sendingAtLongestTimeout(name: string) {
		await fault(context, { method: 'POST', path: '/lba/campaign', latencyMs: 1, times: 1 });
		const slow = holdNextLatency(context);
		const running = runNode(context, longest, [{ name }], { workflowId: history.workflowId });
		await slow.arrived;
		return { release: async () => (slow.release(), await running) };
	}

	/** Another execution of the same campaign, now: held back, and how. */
	async function otherExecution(name: string) {
		Object.assign(twinWait, { waitMs: 300, firstPollMs: 50, maxPollMs: 100 });
		const other = await runNode(context, byName, [{ name }], { workflowId: history.workflowId });
		expect(other.items[0].json.skipped).toBe(true);
		return other.items[0].json;
	}

	it('at the longest Timeout, claimed 30 s before a slot ends: another execution started now waits for it', async () => {
		// 30 s before the end of a slot: 44 minutes of sending from here end in the 9th slot after this one.
		clockAt((sendingSlotOf(realNow()) + 1) * SENDING_SLOT_MS - 30_000);
		const first = await sendingAtLongestTimeout('late in its slot');
		expect(await otherExecution('late in its slot')).toMatchObject({ earlierOutcome: 'sending', reason: REASONS.key.sending });
		expect((await first.release()).items[0].json.status).toBe('Published');
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('at the longest Timeout (4 requests of 10 minutes, and the lock\'s waits): another execution started 20 minutes later still waits for it; 50 minutes later it counts as ended', async () => {
		const started = realNow();
		const first = await sendingAtLongestTimeout('slow');
		clockAt(started + 20 * 60_000);
		expect(await otherExecution('slow')).toMatchObject({ earlierOutcome: 'sending', reason: REASONS.key.sending });
		// Control: past its sending period (43 minutes, rounded up to its slot's end), it is a run that stopped mid-send.
		clockAt(started + 50 * 60_000);
		expect(await otherExecution('slow')).toMatchObject({ earlierOutcome: 'unknown', reason: REASONS.key.unknown });
		expect((await first.release()).items[0].json.status).toBe('Published');
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
