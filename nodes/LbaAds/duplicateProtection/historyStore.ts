import type { DeduplicationItemTypes, ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdMark, questionMark } from './keys';
import { HistoryLockError, SENT_NOTHING, withHistoryLock, type HeldLock } from './historyLock';

/**
 * The node's history in n8n's processed-items store: its scope, its bound, the options of a
 * question, and every use of it under the history lock (historyLock.ts).
 */

/** Scope 'node': the history is this node's own row (docs/duplicate-protection-design.md says why not 'workflow'). */
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

export interface Answers {
	/** The "created" marks asked about that are true. */
	created: Set<string>;
	/** Everything the other questions found already recorded. */
	seen: Set<string>;
	/** What the questions recorded, to take out again (under the same lock). */
	takeOut: string[];
}

/**
 * Asks which of `marks` ("created" marks) the history holds, and which of `others`. Each mark is
 * asked with its question mark: a mark found with a question mark a stopped run left is not
 * believed (it may be that run's question), and a question mark found without its mark is known
 * to be left over, so it is taken out. `room` is what this use of the lock recorded before.
 */
export async function askHistory(ctx: IExecuteFunctions, marks: string[], others: string[], room: number): Promise<Answers> {
	const asked = unique([...marks, ...marks.map(questionMark), ...others]);
	const answer = await ctx.helpers.checkProcessedAndRecord(asked, SCOPE, askOptions(room + asked.length));
	const seen = asStrings(answer.processed);
	const created = new Set(marks.filter((mark) => seen.has(mark) && !seen.has(questionMark(mark))));
	const leftOver = marks.filter((mark) => !seen.has(mark) && seen.has(questionMark(mark))).map(questionMark);
	return { created, seen, takeOut: unique([...answer.new.map(String), ...leftOver]) };
}

/** Up to this many keys are forgotten one by one, each told found or not; more go at once. */
const FORGET_ONE_BY_ONE = 40;

export interface Forgotten {
	/** Entries in the node's history before and after. */
	entriesBefore: number;
	entriesAfter: number;
	/** The keys given that the history held (and no longer holds); the others matched nothing (above FORGET_ONE_BY_ONE: all, when any entry went). */
	found: string[];
}

/** Forgets the given keys (with their "created" marks), or all of this node's history. */
export async function forgetCampaigns(ctx: IExecuteFunctions, keys: string[] | 'all'): Promise<Forgotten> {
	return await storeCall(ctx, 'Nothing was forgotten.', async (lock) => {
		const entriesBefore = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
		if (keys === 'all') {
			await ctx.helpers.clearAllProcessedItems(SCOPE, STORE_OPTIONS);
			return { entriesBefore, entriesAfter: 0, found: [] };
		}
		const given = unique(keys);
		const entriesOf = (key: string) => [key, createdMark(key), questionMark(createdMark(key))];
		if (given.length > FORGET_ONE_BY_ONE) {
			await ctx.helpers.removeProcessed(given.flatMap(entriesOf), SCOPE, STORE_OPTIONS);
			const entriesAfter = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
			return { entriesBefore, entriesAfter, found: entriesAfter < entriesBefore ? given : [] };
		}
		// One key at a time, found when the count goes down: asking the store "held?" would record the
		// key, and a forget stopped before taking it out again would hold back a campaign never sent.
		const found: string[] = [];
		let entriesAfter = entriesBefore;
		for (const key of given) {
			await lock.check();
			await ctx.helpers.removeProcessed(entriesOf(key), SCOPE, STORE_OPTIONS);
			const now = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
			if (now < entriesAfter) found.push(key);
			entriesAfter = now;
		}
		return { entriesBefore, entriesAfter, found };
	});
}

/**
 * One use of the store under the history lock; its failures become one clear node error. `said`
 * is what the run sent before (guardWording.ts `sentLine`): a lock error's description starts with it.
 */
export async function storeCall<T>(ctx: IExecuteFunctions, description: string, task: (lock: HeldLock) => Promise<T>, said = SENT_NOTHING): Promise<T> {
	try {
		return await withHistoryLock(ctx, task);
	} catch (error) {
		const reason = (error as Error).message ?? String(error);
		// The lock's own errors say what happened; a failing store is named as such.
		throw error instanceof HistoryLockError
			? new NodeOperationError(ctx.getNode(), reason, { description: error.description?.replace(SENT_NOTHING, said) ?? undefined })
			: new NodeOperationError(ctx.getNode(), `Duplicate protection could not use n8n's history of sent campaigns: ${reason}`, { description });
	}
}
