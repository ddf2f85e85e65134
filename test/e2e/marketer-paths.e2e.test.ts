// A marketer's journeys through duplicate protection in a real n8n 2.40.7 with the packed package
// and the sandbox (issue 40): each journey does what the node advises, to the letter, and counts
// the campaigns the sandbox's journal received. The rule behind them: a Retry never sends again
// what the execution it retries created, whatever was edited in the LBA node, computed again on
// the way (`$now` in the node, in a Set node, in a sub-workflow) or switched Off; an item it did
// not create is sent as it now reads; a campaign is never sent twice in one run, Resend or not.
// One n8n for the file; each journey's figures go to artifacts/e2e/marketer-paths.md.
import * as e2e from './lib';

type Json = Record<string, any>;

const LBA = 'Create campaigns';
const CODE = 'Campaigns to send';
const SUB = 'Run sub-workflow';
const POST_CAMPAIGN = { method: 'POST', path: '/lba/campaign' };
const CUSTOM_KEY_PER_DAY = '={{ $today.toISODate() }}-{{ $json.name }}';

const lbaParameters = (channel: Json = {}, overrides: Json = {}) => e2e.createCampaignParameters({ channels: { channel: [e2e.channel(channel)] }, ...overrides });
const nowParameters = (channel: Json = {}, overrides: Json = {}) => lbaParameters({ ...e2e.NOW_DATES, ...channel }, overrides);

/** Start -> "Campaigns to send" (`items`) -> the LBA node. */
const straight = (id: string, name: string, items: Json[], parameters: Json) => e2e.campaignWorkflow(id, `Paths: ${name}`, items, { lbaName: LBA, lbaParameters: parameters });

// 1. The service refuses item 3 (a link in its text); the user fixes the message with an expression that changes item 3 only.
const LINKED = 'Promo! Details: https://promo.example/fix';
const FIXED_MESSAGE = 'Promo! Details:';
const FIX = straight(
	'pathsFix',
	'fix the refused item',
	e2e.namedItems('fix', 4).map((item, index) => ({ ...item, message: index === 2 ? LINKED : 'Promo!' })),
	nowParameters({ message: '={{ $json.message }}' }),
);
const FIX_EXPRESSION = "={{ $json.message.replace(/\\s*https?:\\/\\/\\S+/g, '') }}";

// 2. A sub-workflow whose dates a Set node computes with $now, before its LBA node.
const SUB_CHILD_ID = 'pathsSubChild';
const SUB_CHILD = e2e.workflow(
	SUB_CHILD_ID,
	'Paths: sub-workflow with a Set node (child)',
	[
		e2e.executeWorkflowTrigger(`${SUB_CHILD_ID}-trigger`),
		e2e.node(`${SUB_CHILD_ID}-dates`, 'Dates', 'n8n-nodes-base.set', 3.4, {
			mode: 'manual',
			assignments: {
				assignments: [
					{ id: 'startDate', name: 'startDate', value: '={{ $now.plus({ minutes: 5 }).toISO() }}', type: 'string' },
					{ id: 'endDate', name: 'endDate', value: '={{ $now.plus({ days: 3 }).toISO() }}', type: 'string' },
				],
			},
			includeOtherFields: true,
			options: {},
		}),
		e2e.lbaNode(`${SUB_CHILD_ID}-lba`, LBA, lbaParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' })),
	],
	e2e.chain('Called', 'Dates', LBA),
);
const SUB_PARENT = e2e.workflow(
	'pathsSub',
	'Paths: sub-workflow with a Set node',
	[e2e.manualTrigger('pathsSub-start'), e2e.itemsNode('pathsSub-code', CODE, e2e.namedItems('sub', 6)), e2e.executeWorkflowNode('pathsSub-sub', SUB, SUB_CHILD_ID)],
	e2e.chain('Start', CODE, SUB),
);

// 3. Two executions of the same campaign (fixed dates) a second apart.
const TWIN = straight('pathsTwin', 'another execution is sending it', e2e.namedItems('twin', 1), lbaParameters());

// 4. A Remove Duplicates node with Scope Workflow on a second trigger path of the same workflow.
const NIGHT = 'Every night';
const DEDUPE = 'Only new sign-ups';
const CLEAR = 'Clear history';
const LOCK = (() => {
	const id = 'pathsLock';
	const nodes = [
		e2e.manualTrigger(`${id}-start`),
		e2e.itemsNode(`${id}-code`, CODE, e2e.namedItems('lock', 12)),
		e2e.lbaNode(`${id}-lba`, LBA, nowParameters()),
		e2e.node(`${id}-night`, NIGHT, 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'days', daysInterval: 1 }] } }),
		e2e.itemsNode(`${id}-signups`, 'New sign-ups', [{ id: 'u-1' }, { id: 'u-2' }]),
		e2e.node(`${id}-dedupe`, DEDUPE, 'n8n-nodes-base.removeDuplicates', 2, {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.id }}',
			options: { scope: 'workflow' },
		}),
	];
	const connections = e2e.chain('Start', CODE, LBA);
	e2e.connect(connections, NIGHT, 'New sign-ups');
	e2e.connect(connections, 'New sign-ups', DEDUPE);
	return e2e.workflow(id, 'Paths: a lock error followed', nodes, connections);
})();

