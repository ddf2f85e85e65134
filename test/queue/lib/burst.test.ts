// The burst test's counting rules (issue 40) on made-up results: each way a burst can go wrong
// must make its verdict fail, and a burst that went right must pass.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countBurst, burstVerdict, sharedEstablishedAt, executionOfDescription } = require('./burst');

type Answer = { status: number; body: unknown };
const published = (execution: string): Answer => ({ status: 200, body: [{ executionId: execution, status: 'Published', campaignId: `C${execution}` }] });
const heldBack = (execution: string): Answer => ({
	status: 200,
	body: [{ executionId: execution, skipped: true, earlierOutcome: 'created', reason: 'Created by the execution this one retries (or an earlier try of this node); not sent again' }],
});
const campaign = (execution: string, campaignId = `C${execution}`) => ({ campaignId, request: { name: 'burst-1', description: `Burst campaign of execution ${execution}` } });
const good = () => ({ answers: ['1', '2', '3', '4'].map(published), campaigns: ['1', '2', '3', '4'].map((e) => campaign(e)) });

test('a burst where every execution created its one campaign passes', () => {
	const { answers, campaigns } = good();
	const counts = countBurst(answers, campaigns);
	expect(counts).toMatchObject({ calls: 4, executions: 4, created: 4, heldBack: 0, twice: 0, missing: 0, strays: 0, falseReports: 0 });
	expect(burstVerdict(counts)).toEqual([]);
});

test('an execution held back as "created by the execution this one retries" fails, with its reason', () => {
	const { answers, campaigns } = good();
	answers[3] = heldBack('4');
	const counts = countBurst(answers, campaigns.slice(0, 3));
	expect(counts).toMatchObject({ created: 3, heldBack: 1, missing: 1, heldBackExecutions: ['4'] });
	expect(counts.heldBackBy).toEqual({ 'created: Created by the execution this one retries': 1 });
	expect(burstVerdict(counts).join('\n')).toMatch(/1 held back wrongly \(1 × created: Created by the execution this one retries\)/);
});

test('a campaign sent twice, a stray campaign, a failed call and a false Published each fail', () => {
	const { answers, campaigns } = good();
	expect(burstVerdict(countBurst(answers, [...campaigns, campaign('2', 'Cother')]))).toEqual(expect.arrayContaining(['1 campaigns sent twice']));
	expect(burstVerdict(countBurst(answers, [...campaigns, campaign('99')]))).toEqual(['1 campaigns of executions no answer names']);
	const failed = [...answers.slice(0, 3), { status: 500, body: { message: 'boom' } }];
	expect(burstVerdict(countBurst(failed, campaigns.slice(0, 3))).join('\n')).toMatch(/1 calls failed/);
	expect(burstVerdict(countBurst(answers, campaigns.slice(0, 3))).join('\n')).toMatch(/1 answers say Published for a campaign the journal lacks/);
	const sameExecution = [published('1'), published('1'), published('3'), published('4')];
	expect(burstVerdict(countBurst(sameExecution, campaigns)).join('\n')).toMatch(/1 answers named an execution another answer named/);
});

test('shared establishedAt: k executions at one instant make k(k-1)/2 pairs; held-back ones among them are counted', () => {
	const figures = sharedEstablishedAt(
		[
			['1', 1000],
			['2', 1000],
			['3', 1000],
			['4', 1001],
			['5', 1002],
			['6', 1002],
			['7', undefined],
		],
		['3', '4'],
		(execution: string) => (['1', '5'].includes(execution) ? 'w1' : 'w2'),
	);
	// At 1000: 1-2 and 1-3 on two workers, 2-3 on one; at 1002: 5-6 on two.
	expect(figures).toEqual({ read: 6, pairs: 4, instants: 2, executionsSharing: 5, heldBackSharing: 1, pairsOnTwoWorkers: 3 });
});

test('the execution id is read from the description', () => {
	expect(executionOfDescription('Burst campaign of execution 1234')).toBe('1234');
	expect(executionOfDescription('no id')).toBeUndefined();
});

export {};
