// Same-moment pairs of identical webhook calls on a queue-mode deployment (startQueueN8n), each
// call creating the same campaigns, fired under an adversary; the sandbox's journal, read once no
// execution runs, is the judge (accounting.js). Used by queue-mode.queue.test.ts (CI's rounds, on
// its deployment) and adversaries.queue.test.ts (every round, before a release).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countPairs } = require('./accounting');

type Json = Record<string, any>;
export type Answer = { status: number; body: unknown; ms: number };
export type Adversary = { name: string; start(firePair?: () => void): Promise<void>; stop(): Promise<void>; state?: Json; needsMorePairs?: () => boolean };

/** The figures table's header; pairsUnder() adds one row per round. */
export function pairsTableHeader(pairs: number, pairsAtOnce: number, campaignsPerCall: number): string[] {
	return [
		`${pairs} pairs per adversary, ${pairsAtOnce} pairs at once; each call creates the same ${campaignsPerCall} campaigns as its twin.`,
		'',
		'Counted from the sandbox\'s journal, read once no execution of the workflow is running. "Not sent, caller told": a call of the pair failed or its item is an error. "Not sent, not told": held back by both calls, or held back by one while its twin did not send it (a loss). "Claimed, not sent": an answer says Published for a campaign the journal does not hold. "Held back": items skipped because their twin had them (of which "may have been created").',
		'',
		'| adversary | pairs | pairs on two workers | campaigns | sent once | sent twice | not sent, caller told | not sent, not told | claimed, not sent | calls that failed | held back (may have been created) | time | what the adversary did |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
}

/**
 * `queue()`: the deployment; `workflow`: a campaignsWorkflow({ withExecutionId: true }) it runs,
 * published at `webhookPath`; `rows`: where each round's figures row goes; `watchState()`: what a
 * stall report adds (e.g. a proxy's state).
 */
export function samePairs({
	queue,
	workflow,
	webhookPath,
	pairs,
	pairsAtOnce,
	campaignsPerCall,
	rows,
	watchState = () => undefined,
}: {
	queue: () => any;
	workflow: { id: string };
	webhookPath: string;
	pairs: number;
	pairsAtOnce: number;
	campaignsPerCall: number;
	rows: string[];
	watchState?: () => unknown;
}) {
	async function callWebhook(body: Json): Promise<Answer> {
		const started = Date.now();
		try {
			const res = await fetch(`${queue().main.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(300_000),
			});
			const text = await res.text();
			let json: unknown = text;
			try {
				json = JSON.parse(text);
			} catch {
				// a plain-text answer stays text
			}
			return { status: res.status, body: json, ms: Date.now() - started };
		} catch (error) {
			return { status: 0, body: String((error as Error).message), ms: Date.now() - started };
		}
	}

	/**
	 * Every 20 s, if a pair has waited over a minute: which pairs wait, the workflow's lock row, and
	 * what the database is doing. A test that runs out of time then says what was stuck.
	 */
	function stallWatch(label: string) {
		const pending = new Map<number, number>();
		const since = Date.now();
		const timer = setInterval(async () => {
			const stuck = [...pending].filter(([, sent]) => Date.now() - sent > 60_000).map(([pair]) => pair);
			if (!stuck.length) return;
			const rows = await queue()
				.postgres.sql(`SELECT "workflowId", context, left(value::text, 80), "updatedAt" FROM processed_data WHERE context = ''`)
				.catch((error: Error) => error.message);
			const activity = await queue()
				.postgres.sql(`SELECT state, wait_event, left(query, 60), now() - query_start FROM pg_stat_activity WHERE datname = 'n8n' AND state <> 'idle'`)
				.catch((error: Error) => error.message);
			console.log(`[stall watch ${label}] ${((Date.now() - since) / 1000).toFixed(0)} s: pairs waiting over a minute ${stuck.join(',')}\nlock row: ${JSON.stringify(rows)}\nbusy connections: ${JSON.stringify(activity)}\nstate: ${JSON.stringify(watchState())}`);
		}, 20_000);
		return { pending, stop: () => clearInterval(timer) };
	}

	/** Waits until no execution of the workflow is new or running: a late send must reach the journal before it is read. */
	async function settled(): Promise<void> {
		for (const deadline = Date.now() + 300_000; ; ) {
			const running = Number(await queue().postgres.sql(`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${workflow.id}' AND status IN ('new', 'running')`));
			if (running === 0) return;
			if (Date.now() > deadline) throw new Error(`${running} executions still running 5 minutes after the last answer`);
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
	}

	/** The campaigns of round `label` in the sandbox's journal, by name. */
	async function journal(label: string): Promise<string[]> {
		const campaigns: Array<{ request: { name: string } }> = ((await (await fetch(`${queue().sandbox.url}/_sandbox/campaigns`)).json()) as Json).campaigns;
		return campaigns.map((campaign) => campaign.request.name).filter((name) => name.startsWith(`${label}-`));
	}

	/**
	 * Fires the pairs under `adversary` (and more while `adversary.needsMorePairs()` says so), waits
	 * until no execution runs, then reads the journal; returns what was sent against what was said.
	 */
	async function pairsUnder(label: string, adversary: Adversary | undefined, { beforeBatch, atOnce = pairsAtOnce }: { beforeBatch?: () => Promise<void>; atOnce?: number } = {}) {
		const started = Date.now();
		const results: Array<{ pair: number; answers: Answer[] }> = [];
		const watch = stallWatch(label);
		const firePair = async (pair: number) => {
			const body = { prefix: `${label}-${pair}`, count: campaignsPerCall };
			watch.pending.set(pair, Date.now());
			results.push({ pair, answers: await Promise.all([callWebhook(body), callWebhook(body)]) });
			watch.pending.delete(pair);
		};
		// Pairs an adversary fires itself (numbered from 100,001), counted like the others.
		const firedByAdversary: Array<Promise<void>> = [];
		await adversary?.start(() => void firedByAdversary.push(firePair(100_001 + firedByAdversary.length)));
		try {
			for (let first = 1; first <= pairs || (adversary?.needsMorePairs?.() && first <= 4 * pairs); first += atOnce) {
				const batch = Array.from({ length: atOnce }, (_, i) => first + i).filter((pair) => pair <= pairs || first > pairs);
				await beforeBatch?.();
				await Promise.all(batch.map(firePair));
			}
		} finally {
			await adversary?.stop();
			await Promise.all(firedByAdversary);
			watch.stop();
		}
		await settled();
		const seconds = (Date.now() - started) / 1000;
		const sent = new Map<string, number>();
		for (const name of await journal(label)) sent.set(name, (sent.get(name) ?? 0) + 1);

		const counts = countPairs(results, sent, { label, campaignsPerCall, workerOf: queue().workerOf });
		const did = adversary?.state ? JSON.stringify(adversary.state, (key, value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value)) : '';
		rows.push(
			`| ${adversary?.name ?? 'none (calm host)'} | ${counts.pairs} | ${counts.onTwoWorkers} | ${counts.campaigns} | ${counts.sentOnce} | ${counts.twice} | ${counts.notSentCallerTold} | ${counts.unaccounted} | ${counts.falseReports} | ${counts.failedCalls}${counts.failures.length ? ` (${counts.failures.join('; ')})` : ''} | ${counts.heldBack} (${counts.mayHaveBeen}) | ${seconds.toFixed(0)} s | ${did} |`,
		);
		return counts;
	}

	return { callWebhook, settled, journal, pairsUnder };
}
