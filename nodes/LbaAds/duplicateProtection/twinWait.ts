import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createdMark, liveSendingMarks, SENDING_SLOT_MS } from './keys';
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

/** How a twin ended for this run: created by the other, released and claimed by this run, or still being sent. */
export type TwinOutcome = 'created' | 'claimed' | 'sending';

/**
 * Another execution recorded these campaigns and is sending them now. Asks again until each is
 * created or released, then claimed by this run, for at most `waitMs`; what that run still sends
 * then is 'sending' (its mark stays: it is alive), and what it ended without knowing has no
 * outcome ("may have been created"). A twin released whose retry key was recorded is not
 * claimed: it changes to held back by that key (`by: 'retry'`).
 */
export async function awaitTwins(
	ctx: IExecuteFunctions,
	twins: HeldBack[],
	waitMs: number,
	description: string,
	ownMark: (key: string) => string,
): Promise<Map<number, TwinOutcome>> {
	const outcome = new Map<number, TwinOutcome>();
	const deadline = Date.now() + waitMs;
	let pollMs = twinWait.firstPollMs;
	let open = twins;
	while (open.length && Date.now() < deadline) {
		await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
		pollMs = Math.min(pollMs * 2, twinWait.maxPollMs);
		const pending = open;
		const asked = Date.now();
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
				// "Sending" marks asked like "created" marks, each with its question mark (historyStore.ts `askHistory`).
				const answer = await askHistory(ctx, [...stillRecorded.map(createdMark), ...stillRecorded.flatMap((key) => liveSendingMarks(key, asked))], [], keys.length);
				created = sending = answer.created; // the "created" and "sending" marks that are truly there
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
					claims.flatMap(({ candidate }) => [candidate.retryKey, ownMark(candidate.key)]),
					SCOPE,
					askOptions(room),
				);
				// A retry key already there holds the item back, as at a claim (historyLookUp.ts): the execution this one retries sent it.
				const retried = asStrings(recorded.processed);
				const heldByRetry = claims.filter(({ candidate }) => retried.has(candidate.retryKey));
				if (heldByRetry.length) await holdByRetryKey(ctx, lock, heldByRetry, asStrings(recorded.new), claimedNow, room, ownMark);
			}
			open = [];
			for (const held of pending) {
				const { key } = held.candidate;
				if (claimedNow.has(key)) outcome.set(held.itemIndex, 'claimed');
				else if (created.has(createdMark(key))) outcome.set(held.itemIndex, 'created');
				else {
					// Still being sent: by the end of the latest slot a live mark names, that run has surely settled or died.
					const live = liveSendingMarks(key, asked).filter((mark) => sending.has(mark));
					if (live.length) {
						held.sendingUntil = Math.max(...live.map((mark) => Number(mark.split(':')[1]))) * SENDING_SLOT_MS;
						open.push(held);
					}
				}
				// else: that run ended without knowing either ("may have been created"): nothing to wait for
			}
		});
	}
	// That run is still within its time: its mark stays, and so does this item's hold.
	for (const held of open) outcome.set(held.itemIndex, 'sending');
	return outcome;
}

/**
 * Twins this run claimed after the other execution released them, whose retry keys were already
 * recorded: held back by their retry key instead (created or not, as its mark says), and what this
 * run just recorded for them taken out again, since it sends nothing.
 */
async function holdByRetryKey(
	ctx: IExecuteFunctions,
	lock: HeldLock,
	heldByRetry: HeldBack[],
	recordedNow: Set<string>,
	claimedNow: Set<string>,
	room: number,
	ownMark: (key: string) => string,
): Promise<void> {
	await lock.check();
	const { created, takeOut } = await askHistory(ctx, heldByRetry.map(({ candidate }) => createdMark(candidate.retryKey)), [], room);
	const ownRecords = heldByRetry.flatMap(({ candidate }) => [candidate.key, ...(recordedNow.has(ownMark(candidate.key)) ? [ownMark(candidate.key)] : [])]);
	await lock.check();
	await ctx.helpers.removeProcessed(unique([...takeOut, ...ownRecords]), SCOPE, STORE_OPTIONS);
	for (const held of heldByRetry) {
		held.by = 'retry';
		held.created = created.has(createdMark(held.candidate.retryKey));
		claimedNow.delete(held.candidate.key);
	}
}
