// "Never the same campaign twice, across executions", proven in a real n8n 2.40.7 (SQLite,
// regular mode) with the packed package installed as a community package, against the
// sandbox. Each scenario is run the way users meet it: the editor's "Execute workflow"
// (POST /rest/workflows/:id/run), the executions list's Retry (POST /rest/executions/:id/retry),
// two executions at once, a saved change of the node (PATCH /rest/workflows/:id). The
// sandbox's journal is the judge: it holds every campaign the service created.
//
// Each workflow is Manual Trigger -> Code (six items) -> LBA Ads Create Campaign, one request
// at a time, as in the report. Figures are printed at the end and written to
// artifacts/e2e/duplicate-protection.md.
import * as path from 'node:path';

import * as e2e from './lib';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server') as { startSandbox: (options: Json) => Promise<{ url: string; tokens: string[]; close(): Promise<void> }> };

const LBA = 'Create campaigns';
const TRIGGER = 'Start';

type JournalCampaign = { campaignId: string; request: { name: string } };
type Json = Record<string, any>;

/** A workflow whose Code node emits `items` and whose LBA node creates one campaign per item. */
const workflow = (id: string, items: Json[], lbaParameters: Json = {}) =>
	e2e.campaignWorkflow(id, `Duplicate protection: ${id}`, items, {
		lbaName: LBA,
		lbaParameters: e2e.createCampaignParameters({ campaignDescription: 'Duplicate protection e2e', ...lbaParameters }),
	});

const named = e2e.namedItems;

/** Dates the way users write "start now": a Retry evaluates them again, later. */
const NOW_DATES = e2e.NOW_DATES;
const channelWith = (dates: Json) => ({ channels: { channel: [e2e.channel(dates)] } });
const SECOND_CREDENTIAL = { id: 'second-sandbox-credential', name: 'Second LBA sandbox' };

const WORKFLOWS = {
	retry: workflow('dpRetry', named('retry')),
	unknown: workflow('dpUnknown', named('unknown')),
	concurrent: workflow('dpConcurrent', named('concurrent')),
	customKey: workflow(
		'dpCustomKey',
		named('order').map((item, index) => ({ ...item, orderId: `A-${index + 1}` })),
		// The content differs on every execution; the order id does not.
		{ name: '={{ $json.name + " (execution " + $execution.id + ")" }}', duplicateProtection: 'customKey', idempotencyKey: '={{ $json.orderId }}' },
	),
	off: workflow('dpOff', named('off'), { duplicateProtection: 'off' }),
	crash: workflow('dpCrash', named('crash', 16)),
	now: workflow('dpNow', named('now'), channelWith(NOW_DATES)),
	nowRetryOnFail: workflow('dpNowTries', named('tries'), channelWith(NOW_DATES)),
	nowResend: workflow('dpNowResend', named('resend'), { ...channelWith(NOW_DATES), options: { concurrency: 1, resend: true } }),
	utc: workflow('dpUtc', [{ name: 'utc-1', start: '2036-11-26T09:00:00+07:00', end: '2036-11-26T17:00:00+07:00' }], channelWith({ startDate: '={{ $json.start }}', endDate: '={{ $json.end }}' })),
	targets: workflow('dpTargets', named('target', 2)),
	wave2: workflow('dpWave2', named('wave', 8)),
};
// The node's own Retry On Fail: two tries, a second apart (so that $now gives other dates).
Object.assign(WORKFLOWS.nowRetryOnFail.nodes[2], { retryOnFail: true, maxTries: 2, waitBetweenTries: 1100 });

const figures: Array<{ scenario: string; executions: number; items: number; created: number; duplicates: number; unaccounted: number; expected: string }> = [];

