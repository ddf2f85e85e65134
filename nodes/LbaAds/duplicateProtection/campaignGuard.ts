import type { DeduplicationItemTypes, ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { createdMark, forgetKeysOf, HOW_TO_RESEND, sendingMark } from './keys';
import { failureOutcome } from '../../shared/transport';
import { HistoryLockError, withHistoryLock, type HeldLock } from './historyLock';
import type { SendGuard, SentResult } from '../actions/engine/operation';

/**
 * "Never the same campaign twice, across executions": each campaign gets an idempotency key,
 * recorded in n8n's own processed-items store (the Remove Duplicates node's store, in n8n's
 * database, so it survives restarts and is shared by queue-mode workers) before its request
 * leaves, and released only when the answer proves nothing was created.
 *
 * The store keeps md5 hashes in one row per workflow and node, rewritten read-modify-write
 * without a lock, so concurrent calls could lose each other's entries. So every use of it
 * here runs under the history lock (historyLock.ts), which no busy host, paused process or
 * slow database can give to two processes at once; and calls are batched per wave of items:
 * one lock to claim the wave's keys just before it is sent, one to settle them after.
 */

/** Scope 'node': the history is this node's own row (see the README for why not 'workflow'). */
const SCOPE = 'node';
/** The history holds this many campaigns: each has a key, a retry key and a "created" mark for both. */
export const HISTORY_MAX_CAMPAIGNS = 10_000;
const ENTRIES_PER_CAMPAIGN = 4;
const HISTORY_MAX_ENTRIES = HISTORY_MAX_CAMPAIGNS * ENTRIES_PER_CAMPAIGN;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_MAX_ENTRIES };
/**
 * The store can only answer "seen?" by recording, and a full history drops its oldest entries to
 * make room: a question is asked with room for its own entries, so it never pushes one out, and
 * what it recorded is taken out again.
 */
const askOptions = (questions: number): ICheckProcessedOptions => ({ mode: 'entries', maxEntries: HISTORY_MAX_ENTRIES + questions });
/**
 * How long a run waits for another execution's answer for a campaign that execution is sending
 * now: most answers come in a second or two; a caller (a webhook, an agent) should not wait long
 * for a mark a killed run left.
 */
export const twinWait = { waitMs: 10_000, firstPollMs: 200, maxPollMs: 2_000 };

export interface Candidate {
	itemIndex: number;
	/** The campaign's key (keys.ts). */
	key: string;
	/** The item's retry key: found again by a Retry of this execution, whatever `$now` gives. */
	retryKey: string;
	/**
	 * Send even if an earlier run recorded the key, or the execution this one retries did not
	 * create it; not what that execution created (Resend is once per execution).
	 */
	resend: boolean;
}

/** How the run tells its user what to do next. */
export interface GuardOptions {
	/** The campaign's dates follow the clock (`$now`): only a Retry holds back what this run sends. */
	datesFollowClock?: boolean;
}

const unique = (values: string[]) => [...new Set(values)];
const asStrings = (values: DeduplicationItemTypes[]) => new Set(values.map(String));

type HeldBack = { itemIndex: number; candidate: Candidate; by: 'retry' | 'key'; created: boolean; beingSent?: boolean };

const REASONS = {
	retry: {
		created: 'Created by the execution this one retries (or by an earlier try of this node); not sent again',
		unknown: 'May have been created by the execution this one retries (its answer was lost); not sent again',
	},
	key: {
		created: 'Created in an earlier run; not sent again',
		unknown: 'May have been created in an earlier run (its answer was lost, or that run is still going); not sent again',
	},
	twin: 'Created by another execution that was sending the same campaign at the same time; not sent again',
};

/**
 * Duplicate protection for one run. Each wave's keys are recorded in one store call just
 * before its items are sent; `claim` says which items must not be sent: a key an earlier run
 * recorded, a retry key the execution this one retries recorded, or the key of an earlier item
 * of this run (which shares that item's fate, told once it is known).
 */
