import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createdMark, sendingMark } from './keys';
import type { HeldLock } from './historyLock';
import type { HeldBack } from './historyLookUp';
import { asStrings, askHistory, askOptions, SCOPE, STORE_OPTIONS, storeCall, unique } from './historyStore';

/** Waiting for a twin: another execution sending the same campaign now, and its answer. */

/**
 * How long a run waits for another execution's answer for a campaign that execution is sending
 * now: most answers come in a second or two; a caller (a webhook, an agent) should not wait long
 * for a mark a killed run left.
 */
export const twinWait = { waitMs: 10_000, firstPollMs: 200, maxPollMs: 2_000 };

/**
 * Another execution recorded these campaigns and has not said how they ended: it may be sending
 * them now. Asks again until each is created (true) or released, then claimed by this run (false),
 * for at most `waitMs`; what is still open then stays held back as "may have been created". A twin
 * released whose retry key was recorded is not claimed: it changes to held back by that key (`by: 'retry'`).
 */
export async function awaitTwins(ctx: IExecuteFunctions, twins: HeldBack[], waitMs: number, description: string): Promise<Map<number, boolean>> {
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
			let created = new Set<string>();
			let sending = new Set<string>();
			if (stillRecorded.length) {
				await lock.check();
				const answer = await askHistory(ctx, stillRecorded.map(createdMark), stillRecorded.map(sendingMark), keys.length);
				({ created, seen: sending } = answer);
				if (answer.takeOut.length) {
					await lock.check();
					await ctx.helpers.removeProcessed(answer.takeOut, SCOPE, STORE_OPTIONS);
				}
			}
			if (claimedNow.size) {
				// Claimed by this run now: its retry keys and "sending" marks too, as a claim records them.
				await lock.check();
				const claims = pending.filter(({ candidate }) => claimedNow.has(candidate.key));
				const recorded = await ctx.helpers.checkProcessedAndRecord(
					claims.flatMap(({ candidate }) => [candidate.retryKey, sendingMark(candidate.key)]),
					SCOPE,
					askOptions(room),
				);
				// A retry key already there holds the item back, as at a claim (historyLookUp.ts): the execution this one retries sent it.
				const retried = asStrings(recorded.processed);
				const heldByRetry = claims.filter(({ candidate }) => retried.has(candidate.retryKey));
				if (heldByRetry.length) await holdByRetryKey(ctx, lock, heldByRetry, asStrings(recorded.new), claimedNow, room);
			}
			open = [];
			for (const held of pending) {
				const { key } = held.candidate;
				if (claimedNow.has(key)) outcome.set(held.itemIndex, false);
				else if (created.has(createdMark(key))) outcome.set(held.itemIndex, true);
				else if (sending.has(sendingMark(key))) open.push(held); // still being sent
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

/**
 * Twins this run claimed after the other execution released them, whose retry keys were already
 * recorded: held back by their retry key instead (created or not, as its mark says), and what this
 * run just recorded for them taken out again, since it sends nothing.
 */
async function holdByRetryKey(ctx: IExecuteFunctions, lock: HeldLock, heldByRetry: HeldBack[], recordedNow: Set<string>, claimedNow: Set<string>, room: number): Promise<void> {
	await lock.check();
	const { created, takeOut } = await askHistory(ctx, heldByRetry.map(({ candidate }) => createdMark(candidate.retryKey)), [], room);
	const ownRecords = heldByRetry.flatMap(({ candidate }) => [candidate.key, ...(recordedNow.has(sendingMark(candidate.key)) ? [sendingMark(candidate.key)] : [])]);
	await lock.check();
	await ctx.helpers.removeProcessed(unique([...takeOut, ...ownRecords]), SCOPE, STORE_OPTIONS);
	for (const held of heldByRetry) {
		held.by = 'retry';
		held.created = created.has(createdMark(held.candidate.retryKey));
		claimedNow.delete(held.candidate.key);
	}
}
