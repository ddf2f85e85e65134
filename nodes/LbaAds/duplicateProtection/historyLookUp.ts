import type { IExecuteFunctions } from 'n8n-workflow';

import { createdMark, sendingMark } from './keys';
import type { HeldLock } from './historyLock';
import { asStrings, askHistory, askOptions, SCOPE, STORE_OPTIONS, unique } from './historyStore';

/** Looking up what the history holds for a wave of campaigns about to be sent. */

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

export type HeldBack = { itemIndex: number; candidate: Candidate; by: 'retry' | 'key'; created: boolean; beingSent?: boolean };

export interface LookUp {
	held: HeldBack[];
	/** What this claim recorded as new: only these keys may its settle release (another run holds the others). */
	recordedNow: Set<string>;
}

/**
 * Records a wave's keys and retry keys, and says which items must not be sent. All under the
 * history lock: one call to record, one to ask the questions the answer raised (was it created?),
 * one to take out what the questions recorded.
 */
export async function lookUp(ctx: IExecuteFunctions, toClaim: Candidate[], lock: HeldLock): Promise<LookUp> {
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
		}
		// A Resend of a recorded key keeps that key's "created" mark: a refused Resend must not erase an earlier creation.
	}
	let answers = new Set<string>();
	let newlyRecorded: string[] = [];
	if (questions.length) {
		await lock.check();
		({ created: answers, takeOut: newlyRecorded } = await askHistory(ctx, unique(questions), [], toRecord.length));
	}
	const held: HeldBack[] = [];
	for (const item of heldBack) {
		const { key, retryKey, resend } = item.candidate;
		item.created = answers.has(createdMark(item.by === 'retry' ? retryKey : key));
		if (item.by === 'retry' && resend && !item.created) {
			// Resend, and the execution this one retries did not create it (or does not know): sent.
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
	return { held, recordedNow };
}
