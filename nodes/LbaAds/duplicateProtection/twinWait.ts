import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createdMark, sendingMark } from './keys';
import type { HeldBack } from './historyLookUp';
import { asStrings, askOptions, SCOPE, STORE_OPTIONS, storeCall, unique } from './historyStore';

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
 * for at most `waitMs`; what is still open then stays held back as "may have been created".
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
