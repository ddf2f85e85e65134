import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/**
 * A lock across n8n processes (queue-mode workers) around every write to duplicate protection's
 * history, built on the one atomic operation n8n's processed-items store offers a node: the
 * first write of a row is an INSERT on its primary key (workflow, context), so of two processes
 * that write a missing row at once, exactly one succeeds; and `clearAllProcessedItems` DELETEs it.
 *
 * The lock is the workflow's own row (scope 'workflow'), kept in mode 'latestIncrementalKey',
 * where the row holds one number and a call answers "new" only for a number above it:
 * - HELD, the smallest safe integer, is what a taker writes. Where the row is missing it is
 *   inserted (the lock is taken); where it exists, HELD is never above what it holds, so the
 *   answer is "processed" and nothing changes. No clock is involved, so skew between hosts
 *   cannot make two takers.
 * - SUSPECTED and BREAKING mark a holder that seems dead (a process killed while it held the
 *   lock, which it does only for a few store calls): only after a taker has failed for
 *   `suspectAfterMs` without pause does it write SUSPECTED, and only the one whose SUSPECTED
 *   was new may break the lock (DELETE) `breakAfterMs` later, if it is still SUSPECTED.
 * - A row whose number is above BREAKING, or kept in another mode, is another node's: a Remove
 *   Duplicates node with Scope set to Workflow. Nothing is written to it; the run stops.
 * A holder checks its own clock before and after each store call: past `holdLimitMs` it stops
 * without sending, since a breaker may have taken the lock meanwhile.
 */
const HELD = Number.MIN_SAFE_INTEGER;
const SUSPECTED = HELD + 1;
const BREAKING = HELD + 2;
const LOCK_OPTIONS: ICheckProcessedOptions = { mode: 'latestIncrementalKey' };

/** Exported so that tests can shorten them; the defaults hold for production. */
export const lockTiming = {
	/** A holder that has held the lock this long (its own clock) stops without sending. */
	holdLimitMs: 10_000,
	/** A taker that failed this long, with no pause over `maxPauseMs` between an answer and its next try, suspects the holder. */
	suspectAfterMs: 10_000,
	/** The first suspecter breaks the lock this much later if it is still suspected; any other taker after three times as long. */
	breakAfterMs: 10_000,
	maxPauseMs: 5_000,
	/** A taker gives up (nothing sent) after this long. */
	giveUpAfterMs: 90_000,
	pollMinMs: 2,
	pollMaxMs: 30,
	/** How often a store call's deadline is checked. */
	watchEveryMs: 250,
};

const SENT_NOTHING = 'Nothing was sent.';

/** An error of the lock itself (held too long, not taken, a foreign row): its words stand as they are. */
export class HistoryLockError extends NodeOperationError {}

export interface HeldLock {
	/** Throws when the lock has been held too long for its writes to be trusted. */
	check(): void;
}

/**
 * Runs `task` while holding this workflow's history lock; `task` calls `lock.check()` between
 * its store calls. Tasks of one process for one workflow are also queued here, so that they do
 * not poll for the lock against each other.
 */
export async function withHistoryLock<T>(ctx: IExecuteFunctions, task: (lock: HeldLock) => Promise<T>): Promise<T> {
	return await queued(String(ctx.getWorkflow().id ?? ''), async () => {
		// A database call that never answers (a connection lost without a word) must not hold up
		// every later execution of this workflow in this process: each step has a deadline.
		await within(acquire(ctx), lockTiming.giveUpAfterMs + lockTiming.holdLimitMs, () => notTaken(ctx));
		const acquiredAt = Date.now();
		let overran = false;
		const overrun = () => {
			overran = true;
			return new HistoryLockError(
				ctx.getNode(),
				`Duplicate protection held its lock on n8n's history for ${((Date.now() - acquiredAt) / 1000).toFixed(1)} s, more than the ${lockTiming.holdLimitMs / 1000} s it allows itself (this n8n process or its database was paused)`,
				{
					description: `${SENT_NOTHING} Another execution may have taken the lock meanwhile, so this run stopped before sending. Campaigns this wave had recorded stay recorded as possibly sent: check them in LBA Ads before sending them again with Resend.`,
				},
			);
		};
		const lock: HeldLock = {
			check() {
				if (overran || Date.now() - acquiredAt > lockTiming.holdLimitMs) throw overrun();
			},
		};
		try {
			lock.check();
			const result = await within(task(lock), acquiredAt + lockTiming.holdLimitMs - Date.now(), overrun);
			lock.check();
			return result;
		} finally {
			// After an overrun the row may be another holder's by now: leave it (a dead lock is broken later).
			// A release that fails leaves a row that takers break as a dead holder's: the task's result stands.
			if (!overran) await within(release(ctx), lockTiming.holdLimitMs, () => new Error('release timed out')).catch(() => undefined);
		}
	});
}

/**
 * `promise`, or `timedOut()` thrown once `ms` have passed. One watcher per process checks the
 * deadlines (n8n's own `sleep`, no timer per call) and stops when none is left.
 */
