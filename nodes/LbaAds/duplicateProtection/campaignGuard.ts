import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdMark, forgetKeysOf, questionMark, sendingMark, sendingSlotOf } from './keys';
import { failureOutcome } from '../../shared/transport';
import { heldJson, tellErased, tellRepeat, nothingMoreSent, NOTHING_SENT, SENT_NOT_RECORDED, sentLine } from './guardWording';
import { lookUp, type Candidate } from './historyLookUp';
import { HISTORY_MAX_CAMPAIGNS, SCOPE, STORE_OPTIONS, storeCall, unique } from './historyStore';
import { awaitTwins, twinWait, type TwinOutcome } from './twinWait';
import type { SendGuard, SentResult } from '../actions/engine/operation';
import { SAY } from '../../shared/instructions';
import { runsAsTool } from '../helpers/aiTool';

export { forgetCampaigns, HISTORY_MAX_CAMPAIGNS } from './historyStore';
export { twinWait } from './twinWait';
export type { Candidate } from './historyLookUp';

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

/** How the run tells its user what to do next. */
export interface GuardOptions {
	/** The campaign's dates follow the clock (`$now`): only a Retry holds back what this run sends. */
	datesFollowClock?: boolean;
	/** The longest this run may take to send one wave and settle it (its requests' timeout, the lock's waits). */
	sendingForMs?: number;
}

/** A wave's worst case at the default Timeout: 4 requests per slot of 30 s, and 3 minutes of lock waits. */
const DEFAULT_SENDING_FOR_MS = 4 * 30_000 + 180_000;

/**
 * Duplicate protection for one run. Each wave's keys are recorded in one store call just
 * before its items are sent; `claim` says which items must not be sent: a key an earlier run
 * recorded, a retry key the execution this one retries recorded, or the key of an earlier item
 * of this run (which shares that item's fate, told once it is known).
 */