// 5. Duplicate Protection switched Off before a Retry.
const OFF = straight('pathsOff', 'Off before a Retry', e2e.namedItems('off', 6), nowParameters());

// 6. Stop pressed mid-wave: a Custom Key per day (the $now hint's way out), and the $now version measured.
const STOP = straight('pathsStop', 'stopped mid-wave, Custom Key per day', e2e.namedItems('stop', 12), nowParameters({}, { duplicateProtection: 'customKey', idempotencyKey: CUSTOM_KEY_PER_DAY }));
const STOP_NOW = straight('pathsStopNow', 'stopped mid-wave, $now dates', e2e.namedItems('stopnow', 12), nowParameters());

// 7. A row repeated in one run, with Resend on.
const REPEAT = straight('pathsRepeat', 'a repeated row with Resend', [{ name: 'repeat-1' }, { name: 'repeat-1' }], lbaParameters({}, { options: { concurrency: 1, resend: true } }));

const WORKFLOWS = [FIX, SUB_CHILD, SUB_PARENT, TWIN, LOCK, OFF, STOP, STOP_NOW, REPEAT];
/** In n8n 2.x a Retry runs a sub-workflow's published version. */
const PUBLISHED = e2e.n8nVersion().startsWith('1.') ? [] : [SUB_CHILD_ID];

