import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { SAY } from '../../shared/instructions';

/**
 * A lock across n8n processes (queue-mode workers) around every write to duplicate protection's
 * history, built on what n8n's processed-items store offers a node: the first write of a row is
 * an INSERT on its primary key (workflow, context), so of two processes that write a missing row
 * at once exactly one succeeds; `clearAllProcessedItems` DELETEs the row (blindly); every other
 * call reads the row and writes it back whole (so a late write-back can undo another's write).
 *
 * The lock is the workflow's own row (scope 'workflow'), kept in mode 'latestIncrementalKey',
 * where the row holds one number and a call answers "new" for each number above it, or for
 * every number when it inserted the row:
 * - **Taking** writes LOW, the smallest safe integer: where the row is missing it is inserted
 *   (taken); where it exists, LOW is never above it and nothing changes. Every process writes
 *   only LOW while it does not break, so a write-back of what another read is LOW again: harmless.
 * - **Checking** (before every write to the history after the first, and once after the last)
 *   writes LOW again: a holder whose row was deleted meanwhile (a breaker, a late release, a
 *   Remove Duplicates "Clean Database") finds the row missing (the call inserted it), stops before
 *   writing and before sending, and deletes the row it just inserted. Where another process has
 *   inserted it first (the insert fails on the primary key), that process holds it: the holder stops
 *   and leaves it.
 * - **Breaking:** a row left behind (a holder killed while holding it, a release that failed) is
 *   deleted by a taker that has failed to insert for the lease (30 s, times 1 to 1.5 at random,
 *   so that takers that started together do not break together) without a pause of its own and
 *   without seeing the node's history change (a live holder writes it). Before its last look the
 *   taker marks the row with a number of its own (a random one below OUR_MAX), and deletes the row
 *   only if it holds exactly that number after the look: a row another breaker deleted and took
 *   meanwhile holds LOW or that breaker's mark, and is left to its holder. A mark left behind is
 *   below OUR_MAX, so it is broken the same way; any number below OUR_MAX + BREAKER_STEPS is ours
 *   (the marks of the 0.2 lock included). A row above it, or kept in another mode, is another
 *   node's (Remove Duplicates with Scope Workflow): nothing is deleted, the run stops.
 *
 * What is assumed is in docs/duplicate-protection-design.md ("What is assumed, exactly").
 */
const LOW = Number.MIN_SAFE_INTEGER;
/** Every number below this is one of ours (LOW, or a mark of the 0.2 lock: LOW + 1 to LOW + 3). */
const OUR_MAX = LOW + 2 ** 50;
/**
 * A breaker's check writes the number it asks about (OUR_MAX, or one of these few above it) into the
 * row before deleting it: a breaker killed in between leaves that number, and the next asks one
 * higher, so only BREAKER_STEPS + 1 breakers killed in a row at that step leave a row that is never broken.
 */
const BREAKER_STEPS = 16;
/**
 * A taker about to break a row marks it first with a number of its own, drawn between these (above
 * LOW and the 0.2 lock's marks, below OUR_MAX), or, when the row is already at or above its number
 * for a whole look (a mark left behind), with TOP_MARK; at or above TOP_MARK, breakLeftOver's steps.
 */
const MARK_MIN = LOW + 2 ** 40;
const TOP_MARK = OUR_MAX - 1;
const ownMark = () => MARK_MIN + Math.floor(Math.random() * (TOP_MARK - 1 - MARK_MIN));
const LOCK_OPTIONS: ICheckProcessedOptions = { mode: 'latestIncrementalKey' };

/** Exported so that tests can shorten them; the defaults hold for production. */
export const lockTiming = {
	/** A holder that has held the lock this long (its own clock) stops without sending. */
	holdLimitMs: 10_000,
	/** A taker that failed this long, with no pause over `maxPauseMs` between an answer and its next try, breaks the lock. */
	leaseMs: 30_000,
	maxPauseMs: 5_000,
	/** Before breaking, the taker looks at the history once more this much later (see acquire). */
	breakConfirmMs: 1_000,
	/** A taker gives up (nothing sent) after this long. */
	giveUpAfterMs: 100_000,
	/** A wait this long is said on the run (an execution hint). */
	tellWaitAfterMs: 2_000,
	pollMinMs: 2,
	pollMaxMs: 30,
	/** How often a store call's deadline is checked. */
	watchEveryMs: 250,
};

/** The first words of every lock error's description; the run replaces them with what it sent before (historyStore.ts). */
export const SENT_NOTHING = 'Nothing was sent.';

/** An error of the lock itself (held too long, not taken, lost, a foreign row): its words stand as they are. */
export class HistoryLockError extends NodeOperationError {}

export interface HeldLock {
	/** Before a write: throws when the lock has been held too long or its row was deleted meanwhile. */
	check(): Promise<void>;
}

/**
 * Runs `task` while holding this workflow's history lock; `task` calls `await lock.check()`
 * before each of its writes but the first. Tasks of one process for one workflow are also
 * queued here, so that they do not poll for the lock against each other.
 */
