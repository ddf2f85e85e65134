/**
 * The invariants, checked over a schedule's whole history (Jepsen's way): what the service
 * created, what every caller was told, what the database ran and when.
 *
 * A schedule that breaks one of the assumptions the docs state ("What is assumed, exactly" in
 * docs/duplicate-protection.md) may show two holders: it is counted apart, with the assumption named.
 */
import type { History } from './runner';
import { StoreModel, type Executed } from './store';
import { WORKFLOW_ID, type LockTask } from './world';

export interface Verdict {
	violations: string[];
	/** The stated assumptions this schedule broke (empty for most). */
	assumptionsBroken: string[];
	/** Two lock tasks wrote the history at once. */
	twoHolders: boolean;
	/** Known defects of the guard not fixed yet (docs/simulation.md, "Found by the simulation"), counted apart and reported. */
	guardFindings: string[];
	/** A breaker deleted a live holder's row (whether or not two holders followed). */
	liveRowBroken: boolean;
	breaks: number;
}

const LOCK_ROW = `${WORKFLOW_ID}|`;
const isLockRow = (e: Executed) => e.row === LOCK_ROW;
const isHistoryRow = (e: Executed) => e.row !== LOCK_ROW;
const isWrite = (e: Executed) => e.kind !== 'findOne' && !e.failed;

