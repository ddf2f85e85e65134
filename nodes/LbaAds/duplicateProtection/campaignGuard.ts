import type { DeduplicationItemTypes, ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdMark, HOW_TO_RESEND } from './keys';
import { failureOutcome } from '../../shared/transport';
import { HistoryLockError, withHistoryLock, type HeldLock } from './historyLock';
import type { SendGuard } from '../actions/engine/operation';

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
/** The history holds this many entries: a key and a "created" mark per campaign. */
export const HISTORY_MAX_CAMPAIGNS = 10_000;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_MAX_CAMPAIGNS * 2 };

export interface Candidate {
	itemIndex: number;
	key: string;
	/** Send even if an earlier run recorded the key. */
	resend: boolean;
}

const unique = (values: string[]) => [...new Set(values)];
const asStrings = (values: DeduplicationItemTypes[]) => new Set(values.map(String));

/**
 * Duplicate protection for one run. Each wave's keys are recorded in one store call just
 * before its items are sent; `claim` says which items must not be sent: a key an earlier run
 * recorded, or the key of an earlier item of this run (which shares that item's fate).
 */
export function campaignGuard(ctx: IExecuteFunctions, candidates: Candidate[]): SendGuard {
	if (!ctx.getWorkflow().id) {
		throw new NodeOperationError(ctx.getNode(), 'Save the workflow before creating campaigns', {
			description: 'Duplicate protection keeps its history per saved workflow. Nothing was sent.',
		});
	}
	const byItem = new Map(candidates.map((candidate) => [candidate.itemIndex, candidate]));
	const firstItemOfKey = new Map<string, number>();
	/** Items held back, for repeats that follow them. */
	const skipped = new Map<number, IDataObject>();
	const claimedKeys = new Map<number, string>();

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

			const created = new Set<string>();
			const recordedBefore = await storeCall(ctx, NOTHING_SENT, async (lock) => {
				if (toClaim.length === 0) return new Set<string>();
				const helpers = ctx.helpers;
				const { processed } = await helpers.checkProcessedAndRecord(unique(toClaim.map((c) => c.key)), SCOPE, STORE_OPTIONS);
				const earlier = asStrings(processed);
				const askMarks = unique(toClaim.filter((c) => !c.resend && earlier.has(c.key)).map((c) => createdMark(c.key)));
				const staleMarks = unique(toClaim.filter((c) => c.resend && earlier.has(c.key)).map((c) => createdMark(c.key)));
				// The store can only answer "seen?" by recording: marks it did not have are taken out again.
				let wronglyRecorded: string[] = [];
				if (askMarks.length) {
					lock.check();
					const marks = await helpers.checkProcessedAndRecord(askMarks, SCOPE, STORE_OPTIONS);
					for (const mark of marks.processed) created.add(String(mark));
					wronglyRecorded = marks.new.map(String);
				}
				const removals = unique([...wronglyRecorded, ...staleMarks]);
				if (removals.length) {
					lock.check();
					await helpers.removeProcessed(removals, SCOPE, STORE_OPTIONS);
				}
				return earlier;
			});

			const heldBack = new Map<number, IDataObject>();
			for (const candidate of toClaim) {
				if (candidate.resend || !recordedBefore.has(candidate.key)) {
					claimedKeys.set(candidate.itemIndex, candidate.key);
					continue;
				}
				const wasCreated = created.has(createdMark(candidate.key));
				heldBack.set(candidate.itemIndex, {
					skipped: true,
					reason: wasCreated
						? 'Created in an earlier run; not sent again'
						: 'May have been created in an earlier run (its answer was lost, or that run is still going); not sent again',
					idempotencyKey: candidate.key,
					earlierOutcome: wasCreated ? 'created' : 'unknown',
					howToResend: HOW_TO_RESEND,
				});
			}
			for (const [itemIndex, json] of heldBack) skipped.set(itemIndex, json);
			// A repeat shares its first item's fate: held back with it, or sent once as that item.
			for (const { itemIndex, first, key } of repeats) {
				const firstSkipped = skipped.get(first);
				const json = firstSkipped
					? { ...firstSkipped, sameAsItem: first }
					: {
							skipped: true,
							reason: `Same campaign as item ${first} of this run; sent once, as item ${first}`,
							idempotencyKey: key,
							earlierOutcome: 'sameRun',
							sameAsItem: first,
						};
				heldBack.set(itemIndex, json);
			}
			return heldBack;
		},

		async settle(results) {
			const keep = new Set<string>();
			const marks = new Set<string>();
			const release = new Set<string>();
			for (const result of results) {
				const key = claimedKeys.get(result.itemIndex);
				if (key === undefined) continue;
				if (result.status === 'done') {
					keep.add(key);
					marks.add(createdMark(key));
				} else if (result.status === 'failed' && failureOutcome(result.error) === 'unknown') {
					keep.add(key);
				} else {
					release.add(key);
				}
			}
			for (const key of keep) release.delete(key); // another item of this run with the key may have created it
			const forget = [...release].flatMap((key) => [key, createdMark(key)]);
			if (!keep.size && !forget.length) return;
			await storeCall(ctx, SENT_NOT_RECORDED, async (lock) => {
				if (keep.size) await ctx.helpers.checkProcessedAndRecord([...marks, ...keep], SCOPE, STORE_OPTIONS);
				if (forget.length) {
					lock.check();
					await ctx.helpers.removeProcessed(forget, SCOPE, STORE_OPTIONS);
				}
			});
		},
	};
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
