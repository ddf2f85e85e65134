/**
 * A schedule drawn from one seed: the processes, the runs they start and when, the timings, and
 * the adversaries (pauses, kills, slow and frozen statements, a row left behind, Forget Sent,
 * a Remove Duplicates node of the same workflow).
 */
import type { ItemPlan } from './world';
import { Random } from './random';

const LOW = Number.MIN_SAFE_INTEGER;
const OUR_MAX = LOW + 2 ** 50;

/** Timings of one schedule: the lock's (lockTiming), the twin wait's, and the statements'. */
export interface Timings {
	name: 'scaled' | 'production';
	lock: {
		holdLimitMs: number;
		leaseMs: number;
		maxPauseMs: number;
		breakConfirmMs: number;
		giveUpAfterMs: number;
		tellWaitAfterMs: number;
		pollMinMs: number;
		pollMaxMs: number;
		watchEveryMs: number;
	};
	twin: { waitMs: number; firstPollMs: number; maxPollMs: number };
	/** Pareto latency of one way of a statement: scale, shape, cap (ms). */
	statement: { scale: number; shape: number; max: number };
	service: { scale: number; shape: number; max: number };
}

export const PRODUCTION: Timings = {
	name: 'production',
	lock: { holdLimitMs: 10_000, leaseMs: 30_000, maxPauseMs: 5_000, breakConfirmMs: 1_000, giveUpAfterMs: 100_000, tellWaitAfterMs: 2_000, pollMinMs: 2, pollMaxMs: 30, watchEveryMs: 250 },
	twin: { waitMs: 10_000, firstPollMs: 200, maxPollMs: 2_000 },
	// docs/duplicate-protection.md, the slowed PostgreSQL round: Pareto scale 2 ms, shape 1.2, at most 2 s.
	statement: { scale: 0.5, shape: 1.2, max: 2_000 },
	service: { scale: 50, shape: 1.5, max: 5_000 },
};

/** Every duration of the lock a hundred times shorter (the harness tests' scale): many schedules a second. */
export const SCALED: Timings = {
	name: 'scaled',
	lock: { holdLimitMs: 100, leaseMs: 300, maxPauseMs: 50, breakConfirmMs: 10, giveUpAfterMs: 1_000, tellWaitAfterMs: 20, pollMinMs: 2, pollMaxMs: 30, watchEveryMs: 10 },
	twin: { waitMs: 100, firstPollMs: 2, maxPollMs: 20 },
	statement: { scale: 0.05, shape: 1.2, max: 20 },
	service: { scale: 0.5, shape: 1.5, max: 50 },
};

export interface RunPlan {
	process: number;
	start: number;
	kind: 'create' | 'forget';
	items: ItemPlan[];
	forgets?: string[] | 'all';
	waveSize: number;
	/** A Retry: starts `start` ms after the run it retries (this plan's index) has ended. */
	retries?: number;
}

/** A fault that strikes a process right after its n-th statement reaches the database. */
export interface Fault {
	process: number;
	afterStatement: number;
	kind: 'pause' | 'kill' | 'freeze';
	/** pause and freeze: how long (ms). */
	ms: number;
}

export interface Plan {
	seed: number;
	timings: Timings;
	processes: number;
	runs: RunPlan[];
	faults: Fault[];
	/** The lock row at the start: a value a process may leave behind, or a Remove Duplicates node's row. */
	leftOver?: { mode: 'latestIncrementalKey'; value: number; ours: boolean } | { mode: 'entries'; ours: false };
	/** A Remove Duplicates node's "Clean Database" of the workflow's row at this moment. */
	cleanDatabaseAt?: number;
	outcomes: { refused: number; unknownCreated: number; unknownNotCreated: number };
}

/** Values of the lock row a process of this or an earlier version may leave: ours, and not. */
export const LEFT_OVER_VALUES: Array<{ value: number; ours: boolean; name: string }> = [
	{ value: LOW, ours: true, name: 'LOW' },
	{ value: LOW + 1, ours: true, name: 'LOW+1' },
	{ value: LOW + 2, ours: true, name: 'LOW+2' },
	{ value: LOW + 3, ours: true, name: 'LOW+3' },
	{ value: OUR_MAX, ours: true, name: 'OUR_MAX' },
	{ value: OUR_MAX + 1, ours: true, name: 'OUR_MAX+1' },
	{ value: 1_700_000_000_000, ours: false, name: 'foreign' },
];

