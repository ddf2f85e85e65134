import type { IExecuteFunctions } from 'n8n-workflow';

import { createdMark, liveSendingMarks } from './keys';
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
	/** The campaign id the execution this one retries created for its retry key, when known. */
	createdAs?: string;
	/** What sends this campaign again, alone (keys.ts `sendAgainKey`): a held item names it (made only for those). */
	sendAgainKey?: () => string;
	/** Keys recorded as created once it is created, though not looked up before (a campaign sent again: its content key). */
	alsoRecord?: string[];
}

export type HeldBack = {
	itemIndex: number;
	candidate: Candidate;
	by: 'retry' | 'key';
	created: boolean;
	beingSent?: boolean;
	/** When another run still sends it: the moment (ms) by which that run has surely settled or died. */
	sendingUntil?: number;
};

export interface LookUp {
	held: HeldBack[];
	/** What this claim recorded as new: only these keys may its settle release (another run holds the others). */
	recordedNow: Set<string>;
}

/**
 * Records a wave's keys and retry keys, and says which items must not be sent. All under the
 * history lock: one call to record, one to ask the questions the answer raised (was it created?
 * is another run sending it now?), one to take out what the questions recorded. `ownMark` is this
 * run's "sending" mark for a key.
 */
export async function lookUp(ctx: IExecuteFunctions, toClaim: Candidate[], lock: HeldLock, ownMark: (key: string) => string): Promise<LookUp> {
	const helpers = ctx.helpers;
	// A "sending" mark says a run is sending the campaign now: recorded with its claim, taken out when it settles.
	const toRecord = unique(toClaim.flatMap((c) => [c.key, c.retryKey, ownMark(c.key)]));
	// With room for what it records: a claim never pushes out the keys it is asking about.
	const first = await helpers.checkProcessedAndRecord(toRecord, SCOPE, askOptions(toRecord.length));
	const recorded = asStrings(first.processed);
	const recordedNow = asStrings(first.new);
	const now = Date.now();
	// Another run's mark within its time (its own minute may be this run's: then it was there before this claim).
	const otherLive = (key: string) => liveSendingMarks(key, now).filter((mark) => mark !== ownMark(key));
	const heldBack: HeldBack[] = [];
	const resendOfRecorded: Candidate[] = [];
	const staleMarks: string[] = [];
	const questions: string[] = [];
	const liveQuestions: string[] = [];
	for (const candidate of toClaim) {
		// A Retry whose execution created this campaign (its own memory says so, id and all: itemOrigin.ts)
		// holds it as created, whatever marks that ended run left: after a lock error its "sending" marks
		// stay until their time ends, yet no run is sending it. Unless its retry key was forgotten since.
		if (candidate.createdAs !== undefined && recorded.has(candidate.retryKey)) {
			heldBack.push({ itemIndex: candidate.itemIndex, candidate, by: 'retry', created: true });
			continue;
		}
		// Off: the campaign's key is its retry key, and only a Retry holds it back.
		const recordedByContent = candidate.key !== candidate.retryKey && recorded.has(candidate.key);
		if (recordedByContent) liveQuestions.push(...otherLive(candidate.key));
		// The campaign's key first: an execution sending it now is waited for.
		if (recordedByContent && !candidate.resend) {
			heldBack.push({ itemIndex: candidate.itemIndex, candidate, by: 'key', created: false });
			questions.push(createdMark(candidate.key));
		} else if (recorded.has(candidate.retryKey)) {
			// With Resend, held back below only if the execution this one retries created it.
			heldBack.push({ itemIndex: candidate.itemIndex, candidate, by: 'retry', created: false });
			questions.push(createdMark(candidate.retryKey));
		} else if (recordedByContent) {
			resendOfRecorded.push(candidate);
		}
		// A Resend of a recorded key keeps that key's "created" mark: a refused Resend must not erase an earlier creation.
	}
	let answers = new Set<string>();
	let newlyRecorded: string[] = [];
	if (questions.length || liveQuestions.length) {
		await lock.check();
		// "Sending" marks are asked like "created" marks, each with its question mark: a claim stopped
		// before taking its questions out must not leave marks that read as a run sending now.
		({ created: answers, takeOut: newlyRecorded } = await askHistory(ctx, unique([...questions, ...liveQuestions]), [], toRecord.length));
	}
	const beingSent = (key: string) => recorded.has(ownMark(key)) || otherLive(key).some((mark) => answers.has(mark));
	const held: HeldBack[] = [];
	for (const item of heldBack) {
		const { key, retryKey, resend } = item.candidate;
		item.created ||= answers.has(createdMark(item.by === 'retry' ? retryKey : key));
		if (item.by === 'key') item.beingSent = beingSent(key);
		if (item.by === 'retry' && resend && !item.created) {
			// Resend, and the execution this one retries did not create it (or does not know): sent, unless another run is sending it now.
			if (key !== retryKey && recorded.has(key) && beingSent(key)) held.push({ ...item, by: 'key', beingSent: true });
			continue;
		}
		held.push(item);
		// This run's own key for it (new when `$now` moved the dates) names a campaign never sent.
		if (item.by === 'retry' && recordedNow.has(key)) staleMarks.push(key);
	}
	// Resend never races another run that is sending the same campaign now: it waits for that run's answer.
	for (const candidate of resendOfRecorded) {
		if (beingSent(candidate.key)) held.push({ itemIndex: candidate.itemIndex, candidate, by: 'key', created: false, beingSent: true });
	}
	// An item held back sends nothing: its "sending" mark goes, and so does the retry key of one held back
	// by its campaign's key (re-runs would fill the history with them).
	for (const item of held) {
		if (recordedNow.has(ownMark(item.candidate.key))) staleMarks.push(ownMark(item.candidate.key));
		if (item.by !== 'retry' && recordedNow.has(item.candidate.retryKey)) staleMarks.push(item.candidate.retryKey);
	}
	const removals = unique([...newlyRecorded, ...staleMarks]);
	if (removals.length) {
		await lock.check();
		await helpers.removeProcessed(removals, SCOPE, STORE_OPTIONS);
	}
	return { held, recordedNow };
}
