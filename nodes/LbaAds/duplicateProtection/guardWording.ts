import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { failureOutcome } from '../../shared/transport';
import type { SentResult } from '../actions/engine/operation';
import type { Candidate, HeldBack } from './historyLookUp';
import { forgetKeysOf } from './keys';
import type { TwinOutcome } from './twinWait';
import { SAY } from '../../shared/instructions';

/** What duplicate protection says: why an item was held back, how a repeat ended, what to do after a failure. */

export const REASONS = {
	retry: {
		created: 'Created by the execution this one retries (or an earlier try of this node, or an earlier call of this sub-workflow in the same parent execution); not sent again',
		unknown: 'May have been created by the execution this one retries (or an earlier try or sub-workflow call of the same parent execution; its answer was lost); not sent again',
	},
	key: {
		created: 'Created in an earlier run; not sent again',
		unknown: 'May have been created in an earlier run whose answer was lost (a timeout, a dropped connection, or n8n stopped while sending); not sent again',
		sending: 'Another execution is sending this same campaign right now; not sent, so that it is not created twice',
	},
	twin: 'Created by another execution that was sending the same campaign at the same time; not sent again',
};

/** What to do about a held-back item: each piece of advice safe when followed to the letter. */
/** The one action that sends one campaign again, alone, whatever its dates and whatever n8n offers (issue 60). */
export const SEND_ONE_AGAIN = SAY.sendOneAgain;

const howToResend = (sendOneAgain: string) => ({
	created: `${SAY.toSendAgainOnPurpose} ${sendOneAgain}`,
	unknown: `${SAY.waitThenLook} ${SAY.ifThereNothing} ${SAY.ifMissing} ${sendOneAgain}`,
	sending: `${SAY.doNotRunAgainForIt} ${SAY.onceThatFinished} ${SAY.onlyIfMissing} ${sendOneAgain}`,
});
export const HOW_TO_RESEND = howToResend(SEND_ONE_AGAIN);
/** As a tool's result says it: a tool node has no Mode, so another Create node sends the campaign. */
const HOW_TO_RESEND_FROM_TOOL = howToResend(SAY.sendOneAgainFromTool);

/** A held-back item's output: what happened and what to do first, the keys last. */
export function heldJson(held: HeldBack, twin: TwinOutcome | undefined, asTool = false): IDataObject {
	const created = held.created || twin === 'created';
	const outcome = created ? 'created' : twin === 'sending' ? 'sending' : 'unknown';
	const reason = twin === 'created' ? REASONS.twin : twin === 'sending' ? REASONS.key.sending : REASONS[held.by][created ? 'created' : 'unknown'];
	const advice = asTool ? HOW_TO_RESEND_FROM_TOOL : HOW_TO_RESEND;
	const until = outcome === 'sending' && held.sendingUntil ? new Date(held.sendingUntil).toISOString().replace(/:\d\d\.\d+Z$/, ' UTC').replace('T', ' ') : undefined;
	return {
		skipped: true,
		reason,
		earlierOutcome: outcome,
		howToResend: until ? `${advice.sending} If that execution stopped without finishing (n8n was stopped or crashed), it counts as ended at ${until}.` : advice[outcome],
		...(until ? { sendingUntil: new Date(held.sendingUntil!).toISOString() } : {}),
		// The campaign it was created as, when the retried execution's context kept its id.
		...(held.by === 'retry' && created && held.candidate.createdAs ? { campaignId: held.candidate.createdAs } : {}),
		...(held.candidate.sendAgainKey ? { sendAgainKey: held.candidate.sendAgainKey() } : {}),
		idempotencyKey: held.candidate.key,
		// Held by its campaign's key, that key alone holds it (this run's retry key is not kept).
		forgetKeys: held.by === 'key' ? held.candidate.key : forgetKeysOf(held.candidate.key, held.candidate.retryKey),
	};
}

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
		message: `Duplicate protection found the records of item${erased.length === 1 ? '' : 's'} ${erased.map(({ itemIndex }) => itemIndex + 1).join(', ')} gone from n8n's history between their claim and their answer (a late write by another n8n process, or Forget Sent meanwhile); they are recorded again now. An execution of this workflow that ran in between may have sent them too: ${SAY.checkPossiblySent}`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** A repeat of item `first` in this run, told how `first` ended. */
export function tellRepeat(json: IDataObject, first: number, end: SentResult): void {
	if (end.status === 'done') {
		Object.assign(json, { reason: `Same campaign as item ${first + 1} of this run, created for that item; not sent again`, earlierOutcome: 'sameRun' });
	} else if (end.status === 'failed') {
		const unknown = failureOutcome(end.error) === 'unknown';
		Object.assign(json, {
			reason: `Same campaign as item ${first + 1} of this run, which failed (${unknown ? 'it may have been created' : 'it was not created'}); not sent`,
			earlierOutcome: unknown ? 'sameRunUnknown' : 'sameRunFailed',
		});
	} else {
		Object.assign(json, { reason: `Same campaign as item ${first + 1} of this run, which was not sent (the run stopped before it); not sent`, earlierOutcome: 'sameRunNotSent' });
	}
}

/** The first words of a store failure's description: what this run sent before it. */
export const sentLine = (sent: number) =>
	sent ? `${sent} campaign${sent === 1 ? ' was' : 's were'} sent earlier in this run (or may have been), their keys recorded before sending; nothing more was sent.` : 'Nothing was sent.';

export const NOTHING_SENT = `${sentLine(0)} The history lives in n8n's database (the store of the Remove Duplicates node): ${SAY.runAgainOnceDatabaseAnswers}`;
/**
 * Said instead of NOTHING_SENT once this run has sent campaigns: a Retry of this execution holds
 * back what it sent, whatever its dates and whatever is edited before it; a new run might not.
 */
export const nothingMoreSent = (sent: number, datesFollowClock: boolean) =>
	`${sentLine(sent)} ${SAY.retryOnceDatabaseAnswers}` + (datesFollowClock ? ` ${SAY.doNotRunAgainInstead}` : '');
export const SENT_NOT_RECORDED =
	'The campaigns of this run were sent, but not all outcomes were recorded: a re-run reports them as "may have been created" and does not send them.';
