// Duplicate protection in real queue mode under adversaries: n8n 2.40.7 as main + 2 workers,
// PostgreSQL and Redis on loopback, the packed package and the sandbox. Pairs of identical
// webhook calls are fired at the same moment (several pairs at once), each call creating the
// same 5 campaigns, on a calm host, then while the host is busy, workers are paused (briefly, or
// the lock's holder for longer than the lease), a database connection freezes or all are slowed,
// and with a lock row left behind. The sandbox's journal, read once no execution runs, is the
// judge: every campaign sent once, or, where a call failed and its caller was told, at most once;
// an answer never claims a send the journal lacks. Each round must show that it competed (a pair
// on two workers, a twin held back) and that its adversary acted (seen stopped, CPU time used,
// statements held, rows broken).
//
//   npm run test:queue:adversaries     every round, 200 pairs per adversary (LBA_ADVERSARY_PAIRS), 8 at once, longer pauses and more freezes; figures printed
//
// Not in CI: `npm run test:queue` runs the calm and paused rounds (8 pairs each) on
// queue-mode.queue.test.ts's deployment, as only real processes show them (real SIGSTOP/SIGCONT of
// n8n workers, n8n's own queue and PostgreSQL). The other adversaries' schedules (a busy host, long
// pauses, frozen or slow statements, rows left behind) are carried in `npm test` by the simulation
// of the lock and the guard, and run here in full before a release (docs/queue-mode.md lists what
// covers each).
//
// Figures go to artifacts/queue/adversaries.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import * as e2e from '../e2e/lib';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startQueueN8n } = require('./lib/queue-n8n');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { busyHost, pausedWorkers, longPauses, startDelayProxy } = require('./lib/adversaries');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { campaignsWorkflow } = require('./lib/workflows');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { verdict } = require('./lib/accounting');
import { pairsTableHeader, samePairs } from './lib/pairs';

type Json = Record<string, any>;

const describeQueue = e2e.describeWhen('LBA_QUEUE');
const PAIRS = Number(process.env.LBA_ADVERSARY_PAIRS ?? 8);
/** The release command's long run (200 pairs): every round, each longer. */
const RELEASE = PAIRS >= 100;
/** Pairs fired at once; each pair's two calls leave at the same moment. */
const PAIRS_AT_ONCE = Number(process.env.LBA_ADVERSARY_PAIRS_AT_ONCE ?? 4);
const CAMPAIGNS_PER_CALL = 5;
/** Long runs take their time on a busy 2-core host: about 3 s per pair at worst, plus start-up. */
const TEST_TIMEOUT_MS = 120_000 + PAIRS * 3_000;
/** `LBA_ADVERSARY_ONLY=calm,busy,paused,longpause,frozen,leftover,stuck,slowdb` runs only those; by default every one. */
const only = process.env.LBA_ADVERSARY_ONLY ? new Set(process.env.LBA_ADVERSARY_ONLY.split(',')) : undefined;
const adversaryTest = (key: string) => (!only || only.has(key) ? test : test.skip);
const workflow = campaignsWorkflow({ id: 'queueAdversaryCampaigns', webhookPath: 'adversary-campaigns', withExecutionId: true });

const figures: string[] = [];