export function campaignGuard(ctx: IExecuteFunctions, candidates: Candidate[], options: GuardOptions = {}): SendGuard {
	if (!ctx.getWorkflow().id) {
		throw new NodeOperationError(ctx.getNode(), 'Save the workflow before creating campaigns', {
			description: 'Duplicate protection keeps its history per saved workflow. Nothing was sent.',
		});
	}
	if (candidates.length > HISTORY_MAX_CAMPAIGNS) {
		throw new NodeOperationError(
			ctx.getNode(),
			`This run has ${candidates.length.toLocaleString('en-US')} campaigns, more than the ${HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US')} duplicate protection remembers; nothing was sent`,
			{
				description: `The run would push its own first campaigns out of the history, and a Retry would send them again. Give this node at most ${HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US')} items per execution (for example, split the list and start one execution per part with Execute Workflow), or set Duplicate Protection to Off.`,
			},
		);
	}
	const byItem = new Map(candidates.map((candidate) => [candidate.itemIndex, candidate]));
	const firstItemOfKey = new Map<string, number>();
	/** Items held back, for repeats that follow them. */
	const skipped = new Map<number, IDataObject>();
	const claimed = new Map<number, Candidate>();
	/** How each sent item ended, for repeats of it; and the repeats waiting for that. */
	const ended = new Map<number, SentResult>();
	const waitingRepeats = new Map<number, IDataObject[]>();
	let sentSoFar = 0;

	return {
		async claim(itemIndexes) {
			const toClaim: Candidate[] = [];
			const repeats: Array<{ itemIndex: number; first: number; key: string }> = [];
			for (const itemIndex of itemIndexes) {
				const candidate = byItem.get(itemIndex);
				if (!candidate) continue;
				const first = firstItemOfKey.get(candidate.key);
				if (first !== undefined && !candidate.resend) {
					repeats.push({ itemIndex, first, key: candidate.key });
					continue;
				}
				if (first === undefined) firstItemOfKey.set(candidate.key, itemIndex);
				toClaim.push(candidate);
			}

			const description = sentSoFar ? nothingMoreSent(sentSoFar, options.datesFollowClock === true) : NOTHING_SENT;
			const heldBack = toClaim.length ? await storeCall(ctx, description, async (lock) => await lookUp(ctx, toClaim, lock)) : [];
			// A campaign another execution is sending now: its answer, within that run's timeout.
			const twins = heldBack.filter((held) => held.by === 'key' && !held.created && held.beingSent);
			const settled = twins.length ? await awaitTwins(ctx, twins, twinWait.waitMs, description) : new Map<number, boolean>();

			const result = new Map<number, IDataObject>();
			const heldIndexes = new Set<number>();
			for (const held of heldBack) {
				const twinCreated = settled.get(held.itemIndex);
				if (twinCreated === false) continue; // released by the other execution and claimed by this one: sent below
				heldIndexes.add(held.itemIndex);
				const created = held.created || twinCreated === true;
				const json: IDataObject = {
					skipped: true,
					reason: twinCreated ? REASONS.twin : REASONS[held.by][created ? 'created' : 'unknown'],
					idempotencyKey: held.candidate.key,
					forgetKeys: forgetKeysOf(held.candidate.key, held.candidate.retryKey),
					earlierOutcome: created ? 'created' : 'unknown',
					howToResend: HOW_TO_RESEND,
				};
				result.set(held.itemIndex, json);
				skipped.set(held.itemIndex, json);
			}
			for (const candidate of toClaim) if (!heldIndexes.has(candidate.itemIndex)) claimed.set(candidate.itemIndex, candidate);
			// A repeat shares its first item's fate: held back with it, or told how it ended once it has.
			for (const { itemIndex, first, key } of repeats) {
				const firstSkipped = skipped.get(first);
				if (firstSkipped) {
					result.set(itemIndex, { ...firstSkipped, sameAsItem: first });
					continue;
				}
				const json: IDataObject = { skipped: true, idempotencyKey: key, forgetKeys: forgetKeysOf(key, byItem.get(itemIndex)!.retryKey), sameAsItem: first };
				const end = ended.get(first);
				if (end) tellRepeat(json, first, end);
				else waitingRepeats.set(first, [...(waitingRepeats.get(first) ?? []), json]);
				result.set(itemIndex, json);
			}
			return result;
		},

		async settle(results) {
			const keep = new Set<string>();
			const marks = new Set<string>();
			const release = new Set<string>();
			for (const result of results) {
				ended.set(result.itemIndex, result);
				for (const json of waitingRepeats.get(result.itemIndex) ?? []) tellRepeat(json, result.itemIndex, result);
				waitingRepeats.delete(result.itemIndex);
				const candidate = claimed.get(result.itemIndex);
				if (candidate === undefined) continue;
				const keys = [candidate.key, candidate.retryKey];
				if (result.status === 'done') {
					sentSoFar++;
					for (const key of keys) {
						keep.add(key);
						marks.add(createdMark(key));
					}
				} else if (result.status === 'failed' && failureOutcome(result.error) === 'unknown') {
					sentSoFar++;
					for (const key of keys) keep.add(key);
				} else {
					for (const key of keys) release.add(key);
				}
			}
			for (const key of keep) release.delete(key); // another item of this run with the key may have created it
			const sending = results.flatMap(({ itemIndex }) => (claimed.has(itemIndex) ? [sendingMark(claimed.get(itemIndex)!.key)] : []));
			const forget = unique([...[...release].flatMap((key) => [key, createdMark(key)]), ...sending]);
			if (!keep.size && !forget.length) return;
			await storeCall(ctx, SENT_NOT_RECORDED, async (lock) => {
				if (keep.size) {
					const { new: missing } = await ctx.helpers.checkProcessedAndRecord([...marks, ...keep], SCOPE, STORE_OPTIONS);
					tellErased(ctx, results, claimed, new Set(missing.map(String)));
				}
				if (forget.length) {
					await lock.check();
					await ctx.helpers.removeProcessed(forget, SCOPE, STORE_OPTIONS);
				}
			});
		},
	};
}

