/**
 * The history lock's timing rules, each shown once on the virtual clock at production timings,
 * exactly (no real time: what a unit test with real sleeps shows only two runs in three).
 */
import { VirtualClock } from './clock';
import { Random } from './random';
import { PRODUCTION } from './schedule';
import { StoreModel, type StatementSource } from './store';
import { SimProcess, WORKFLOW_ID, type LockTask, type RunRecord } from './world';

const LOW = Number.MIN_SAFE_INTEGER;
const LOCK_ROW = `${WORKFLOW_ID}|`;

function world(processes: number, seed = 1) {
	const clock = new VirtualClock();
	const store = new StoreModel(clock);
	const tasks: LockTask[] = [];
	const random = new Random(seed);
	const procs = Array.from({ length: processes }, (_, id) => new SimProcess(id, clock, random.fork(), tasks, (_guard, lock) => Object.assign(lock.lockTiming, PRODUCTION.lock)));
	const latency = random.fork();
	const source = (process: SimProcess): StatementSource => ({ process, latency: () => ({ toDatabase: latency.between(0.2, 2), back: latency.between(0.2, 2) }) });
	const run = (process: SimProcess): RunRecord => ({ id: 0, process: process.id, kind: 'create', items: [], started: 0, ends: new Map(), hints: [], claimedAt: new Map(), settleStartedAt: new Map() });
	const ctx = (process: SimProcess) => process.context(store, source(process), run(process));
	/** One task under the lock: one write to the history. */
	const take = (process: SimProcess, value: string) =>
		process.lock.withHistoryLock(ctx(process), async () => await ctx(process).helpers.checkProcessedAndRecord([value], 'node', { mode: 'entries' })).then(
			() => 'done',
			(error: Error) => error.message,
		);
	const lockDeletes = () => store.executed.filter((e) => e.row === LOCK_ROW && e.kind === 'delete' && e.before);
	return { clock, store, procs, take, ctx, lockDeletes };
}

describe('the history lock on the virtual clock (production timings)', () => {
	it('a row left behind is broken within the lease and its spread (30–45 s), plus the second look', async () => {
		const { clock, store, procs, take, lockDeletes } = world(1);
		store.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: LOW });
		const done = take(procs[0], 'a');
		await clock.run(Infinity);
		expect(await done).toBe('done');
		const broken = lockDeletes()[0].time;
		expect(broken).toBeGreaterThanOrEqual(30_000);
		expect(broken).toBeLessThanOrEqual(45_000 + 1_000 + 100);
	});

	it("a pause of the taker's own process restarts its lease: the row is broken a full lease after it resumes", async () => {
		const { clock, store, procs, take, lockDeletes } = world(1);
		store.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: LOW });
		const done = take(procs[0], 'a');
		clock.at(20_000, undefined, 'timer', () => (procs[0].pausedUntil = 40_000));
		await clock.run(Infinity);
		expect(await done).toBe('done');
		expect(lockDeletes()[0].time).toBeGreaterThanOrEqual(40_000 + 30_000);
	});

	it('a history that keeps changing (a live holder writing) is never broken, however long the taker waits', async () => {
		const { clock, store, procs, take, lockDeletes } = world(1);
		store.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: LOW });
		const writer: StatementSource = { latency: () => ({ toDatabase: 1, back: 1 }) };
		for (let at = 1_000; at < 110_000; at += 2_000) {
			clock.at(at, undefined, 'timer', () => void store.checkProcessedAndRecord(writer, [`w${at}`], 'node', { workflow: { id: WORKFLOW_ID }, node: { id: 'lba' } } as never, { mode: 'entries' }));
		}
		const done = take(procs[0], 'a');
		await clock.run(Infinity);
		expect(await done).toMatch(/could not take its lock on n8n's history within 100 s/);
		expect(lockDeletes()).toEqual([]);
	});

	it('takers that arrive together at a row left behind do not break together: one break per episode (the lease is randomised)', async () => {
		let breaks = 0;
		for (let seed = 1; seed <= 20; seed++) {
			const { clock, store, procs, take, lockDeletes } = world(4, seed);
			store.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: LOW });
			const done = procs.map((process, n) => take(process, `t${n}`));
			await clock.run(Infinity);
			expect(await Promise.all(done)).toEqual(['done', 'done', 'done', 'done']);
			breaks += lockDeletes().filter((e) => e.process !== -1 && e.time < 50_000).length - procs.length;
		}
		// Each episode: one break, then four releases (below 50 s: the takers' own releases are not breaks).
		expect(breaks).toBe(20);
		// A guard against a hang, not a speed check: 20 schedules on the virtual clock take 5 to 11 s of
		// CPU, and took over 60 s with every CI suite at once (load average 16 to 20).
	}, 300_000);

	it("tasks of one process wait in its own queue, not by polling the lock against each other: no take of that process finds the row held", async () => {
		const { clock, store, procs, take } = world(1);
		const done = Array.from({ length: 10 }, (_, n) => take(procs[0], `q${n}`));
		await clock.run(Infinity);
		expect(await Promise.all(done)).toEqual(Array(10).fill('done'));
		const takes = store.executed.filter((e) => e.row === LOCK_ROW && e.kind === 'findOne');
		const foundHeld = store.executed.filter((e) => e.row === LOCK_ROW && (e.kind === 'update' || e.failed));
		expect(takes.length).toBeGreaterThanOrEqual(10);
		// Each task: its take (finds no row, inserts), its checks (find its own row), its release.
		const checks = 10 * 1; // the one check after the last write
		expect(foundHeld.length).toBe(checks);
	});
});