export function drawPlan(seed: number, timings: Timings): Plan {
	const random = new Random(seed);
	const scale = timings.lock.leaseMs / 300;
	const processes = random.int(2, 8);
	const campaigns = Array.from({ length: random.int(1, 6) }, (_, n) => `C${n}`);
	const runs: RunPlan[] = [];
	const sameMoment = random.chance(0.5);
	let execution = 0;
	for (let process = 0; process < processes; process++) {
		const count = random.chance(0.3) ? 2 : 1;
		for (let r = 0; r < count; r++) {
			const start = sameMoment && r === 0 ? 0 : random.between(0, 60) * scale;
			if (random.chance(0.05)) {
				runs.push({ process, start, kind: 'forget', items: [], forgets: random.chance(0.3) ? 'all' : [`content:v2:${random.pick(campaigns)}`], waveSize: 1 });
				continue;
			}
			const items = Array.from({ length: random.int(1, 6) }, (_, index): ItemPlan => {
				const campaign = random.pick(campaigns);
				return { key: `content:v2:${campaign}`, retryKey: `retry:v1:E${execution}:${index}`, resend: random.chance(0.05) };
			});
			runs.push({ process, start, kind: 'create', items, waveSize: random.pick([1, 2, 4]) });
			// A Retry of that execution: the same retry keys; its `$now` may have moved the campaign's key.
			if (random.chance(0.15)) {
				const moved = random.chance(0.5);
				runs.push({
					retries: runs.length - 1,
					process: random.int(0, processes - 1),
					start: random.between(0, 80) * scale,
					kind: 'create',
					items: items.map((item) => ({ ...item, key: moved ? `${item.key}@retry` : item.key, resend: false })),
					waveSize: random.pick([1, 2, 4]),
				});
			}
			execution++;
		}
	}
	const faults: Fault[] = [];
	const faultCount = random.chance(0.5) ? random.int(1, 3) : 0;
	for (let n = 0; n < faultCount; n++) {
		const kind = random.pick(['pause', 'pause', 'kill', 'freeze'] as const);
		// Pauses 0–90 s at production timings; a frozen connection delivers up to 1.5 leases late.
		const ms = kind === 'pause' ? random.pick([random.between(0, 3), random.between(0, 90)]) * 1000 * (scale / 100) : random.between(0, 1.5) * timings.lock.leaseMs;
		faults.push({ process: random.int(0, processes - 1), afterStatement: random.int(1, 40), kind, ms });
	}
	let leftOver: Plan['leftOver'];
	if (random.chance(0.15)) {
		if (random.chance(0.1)) leftOver = { mode: 'entries', ours: false };
		else {
			const left = random.pick(LEFT_OVER_VALUES);
			leftOver = { mode: 'latestIncrementalKey', value: left.value, ours: left.ours };
		}
	}
	const cleanDatabaseAt = random.chance(0.03) ? random.between(0, 100) * scale : undefined;
	const outcomes = random.chance(0.5)
		? { refused: 0, unknownCreated: 0, unknownNotCreated: 0 }
		: { refused: random.between(0, 0.3), unknownCreated: random.between(0, 0.1), unknownNotCreated: random.between(0, 0.1) };
	return { seed, timings, processes, runs, faults, leftOver, cleanDatabaseAt, outcomes };
}

/**
 * The residual race's question: a row left behind (a holder killed), 2–8 takers arriving within a
 * second, each sending one campaign; no other fault. How often does a breaker delete the row of a
 * taker that has just taken the lock?
 */
export function drawResidualPlan(seed: number, timings: Timings): Plan {
	const random = new Random(seed);
	const processes = random.int(2, 8);
	const scale = timings.lock.leaseMs / 30_000;
	const runs: RunPlan[] = Array.from({ length: processes }, (_, process) => ({
		process,
		start: random.between(0, 1_000) * scale,
		kind: 'create',
		items: [{ key: `content:v2:C${process}`, retryKey: `retry:v1:E${process}:0`, resend: false }],
		waveSize: 4,
	}));
	return { seed, timings, processes, runs, faults: [], leftOver: { mode: 'latestIncrementalKey', value: LOW, ours: true }, outcomes: { refused: 0, unknownCreated: 0, unknownNotCreated: 0 } };
}
