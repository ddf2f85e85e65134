import type { DeduplicationItemTypes, ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdMark } from './keys';
import { HistoryLockError, withHistoryLock, type HeldLock } from './historyLock';

/**
 * The node's history in n8n's processed-items store: its scope, its bound, the options of a
 * question, and every use of it under the history lock (historyLock.ts).
 */

/** Scope 'node': the history is this node's own row (see the README for why not 'workflow'). */
export const SCOPE = 'node';
/** The history holds this many campaigns: each has a key, a retry key and a "created" mark for both. */
export const HISTORY_MAX_CAMPAIGNS = 10_000;
const ENTRIES_PER_CAMPAIGN = 4;
const HISTORY_MAX_ENTRIES = HISTORY_MAX_CAMPAIGNS * ENTRIES_PER_CAMPAIGN;
export const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_MAX_ENTRIES };
/**
 * The store can only answer "seen?" by recording, and a full history drops its oldest entries to
 * make room: a question is asked with room for its own entries, so it never pushes one out, and
 * what it recorded is taken out again.
 */
export const askOptions = (questions: number): ICheckProcessedOptions => ({ mode: 'entries', maxEntries: HISTORY_MAX_ENTRIES + questions });
export const unique = (values: string[]) => [...new Set(values)];
export const asStrings = (values: DeduplicationItemTypes[]) => new Set(values.map(String));

/** Forgets the given keys (with their "created" marks), or all of this node's history; returns the entries before. */
export async function forgetCampaigns(ctx: IExecuteFunctions, keys: string[] | 'all'): Promise<number> {
	return await storeCall(ctx, 'Nothing was forgotten.', async () => {
		const before = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
		if (keys === 'all') await ctx.helpers.clearAllProcessedItems(SCOPE, STORE_OPTIONS);
		else if (keys.length) await ctx.helpers.removeProcessed(unique(keys.flatMap((key) => [key, createdMark(key)])), SCOPE, STORE_OPTIONS);
		return before;
	});
}

/** One use of the store under the history lock; its failures become one clear node error. */
export async function storeCall<T>(ctx: IExecuteFunctions, description: string, task: (lock: HeldLock) => Promise<T>): Promise<T> {
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
