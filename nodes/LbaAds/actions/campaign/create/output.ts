import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CampaignBody } from './campaignSchema';
import { smsCount } from './smsSegments';
import { ApiRequestError } from '../../../../shared/transport';
import type { CreateRequest } from './parameters';
import { spendingPreview } from './spendingLimits';
import { SAY } from '../../../../shared/instructions';

/** What Create Campaign outputs: the answer with the SMS per recipient, a dry run's preview, and its errors' words. */

type ChannelSms = { channel: number } & ReturnType<typeof smsCount>;

/** What each channel's message costs per recipient, counted on the text as sent. */
export function smsPerRecipient(body: CampaignBody): ChannelSms[] {
	return body.channels.map((channel, index) => ({ channel: index + 1, ...smsCount(channel.message) }));
}

/** Messages that cost more than one SMS, or lost GSM-7 to one character, in words. */
function smsWarnings(sms: ChannelSms[]): string[] {
	return sms
		.filter(({ encoding, segments }) => encoding === 'UCS-2' || segments > 1)
		.map(({ channel, encoding, units, segments, nonGsmCharacter }) =>
			encoding === 'UCS-2'
				? `Channel ${channel}: ${nonGsmCharacter} (${codePoint(nonGsmCharacter)}) is not in the GSM alphabet, so the message is sent as UCS-2 (70 per SMS): ${units} units, ${segments} SMS per recipient.`
				: `Channel ${channel}: ${units} GSM characters take ${segments} SMS per recipient.`,
		);
}

/** "U+201C": names a character that may not show well in a font. */
function codePoint(character = ''): string {
	return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The output panel's hints (n8n shows them above the output after a run). */
export function addSmsHints(ctx: IExecuteFunctions, sms: ChannelSms[], itemIndex: number): void {
	for (const warning of smsWarnings(sms)) {
		ctx.addExecutionHints({ message: `Item ${itemIndex + 1}, ${warning}`, type: 'info', location: 'outputPane' });
	}
}

/**
 * What a marketer checks first, in Preview and on a created campaign alike (issue 52): the name,
 * each channel's place and window in its recipients' hours, its SMS per recipient and the SMS
 * billed in total. The request's method and path come last.
 */
function overview(request: CreateRequest, sms: ChannelSms[]): IDataObject {
	return {
		campaignName: request.body.name,
		sendWindows: request.sendWindows,
		smsPerRecipient: sms as unknown as IDataObject[],
		smsBilled: request.spending.smsBilled,
	};
}

/** A created campaign's output: the overview first, then the service's answer and the keys. */
export function createdOutput(request: CreateRequest, sms: ChannelSms[], response: IDataObject, keys: IDataObject): IDataObject {
	return {
		campaignName: request.body.name,
		campaignId: response.campaignId,
		status: response.status,
		...overview(request, sms),
		...(request.warnings ? { warnings: request.warnings } : {}),
		...response,
		...keys,
		...request.zoneNote,
	};
}

export const PREVIEW_SAID = `Preview: nothing was sent or billed. ${SAY.publishAfterPreview}`;

export function dryRunOutput(ctx: IExecuteFunctions, request: CreateRequest, sms: ChannelSms[]): IDataObject {
	const warnings = [...smsWarnings(sms), ...(request.warnings ?? [])];
	const spending = spendingPreview(ctx, request.spending) as IDataObject & { wouldBeRefusedBy: string[] };
	if (request.zoneNote) {
		warnings.push(`${request.zoneNote.datesWithoutOffset.join(', ')} had no UTC offset and were read in ${request.zoneNote.assumedTimezone}.`);
	}
	return {
		preview: PREVIEW_SAID,
		...overview(request, sms),
		warnings: [...warnings, ...spending.wouldBeRefusedBy.map((limit) => `Sending it would be refused by the spending limit ${limit}.`)],
		spending,
		...(request.key === undefined ? {} : { idempotencyKey: request.key }),
		...request.zoneNote,
		dryRun: true,
		sent: false,
		request: { method: 'POST', path: '/lba/campaign', body: request.body as unknown as IDataObject },
	};
}

/**
 * A failed campaign request's error says in its message what became of the campaign (an AI
 * agent reads only the message, and a campaign that may exist must not be sent again), and a
 * campaign that may exist keeps its key: its error says a re-run will not send it again.
 */
export function campaignFailure(error: unknown, keys?: { forgetKeys?: string; sendAgain?: string }, asTool = false): unknown {
	if (!(error instanceof ApiRequestError)) return error;
	const { outcome, transient, status, serviceCode } = error.failureClass;
	if (status === 400 && serviceCode === 'G-400003') error.message = 'The service rejected the campaign as incomplete or invalid (G-400003)';
	error.addClause(outcome === 'refused' ? 'the campaign was not created' : 'the campaign may have been created, so do not send it again');
	const notes: string[] = [];
	if (transient) {
		notes.push(
			outcome === 'refused'
				? 'The request was not retried; the answer shows the service did not create the campaign.'
				: 'The request was not retried, because the service may already have created the campaign.',
		);
	}
	if (outcome === 'unknown' && /^Raise "Timeout"/.test(error.description ?? '')) {
		// Raising the Timeout is for the next runs: running again now, with dates from $now, would be a new campaign.
		error.description = SAY.raiseTimeoutForNextRuns;
	}
	if (keys?.sendAgain !== undefined && outcome === 'unknown') {
		notes.push(
			`Duplicate protection kept this campaign's keys, so a Retry of this execution will not send it again (nor a new run, unless its dates come from $now: then it is a new campaign). ${SAY.waitThenLookIfMissingSend} ${asTool ? SAY.sendOneAgainFromToolWithKey(keys.sendAgain) : SAY.sendOneAgainWithKey(keys.sendAgain)}` +
				(keys.forgetKeys ? ` Its keys, for Forget Sent: ${keys.forgetKeys}.` : ''),
		);
	}
	if (notes.length) error.description = `${error.description ?? ''} ${notes.join(' ')}`.trim();
	return error;
}