type Figure = { journey: string; expected: string; created: number | string; said: string; ok: boolean };
const figures: Figure[] = [];
const measured: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`);
const nameOf = (campaign: e2e.JournalCampaign) => campaign.request.name;
const sorted = (campaigns: e2e.JournalCampaign[]) => campaigns.map(nameOf).sort();
/** "3 created; 3 skipped (created)": what a run's output says, in short. */
function summary(items: Json[]) {
	const counts = new Map<string, number>();
	for (const item of items) {
		const fate = item.skipped ? `skipped (${item.earlierOutcome})` : item.status === 'Published' ? 'created' : `error: ${item.error ?? JSON.stringify(item)}`;
		counts.set(fate, (counts.get(fate) ?? 0) + 1);
	}
	return [...counts].map(([fate, count]) => `${count} ${fate}`).join('; ');
}
/** The POSTs of campaigns named `<prefix>-…` the sandbox received, in order. */
const postsOf = (requests: e2e.SandboxRequest[], prefix: string) =>
	requests.filter((request) => request.method === 'POST' && request.path === '/lba/campaign' && String(request.body?.name ?? '').startsWith(`${prefix}-`));

e2e.describeE2E(`a marketer's paths through duplicate protection, in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let rest: e2e.N8nRest;
	let steps: e2e.UserSteps;
	const started = Date.now();

	/** Runs one journey and records its figure (created, what the node said), passed or not. */
	async function journey(name: string, expected: number, body: (figure: Figure) => Promise<void>) {
		const figure: Figure = { journey: name, expected: String(expected), created: '?', said: '', ok: false };
		figures.push(figure);
		try {
			await body(figure);
			figure.ok = true;
		} finally {
			await steps.clearFaults();
		}
	}
	/** Resolves once the sandbox holds the POST of `<prefix>-…` number `n` (1-based), answered or not; `pending`: not yet answered. */
	const postArrives = (prefix: string, n: number, pending = false) =>
		steps.sandboxSees((requests) => {
			const post = postsOf(requests, prefix)[n - 1];
			return post !== undefined && (!pending || post.status === null);
		});
	/** Resolves once every POST of `<prefix>-…` has been answered (a latency fault has run out). */
	const allAnswered = (prefix: string) => steps.sandboxSees((requests) => postsOf(requests, prefix).every((request) => request.status !== null));

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('paths', { workflows: WORKFLOWS, publish: PUBLISHED, shared: true });
		rest = setup.rest;
		steps = e2e.userSteps(setup);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
		if (!figures.length) return;
		const table = e2e.markdownTable<Figure>(
			[
				['journey', (f) => f.journey],
				['campaigns expected', (f) => f.expected],
				['created', (f) => f.created],
				['result', (f) => (f.ok ? 'pass' : 'FAIL')],
				['the node said', (f) => f.said],
			],
			figures,
		);
		const notes = measured.length ? `\n\nMeasured, not asserted:\n\n${measured.map((line) => `- ${line}`).join('\n')}` : '';
		e2e.writeReport(
			'marketer-paths',
			`A marketer's paths through duplicate protection, in real n8n ${e2e.n8nVersion()}`,
			`${table}${notes}\n\nThe file took ${Math.round((Date.now() - started) / 1000)} s.`,
			{ print: true },
		);
	});

	test('1. the service refuses item 3; its message fixed with an expression (item 3 only), saved, "Retry with currently saved workflow": 4 campaigns, none twice, item 3 as fixed', async () => {
		e2e.follows('pageChangeOnlyWhatFailed');
		await journey('1. fix the refused item, Retry with the saved workflow', 4, async (figure) => {
			await steps.fault({
				...POST_CAMPAIGN,
				status: 400,
				skip: 2,
				times: 1,
				body: {
					success: false,
					error: {
						code: 'G-400003',
						message: 'The campaign could not be created because the data are incomplete or invalid.',
						details: [{ field: 'channels[0].message', message: 'links are not allowed in an SMS' }],
					},
				},
			});
			const failed = await steps.run(FIX.id);
			expect(failed.status).toBe('error');
			expect(sorted(await steps.journal('fix'))).toEqual(names('fix', 2));
			const retried = await steps.editThenRetry(FIX.id, failed.executionId, LBA, (node) => {
				const channel = { ...node.parameters.channels.channel[0], message: FIX_EXPRESSION };
				return { ...node, parameters: { ...node.parameters, channels: { channel: [channel] } } };
			});
			const created = await steps.journal('fix');
			figure.created = created.length;
			figure.said = summary(retried.output(LBA));
			expect(retried.status).toBe('success');
			expect(sorted(created)).toEqual(names('fix', 4));
			expect(created.find((campaign) => nameOf(campaign) === 'fix-3')!.request.channels[0].message).toBe(FIXED_MESSAGE);
			expect(retried.output(LBA).map((item) => (item.skipped ? `skipped:${item.earlierOutcome}` : item.status))).toEqual([
				'skipped:created',
				'skipped:created',
				'Published',
				'Published',
			]);
		});
	});

	test("2. a sub-workflow whose dates a Set node computes with $now; the parent retried after a 503 at item 4 of 6: each campaign once", async () => {
		await journey('2. sub-workflow, dates from a Set node, parent retried', 6, async (figure) => {
			await steps.fault({ ...POST_CAMPAIGN, status: 503, skip: 3, times: 1 });
			const failed = await steps.run(SUB_PARENT.id);
			expect(failed.status).toBe('error');
			expect(sorted(await steps.journal('sub'))).toEqual(names('sub', 3));
			await steps.waitOffWholeMinute(); // $now moves on, and not onto a whole minute
			const retried = await steps.retry(SUB_PARENT.id, failed.executionId);
			const created = await steps.journal('sub');
			figure.created = created.length;
			figure.said = summary(retried.output(SUB));
			expect(retried.status).toBe('success');
			expect(sorted(created)).toEqual(names('sub', 6));
			expect(retried.output(SUB).slice(0, 3)).toEqual(Array(3).fill(expect.objectContaining({ skipped: true, earlierOutcome: 'created' })));
		});
	});

	test('3. another execution is sending the same campaign right now: held as "sending"; its advice followed (do not run again; once the first has finished, look in LBA Ads: there): 1 campaign', async () => {
		e2e.follows('doNotRunAgainForIt', 'onceThatFinished', 'onlyIfMissing', 'pageDoNotRunAgain', 'pageOnceFinished', 'pageOnlyIfMissing');
		await journey('3. another execution sending it now, advice followed', 1, async (figure) => {
			await steps.fault({ ...POST_CAMPAIGN, latencyMs: 20_000, times: 1 });
			const first = await steps.start(TWIN.id);
			await postArrives('twin', 1, true);
			const second = await steps.run(TWIN.id);
			expect(second.status).toBe('success');
			const [held] = second.output(LBA);
			figure.said = `second: ${summary([held])}`;
			if (held.earlierOutcome === 'sending') {
				// Its advice: do not run the workflow again; once the other execution has finished (see Executions), look in LBA Ads.
				expect((await steps.finished(first)).status).toBe('success');
				const found = await steps.journal('twin');
				figure.said += `; the first finished, LBA Ads holds ${found.length} campaign: nothing more to do`;
			} else {
				figure.said += `; ${await followUnknownAdvice(TWIN.id, 'twin', [held])}`;
			}
			await allAnswered('twin');
			const created = await steps.journal('twin');
			figure.created = created.length;
			expect(held).toMatchObject({
				skipped: true,
				earlierOutcome: 'sending',
				reason: expect.stringMatching(/^Another execution is sending this same campaign right now/),
				howToResend: expect.stringMatching(/^Do not run the workflow again for it: .*Once that execution has finished \(see Executions\), look for the campaign in LBA Ads/),
			});
			expect(sorted(created)).toEqual(['twin-1']);
		});
	});

	test('4. a Remove Duplicates node with Scope Workflow runs while the LBA node sends its first wave: the lock error says what was sent and never Off; steps (1)(2)(3) followed: 12 campaigns', async () => {
		e2e.follows('doNotRunAgainInstead', 'retryAfterOthers', 'fixSharedRow');
		await journey('4. lock error (Remove Duplicates, Scope Workflow), advice followed', 12, async (figure) => {
			// Item 4 (the last of wave 1: 4 items per wave at concurrency 1) is answered late; meanwhile the other path's Remove
			// Duplicates writes the workflow's shared row. Wave 1's settle then fails (its outcomes are not recorded: the Retry
			// words them "may have been created") and wave 2's claim stops the run. A latency on item 5 would let wave 2 be
			// claimed first and sent: the error would then say 8 campaigns.
			await steps.fault({ ...POST_CAMPAIGN, latencyMs: 8_000, skip: 3, times: 1 });
			const lbaRun = await steps.start(LOCK.id);
			await postArrives('lock', 4, true);
			const night = await steps.run(LOCK.id, NIGHT);
			expect(night.status).toBe('success');
			const failed = await steps.finished(lbaRun);
			expect(failed.status).toBe('error');
			const error = failed.error ?? {};
			figure.said = `${error.message} — ${error.description}`;
			const lockTookS = Math.round((failed.stoppedAt - failed.startedAt) / 1000);
			measured.push(`4: the LBA execution failed with the lock error ${lockTookS} s after it started (the latency fault held item 4 for 8 s).`);
			expect(sorted(await steps.journal('lock'))).toEqual(names('lock', 4));
			expect(error.description).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\./);
			expect(`${error.message} ${error.description}`).not.toMatch(/\bOff\b/);
			expect(error.description).toMatch(/\(1\) in that Remove Duplicates node, set Scope to Node/);
			expect(error.description).toMatch(/\(2\) add a new Remove Duplicates node, set Operation to "Clear Deduplication History", Mode to "Clean Database" and Scope to Workflow, execute that step once, then delete it/);
			expect(error.description).toMatch(/\(3\) then Retry this execution/);

			// (1) In that Remove Duplicates node, set Scope to Node.
			await steps.setNode(LOCK.id, DEDUPE, (node) => ({ ...node, parameters: { ...node.parameters, options: { ...node.parameters.options, scope: 'node' } } }));
			// (2) A new Remove Duplicates node: Clear Deduplication History, Clean Database, Scope Workflow; execute that step once; delete it.
			await steps.saveWorkflow(LOCK.id, ({ nodes, connections }) => ({
				nodes: [
					...nodes,
					e2e.node('pathsLock-clear', CLEAR, 'n8n-nodes-base.removeDuplicates', 2, { operation: 'clearDeduplicationHistory', mode: 'cleanDatabase', options: { scope: 'workflow' } }, { position: [660, 300] }),
				],
				connections: e2e.connect(structuredClone(connections), NIGHT, CLEAR),
			}));
			const cleared = await steps.executeStep(LOCK.id, CLEAR, { [NIGHT]: night.run.resultData.runData[NIGHT] }, [CLEAR]);
			expect(cleared.status).toBe('success');
			expect(Object.keys(cleared.run.resultData.runData)).toContain(CLEAR);
			await steps.saveWorkflow(LOCK.id, ({ nodes, connections }) => {
				const kept = structuredClone(connections);
				kept[NIGHT].main[0] = kept[NIGHT].main[0].filter((link: Json) => link.node !== CLEAR);
				return { nodes: nodes.filter((node) => node.name !== CLEAR), connections: kept };
			});
			// (3) Then Retry this execution.
			const retried = await steps.retry(LOCK.id, failed.executionId, true);
			expect(retried.status).toBe('success');
			// What is true of the first wave: created by the execution retried (each its campaign), not "being sent" by a run that ended.
			const firstWave = (await steps.journal('lock')).filter((campaign) => names('lock', 4).includes(campaign.request.name as string));
			const held = retried.output(LBA).slice(0, 4);
			expect(held.map((item: Json) => item.earlierOutcome)).toEqual(['created', 'created', 'created', 'created']);
			expect(held.map((item: Json) => item.campaignId).sort()).toEqual(firstWave.map((campaign) => campaign.campaignId).sort());
			const followed = await followUnknownAdvice(LOCK.id, 'lock', retried.output(LBA));
			const created = await steps.journal('lock');
			figure.created = created.length;
			figure.said = `${error.description} | Retry: ${summary(retried.output(LBA))}; ${followed}`;
			expect(sorted(created)).toEqual(names('lock', 12).sort());
		});
	});

	test('5. a 503 at item 4 of 6, Duplicate Protection switched Off and saved, "Retry with currently saved workflow": 6 campaigns', async () => {
		await journey('5. Off before a Retry', 6, async (figure) => {
			await steps.fault({ ...POST_CAMPAIGN, status: 503, skip: 3, times: 1 });
			const failed = await steps.run(OFF.id);
			expect(failed.status).toBe('error');
			expect(sorted(await steps.journal('off'))).toEqual(names('off', 3));
			const retried = await steps.editThenRetry(OFF.id, failed.executionId, LBA, (node) => ({ ...node, parameters: { ...node.parameters, duplicateProtection: 'off' } }));
			const created = await steps.journal('off');
			figure.created = created.length;
			figure.said = summary(retried.output(LBA));
			expect(retried.status).toBe('success');
			expect(sorted(created)).toEqual(names('off', 6));
		});
	});

	/** Runs `workflow` (12 items), stops it while item 6 is in flight, runs it again. */
	async function stoppedThenRunAgain(workflow: e2e.WorkflowJson, prefix: string) {
		await steps.fault({ ...POST_CAMPAIGN, latencyMs: 6_000, skip: 5, times: 1 });
		const running = await steps.start(workflow.id);
		await postArrives(prefix, 6, true);
		await steps.stop(running);
		const stopped = await steps.finished(running);
		const sentBeforeStop = postsOf(await steps.requests(), prefix).length;
		const again = await steps.run(workflow.id);
		return { stopped, sentBeforeStop, again };
	}

	/**
	 * What the held-back items of a run (`items`, input item i named `<prefix>-<i+1>`) advise, done to the
	 * letter: "may have been created" (unknown): wait, look for it in LBA Ads (the journal), and only if it
	 * is missing set the node's Mode to Send One Again with its sendAgainKey, run it from the editor,
	 * then set Mode back to Publish (issue 60). An advice that says to send without looking first (the
	 * node before issue 40) is followed as it reads. Returns what was done.
	 */
	async function followUnknownAdvice(workflowId: string, prefix: string, items: Json[]): Promise<string> {
		const unknown = items.map((item, index) => ({ item, name: `${prefix}-${index + 1}` })).filter(({ item }) => item.skipped && item.earlierOutcome === 'unknown');
		if (!unknown.length) return 'nothing to do';
		const looksFirst = unknown.every(({ item }) => /^Wait a few minutes, then look for it in LBA Ads\. If it is there, do nothing\. If it is missing: /.test(String(item.howToResend)));
		await allAnswered(prefix); // "wait a few minutes": until the service has answered every request
		const inLbaAds = new Set((await steps.journal(prefix)).map(nameOf));
		const toResend = unknown.filter(({ name }) => !looksFirst || !inLbaAds.has(name)).map(({ name }) => name);
		const said = `${unknown.length} "may have been created": ${looksFirst ? 'looked in LBA Ads first' : `advice: ${unknown[0].item.howToResend}`}`;
		if (!toResend.length) return `${said}, all there: nothing done`;
		const outcomes: string[] = [];
		for (const { item } of unknown.filter(({ name }) => toResend.includes(name))) {
			await steps.setNode(workflowId, LBA, (node) => ({ ...node, parameters: { ...node.parameters, runMode: 'sendAgain', sendAgainKey: String(item.sendAgainKey) } }));
			const resent = await steps.run(workflowId);
			outcomes.push(summary(resent.output(LBA).slice(0, 1)));
		}
		await steps.setNode(workflowId, LBA, (node) => ({ ...node, parameters: { ...node.parameters, runMode: 'publish' } }));
		return `${said}; Send One Again for ${toResend.join(', ')}: ${outcomes.join('; ')}`;
	}

	test("6. Stop pressed mid-wave, then a new run: with a Custom Key per day (the $now hint's way out) and the held items' advice followed, 12 campaigns, none twice; the $now version measured", async () => {
		e2e.follows('waitThenLook', 'ifThereNothing', 'ifMissing', 'lookBeforeRunningAfterStop', 'pageLookForTwice', 'pageAfterStop', 'pageWait', 'pageLook');
		await journey('6. stopped mid-wave, run again (Custom Key per day), advice followed', 12, async (figure) => {
			const { stopped, sentBeforeStop, again } = await stoppedThenRunAgain(STOP, 'stop');
			figure.said = `stopped (${stopped.status}) after ${sentBeforeStop} requests; run again: ${summary(again.output(LBA))}`;
			expect(stopped.status).toBe('canceled');
			expect(again.status).toBe('success');
			figure.said += `; ${await followUnknownAdvice(STOP.id, 'stop', again.output(LBA))}`;
			await allAnswered('stop');
			const created = await steps.journal('stop');
			figure.created = created.length;
			expect(sorted(created)).toEqual(names('stop', 12).sort());
		});
		// The same with $now dates and Campaign Content: a new run is a new campaign (measured, for the docs).
		await sleep(1100);
		const { stopped, sentBeforeStop, again } = await stoppedThenRunAgain(STOP_NOW, 'stopnow');
		await allAnswered('stopnow');
		const created = await steps.journal('stopnow');
		const hints = JSON.stringify(again.run.resultData.runData[LBA]?.[0]?.hints ?? []);
		measured.push(
			`6 with $now dates (Campaign Content): stopped (${stopped.status}) after ${sentBeforeStop} requests, then run again (${summary(again.output(LBA))}): ${created.length} campaigns for 12 items. ` +
				`The run's $now hint names the ways out (the day from the clock and the time as text, Custom Key per day): ${/the day from the clock and the time as text/.test(hints) && /Custom Key/.test(hints) ? 'yes' : `no (${hints})`}.`,
		);
		expect(hints).toMatch(/the day from the clock and the time as text.*Custom Key/);
	});

	test('7. Resend on, a row repeated in one run: 1 campaign', async () => {
		await journey('7. a repeated row with Resend', 1, async (figure) => {
			const result = await steps.run(REPEAT.id);
			const created = await steps.journal('repeat');
			figure.created = created.length;
			figure.said = summary(result.output(LBA));
			expect(result.status).toBe('success');
			expect(created).toHaveLength(1);
			expect(result.output(LBA)[1]).toMatchObject({ skipped: true, sameAsItem: 0, earlierOutcome: 'sameRun' });
		});
	});
});