export async function withHistoryLock<T>(ctx: IExecuteFunctions, task: (lock: HeldLock) => Promise<T>): Promise<T> {
	return await queued(String(ctx.getWorkflow().id ?? ''), async () => {
		const waitStarted = Date.now();
		// A database call that never answers (a connection lost without a word) must not hold up
		// every later execution of this workflow in this process: each step has a deadline.
		await within(acquire(ctx), lockTiming.giveUpAfterMs + lockTiming.holdLimitMs, () => notTaken(ctx));
		const acquiredAt = Date.now();
		tellWait(ctx, acquiredAt - waitStarted);
		let stopped = false;
		const overrun = () => {
			stopped = true;
			return new HistoryLockError(
				ctx.getNode(),
				`Duplicate protection held its lock on n8n's history for ${((Date.now() - acquiredAt) / 1000).toFixed(1)} s, more than the ${lockTiming.holdLimitMs / 1000} s it allows itself (this n8n process or its database was paused)`,
				{
					description: `${SENT_NOTHING} Another execution may have taken the lock meanwhile, so this run stopped before sending. Campaigns this wave had recorded stay recorded as possibly sent: ${SAY.checkPossiblySent}`,
				},
			);
		};
		const checkClock = () => {
			if (stopped || Date.now() - acquiredAt > lockTiming.holdLimitMs) throw overrun();
		};
		const checkHeld = async () => {
			checkClock();
			if (!(await within(stillThere(ctx), acquiredAt + lockTiming.holdLimitMs - Date.now(), overrun))) {
				stopped = true;
				throw lost(ctx);
			}
		};
		try {
			const result = await within(task({ check: checkHeld }), acquiredAt + lockTiming.holdLimitMs - Date.now(), overrun);
			// Once more after the last write: a run whose row was deleted meanwhile is not taken as done.
			await checkHeld();
			return result;
		} finally {
			// After an overrun or a lost lock the row may be another holder's: leave it (a row left behind
			// is broken by the next taker after the lease).
			if (!stopped) {
				await within(release(ctx), lockTiming.holdLimitMs, () => new Error('no answer within the hold limit')).catch((error: Error) =>
					ctx.addExecutionHints?.({
						message: `Duplicate protection could not release its lock on n8n's history (${error.message}): the next execution of this workflow waits ${lockTiming.leaseMs / 1000} to ${(lockTiming.leaseMs * 1.5) / 1000} s before it breaks it.`,
						type: 'warning',
						location: 'outputPane',
					}),
				);
			}
		}
	});
}

/** Whether the row is still there: a check inserts it where it was deleted, and then deletes it again (not ours to keep). */
async function stillThere(ctx: IExecuteFunctions): Promise<boolean> {
	const answer = await lockCall(ctx, [LOW]);
	// Deleted, and inserted by another process before this call's insert: that process holds it now.
	if (answer === 'raced') return false;
	if (answer !== 'inserted') return true;
	await release(ctx);
	return false;
}