e2e.describeE2E(`duplicate protection in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let rest: e2e.N8nRest;

	async function journal(prefix: string): Promise<JournalCampaign[]> {
		const all = ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: JournalCampaign[] }).campaigns;
		return all.filter((campaign) => campaign.request.name.startsWith(`${prefix}-`));
	}
	function countByName(campaigns: JournalCampaign[]) {
		const counts = new Map<string, number>();
		for (const campaign of campaigns) {
			const name = campaign.request.name.replace(/ \(execution \d+\)$/, '');
			counts.set(name, (counts.get(name) ?? 0) + 1);
		}
		return counts;
	}
	function duplicates(campaigns: JournalCampaign[]) {
		return [...countByName(campaigns).values()].reduce((sum, count) => sum + count - 1, 0);
	}
	async function fault(spec: Json) {
		const res = await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
		expect(res.status).toBeLessThan(300);
	}
	async function run(id: string) {
		const { executionId } = await rest.runWorkflow(id, TRIGGER);
		await rest.waitForExecution(executionId, { timeoutMs: 120_000 });
		return { executionId, ...(await rest.getExecutionRun(executionId)) };
	}
	/** The executions list's Retry ("Retry with original workflow"), then the retried execution. */
	async function retry(executionId: string) {
		await e2e.mustOfferRetry(rest, executionId);
		const before = await latestExecutionId();
		await rest.call('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow: false });
		const retried = await latestExecutionId();
		expect(Number(retried)).toBeGreaterThan(Number(before));
		await rest.waitForExecution(retried);
		return { executionId: retried, ...(await rest.getExecutionRun(retried)) };
	}
	async function latestExecutionId(): Promise<string> {
		const list = await rest.call('GET', '/rest/executions?limit=1');
		return String((list.results ?? list)[0]?.id ?? 0);
	}
	async function setLbaParameters(id: string, parameters: Json) {
		const saved = await rest.getWorkflow(id);
		const nodes = saved.nodes.map((node: Json) => (node.name === LBA ? { ...node, parameters } : node));
		await rest.call('PATCH', `/rest/workflows/${id}`, { nodes, connections: saved.connections, versionId: saved.versionId });
	}
	async function setNode(id: string, name: string, change: (node: Json) => Json) {
		const saved = await rest.getWorkflow(id);
		const nodes = saved.nodes.map((node: Json) => (node.name === name ? change(node) : node));
		await rest.call('PATCH', `/rest/workflows/${id}`, { nodes, connections: saved.connections, versionId: saved.versionId });
	}
	/** The journal holds the six campaigns of `prefix`, each once; recorded as a figure. */
	async function expectSixOnce(prefix: string, figure: { scenario: string; executions: number; items: number }) {
		const campaigns = await journal(prefix);
		expect(campaigns).toHaveLength(6);
		expect(duplicates(campaigns)).toBe(0);
		figures.push({ ...figure, created: campaigns.length, duplicates: 0, unaccounted: 0, expected: '6 created, 0 duplicates' });
	}
	/** Each item's fate: "created", "skipped:<earlierOutcome>" or "error". */
	function fates(items: Json[]) {
		return items.map((item) => (item.skipped ? `skipped:${item.earlierOutcome}` : item.status === 'Published' ? 'created' : 'error'));
	}

	let secondSandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;

	beforeAll(async () => {
		secondSandbox = await startSandbox({ port: 0, quiet: true });
		const second = secondSandbox;
		setup = await e2e.startLbaN8n('dedup', {
			workflows: Object.values(WORKFLOWS),
			credentials: () => [{ ...SECOND_CREDENTIAL, type: 'lbaAdsApi', data: { baseUrl: second.url, accessToken: second.tokens[0] } }],
		});
		({ sandbox, rest } = setup);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
		await secondSandbox?.close();
		if (!figures.length) return;
		const table = e2e.markdownTable<(typeof figures)[number]>(
			[
				['scenario', (f) => f.scenario],
				['executions', (f) => f.executions],
				['items', (f) => f.items],
				['campaigns created', (f) => f.created],
				['duplicates', (f) => f.duplicates],
				['items neither created nor reported', (f) => f.unaccounted],
				['expected', (f) => f.expected],
			],
			figures,
		);
		e2e.writeReport('duplicate-protection', `Duplicate protection in real n8n ${e2e.n8nVersion()} (sandbox journal)`, table, { print: true });
	});

	test('a 503 at item 4, then Retry: items 1-3 reported as created, 4-6 created once, 0 duplicates', async () => {
		e2e.follows('pageRetrySteps');
		await fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const failed = await run('dpRetry');
		expect(failed.status).toBe('error');
		expect(failed.error?.message).toBe('The LBA service failed to answer POST /lba/campaign (HTTP 503); the campaign was not created');
		expect((await journal('retry')).map((c) => c.request.name)).toEqual(['retry-1', 'retry-2', 'retry-3']);

		const retried = await retry(failed.executionId);
		expect(retried.status).toBe('success');
		const items = retried.output(LBA);
		expect(fates(items)).toEqual(['skipped:created', 'skipped:created', 'skipped:created', 'created', 'created', 'created']);
		// Held as what the execution it retries created, naming that campaign.
		const [first] = await journal('retry');
		expect(items[0]).toMatchObject({ skipped: true, reason: expect.stringMatching(/^Created by the execution this one retries/), campaignId: first.campaignId, idempotencyKey: expect.stringMatching(/^content:/) });
		await expectSixOnce('retry', { scenario: '503 at item 4, then Retry', executions: 2, items: 12 });
	});

	test('the same workflow run again: nothing is sent, every item says it was created before', async () => {
		const again = await run('dpRetry');
		expect(again.status).toBe('success');
		expect(fates(again.output(LBA))).toEqual(Array(6).fill('skipped:created'));
		const campaigns = await journal('retry');
		expect(campaigns).toHaveLength(6);
		figures.push({ scenario: 'run again after success', executions: 1, items: 6, created: 0, duplicates: duplicates(campaigns), unaccounted: 0, expected: '0 created' });
	});

	test('a 502 after the service created item 2, then Retry: item 2 "may have been created", not sent again', async () => {
		await fault({ method: 'POST', path: '/lba/campaign', when: 'after', status: 502, skip: 1, times: 1 });
		const failed = await run('dpUnknown');
		expect(failed.status).toBe('error');
		expect(failed.error?.description).toMatch(/Duplicate protection kept this campaign's key/);
		const retried = await retry(failed.executionId);
		expect(retried.status).toBe('success');
		const items = retried.output(LBA);
		expect(fates(items)).toEqual(['skipped:created', 'skipped:unknown', 'created', 'created', 'created', 'created']);
		expect(items[1].reason).toMatch(/^May have been created in an earlier run/);
		expect(items[1].howToResend).toMatch(/look for it in LBA Ads.*set this node's Mode to Send One Again/);
		const campaigns = await journal('unknown');
		expect(campaigns).toHaveLength(6);
		expect(duplicates(campaigns)).toBe(0);
		// Every item is accounted for: created (journal) or reported as (maybe) created.
		const unaccounted = items.filter((item, index) => !item.skipped && !countByName(campaigns).has(`unknown-${index + 1}`)).length;
		figures.push({ scenario: '502 after creating item 2, then Retry', executions: 2, items: 12, created: campaigns.length, duplicates: duplicates(campaigns), unaccounted, expected: '6 created, 0 duplicates' });
		expect(unaccounted).toBe(0);
	});

	test('two executions of the same workflow at the same time: each campaign created once', async () => {
		const [first, second] = await Promise.all([run('dpConcurrent'), run('dpConcurrent')]);
		expect([first.status, second.status]).toEqual(['success', 'success']);
		const created = [...first.output(LBA), ...second.output(LBA)].filter((item) => item.status === 'Published');
		expect(created).toHaveLength(6);
		await expectSixOnce('concurrent', { scenario: 'two executions at once', executions: 2, items: 12 });
	});

	test('Resend for one item, then Forget Sent on the same node: the campaigns go out again on purpose', async () => {
		const saved = await rest.getWorkflow('dpRetry');
		const create = saved.nodes.find((node: Json) => node.name === LBA).parameters;

		await setLbaParameters('dpRetry', { ...create, options: { concurrency: 1, resend: '={{ $json.name === "retry-2" }}' } });
		const resent = await run('dpRetry');
		expect(fates(resent.output(LBA))).toEqual(['skipped:created', 'created', 'skipped:created', 'skipped:created', 'skipped:created', 'skipped:created']);

		await setLbaParameters('dpRetry', { resource: 'campaign', operation: 'forgetSent', forget: 'all' });
		const forgot = await run('dpRetry');
		expect(forgot.status).toBe('success');
		// 6 campaigns created, each with its key, its retry key and their "created" marks (24), and item 2
		// resent (its new retry key and mark, 2).
		expect(forgot.output(LBA)).toEqual([{ forgotten: 'all', message: expect.stringContaining('whole history'), entriesBefore: 26, entriesAfter: 0 }]);

		await setLbaParameters('dpRetry', create);
		const again = await run('dpRetry');
		expect(fates(again.output(LBA))).toEqual(Array(6).fill('created'));
		const counts = countByName(await journal('retry'));
		expect(counts.get('retry-2')).toBe(3);
		expect([1, 3, 4, 5, 6].map((n) => counts.get(`retry-${n}`))).toEqual([2, 2, 2, 2, 2]);
	});

	test('Custom Key ({{ $json.orderId }}): a second run with changed content sends nothing', async () => {
		e2e.follows('pageSetProtection');
		const first = await run('dpCustomKey');
		expect(fates(first.output(LBA))).toEqual(Array(6).fill('created'));
		const second = await run('dpCustomKey');
		expect(fates(second.output(LBA))).toEqual(Array(6).fill('skipped:created'));
		expect(second.output(LBA)[0].idempotencyKey).toBe(`custom:v2:${sandbox.url} A-1`);
		const campaigns = await journal('order');
		expect(campaigns).toHaveLength(6);
		figures.push({ scenario: 'Custom Key, run twice (content changes)', executions: 2, items: 12, created: campaigns.length, duplicates: duplicates(campaigns), unaccounted: 0, expected: '6 created, 0 duplicates' });
	});

	test('n8n killed (SIGKILL) mid-run, restarted, run again (Retry is refused): the wave in flight is held as "being sent" (until the time of the killed run ends), all else once', async () => {
		// One request at a time, each answered after 400 ms: waves of 4; kill while wave 2 is in flight.
		await fault({ method: 'POST', path: '/lba/campaign', latencyMs: 400, times: 16 });
		const { executionId } = await rest.runWorkflow('dpCrash', TRIGGER);
		for (const deadline = Date.now() + 30_000; (await journal('crash')).length < 5 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
		const n8n = setup!.n8n!;
		process.kill(-n8n.pid, 'SIGKILL');
		await n8n.stop(1000);
		await new Promise((resolve) => setTimeout(resolve, 1000)); // a request in flight still completes at the sandbox
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		const beforeRestart = await journal('crash');
		expect(beforeRestart.length).toBeGreaterThanOrEqual(5);
		expect(beforeRestart.length).toBeLessThan(16);

		await setup!.start();
		rest = setup!.rest;
		const crashed = await rest.getExecution(executionId);
		// n8n refuses to Retry it ("aborted before starting": without saved progress it has no
		// execution data), so the user runs the workflow again, which sends the same items.
		const refused = await rest.request('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow: false });
		expect(refused.status).toBe(500);
		const again = await run('dpCrash');
		expect(again.status).toBe('success');
		const items = again.output(LBA);
		const campaigns = await journal('crash');
		const counts = countByName(campaigns);
		expect(duplicates(campaigns)).toBe(0);
		const waveOf = (index: number) => Math.floor(index / 4);
		const crashWave = waveOf(beforeRestart.length - 1);
		items.forEach((item, index) => {
			if (waveOf(index) < crashWave) expect(item).toMatchObject({ skipped: true, earlierOutcome: 'created' });
			// The killed run's "sending" marks are within its time (5 minutes): held as being sent, with when that time ends.
			else if (waveOf(index) === crashWave) expect(item).toMatchObject({ skipped: true, earlierOutcome: 'sending', sendingUntil: expect.any(String) });
			else expect(item.status).toBe('Published');
		});
		const unaccounted = items.filter((item, index) => item.earlierOutcome !== 'sending' && !counts.has(`crash-${index + 1}`)).length;
		expect(unaccounted).toBe(0);
		figures.push({
			scenario: `n8n SIGKILLed after ${beforeRestart.length} of 16 (execution ${crashed.status}), restarted, run again`,
			executions: 2,
			items: 32,
			created: campaigns.length,
			duplicates: duplicates(campaigns),
			unaccounted,
			expected: `0 duplicates; items ${crashWave * 4 + 1}-${crashWave * 4 + 4} (the wave in flight) "being sent" until the killed run's time ends, all others created once`,
		});
	});

	test('Retry of an execution whose dates use $now, after a 503 at item 4: 6 campaigns, 0 duplicates', async () => {
		await fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const failed = await run('dpNow');
		expect(failed.status).toBe('error');
		await new Promise((resolve) => setTimeout(resolve, 2000)); // $now gives other dates now
		const retried = await retry(failed.executionId);
		expect(retried.status).toBe('success');
		const items = retried.output(LBA);
		expect(fates(items)).toEqual(['skipped:created', 'skipped:created', 'skipped:created', 'created', 'created', 'created']);
		expect(items[0].reason).toBe('Created by the execution this one retries (or an earlier try of this node, or an earlier call of this sub-workflow in the same parent execution); not sent again');
		await expectSixOnce('now', { scenario: '$now dates: 503 at item 4, then Retry', executions: 2, items: 12 });
	});

	test("the node's Retry On Fail with $now dates, a 503 at item 4: 6 campaigns, 0 duplicates", async () => {
		await fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const result = await run('dpNowTries');
		expect(result.status).toBe('success');
		expect(fates(result.output(LBA))).toEqual(['skipped:created', 'skipped:created', 'skipped:created', 'created', 'created', 'created']);
		await expectSixOnce('tries', { scenario: '$now dates, Retry On Fail (2 tries), 503 at item 4', executions: 1, items: 6 });
	});

	test('Resend on, a 503 at item 4, then Retry: each item resent once (6), not 9', async () => {
		e2e.follows('resendOffAfter', 'pageResendOff');
		await fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const failed = await run('dpNowResend');
		expect(failed.status).toBe('error');
		const retried = await retry(failed.executionId);
		expect(retried.status).toBe('success');
		expect(fates(retried.output(LBA))).toEqual(['skipped:created', 'skipped:created', 'skipped:created', 'created', 'created', 'created']);
		await expectSixOnce('resend', { scenario: 'Resend on: 503 at item 4, then Retry', executions: 2, items: 12 });
	});

	test('the same campaign with its dates in UTC is not sent again', async () => {
		const first = await run('dpUtc');
		expect(fates(first.output(LBA))).toEqual(['created']);
		await setNode('dpUtc', 'Campaigns to send', (node) => ({
			...node,
			parameters: { jsCode: `return [{ json: { name: 'utc-1', start: '2036-11-26T02:00:00Z', end: '2036-11-26T10:00:00Z' } }];` },
		}));
		const second = await run('dpUtc');
		expect(second.output(LBA)[0]).toMatchObject({ skipped: true, earlierOutcome: 'created', idempotencyKey: first.output(LBA)[0].idempotencyKey });
		const campaigns = await journal('utc');
		expect(campaigns).toHaveLength(1);
		figures.push({ scenario: 'same instants in +07:00, then in UTC', executions: 2, items: 2, created: campaigns.length, duplicates: duplicates(campaigns), unaccounted: 0, expected: '1 created' });
	});

	test('the sandbox first, then another service (another credential and base URL): each receives its campaigns once', async () => {
		const inSandbox = await run('dpTargets');
		expect(fates(inSandbox.output(LBA))).toEqual(['created', 'created']);
		await setNode('dpTargets', LBA, (node) => ({ ...node, credentials: { lbaAdsApi: { ...SECOND_CREDENTIAL, id: setup!.credentialId(SECOND_CREDENTIAL.id) } } }));
		const inSecond = await run('dpTargets');
		expect(fates(inSecond.output(LBA))).toEqual(['created', 'created']);
		const again = await run('dpTargets');
		expect(fates(again.output(LBA))).toEqual(['skipped:created', 'skipped:created']);
		const secondJournal = ((await (await fetch(`${secondSandbox!.url}/_sandbox/campaigns`)).json()) as { campaigns: JournalCampaign[] }).campaigns;
		expect(secondJournal.map((campaign) => campaign.request.name)).toEqual(['target-1', 'target-2']);
		expect(await journal('target')).toHaveLength(2);
		figures.push({ scenario: 'sandbox, then a second service', executions: 3, items: 6, created: 4, duplicates: 0, unaccounted: 0, expected: '2 in each service' });
	});

	test("n8n's database refuses history writes from wave 2 on: the error lists every campaign created before it; its advice (keep Duplicate Protection, Retry once the database answers) sends the other 4, each campaign once", async () => {
		e2e.follows('retryOnceDatabaseAnswers', 'runAgainOnceDatabaseAnswers');
		// SQLite triggers in n8n's own database: after two updates of a node's history row (wave 1's
		// settle), every further update is refused, as a database that turned read-only would.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const sqlite3 = require(path.join(path.dirname(e2e.n8nBin()), '..', 'sqlite3'));
		const db = new sqlite3.Database(path.join(setup!.userFolder.n8nDir, 'database.sqlite'));
		const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (error: Error | null) => (error ? reject(error) : resolve())));
		await exec(`
			CREATE TABLE lba_e2e_updates (n INTEGER); INSERT INTO lba_e2e_updates VALUES (0);
			CREATE TRIGGER lba_e2e_count AFTER UPDATE ON processed_data WHEN NEW.context LIKE 'n:%' BEGIN UPDATE lba_e2e_updates SET n = n + 1; END;
			CREATE TRIGGER lba_e2e_refuse BEFORE UPDATE ON processed_data WHEN NEW.context LIKE 'n:%' AND (SELECT n FROM lba_e2e_updates) >= 2
				BEGIN SELECT RAISE(ABORT, 'processed_data is read-only'); END;`);
		let failed: Awaited<ReturnType<typeof run>>;
		try {
			failed = await run('dpWave2');
			expect(failed.status).toBe('error');
			const campaigns = await journal('wave');
			expect(campaigns.map((c) => c.request.name)).toEqual(['wave-1', 'wave-2', 'wave-3', 'wave-4']);
			const message = String(failed.error?.message);
			expect(message).toMatch(/processed_data is read-only\. Items 5-8 were not sent; the 4 items before them were handled: item 1: campaign /);
			for (const { campaignId } of campaigns as unknown as Array<{ campaignId: string }>) expect(message).toContain(`campaign ${campaignId} Published`);
			expect(String(failed.error?.description)).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent/);
			figures.push({ scenario: "n8n's database refuses history writes from wave 2", executions: 1, items: 8, created: campaigns.length, duplicates: duplicates(campaigns), unaccounted: 0, expected: '4 created and listed in the error, 4 not sent' });
		} finally {
			await exec('DROP TRIGGER lba_e2e_refuse; DROP TRIGGER lba_e2e_count; DROP TABLE lba_e2e_updates;');
			await new Promise((resolve) => db.close(resolve));
		}
		// "Keep Duplicate Protection as it is and Retry this execution once n8n's database answers."
		expect(String(failed!.error?.description)).toContain("Keep Duplicate Protection as it is and Retry this execution once n8n's database answers");
		const retried = await retry(failed!.executionId);
		expect(retried.status).toBe('success');
		const all = (await journal('wave')).map((c) => c.request.name).sort();
		expect(all).toEqual(['wave-1', 'wave-2', 'wave-3', 'wave-4', 'wave-5', 'wave-6', 'wave-7', 'wave-8']);
	});

	test('protection Off: a second run sends every campaign again', async () => {
		await run('dpOff');
		const second = await run('dpOff');
		expect(fates(second.output(LBA))).toEqual(Array(6).fill('created'));
		const campaigns = await journal('off');
		expect(campaigns).toHaveLength(12);
		figures.push({ scenario: 'Off, run twice (duplicates by choice)', executions: 2, items: 12, created: campaigns.length, duplicates: duplicates(campaigns), unaccounted: 0, expected: '12 created, 6 duplicates' });
		expect(duplicates(campaigns)).toBe(6);
	});
});
