import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { failureOutcome } from '../../shared/transport';
import type { SentResult } from '../actions/engine/operation';
import type { Candidate } from './historyLookUp';

/** What duplicate protection says: why an item was held back, how a repeat ended, what to do after a failure. */

export const REASONS = {
	retry: {
		created: 'Created by the execution this one retries (or an earlier try of this node, or an earlier call of this sub-workflow in the same parent execution); not sent again',
		unknown: 'May have been created by the execution this one retries (or an earlier try or sub-workflow call of the same parent execution; its answer was lost); not sent again',
	},
	key: {
		created: 'Created in an earlier run; not sent again',
		unknown: 'May have been created in an earlier run (its answer was lost, or that run is still going); not sent again',
	},
	twin: 'Created by another execution that was sending the same campaign at the same time; not sent again',
};

/**
 * A key recorded at the claim and found missing at settle was erased meanwhile: a late write of
 * another n8n process (one that read the history before this claim and wrote it back after), or a
 * Forget Sent. Settling records it again; the run says so, since a run in between may have sent it.
 */
export function tellErased(ctx: IExecuteFunctions, results: SentResult[], claimed: Map<number, Candidate>, missing: Set<string>): void {
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
export function tellRepeat(json: IDataObject, first: number, end: SentResult): void {
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

export const NOTHING_SENT =
	"Nothing was sent. The history lives in n8n's database (the store of the Remove Duplicates node); check the database, or set Duplicate Protection to Off to send without it.";
/**
 * Said instead of NOTHING_SENT once this run has sent campaigns: turning protection off would pay
 * for them twice. With dates that follow the clock, only a Retry finds them again.
 */
export const nothingMoreSent = (sent: number, datesFollowClock: boolean) =>
	`${sent} campaign${sent === 1 ? ' was' : 's were'} sent earlier in this run and recorded; nothing more was sent. ` +
	(datesFollowClock
		? "Keep Duplicate Protection on and Retry this execution once n8n's database answers: the Retry holds back the campaigns already sent. Do not run the workflow again: its dates use $now, so a new execution sends them again as new campaigns."
		: "Keep Duplicate Protection on and run the workflow again (or Retry) once n8n's database answers: the campaigns already sent are held back.");
export const SENT_NOT_RECORDED =
	'The campaigns of this run were sent, but not all outcomes were recorded: a re-run reports them as "may have been created" and does not send them.';
