// The adversary suite's counting rules on made-up results: each way a round can go wrong must
// make its verdict fail, and a round that went right must pass.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countPairs, verdict } = require('./accounting');

type Item = Record<string, unknown>;
const CAMPAIGNS = 5;
const how = { label: 'r', campaignsPerCall: CAMPAIGNS, workerOf: (id: string) => ({ '1': 'w1', '2': 'w2', '3': 'w1', '4': 'w2' })[id] };
const items = (executionId: string, each: (i: number) => Item) => ({ status: 200, body: Array.from({ length: CAMPAIGNS }, (_, i) => ({ executionId, ...each(i) })) });
const published = (executionId: string) => items(executionId, () => ({ status: 'Published' }));
const heldBack = (executionId: string, earlierOutcome = 'created') => items(executionId, () => ({ skipped: true, earlierOutcome }));
const journal = (pairs: number[], times = 1) => new Map(pairs.flatMap((pair) => Array.from({ length: CAMPAIGNS }, (_, i) => [`r-${pair}-${i + 1}`, times] as [string, number])));

/** Pair 1 went right: sent by one call on w1, held back by its twin on w2. */
const goodPair = { pair: 1, answers: [published('1'), heldBack('2')] };

test('a round where each campaign was sent once by one twin and held back by the other passes, calm or not', () => {
	const counts = countPairs([goodPair], journal([1]), how);
	expect(counts).toMatchObject({ sentOnce: 5, heldBack: 5, onTwoWorkers: 1, failedCalls: 0 });
	expect(verdict(counts, { calm: true })).toEqual([]);
});

test('both calls holding back every campaign ("may have been created") with nothing sent fails: lost, not accounted for', () => {
	const counts = countPairs([goodPair, { pair: 2, answers: [heldBack('3', 'unknown'), heldBack('4', 'unknown')] }], journal([1]), how);
	expect(counts.unaccounted).toBe(5);
	expect(verdict(counts)).toContain('5 campaigns neither sent nor failed to their caller');
});

test('an answer saying Published for a campaign the journal lacks fails, even when its twin held back', () => {
	const counts = countPairs([goodPair, { pair: 2, answers: [published('3'), heldBack('4', 'unknown')] }], journal([1]), how);
	expect(verdict(counts)).toEqual(expect.arrayContaining(['5 campaigns answered Published but not in the journal', '5 campaigns neither sent nor failed to their caller']));
});

test('a campaign sent twice fails', () => {
	const counts = countPairs([{ pair: 1, answers: [published('1'), published('2')] }], journal([1], 2), how);
	expect(verdict(counts)).toContain('5 campaigns sent twice');
});

test('a call that failed outright excuses its campaigns from being sent under an adversary, never on a calm host', () => {
	const counts = countPairs([goodPair, { pair: 2, answers: [{ status: 500, body: { message: 'Error in workflow' } }, heldBack('4', 'unknown')] }], journal([1]), how);
	expect(counts).toMatchObject({ notSentCallerTold: 5, unaccounted: 0, failedCalls: 1 });
	expect(verdict(counts)).toEqual([]);
	expect(verdict(counts, { calm: true })).toEqual(['1 calls failed on a calm host', '5 campaigns not sent on a calm host']);
});

test('a round that did not compete fails: both calls of every pair on one worker, or no twin held back', () => {
	const sameWorker = countPairs([{ pair: 1, answers: [published('1'), heldBack('3')] }], journal([1]), how);
	expect(verdict(sameWorker)).toEqual(['no pair ran on two workers']);
	const noHoldBack = countPairs([{ pair: 1, answers: [published('1'), { status: 200, body: [] }] }], journal([1]), how);
	expect(verdict(noHoldBack)).toContain('no twin was held back');
});
