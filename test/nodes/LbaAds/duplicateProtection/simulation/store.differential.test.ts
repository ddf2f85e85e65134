/**
 * The store model against n8n's own: the same seeded call sequences run on the model (store.ts) and
 * on n8n 2.40.7's DeduplicationHelper over SQLite (n8n-helper.js, in the n8n that
 * scripts/install-n8n.sh installs); every answer and every row after every call must agree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { ICheckProcessedOptions } from 'n8n-workflow';

import { VirtualClock } from './clock';
import { Random } from './random';
import { StoreModel, type StatementSource } from './store';

const N8N_MODULES = join(process.env.LBA_N8N_CACHE ?? join(homedir(), '.cache/n8n-nodes-lba-ads'), 'n8n-2.40.7/node_modules');
const LOW = Number.MIN_SAFE_INTEGER;
const OUR_MAX = LOW + 2 ** 50;

interface Call {
	op: 'record' | 'remove' | 'clear' | 'count';
	workflow: string;
	scope: 'node' | 'workflow';
	items: Array<string | number>;
	options: ICheckProcessedOptions;
	/** Starts together with the call before it (their statements interleave). */
	together?: boolean;
}

function drawCalls(seed: number, length: number): Call[] {
	const random = new Random(seed);
	const words = ['a', 'b', 'c', 'd', 'e', 'f', 'sending:x', 'created:x', 7];
	const numbers = [LOW, LOW + 1, LOW + 3, OUR_MAX, OUR_MAX + 1, -5, 0, 42, 1_700_000_000_000];
	let previousTogether = false;
	return Array.from({ length }, (_, index): Call => {
		const scope = random.pick(['node', 'workflow'] as const);
		const latest = random.chance(scope === 'workflow' ? 0.7 : 0.15);
		const options: ICheckProcessedOptions = latest ? { mode: 'latestIncrementalKey' } : { mode: 'entries', ...(random.chance(0.5) ? { maxEntries: random.int(1, 6) } : {}) };
		const pool = latest ? numbers : words;
		const items = Array.from({ length: random.int(1, 4) }, () => random.pick(pool));
		const op = random.pick(['record', 'record', 'record', 'remove', 'clear', 'count'] as const);
		// A pair: the second call runs between the first call's first statement and the rest (see onModel).
		const together = index > 0 && !previousTogether && random.chance(0.3);
		previousTogether = together;
		return { op, workflow: random.pick(['wf', 'wf2']), scope, items, options, together };
	});
}

/**
 * The calls on the model. A pair runs in the interleaving n8n-helper.js forces on n8n's store: the
 * first call's first statement, then the whole second call, then the rest of the first.
 */
async function onModel(calls: Call[]): Promise<unknown[]> {
	const clock = new VirtualClock();
	const store = new StoreModel(clock);
	const out: unknown[] = [];
	const perform = (call: Call, source: StatementSource) => {
		const context = { workflow: { id: call.workflow }, node: { id: 'lba' } } as never;
		const running = (async () => {
			if (call.op === 'record') return await store.checkProcessedAndRecord(source, call.items, call.scope, context, call.options);
			if (call.op === 'remove') return (await store.removeProcessed(source, call.items, call.scope, context, call.options)) ?? null;
			if (call.op === 'clear') return (await store.clearAllProcessedItems(source, call.scope, context)) ?? null;
			return await store.getProcessedDataCount(source, call.scope, context, call.options);
		})();
		return running.catch((error: Error) => ({ error: error.message }));
	};
	for (let start = 0; start < calls.length; ) {
		const pair = start + 1 < calls.length && calls[start + 1].together;
		let statements = 0;
		// The first call's later statements wait until the second call is done (it needs at most 2 × 2 ms).
		const first: StatementSource = { latency: () => (statements++ === 0 ? { toDatabase: 0, back: 0 } : { toDatabase: 100, back: 0 }) };
		const second: StatementSource = { latency: () => ({ toDatabase: 1, back: 0 }) };
		const running = pair ? [perform(calls[start], first), perform(calls[start + 1], second)] : [perform(calls[start], { latency: () => ({ toDatabase: 0, back: 0 }) })];
		await clock.run(Infinity);
		const answers = await Promise.all(running);
		const rows = [...store.rows].map(([row, value]) => ({ row, value })).sort((a, b) => a.row.localeCompare(b.row));
		for (const answer of answers) out.push({ answer, rows });
		start += answers.length;
	}
	return out;
}

/** Errors agree by what they say, not by their exact words (n8n prefixes its own). */
const normalise = (results: unknown[]) =>
	JSON.parse(JSON.stringify(results), (key, value: unknown) =>
		key === 'error' && typeof value === 'string' ? (/incompatible setting/.test(value) ? 'mode' : /not possible in mode/.test(value) ? 'latest' : value) : value,
	) as unknown[];

const installed = existsSync(join(N8N_MODULES, 'n8n/dist/deduplication/deduplication-helper.js'));
// On a developer's machine without n8n the test is left out (a todo says how to run it). CI
// (.ci/run sets LBA_REQUIRE_N8N) never leaves it out: on a bare machine n8n was found missing or
// half-installed there (its queue suite installs the same n8n at the same time, 565 s once), and the
// test was skipped without a word but a todo. So there it installs n8n, or waits for the install
// under way (scripts/install-n8n.sh takes a lock).
const required = Boolean(process.env.LBA_REQUIRE_N8N);

(installed || required ? describe : describe.skip)("the store model against n8n 2.40.7's own helper on SQLite", () => {
	beforeAll(() => {
		if (installed) return;
		execFileSync('bash', [join(__dirname, '../../../../../scripts/install-n8n.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
	}, 30 * 60_000);

	it('200 seeded sequences of 30 calls, some in pairs interleaved: the same answers, the same rows after every call', async () => {
		const sequences = Array.from({ length: 200 }, (_, n) => drawCalls(n + 1, 30));
		const real = JSON.parse(
			execFileSync(process.execPath, [join(__dirname, 'n8n-helper.js'), N8N_MODULES], { input: JSON.stringify(sequences.flatMap((calls) => [...calls, ...clearAll(calls)])), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
		) as unknown[];
		let at = 0;
		let calls = 0;
		for (const [n, sequence] of sequences.entries()) {
			const theirs = real.slice(at, at + sequence.length);
			at += sequence.length + clearAll(sequence).length;
			calls += sequence.length;
			expect({ seed: n + 1, results: normalise(await onModel(sequence)) }).toEqual({ seed: n + 1, results: normalise(theirs) });
		}
		console.log(`${sequences.length} sequences, ${calls} calls: the model and n8n's helper agree on every answer and row`);
	}, 600_000);
});

if (!installed && !required) it.todo(`the store differential test needs n8n 2.40.7 (bash scripts/install-n8n.sh); not found in ${N8N_MODULES}`);

/** Between two sequences the real store is emptied (one database for all of them). */
function clearAll(calls: Call[]): Call[] {
	void calls;
	return ['wf', 'wf2'].flatMap((workflow) => (['node', 'workflow'] as const).map((scope): Call => ({ op: 'clear', workflow, scope, items: [], options: { mode: 'entries' } })));
}