async function within<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
	let deadline!: Deadline;
	const expired = new Promise<never>((_, reject) => {
		deadline = { due: Date.now() + ms, expire: () => reject(timedOut()) };
	});
	deadlines.add(deadline);
	void watchDeadlines();
	try {
		return await Promise.race([promise, expired]);
	} finally {
		deadlines.delete(deadline);
	}
}

type Deadline = { due: number; expire: () => void };
const deadlines = new Set<Deadline>();
let watching = false;

async function watchDeadlines(): Promise<void> {
	if (watching) return;
	watching = true;
	try {
		while (deadlines.size) {
			await sleep(lockTiming.watchEveryMs);
			const now = Date.now();
			for (const deadline of deadlines) {
				if (now < deadline.due) continue;
				deadlines.delete(deadline);
				deadline.expire();
			}
		}
	} finally {
		watching = false;
	}
}

function notTaken(ctx: IExecuteFunctions): HistoryLockError {
	return new HistoryLockError(
		ctx.getNode(),
		`Duplicate protection could not take its lock on n8n's history within ${lockTiming.giveUpAfterMs / 1000} s: other executions of this workflow kept it`,
		{ description: `${SENT_NOTHING} Run the workflow again.` },
	);
}

async function acquire(ctx: IExecuteFunctions): Promise<void> {
	const started = Date.now();
	let failingSince = started;
	let lastAnswer = started;
	let suspectedAt: number | undefined;
	let firstSuspecter = false;
	for (;;) {
		const now = Date.now();
		// A pause of this process between two tries means the lock was not watched meanwhile. A slow
		// database is no pause: the time a call takes does not count here.
		if (now - lastAnswer > lockTiming.maxPauseMs) {
			failingSince = now;
			suspectedAt = undefined;
		}
		const taken = await lockCall(ctx, HELD);
		lastAnswer = Date.now();
		if (taken) return;

		if (suspectedAt === undefined && Date.now() - failingSince >= lockTiming.suspectAfterMs) {
			firstSuspecter = await lockCall(ctx, SUSPECTED);
			suspectedAt = Date.now();
		} else if (suspectedAt !== undefined && Date.now() - suspectedAt >= lockTiming.breakAfterMs * (firstSuspecter ? 1 : 3)) {
			await breakIfStillSuspected(ctx);
			failingSince = Date.now();
			suspectedAt = undefined;
			continue;
		}
		if (Date.now() - started > lockTiming.giveUpAfterMs) throw notTaken(ctx);
		await sleep(lockTiming.pollMinMs + Math.random() * (lockTiming.pollMaxMs - lockTiming.pollMinMs));
	}
}

/** SUSPECTED new: a fresh holder took the lock since (leave it). Else BREAKING new: still suspected, break it. */
async function breakIfStillSuspected(ctx: IExecuteFunctions): Promise<void> {
	if (await lockCall(ctx, SUSPECTED)) return;
	if (!(await lockCall(ctx, BREAKING))) {
		// Above BREAKING: another node's number (or a breaker that died mid-break, which HELD + 3 tells).
		if (!(await lockCall(ctx, BREAKING + 1))) throw foreignRow(ctx);
	}
	await release(ctx);
}

/** Writes `value` to the lock row; true when it was new there (inserted, or above the row's number). */
async function lockCall(ctx: IExecuteFunctions, value: number): Promise<boolean> {
	try {
		const { new: added } = await ctx.helpers.checkProcessedAndRecord([value], 'workflow', LOCK_OPTIONS);
		return added.length > 0;
	} catch (error) {
		const message = String((error as Error).message ?? error);
		// Another process inserted the row between this call's read and its insert: it holds the lock.
		if (/unique constraint|duplicate key/i.test(message)) return false;
		if (/incompatible setting/i.test(message)) throw foreignRow(ctx);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

async function release(ctx: IExecuteFunctions): Promise<void> {
	await ctx.helpers.clearAllProcessedItems('workflow', LOCK_OPTIONS);
}

function foreignRow(ctx: IExecuteFunctions): HistoryLockError {
	return new HistoryLockError(
		ctx.getNode(),
		"Duplicate protection cannot take its lock: another node of this workflow keeps its history in the workflow's shared row (a Remove Duplicates node with Scope set to Workflow)",
		{
			description: `${SENT_NOTHING} Set that node's Scope to Node (its default), or set this node's Duplicate Protection to Off. LBA Ads takes a short lock in the workflow's shared row of n8n's history so that two n8n workers never send the same campaign.`,
		},
	);
}

/** Tasks of one process, one at a time per workflow. */
const queues = new Map<string, Promise<void>>();

async function queued<T>(name: string, task: () => Promise<T>): Promise<T> {
	const previous = queues.get(name) ?? Promise.resolve();
	const run = previous.then(task, task);
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	queues.set(name, tail);
	void tail.then(() => {
		if (queues.get(name) === tail) queues.delete(name);
	});
	return await run;
}
