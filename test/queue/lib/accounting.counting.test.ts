// Two counting rules of the adversary suite that no other test could see broken (issue 36's
// mutation audit): a pair counts as "on two workers" only when both workers are known, and only a
// 200 whose body is the items' array is an answer.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countPairs, verdict } = require('./accounting');

export {}; // a module of its own: its names do not clash with accounting.test.ts's

const CAMPAIGNS = 2;
const how = { label: 'r', campaignsPerCall: CAMPAIGNS, workerOf: (id: string) => ({ '1': 'w1', '2': 'w2' })[id] };
const items = (executionId: string, each: Record<string, unknown>) => ({ status: 200, body: Array.from({ length: CAMPAIGNS }, () => ({ executionId, ...each })) });
const journal = (pair: number) => new Map(Array.from({ length: CAMPAIGNS }, (_, i) => [`r-${pair}-${i + 1}`, 1] as [string, number]));

test('a pair one of whose executions ran on a worker nobody saw is not counted as a pair on two workers', () => {
	const counts = countPairs([{ pair: 1, answers: [items('1', { status: 'Published' }), items('99', { skipped: true, earlierOutcome: 'created' })] }], journal(1), how);
	expect(counts.onTwoWorkers).toBe(0);
	expect(verdict(counts)).toContain('no pair ran on two workers');
});

test('a 200 whose body is not the items (n8n\'s "Workflow was started") is a failed call, not an answer', () => {
	const started = { status: 200, body: { message: 'Workflow was started' } };
	const counts = countPairs([{ pair: 1, answers: [started, started] }], new Map(), how);
	expect(counts).toMatchObject({ failedCalls: 2, notSentCallerTold: CAMPAIGNS, unaccounted: 0 });
	expect(verdict(counts, { calm: true })).toContain('2 calls failed on a calm host');
});