export function checkInvariants(history: History): Verdict {
	const violations: string[] = [];
	const guardFindings: string[] = [];
	const assumptions = new Set<string>();
	const { plan, store, service, runs } = history;
	const lease = plan.timings.lock.leaseMs;

	// 1. No campaign created twice (by its key, or by the item of one execution a Retry sends again),
	// unless the user asked for it: Resend, or Forget Sent before it.
	const byKey = groupBy(service.creations, (c) => c.key);
	const byRetryKey = groupBy(service.creations, (c) => c.retryKey);
	for (const [what, groups] of [
		['campaign', byKey],
		['item (retry key)', byRetryKey],
	] as const) {
		for (const [name, creations] of groups) {
			const unasked = creations.filter(
				(creation) => !creation.resend && !runs.some((run) => run.kind === 'forget' && run.started <= creation.time && (run.forgets === 'all' || run.forgets!.includes(creation.key))),
			);
			if (unasked.length > 1) violations.push(`${what} ${name} created ${creations.length} times, ${unasked.length} of them neither Resend nor after Forget Sent (runs ${creations.map((c) => c.run).join(', ')})`);
		}
	}

	// 2. Every campaign created, or its caller told; nothing told "created" that was not. An item is
	// created by its key, or by its retry key (the item as the execution it retries sent it).
	const created = (item: { key: string; retryKey: string }) => byKey.has(item.key) || byRetryKey.has(item.retryKey);
	const told = new Set<string>();
	const neverCreated: Array<{ key: string; retryKey: string; sameAs?: { key: string; retryKey: string } }> = [];
	for (const run of runs) {
		if (run.kind !== 'create') continue;
		if (run.ended === undefined && !run.crashed) violations.push(`run ${run.id} never ended`);
		run.items.forEach((item, index) => {
			const end = run.ends.get(index);
			// A repeat of an earlier item of its run is that item's campaign.
			const sameAs = end?.kind === 'skipped' && typeof end.json.sameAsItem === 'number' ? run.items[end.json.sameAsItem] : undefined;
			if (!created(item) && !(sameAs && created(sameAs))) neverCreated.push({ ...item, sameAs });
			if (run.crashed || end?.kind === 'failed' || end?.kind === 'error') told.add(item.key).add(item.retryKey);
			if (!end) {
				if (run.ended !== undefined) violations.push(`run ${run.id} item ${index}: no outcome`);
				return;
			}
			const saysCreated = end.kind === 'skipped' && (end.json.earlierOutcome === 'created' || end.json.earlierOutcome === 'sameRun');
			if (saysCreated && !created(item) && !(sameAs && created(sameAs))) violations.push(`run ${run.id} item ${index}: told "${String(end.json.reason)}", but ${item.key} was never created`);
		});
	}
	// An item held back by its retry key was told through the execution it retries.
	const toldOf = (item?: { key: string; retryKey: string }) => item !== undefined && (told.has(item.key) || told.has(item.retryKey));
	const lostKeys = new Set(neverCreated.filter((item) => !toldOf(item) && !toldOf(item.sameAs)).map((item) => item.key));
	for (const key of lostKeys) {
		if (!told.has(key)) violations.push(`campaign ${key} never created, and no caller was told (every item held back)`);
	}

	// 3. Never two holders: the spans (first statement to last write) of the history writes of two lock tasks never overlap.
	for (const statement of store.executed) {
		if (statement.time - statement.sentAt > lease) assumptions.add(`a statement reached the database more than the lease (${lease} ms) after it was sent`);
	}
	if (history.faultsFired.some((f) => f.kind.startsWith('Clean Database'))) assumptions.add('no Remove Duplicates node of the workflow cleans its shared row');
	const spans = taskSpans(store.executed);
	let twoHolders = false;
	for (let a = 0; a < spans.length; a++) {
		for (let b = a + 1; b < spans.length; b++) {
			if (spans[a].start < spans[b].end && spans[b].start < spans[a].end) twoHolders = true;
		}
	}
	lateWrites(store.executed, lease, assumptions);
	const { breaks, liveRowBroken } = lockRowDeletes(history);
	if (liveRowBroken) assumptions.add("no process deletes a taker's fresh row (two breakers whose looks end within its first write: the residual race; or a late release)");
	if (twoHolders && !assumptions.size) violations.push('two lock tasks wrote the history at once, with no stated assumption broken');
	// What a broken assumption is documented to cost (a record erased, so a campaign sent twice) is counted with it.
	if (assumptions.size) {
		const twice = violations.filter((v) => / created \d+ times/.test(v));
		const untold = violations.filter((v) => /no caller was told/.test(v));
		if (twice.length) assumptions.add('(a campaign was created twice)');
		if (untold.length) assumptions.add('(a campaign neither created nor its caller told)');
		violations.splice(0, violations.length, ...violations.filter((v) => !twice.includes(v) && !untold.includes(v)));
	}

	// 4. No record lost without the warning the docs promise (tellErased's hint).
	for (const run of runs) {
		for (const [index, claimed] of run.claimedAt) {
			const settling = run.settleStartedAt.get(index);
			if (settling === undefined || run.crashed || run.hints.some((h) => h.startsWith('settle failed'))) continue;
			// A refused item's settle releases what its claim recorded: it has no record to lose.
			const end = run.ends.get(index);
			if (end?.kind === 'failed' && end.outcome === 'refused') continue;
			const item = run.items[index];
			const hashes = new Set([StoreModel.hash(item.key), StoreModel.hash(item.retryKey)]);
			const erasedBy = store.executed.find(
				(e) => isHistoryRow(e) && isWrite(e) && e.time > claimed && e.time < settling && e.process !== run.process && lost(e, hashes),
			);
			const erased = erasedBy !== undefined;
			const eraser = runs.find((r) => r.id === (erasedBy?.sentBy as LockTask | undefined)?.run);
			const releasedByRefusal = eraser?.items.some((other, i) => other.key === item.key && eraser.ends.get(i)?.kind === 'failed' && (eraser.ends.get(i) as { outcome?: string }).outcome === 'refused');
			const forgottenBefore = runs.some((r) => r.kind === 'forget' && (r.ended ?? Infinity) <= claimed && (r.forgets === 'all' || r.forgets!.includes(item.key)));
			const forgotten = runs.some((r) => r.kind === 'forget' && r.started < settling && (r.ended ?? Infinity) > claimed);
			const warned = run.hints.some((h) => h.includes('gone from n8n') && new RegExp(`\\b${index}\\b`).test(h.split('between')[0]));
			if (erased && !warned && releasedByRefusal && (item.resend || forgottenBefore)) {
				guardFindings.push(
					`a refused send released ${item.key}, which its claim had recorded, while a Resend of it was being sent, or after a Forget Sent of it and another run's claim: that run's record was erased without the warning`,
				);
			} else if (erased && !forgotten && !warned) {
				if (assumptions.size) assumptions.add('(a record was lost without the warning)');
				else violations.push(`run ${run.id} item ${index}: its record was erased between claim and settle, and the run did not say so`);
			}
		}
	}

	// 5. A row left behind is broken within the lease and its spread; a Remove Duplicates row is never touched.
	if (plan.leftOver) {
		const firstCreate = Math.min(...runs.filter((r) => r.kind === 'create').map((r) => r.started));
		const firstDelete = store.executed.find((e) => isLockRow(e) && e.kind === 'delete');
		if (plan.leftOver.ours && Number.isFinite(firstCreate) && !history.faultsFired.length && plan.cleanDatabaseAt === undefined) {
			const roundTrip = 2 * Math.max(0, ...store.executed.map((e) => e.time - e.sentAt));
			const { breakConfirmMs, pollMaxMs } = plan.timings.lock;
			const bound = firstCreate + lease * 1.5 + breakConfirmMs + pollMaxMs + 8 * roundTrip;
			if (!firstDelete || firstDelete.time > bound) {
				violations.push(`the row left behind (${JSON.stringify(plan.leftOver)}) was not broken by ${bound.toFixed(1)} ms (${firstDelete ? `at ${firstDelete.time.toFixed(1)}` : 'never'})`);
			}
		}
		if (!plan.leftOver.ours && plan.cleanDatabaseAt === undefined) {
			const touched = store.executed.find((e) => isLockRow(e) && isWrite(e) && JSON.stringify(e.before) !== JSON.stringify(e.after));
			if (touched) violations.push(`a Remove Duplicates row was changed by process ${touched.process} (${touched.kind} at ${touched.time.toFixed(2)} ms)`);
		}
	}

	return { violations, guardFindings, assumptionsBroken: [...assumptions], twoHolders, liveRowBroken, breaks };
}

