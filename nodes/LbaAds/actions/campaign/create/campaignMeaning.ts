import { DateTime } from 'luxon';

import type { CampaignBody } from './campaignSchema';
import { instantMs, toApiDate, utcInstant } from '../../../helpers/dates';

/**
 * The campaign as its content key sees it: what it means, not how it was written. The body comes
 * from the campaign schema, so its text is already in Unicode NFC (as sent). On top of that:
 * - dates as UTC instants: 09:00+07:00 and 02:00Z are the same moment;
 * - channels in one order: the same channels listed in another order are the same campaign.
 *   A channel listed twice counts twice: the service creates (and bills) both, so [A, A, B] is
 *   not the same campaign as [A, B].
 */
export function campaignByMeaning(body: CampaignBody): CampaignBody {
	const channels = body.channels.map((channel) => ({
		...channel,
		startDate: utcInstant(channel.startDate),
		endDate: utcInstant(channel.endDate),
	}));
	return { ...body, channels: sortedBy(channels, channelText) };
}

/** One channel as text with its fields in name order: equal texts, equal channels. */
function channelText(channel: CampaignBody['channels'][number]): string {
	return JSON.stringify(channel, Object.keys(channel).sort());
}

/** Sorted by code units, not by locale, so every machine gives the same order. */
function sortedBy<T>(values: T[], text: (value: T) => string): T[] {
	return values
		.map((value) => ({ value, text: text(value) }))
		.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
		.map(({ value }) => value);
}

/**
 * The campaign as a Retry recognizes it (duplicate protection's retry key): what it is without the
 * values the clock moves (its dates), its channels in one order; and its dates as instants (ms),
 * channel by channel in that order, start then end, to tell identical ones apart.
 */
/**
 * The campaign with the dates `campaignIdentity` gave for it when it was sent (`dates`, in its
 * order of channels), each written with the offset its channel has now: the campaign as it was
 * sent, though `$now` or a Retry moved its dates since.
 */
export function withDatesSent(body: CampaignBody, dates: number[]): CampaignBody {
	const order = sortedBy(
		body.channels.map((channel, index) => ({ index, rest: channel, dates: [instantMs(channel.startDate), instantMs(channel.endDate)] })),
		({ rest, dates: now }) => `${channelText(rest)} ${now.join(' ')}`,
	);
	if (dates.length !== body.channels.length * 2) return body;
	const channels = [...body.channels];
	order.forEach(({ index }, position) => {
		const channel = body.channels[index];
		const written = (ms: number, like: string) => toApiDate(DateTime.fromMillis(ms).setZone(DateTime.fromISO(like, { setZone: true }).zone));
		channels[index] = { ...channel, startDate: written(dates[position * 2], channel.startDate), endDate: written(dates[position * 2 + 1], channel.endDate) };
	});
	return { ...body, channels };
}

export function campaignIdentity(body: CampaignBody): { shape: unknown; dates: number[] } {
	const channels = sortedBy(
		body.channels.map(({ startDate, endDate, ...rest }) => ({ rest, dates: [instantMs(startDate), instantMs(endDate)] })),
		({ rest, dates }) => `${channelText(rest as CampaignBody['channels'][number])} ${dates.join(' ')}`,
	);
	return { shape: { ...body, channels: channels.map(({ rest }) => rest) }, dates: channels.flatMap(({ dates }) => dates) };
}