describeQueue(`duplicate protection under adversaries: ${PAIRS} same-moment pairs each, n8n ${e2e.n8nVersion()} main + 2 workers`, () => {
	let queue: any;
	let proxy: any;

	const { callWebhook, settled, journal, pairsUnder } = samePairs({
		queue: () => queue,
		workflow,
		webhookPath: 'adversary-campaigns',
		pairs: PAIRS,
		pairsAtOnce: PAIRS_AT_ONCE,
		campaignsPerCall: CAMPAIGNS_PER_CALL,
		rows: figures,
		watchState: () => ({ proxy: proxy?.state }),
	});

	beforeAll(async () => {
		e2e.n8nBin();
		queue = await startQueueN8n('adversaries', {
			workers: 2,
			concurrency: 5,
			// n8n's own job lock (Bull, 30 s by default) is raised above the longest pause below. n8n 2.40.7
			// runs Bull with maxStalledCount 0: a job whose worker stops for over 30 s is failed, and its
			// webhook caller never gets an answer (seen: 2 of 32 calls in the first long-pause round).
			// That is n8n's matter; this suite tests duplicate protection's lock.
			env: { QUEUE_WORKER_LOCK_DURATION: '120000' },
			workflows: [workflow],
			workerEnv: async ({ postgres }: { postgres: { port: number } }) => {
				proxy = await startDelayProxy(postgres.port);
				return { DB_POSTGRESDB_PORT: String(proxy.port) };
			},
		});
		await queue.rest.activateWorkflow(workflow.id);
		for (const deadline = Date.now() + 30_000; ; ) {
			const probe = await fetch(`${queue.main.baseUrl}/webhook/adversary-campaigns`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1', 'access-control-request-method': 'POST' } });
			if (probe.status === 204) break;
			if (Date.now() > deadline) throw new Error('webhook not registered');
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		// Each campaign is answered after 50 ms, as a real service takes its time.
		await fetch(`${queue.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'POST', path: '/lba/campaign', latencyMs: 50, times: 1_000_000 }) });
	}, 10 * 60 * 1000);

	afterAll(async () => {
		await queue?.close();
		await proxy?.close();
		if (figures.length) {
			const text = [
				`# Duplicate protection under adversaries (real n8n ${e2e.n8nVersion()}, main + 2 workers, PostgreSQL, Redis)`,
				'',
				...pairsTableHeader(PAIRS, PAIRS_AT_ONCE, CAMPAIGNS_PER_CALL),
				...figures,
			].join('\n');
			const dir = e2e.ensureDir(path.join(e2e.ARTIFACTS_DIR, 'queue'));
			fs.writeFileSync(path.join(dir, 'adversaries.md'), `${text}\n`);
			console.log(text);
		}
	});

	/** The round competed and every campaign was sent once, or at most once where its caller was told (lib/accounting.js). */
	function expectEachSentOnce(counts: Json, { calm = false } = {}) {
		expect(verdict(counts, { calm })).toEqual([]);
	}

	adversaryTest('calm')('calm host: every campaign sent once, no call fails', async () => {
		expectEachSentOnce(await pairsUnder('calm', undefined), { calm: true });
	}, TEST_TIMEOUT_MS);

	adversaryTest('busy')('CPU saturated by busy processes (cores + 1): every campaign sent once, none lost', async () => {
		const adversary = busyHost();
		const counts = await pairsUnder('busy', adversary);
		expect(adversary.state.spinners).toBe(os.cpus().length + 1);
		// The spinners ran: together at least a core's worth of the round.
		expect(adversary.state.spinnerCpuSeconds).toBeGreaterThan(adversary.state.seconds * 0.5);
		expectEachSentOnce(counts);
	}, TEST_TIMEOUT_MS);

	adversaryTest('paused')('workers paused and resumed at random (0.2 to 3 s): every campaign sent once, none lost', async () => {
		const adversary = pausedWorkers(() => queue.workers);
		const counts = await pairsUnder('paused', adversary);
		expect(adversary.state.pauses).toBeGreaterThan(0);
		expectEachSentOnce(counts);
	}, TEST_TIMEOUT_MS);

	/** The workflow's lock row's creation time, or '' when there is none. */
	const lockRow = async () => String(await queue.postgres.sql(`SELECT "createdAt" FROM processed_data WHERE "workflowId" = '${workflow.id}' AND context = ''`)).trim();

	adversaryTest('longpause')("the lock's holder stopped for 60 s, longer than the lease: its row is broken, nothing sent twice, none lost", async () => {
		const adversary = longPauses(() => queue.workers, lockRow, { holderPauses: RELEASE ? 5 : 1 });
		const counts = await pairsUnder('longpause', { ...adversary, needsMorePairs: () => adversary.state.holderPauses < (RELEASE ? 5 : 1) });
		expect(adversary.state.holderPauses).toBeGreaterThan(0);
		// The other worker's waiting executions suspected the stopped holder and broke its row.
		expect(adversary.state.breaksSeen).toBeGreaterThan(0);
		expectEachSentOnce(counts);
	}, TEST_TIMEOUT_MS + 10 * 90_000);

	adversaryTest('frozen')('one busy PostgreSQL connection frozen for 25 s at random moments, then every payload replayed once: nothing sent twice, no record lost', async () => {
		const adversary = proxy.freezer({ gapMinMs: RELEASE ? 5_000 : 60_000, gapMaxMs: RELEASE ? 20_000 : 60_000 });
		const counts = await pairsUnder('frozen', adversary);
		expect(adversary.state.freezes).toBeGreaterThan(0);
		// A freeze held statements of a connection in use, not an idle one.
		expect(adversary.state.heldChunks).toBeGreaterThan(0);
		expectEachSentOnce(counts);
		// Every payload once more: a campaign whose record was lost would go out a second time.
		for (let first = 1; first <= counts.pairs; first += PAIRS_AT_ONCE) {
			const batch = Array.from({ length: Math.min(PAIRS_AT_ONCE, counts.pairs - first + 1) }, (_, i) => first + i);
			await Promise.all(batch.map((pair) => callWebhook({ prefix: `frozen-${pair}`, count: CAMPAIGNS_PER_CALL })));
		}
		await settled();
		const names = await journal('frozen');
		const replayTwice = names.length - new Set(names).size;
		figures.push(`| replay of every frozen-round payload once | ${counts.pairs} calls | - | ${counts.campaigns} | - | ${replayTwice} | - | - | - | - | - | - | after the freezes |`);
		expect(replayTwice).toBe(0);
	}, TEST_TIMEOUT_MS + PAIRS * 10_000);

	/** The workflow's lock row as a holder killed while it held it leaves it, at `value`. */
	async function leaveLockRow(value: number) {
		await queue.postgres.sql(
			`INSERT INTO processed_data ("workflowId", context, value, "createdAt", "updatedAt") VALUES ('${workflow.id}', '', '{"mode":"latestIncrementalKey","data":${value}}', now(), now()) ON CONFLICT ("workflowId", context) DO UPDATE SET value = EXCLUDED.value`,
		);
	}

	adversaryTest('leftover')('a lock row left behind (a killed holder) before each batch of same-moment pairs: every campaign sent once, none lost', async () => {
		const leftover = { name: 'a lock row left behind (LOW, as a killed holder leaves it) before each batch of pairs (at least 8 pairs a batch)', state: { rowsLeft: 0 }, start: async () => {}, stop: async () => {} };
		// 8 pairs (16 takers) at least on each row left behind: each batch waits out the lease once.
		const counts = await pairsUnder('leftover', leftover, {
			atOnce: Math.max(PAIRS_AT_ONCE, 8),
			beforeBatch: async () => {
				await leaveLockRow(Number.MIN_SAFE_INTEGER);
				leftover.state.rowsLeft++;
			},
		});
		expect(leftover.state.rowsLeft).toBeGreaterThan(0);
		expectEachSentOnce(counts);
	}, TEST_TIMEOUT_MS + PAIRS * 15_000);

	const LEFT_VALUES: Array<[string, number]> = [
		['LOW (a killed holder)', Number.MIN_SAFE_INTEGER],
		['LOW + 1 (the 0.2 lock: suspected)', Number.MIN_SAFE_INTEGER + 1],
		['LOW + 2 (the 0.2 lock: breaking)', Number.MIN_SAFE_INTEGER + 2],
		['LOW + 3 (the 0.2 lock: a breaker that died)', Number.MIN_SAFE_INTEGER + 3],
		["a holder's band number", Number.MIN_SAFE_INTEGER + 2 ** 20 * 4_321 + 9],
	];
	// Run alone (LBA_ADVERSARY_ONLY=stuck, a few pairs), the one the 0.2 lock never recovered
	// (LOW itself is left before every batch of the round above); the release command all five.
	const leftValues = RELEASE ? LEFT_VALUES : [LEFT_VALUES[3]];
	adversaryTest('stuck').each(leftValues)('a lock row left at %s: the first call waits out the lease, the third is fast, all send', async (label, value) => {
		await leaveLockRow(value);
		const times: number[] = [];
		const executions: string[] = [];
		for (let call = 1; call <= 3; call++) {
			const answer = await callWebhook({ prefix: `stuck-${value}-${call}`, count: 2 });
			expect(answer.status).toBe(200);
			expect((answer.body as Json[]).map((item) => item.status)).toEqual(['Published', 'Published']);
			times.push(answer.ms);
			executions.push(String((answer.body as Json[])[0].executionId));
		}
		// The first run says why it waited, on the run itself (an execution hint of the node).
		const first = await queue.rest.getExecutionRun(executions[0]);
		const hints = (first.run.resultData.runData['Create campaigns'][0].hints ?? []).map((hint: Json) => hint.message);
		expect(hints).toContainEqual(expect.stringMatching(/^Duplicate protection waited \d+\.\d s for its lock on n8n's history: .* one had stopped while holding it \(such a lock is broken after 30 to 45 s\)\.$/));
		figures.push(`| lock row left at ${label} | 3 calls, one after another | - | 6 | 6 | 0 | 0 | 0 | 0 | 0 | 0 | ${times.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} | the first waits out the lease (30 to 45 s) |`);
		expect(times[0]).toBeGreaterThanOrEqual(29_000);
		expect(times[2]).toBeLessThan(10_000);
	}, 180_000);

	adversaryTest('slowdb')('PostgreSQL slowed for the workers (heavy-tailed delay): every campaign sent once, none lost', async () => {
		const counts = await pairsUnder('slowdb', proxy.adversary);
		expect(proxy.state.chunks).toBeGreaterThan(0);
		expectEachSentOnce(counts);
		// Every store call is slowed: about 4 s a pair on a busy 2-core host (200 pairs timed out at 12 minutes).
	}, 120_000 + PAIRS * 8_000);
});