/** Whether a write took one of `hashes` out of the history row. */
function lost(e: Executed, hashes: Set<string>): boolean {
	const before = Array.isArray(e.before?.data) ? e.before.data : [];
	const after = new Set(Array.isArray(e.after?.data) ? e.after.data : []);
	return before.some((hash) => hashes.has(hash) && !after.has(hash));
}

function taskSpans(executed: Executed[]): Array<{ task: LockTask; start: number; end: number }> {
	const spans = new Map<LockTask, { task: LockTask; start: number; end: number }>();
	for (const e of executed) {
		const task = e.sentBy as LockTask | undefined;
		if (!task || !isHistoryRow(e)) continue;
		const span = spans.get(task) ?? { task, start: e.time, end: -Infinity };
		if (isWrite(e)) span.end = e.time;
		spans.set(task, span);
	}
	return [...spans.values()].filter((span) => span.end >= span.start);
}

/** A holder's write that landed more than the lease after its last proof that it held the lock. */
function lateWrites(executed: Executed[], lease: number, assumptions: Set<string>): void {
	const lastProof = new Map<number, number>();
	for (const e of executed) {
		if (isLockRow(e) && !e.failed && (e.kind === 'insert' || (e.kind === 'findOne' && e.before))) lastProof.set(e.process, e.time);
		if (isHistoryRow(e) && isWrite(e) && e.sentBy && e.time - (lastProof.get(e.process) ?? e.time) > lease) {
			assumptions.add(`a holder's write lands within the lease (${lease} ms) of its last check (a paused process or a frozen connection)`);
		}
	}
}

/**
 * Deletes of the lock row: breaks (a delete by another process than the one that inserted the row),
 * and whether one removed a taker's row (inserted at LOW: a holder from its insert on).
 */
function lockRowDeletes(history: History): { breaks: number; liveRowBroken: boolean } {
	const LOW = Number.MIN_SAFE_INTEGER;
	let inserter: { process: number; taker: boolean } | undefined;
	let breaks = 0;
	let liveRowBroken = false;
	for (const e of history.store.executed) {
		if (!isLockRow(e) || e.failed) continue;
		if (e.kind === 'insert') inserter = { process: e.process, taker: e.after?.data === LOW };
		if (e.kind !== 'delete' || !e.before) continue;
		if (e.process !== -1 && e.process !== inserter?.process) {
			breaks++;
			if (inserter?.taker) liveRowBroken = true;
		}
		inserter = undefined;
	}
	return { breaks, liveRowBroken };
}

function groupBy<T>(values: T[], keyOf: (value: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const value of values) groups.set(keyOf(value), [...(groups.get(keyOf(value)) ?? []), value]);
	return groups;
}