/**
 * A key recorded at the claim and found missing at settle was erased meanwhile: a late write of
 * another n8n process (one that read the history before this claim and wrote it back after), or a
 * Forget Sent. Settling records it again; the run says so, since a run in between may have sent it.
 */
function tellErased(ctx: IExecuteFunctions, results: SentResult[], claimed: Map<number, Candidate>, missing: Set<string>): void {
	const erased = results.filter(({ itemIndex }) => {
		const candidate = claimed.get(itemIndex);
		return candidate !== undefined && (missing.has(candidate.key) || missing.has(candidate.retryKey));
	});
	if (!erased.length) return;
	ctx.addExecutionHints?.({
		message: `Duplicate protection found the records of item${erased.length === 1 ? '' : 's'} ${erased.map(({ itemIndex }) => itemIndex).join(', ')} gone from n8n's history between their claim and their answer (a late write by another n8n process, or Forget Sent meanwhile); they are recorded again now. An execution of this workflow that ran in between may have sent them too: check them in LBA Ads.`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** A repeat of item `first` in this run, told how `first` ended. */
function tellRepeat(json: IDataObject, first: number, end: SentResult): void {
	if (end.status === 'done') {
		Object.assign(json, { reason: `Same campaign as item ${first} of this run, created as item ${first}; not sent again`, earlierOutcome: 'sameRun' });
	} else if (end.status === 'failed') {
		const unknown = failureOutcome(end.error) === 'unknown';
		Object.assign(json, {
			reason: `Same campaign as item ${first} of this run, which failed (${unknown ? 'it may have been created' : 'it was not created'}); not sent`,
			earlierOutcome: unknown ? 'sameRunUnknown' : 'sameRunFailed',
		});
	} else {
		Object.assign(json, { reason: `Same campaign as item ${first} of this run, which was not sent (the run stopped before it); not sent`, earlierOutcome: 'sameRunNotSent' });
	}
}

/**
 * Records a wave's keys and retry keys, and says which items must not be sent. All under the
 * history lock: one call to record, one to ask the questions the answer raised (was it created?),
 * one to take out what the questions recorded.
 */
async function lookUp(ctx: IExecuteFunctions, toClaim: Candidate[], lock: HeldLock): Promise<HeldBack[]> {
	const helpers = ctx.helpers;
	// A "sending" mark says a run is sending the campaign now: recorded with its claim, taken out when it settles.
	const toRecord = unique(toClaim.flatMap((c) => [c.key, c.retryKey, sendingMark(c.key)]));
	// With room for what it records: a claim never pushes out the keys it is asking about.
	const first = await helpers.checkProcessedAndRecord(toRecord, SCOPE, askOptions(toRecord.length));
	const recorded = asStrings(first.processed);
	const recordedNow = asStrings(first.new);
	const heldBack: HeldBack[] = [];
	const staleMarks: string[] = [];
	const questions: string[] = [];
	for (const candidate of toClaim) {
		// The campaign's key first: an execution sending it now is waited for (two executions that
		// start in the same millisecond with the same input share a retry key too).
		if (!candidate.resend && recorded.has(candidate.key)) {
			heldBack.push({ itemIndex: candidate.itemIndex, candidate, by: 'key', created: false, beingSent: recorded.has(sendingMark(candidate.key)) });
			questions.push(createdMark(candidate.key));
		} else if (recorded.has(candidate.retryKey)) {
			// With Resend, held back below only if the execution this one retries created it.
			heldBack.push({ itemIndex: candidate.itemIndex, candidate, by: 'retry', created: false });
			questions.push(createdMark(candidate.retryKey));
		} else if (candidate.resend && recorded.has(candidate.key)) {
			staleMarks.push(createdMark(candidate.key));
		}
	}
	let answers = new Set<string>();
	let newlyRecorded: string[] = [];
	if (questions.length) {
		await lock.check();
		const asked = unique(questions);
		const answer = await helpers.checkProcessedAndRecord(asked, SCOPE, askOptions(toRecord.length + asked.length));
		answers = asStrings(answer.processed);
		newlyRecorded = answer.new.map(String);
	}
	const held: HeldBack[] = [];
	for (const item of heldBack) {
		const { key, retryKey, resend } = item.candidate;
		item.created = answers.has(createdMark(item.by === 'retry' ? retryKey : key));
		if (item.by === 'retry' && resend && !item.created) {
			// Resend, and the execution this one retries did not create it (or does not know): sent.
			if (recorded.has(key)) staleMarks.push(createdMark(key));
			continue;
		}
		held.push(item);
		// This run's own key for it (new when `$now` moved the dates) names a campaign never sent.
		if (item.by === 'retry' && recordedNow.has(key)) staleMarks.push(key);
	}
	// An item held back sends nothing: its "sending" mark goes, and so does the retry key of one held back
	// by its campaign's key (re-runs would fill the history with them).
	for (const item of held) {
		if (recordedNow.has(sendingMark(item.candidate.key))) staleMarks.push(sendingMark(item.candidate.key));
		if (item.by !== 'retry' && recordedNow.has(item.candidate.retryKey)) staleMarks.push(item.candidate.retryKey);
	}
	const removals = unique([...newlyRecorded, ...staleMarks]);
	if (removals.length) {
		await lock.check();
		await helpers.removeProcessed(removals, SCOPE, STORE_OPTIONS);
	}
	return held;
}

/**
 * Another execution recorded these campaigns and has not said how they ended: it may be sending
 * them now. Asks again until each is created (true) or released, then claimed by this run (false),
 * for at most `waitMs`; what is still open then stays held back as "may have been created".
 */
async function awaitTwins(ctx: IExecuteFunctions, twins: HeldBack[], waitMs: number, description: string): Promise<Map<number, boolean>> {
	const outcome = new Map<number, boolean>();
	const deadline = Date.now() + waitMs;
	let pollMs = twinWait.firstPollMs;
	let open = twins;
	while (open.length && Date.now() < deadline) {
		await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
		pollMs = Math.min(pollMs * 2, twinWait.maxPollMs);
		const pending = open;
		await storeCall(ctx, description, async (lock) => {
			const keys = unique(pending.map(({ candidate }) => candidate.key));
			const room = keys.length * 3;
			const { new: released } = await ctx.helpers.checkProcessedAndRecord(keys, SCOPE, askOptions(room));
			const claimedNow = asStrings(released);
			const stillRecorded = keys.filter((key) => !claimedNow.has(key));
			let answers = new Set<string>();
			if (stillRecorded.length) {
				await lock.check();
				const questions = stillRecorded.flatMap((key) => [createdMark(key), sendingMark(key)]);
				const answer = await ctx.helpers.checkProcessedAndRecord(questions, SCOPE, askOptions(room));
				answers = asStrings(answer.processed);
				if (answer.new.length) {
					await lock.check();
					await ctx.helpers.removeProcessed(answer.new, SCOPE, STORE_OPTIONS);
				}
			}
			if (claimedNow.size) {
				// Claimed by this run now: its retry keys and "sending" marks too, as a claim records them.
				await lock.check();
				const claims = pending.filter(({ candidate }) => claimedNow.has(candidate.key));
				await ctx.helpers.checkProcessedAndRecord(
					claims.flatMap(({ candidate }) => [candidate.retryKey, sendingMark(candidate.key)]),
					SCOPE,
					askOptions(room),
				);
			}
			open = [];
			for (const held of pending) {
				const { key } = held.candidate;
				if (claimedNow.has(key)) outcome.set(held.itemIndex, false);
				else if (answers.has(createdMark(key))) outcome.set(held.itemIndex, true);
				else if (answers.has(sendingMark(key))) open.push(held); // still being sent
				// else: that run ended without knowing either ("may have been created"): nothing to wait for
			}
		});
	}
	if (open.length) {
		// Past that run's timeout its mark is a dead run's (killed mid-wave): the next run need not wait for it.
		const stale = open.map(({ candidate }) => sendingMark(candidate.key));
		await storeCall(ctx, description, async () => await ctx.helpers.removeProcessed(stale, SCOPE, STORE_OPTIONS));
	}
	return outcome;
}

/** Forgets the given keys (with their "created" marks), or all of this node's history; returns the entries before. */
export async function forgetCampaigns(ctx: IExecuteFunctions, keys: string[] | 'all'): Promise<number> {
	return await storeCall(ctx, 'Nothing was forgotten.', async () => {
		const before = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
		if (keys === 'all') await ctx.helpers.clearAllProcessedItems(SCOPE, STORE_OPTIONS);
		else if (keys.length) await ctx.helpers.removeProcessed(unique(keys.flatMap((key) => [key, createdMark(key)])), SCOPE, STORE_OPTIONS);
		return before;
	});
}

const NOTHING_SENT =
	"Nothing was sent. The history lives in n8n's database (the store of the Remove Duplicates node); check the database, or set Duplicate Protection to Off to send without it.";
/**
 * Said instead of NOTHING_SENT once this run has sent campaigns: turning protection off would pay
 * for them twice. With dates that follow the clock, only a Retry finds them again.
 */
const nothingMoreSent = (sent: number, datesFollowClock: boolean) =>
	`${sent} campaign${sent === 1 ? ' was' : 's were'} sent earlier in this run and recorded; nothing more was sent. ` +
	(datesFollowClock
		? "Keep Duplicate Protection on and Retry this execution once n8n's database answers: the Retry holds back the campaigns already sent. Do not run the workflow again: its dates use $now, so a new execution sends them again as new campaigns."
		: "Keep Duplicate Protection on and run the workflow again (or Retry) once n8n's database answers: the campaigns already sent are held back.");
const SENT_NOT_RECORDED =
	'The campaigns of this run were sent, but not all outcomes were recorded: a re-run reports them as "may have been created" and does not send them.';

/** One use of the store under the history lock; its failures become one clear node error. */
async function storeCall<T>(ctx: IExecuteFunctions, description: string, task: (lock: HeldLock) => Promise<T>): Promise<T> {
	try {
		return await withHistoryLock(ctx, task);
	} catch (error) {
		const reason = (error as Error).message ?? String(error);
		// The lock's own errors say what happened; a failing store is named as such.
		throw error instanceof HistoryLockError
			? new NodeOperationError(ctx.getNode(), reason, { description: error.description ?? undefined })
			: new NodeOperationError(ctx.getNode(), `Duplicate protection could not use n8n's history of sent campaigns: ${reason}`, { description });
	}
}