export function campaignGuard(ctx: IExecuteFunctions, candidates: Candidate[], options: GuardOptions = {}): SendGuard {
	if (!ctx.getWorkflow().id) {
		throw new NodeOperationError(ctx.getNode(), SAY.saveBeforeCreating, {
			description: 'Duplicate protection keeps its history per saved workflow. Nothing was sent.',
		});
	}
	if (candidates.length > HISTORY_MAX_CAMPAIGNS) {
		throw new NodeOperationError(
			ctx.getNode(),
			`This run has ${candidates.length.toLocaleString('en-US')} campaigns, more than the ${HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US')} duplicate protection remembers; nothing was sent`,
			{
				description: `The run would push its own first campaigns out of the history, and a Retry would send them again. ${SAY.atMostItems(HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US'))} The node remembers its last ${HISTORY_MAX_CAMPAIGNS.toLocaleString('en-US')} campaigns in all: once the parts have sent more, a new run of the same list sends its first campaigns again.`,
			},
		);
	}
	const byItem = new Map(candidates.map((candidate) => [candidate.itemIndex, candidate]));
	const firstItemOfKey = new Map<string, number>();
	/** Items held back, for repeats that follow them. */
	const skipped = new Map<number, IDataObject>();
	const claimed = new Map<number, Candidate>();
	/** The keys each claimed item's claim recorded as new: all its settle may release. */
	const recordedByClaim = new Map<number, Set<string>>();
	/** How each sent item ended, for repeats of it; and the repeats waiting for that. */
	const ended = new Map<number, SentResult>();
	const waitingRepeats = new Map<number, IDataObject[]>();
	/** The "sending" mark each claimed item's claim recorded, taken out when it settles. */
	const sendingMarks = new Map<number, string>();
	let sentSoFar = 0;

	return {
		async claim(itemIndexes) {
			const toClaim: Candidate[] = [];
			const repeats: Array<{ itemIndex: number; first: number; key: string }> = [];
			for (const itemIndex of itemIndexes) {
				const candidate = byItem.get(itemIndex);
				if (!candidate) continue;
				const first = firstItemOfKey.get(candidate.key);
				// A repeat of a campaign earlier in this run is the same campaign, Resend or not: sent once.
				if (first !== undefined) {
					repeats.push({ itemIndex, first, key: candidate.key });
					continue;
				}
				if (first === undefined) firstItemOfKey.set(candidate.key, itemIndex);
				toClaim.push(candidate);
			}

			const description = sentSoFar ? nothingMoreSent(sentSoFar, options.datesFollowClock === true) : NOTHING_SENT;
			const said = sentLine(sentSoFar);
			const until = sendingSlotOf(Date.now() + (options.sendingForMs ?? DEFAULT_SENDING_FOR_MS));
			const ownMark = (key: string) => sendingMark(key, until);
			const { held: heldBack, recordedNow } = toClaim.length
				? await storeCall(ctx, description, async (lock) => await lookUp(ctx, toClaim, lock, ownMark), said)
				: { held: [], recordedNow: new Set<string>() };
			// A campaign another execution is sending now: its answer, within that run's timeout.
			const twins = heldBack.filter((held) => held.by === 'key' && !held.created && held.beingSent);
			const settled = twins.length ? await awaitTwins(ctx, twins, twinWait.waitMs, description, ownMark) : new Map<number, TwinOutcome>();

			const result = new Map<number, IDataObject>();
			const heldIndexes = new Set<number>();
			for (const held of heldBack) {
				const twin = settled.get(held.itemIndex);
				if (twin === 'claimed') continue; // released by the other execution and claimed by this one: sent below
				heldIndexes.add(held.itemIndex);
				const json = heldJson(held, twin, runsAsTool(ctx));
				result.set(held.itemIndex, json);
				skipped.set(held.itemIndex, json);
			}
			for (const candidate of toClaim) {
				if (heldIndexes.has(candidate.itemIndex)) continue;
				claimed.set(candidate.itemIndex, candidate);
				sendingMarks.set(candidate.itemIndex, ownMark(candidate.key));
				// A twin claimed after the other run's release recorded both keys anew (twinWait.ts).
				const ownKeys = settled.get(candidate.itemIndex) === 'claimed' ? [candidate.key, candidate.retryKey] : [candidate.key, candidate.retryKey].filter((key) => recordedNow.has(key));
				recordedByClaim.set(candidate.itemIndex, new Set(ownKeys));
			}
			// A repeat shares its first item's fate: held back with it, or told how it ended once it has.
			for (const { itemIndex, first, key } of repeats) {
				const firstSkipped = skipped.get(first);
				if (firstSkipped) {
					result.set(itemIndex, { ...firstSkipped, sameAsItem: first });
					continue;
				}
				const json: IDataObject = { skipped: true, reason: '', earlierOutcome: '', sameAsItem: first, idempotencyKey: key, forgetKeys: forgetKeysOf(key, byItem.get(itemIndex)!.retryKey) };
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
					for (const key of [...keys, ...(candidate.alsoRecord ?? [])]) {
						keep.add(key);
						marks.add(createdMark(key));
					}
				} else if (result.status === 'failed' && failureOutcome(result.error) === 'unknown') {
					sentSoFar++;
					for (const key of keys) keep.add(key);
				} else {
					// Only what this claim recorded: a key recorded before it (a Resend of a campaign created earlier) stays with its record.
					for (const key of keys) if (recordedByClaim.get(result.itemIndex)?.has(key)) release.add(key);
				}
			}
			for (const key of keep) release.delete(key); // another item of this run with the key may have created it
			const sending = results.flatMap(({ itemIndex }) => (sendingMarks.has(itemIndex) ? [sendingMarks.get(itemIndex)!] : []));
			// A question a stopped run left beside a mark now true would make it read "may have been created".
			const settledQuestions = [...marks].map(questionMark);
			const forget = unique([...[...release].flatMap((key) => [key, createdMark(key)]), ...sending, ...settledQuestions]);
			if (!keep.size && !forget.length) return;
			await storeCall(
				ctx,
				SENT_NOT_RECORDED,
				async (lock) => {
				if (keep.size) {
					const { new: missing } = await ctx.helpers.checkProcessedAndRecord([...marks, ...keep], SCOPE, STORE_OPTIONS);
					tellErased(ctx, results, claimed, new Set(missing.map(String)));
				}
				if (forget.length) {
					await lock.check();
					await ctx.helpers.removeProcessed(forget, SCOPE, STORE_OPTIONS);
				}
				},
				sentLine(sentSoFar),
			);
		},
	};
}