function tellWait(ctx: IExecuteFunctions, waitedMs: number): void {
	if (waitedMs < lockTiming.tellWaitAfterMs) return;
	ctx.addExecutionHints?.({
		message: `Duplicate protection waited ${(waitedMs / 1000).toFixed(1)} s for its lock on n8n's history: other executions of this workflow were writing to it, or one had stopped while holding it (such a lock is broken after ${lockTiming.leaseMs / 1000} to ${(lockTiming.leaseMs * 1.5) / 1000} s).`,
		type: 'info',
		location: 'outputPane',
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
		{ description: `${SENT_NOTHING} ${SAY.retryAfterOthers}` },
	);
}

function lost(ctx: IExecuteFunctions): HistoryLockError {
	return new HistoryLockError(
		ctx.getNode(),
		"Duplicate protection lost its lock on n8n's history while it held it (its row was deleted: another execution broke it, a late release, or a Remove Duplicates node of this workflow cleared it)",
		{
			description: `${SENT_NOTHING} This run stopped before its next write and before sending: another execution may have written the history meanwhile. Campaigns this wave had recorded stay recorded as possibly sent: ${SAY.checkPossiblySent}`,
		},
	);
}

/** Takes the lock: inserts the row, or breaks a row left behind once the lease has passed. */
async function acquire(ctx: IExecuteFunctions): Promise<void> {
	const started = Date.now();
	let failingSince = started;
	let lastAnswer = started;
	// Takers that started failing together do not all break at the same moment.
	const leaseMs = lockTiming.leaseMs * (1 + Math.random() / 2);
	let history: number | undefined;
	for (;;) {
		// A pause of this process between two tries means the lock was not watched meanwhile. A slow
		// database is no pause: the time a call takes does not count here.
		if (Date.now() - lastAnswer > lockTiming.maxPauseMs) failingSince = Date.now();
		const taken = await lockCall(ctx, [LOW]);
		lastAnswer = Date.now();
		if (taken === 'inserted') return;
		if (Date.now() - failingSince >= lockTiming.leaseMs / 10) {
			// A holder that writes the history is alive: the lease counts from its last write seen (a read, no write).
			const now = await historySize(ctx);
			lastAnswer = Date.now();
			if (history !== undefined && now !== history) failingSince = lastAnswer;
			history = now;
		}
		if (Date.now() - failingSince >= leaseMs) {
			// A look at the history a moment later: unchanged, or a live holder is writing it (the lease starts again).
			const unchanged = async () => {
				await sleep(lockTiming.breakConfirmMs);
				const now = await historySize(ctx);
				lastAnswer = Date.now();
				const same = now === history;
				history = now;
				if (!same) failingSince = lastAnswer;
				return same;
			};
			// The row is marked with a number of this taker's own before the look, and deleted only if it
			// still holds that number after it. A row inserted meanwhile (by a taker that broke it just
			// before this one and holds it now) holds LOW, or another taker's mark: it is not deleted.
			let mark = ownMark();
			let answer = await lockCall(ctx, [LOW, mark]);
			if (answer === 'inserted') return;
			if (answer === 'raced' || !answer.has(mark)) {
				// Taken meanwhile, or above the mark: another taker's mark (it breaks the row within its look),
				// a mark left behind, or a row a breaker of the steps below, or another node, left.
				if (answer === 'raced' || !(await unchanged())) {
					failingSince = lastAnswer = Date.now();
					continue;
				}
				mark = TOP_MARK;
				answer = await lockCall(ctx, [LOW, TOP_MARK]);
				if (answer === 'inserted') return;
				if (answer === 'raced' || !answer.has(TOP_MARK)) {
					// Taken meanwhile; or at TOP_MARK or above: a breaker of the steps below, or another node, left it.
					if (answer !== 'raced') await breakLeftOver(ctx);
					failingSince = lastAnswer = Date.now();
					continue;
				}
			}
			if (!(await unchanged())) continue;
			// Still this taker's mark, exactly (not below it, nor above it): then, and only then, deleted.
			answer = await lockCall(ctx, [LOW, mark, mark + 1]);
			if (answer === 'inserted') return;
			const exactly = answer !== 'raced' && !answer.has(mark) && answer.has(mark + 1);
			if (exactly) await release(ctx);
			// Broken, or taken by another: the lease starts again. Below the mark (a row inserted since, or a
			// write-back of what another call read before the mark) or above it (another taker's): one more round.
			if (exactly || answer === 'raced') failingSince = lastAnswer = Date.now();
			continue;
		}
		if (Date.now() - started > lockTiming.giveUpAfterMs) throw notTaken(ctx);
		await sleep(lockTiming.pollMinMs + Math.random() * (lockTiming.pollMaxMs - lockTiming.pollMinMs));
	}
}

/** A row that stayed for the whole lease: ours (any value below OUR_MAX + BREAKER_STEPS) is deleted; another node's stops the run. */
async function breakLeftOver(ctx: IExecuteFunctions): Promise<void> {
	for (let step = 0; step <= BREAKER_STEPS; step++) {
		// New only above the row (so the row is ours), and then written into it; missing meanwhile: inserted.
		const added = await lockCall(ctx, [LOW, OUR_MAX + step]);
		// The row was deleted and another process has just inserted it: a fresh holder's row, not to be broken.
		if (added === 'raced') return;
		if (added === 'inserted' || added.has(OUR_MAX + step)) {
			await release(ctx);
			return;
		}
	}
	throw foreignRow(ctx);
}

/**
 * Writes `values` to the lock row: 'inserted' when the call created the row; 'raced' when the row was
 * missing but another process inserted it first (it holds the lock); else the values that were above it.
 */
async function lockCall(ctx: IExecuteFunctions, values: number[]): Promise<'inserted' | 'raced' | Set<number>> {
	try {
		const { new: added } = await ctx.helpers.checkProcessedAndRecord(values, 'workflow', LOCK_OPTIONS);
		const numbers = new Set(added.map(Number));
		// Only an insert answers "new" for LOW, which is never above a row.
		return numbers.has(LOW) ? 'inserted' : numbers;
	} catch (error) {
		const message = String((error as Error).message ?? error);
		// Another process inserted the row between this call's read and its insert: it holds the lock.
		if (/unique constraint|duplicate key/i.test(message)) return 'raced';
		if (/incompatible setting/i.test(message)) throw foreignRow(ctx);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** The number of entries in this node's history row: it changes when a holder writes. */
async function historySize(ctx: IExecuteFunctions): Promise<number> {
	return await ctx.helpers.getProcessedDataCount('node', { mode: 'entries' });
}

async function release(ctx: IExecuteFunctions): Promise<void> {
	await ctx.helpers.clearAllProcessedItems('workflow', LOCK_OPTIONS);
}

function foreignRow(ctx: IExecuteFunctions): HistoryLockError {
	return new HistoryLockError(
		ctx.getNode(),
		"Duplicate protection cannot take its lock: another node of this workflow keeps its history in the workflow's shared row (a Remove Duplicates node with Scope set to Workflow)",
		{
			description: `${SENT_NOTHING} LBA Ads takes a short lock in that shared row so that two n8n workers never send the same campaign, and the other node's history there is in the way. ${SAY.fixSharedRow} Changing the Scope alone leaves the shared row in place.`,
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
