import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { CATEGORIES, CATEGORY_LIST, checkCampaign, LIMITS, TELCO_LIST, TELCOS } from './campaignSchema';
import { NIGHT_OPTION, checkPlacesAndWindows, PROVISIONAL_ZONE, zoneHints } from './sendWindows';
import { invalidCampaign } from './wording';
import { addSmsHints, campaignFailure, createdOutput, dryRunOutput, PREVIEW_SAID, smsPerRecipient } from './output';
import { refuseOverSmsLimit, reserveCampaigns, SPENDING_OPTIONS, spendingOf } from './spendingLimits';
import {
	campaignFromFields,
	campaignFromJson,
	campaignKey,
	withRetryKeys,
	dryRun,
	refuseResendUnattended,
	resendOption,
	zoneRule,
	zoneNote,
	type CreateRequest,
} from './parameters';
import { addClockDatesHint, datesFollowClock } from './clockDates';
import { RUN_MODE_FIELDS, runModeInstead } from './runMode';
import { campaignGuard, type Candidate } from '../../../duplicateProtection/campaignGuard';
import { rememberCreated, rememberEnded, rememberSending, sentFor, type CreatedRecord } from '../../../duplicateProtection/itemOrigin';
import { campaignIdentity, withDatesSent } from './campaignMeaning';
import { forgetKeysOf, sendAgainKey } from '../../../duplicateProtection/keys';
import { SEND_ONE_AGAIN } from '../../../duplicateProtection/guardWording';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../../../../shared/transport';
import type { OperationModule, SendGuard } from '../../engine/operation';
import { fromAI, runsAsTool, toolDescription, withToolDefault } from '../../../helpers/aiTool';
import { pickerField } from '../../../helpers/picker';
import { searchLocations } from '../../../methods/searchLocations';
import { SAY } from '../../../../shared/instructions';

/**
 * Campaign > Create: POST /lba/campaign, one campaign per item, every item checked before the
 * first is sent, never the same campaign twice (duplicate protection), with a dry run.
 */

const showFor = { show: { resource: ['campaign'], operation: ['create'] } };
/** The fields of a campaign defined in the panel (Campaign Input = Define Below; the tool always is). */
const fieldsOnly = { campaignInput: ['fields'] };

/** What an AI model reads about Create Campaign (the tool's description). */
const TOOL_DESCRIPTION =
	'Publishes a paid SMS campaign in LBA Ads at once: the SMS go to real subscribers and are billed. ' +
	`${SAY.toolCallOnce} ${SAY.toolNeverAgain} ` +
	'A campaign identical to one this tool already sent is not sent again: the result then says skipped: true and why. ' +
	`Returns the campaign id, its status and the SMS each recipient gets. ${SAY.toolIsoDates} ` +
	SAY.toolPreviewFirst;

/** The channel the panel's JSON fields start with, as an example to edit. */
const EXAMPLE_CHANNEL = {
	sender: 'MYBRAND',
	locationId: 3273,
	smsQty: 1000,
	message: 'Promo hari ini!',
	startDate: '2026-12-01T09:00:00+07:00',
	endDate: '2026-12-07T21:00:00+07:00',
	telcoId: 'tsel',
};

/** The documented JSON shape of channels, for the model (and the README). */
export const CHANNELS_FOR_MODEL =
	`JSON array of 1 to ${LIMITS.channels} channels; each channel sends SMS to one operator's subscribers in one location: ` +
	'[{"sender": "MYBRAND", "locationId": 3273, "smsQty": 1000, "message": "Promo hari ini!", "startDate": "2026-12-01T09:00:00+07:00", "endDate": "2026-12-07T21:00:00+07:00", "telcoId": "tsel"}]. ' +
	`sender: the sender name the user registered, at most ${LIMITS.sender} characters. ` +
	'locationId: the whole-number Location ID of the target area, as the user gives it or as a Find Targeting Location tool finds it from a city name. ' +
	`smsQty: how many SMS, 1 to ${LIMITS.smsQty.toLocaleString('en-US')}. message: the SMS text, at most ${LIMITS.message} characters. ` +
	`telcoId: ${TELCO_LIST}; one channel per operator to reach them all. ` +
	'startDate and endDate: ISO 8601 with the UTC offset of the place: +07:00 WIB (Java, Sumatra), +08:00 WITA (Bali, Sulawesi), +09:00 WIT (Maluku, Papua); endDate after startDate.';

/**
 * A channel's fields, in the order a marketer fills them in: who sends, where, what, how many,
 * when, through which operator. n8n's lint rule node-param-fixed-collection-type-unsorted-items
 * wants a fixedCollection's fields in alphabetical order (Location ID, Message, Send From, Send
 * Until, Sender, SMS Quantity, Telco): this list is the package's one exception to it, see
 * docs/choices.md. n8n's verification scanner ignores eslint-disable comments, and the rule reads
 * only fields written inside `values: [...]`, so the exception is this list of named fields.
 */
const SENDER: INodeProperties = {
	displayName: 'Sender',
	name: 'sender',
	type: 'string',
	required: true,
	default: '',
	description: 'Sender name issued to you when you registered as a partner',
};

const LOCATION_ID: INodeProperties = pickerField({
	list: { searchLocations },
	displayName: 'Location ID',
	name: 'locationId',
	description: "Where the channel distributes the message: the Location ID you were given, or one picked from the service's list",
	// No By ID regex: n8n 2.40.7 runs one in a vm with a 250 ms limit before every run, and a loaded
	// machine exceeds it ("Regular expression execution timed out": the whole run fails, seen in CI).
	// `prepare` refuses a value that is not a whole number, with the item and the channel named.
	byId: { placeholder: 'e.g. 3273' },
});

const MESSAGE: INodeProperties = {
	displayName: 'Message',
	name: 'message',
	type: 'string',
	required: true,
	default: '',
	typeOptions: { rows: 3 },
	description: 'Text of the SMS',
	hint: 'At most 160 characters. One SMS holds all 160 GSM characters, but only 70 if the text has an emoji, a curly quote or another character outside the GSM alphabet (such a text over 70 takes 2 or more SMS per recipient); the output shows the SMS per recipient',
};

const SMS_QUANTITY: INodeProperties = {
	displayName: 'SMS Quantity',
	name: 'smsQty',
	type: 'number',
	required: true,
	default: 1,
	typeOptions: { minValue: 1, numberPrecision: 0 },
	description:
		'How many SMS messages this channel sends (the API\'s smsQty). The node takes it as one message per recipient, so about this many people receive it; a message longer than one SMS may be billed as several per recipient (the output\'s smsPerRecipient). Sent as given.',
};

/**
 * Send From and Send Until are text fields, not n8n's date picker: the picker erases
 * "2026-12-01 09:00" typed without seconds when it loses focus, and its OK button then sets the
 * current moment (an immediate send; issue 52). Text keeps what the marketer typed; dates.ts reads
 * it, or refuses it naming the format. A value saved by the picker ("2026-12-01T09:00:00") reads the same.
 */
const DATE_HINT = `${SAY.typeDateHint} The note above the output says in whose hours it is read.`;

const SEND_FROM: INodeProperties = {
	displayName: 'Send From',
	name: 'startDate',
	type: 'string',
	required: true,
	default: '',
	placeholder: '2026-12-01 09:00',
	hint: DATE_HINT,
	description:
		"When sending starts, e.g. 2026-12-01 09:00. Without an offset it is read in Options > Timezone, else in the workflow's timezone when it is WIB, WITA or WIT, else in the recipients' local time (the zone of the channel's place); the output's sendWindows says which. A time that has passed starts at once.",
};

const SEND_UNTIL: INodeProperties = {
	displayName: 'Send Until',
	name: 'endDate',
	type: 'string',
	required: true,
	default: '',
	placeholder: '2026-12-07 21:00',
	hint: DATE_HINT,
	description: 'When sending stops; must be after Send From, and not passed (a window that is over is refused). A plain date means the end of that day.',
};

const TELCO: INodeProperties = {
	displayName: 'Telco',
	name: 'telcoId',
	type: 'options',
	required: true,
	default: 'tsel',
	options: TELCOS.map((telco) => ({ name: telco.label, value: telco.id })),
	description:
		'Telecom operator whose subscribers receive the SMS. An expression may also give the ID or the operator, e.g. "Telkomsel".',
};

/** The order the panel shows them in (see above). */
const CHANNEL_FIELDS: INodeProperties[] = [SENDER, LOCATION_ID, MESSAGE, SMS_QUANTITY, SEND_FROM, SEND_UNTIL, TELCO];

const description: INodeProperties[] = [
	toolDescription('campaign', 'create', TOOL_DESCRIPTION),
	...RUN_MODE_FIELDS,
	{
		displayName: 'Campaign Input',
		name: 'campaignInput',
		type: 'options',
		noDataExpression: true,
		default: 'fields',
		options: [
			{ name: 'Define Below', value: 'fields', description: 'Name, description, category and channels in this panel' },
			{
				name: 'JSON',
				value: 'json',
				description: 'The whole campaign as one JSON object, e.g. built by earlier nodes or one expression per item',
			},
		],
		description: 'How to give the campaign',
		displayOptions: { show: { ...showFor.show, '@tool': [false] } },
	},
	{
		displayName: 'Campaign (JSON)',
		name: 'campaignJson',
		type: 'json',
		required: true,
		default: JSON.stringify({ name: 'Bandung weekend promo', description: 'Weekend discounts for Bandung', categoryId: 10, channels: [EXAMPLE_CHANNEL] }, null, 2),
		description:
			'One campaign: name, description, categoryId (an ID from 3 to 26, or its label such as "Food & Drinks") and channels, an array of channels as in Channels (JSON)',
		displayOptions: { show: { ...showFor.show, campaignInput: ['json'], '@tool': [false] } },
	},
	...withToolDefault(
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Bandung weekend promo',
			description: 'Campaign name',
			displayOptions: showFor,
		},
		fromAI('name', `Campaign name, at most ${LIMITS.name} characters`, 'string'),
		fieldsOnly,
	),
	...withToolDefault(
		{
			displayName: 'Description',
			name: 'campaignDescription',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 2 },
			description: 'Campaign description',
			displayOptions: showFor,
		},
		fromAI('description', `What the campaign is about, at most ${LIMITS.description} characters`, 'string'),
		fieldsOnly,
	),
	...withToolDefault(
		{
			displayName: 'Category',
			name: 'categoryId',
			type: 'options',
			required: true,
			default: 26,
			options: [...CATEGORIES]
				.sort((a, b) => a.label.localeCompare(b.label))
				.map((category) => ({ name: category.label, value: category.id })),
			description:
				'Campaign category (spec 2.2). An expression may also give the ID or the label, e.g. "Food & Drinks".',
			hint: `Starts at Uncategorized: ${SAY.pickCategory}`,
			displayOptions: showFor,
		},
		fromAI('category', `Campaign category, its id or its label, one of: ${CATEGORY_LIST}`, 'string'),
		fieldsOnly,
	),
	...withToolDefault(
		{
			displayName: 'Channels Input',
			name: 'channelsInput',
			type: 'options',
			default: 'fields',
			options: [
				{ name: 'Define Below', value: 'fields', description: 'One entry per channel in this panel' },
				{ name: 'JSON', value: 'json', description: 'An array of channels, e.g. built by earlier nodes' },
			],
			description: 'How to give the channels: each sends SMS to one operator in one location within a date range',
			displayOptions: showFor,
		},
		'json',
		fieldsOnly,
	),
	{
		displayName: 'Channels',
		name: 'channels',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Channel' },
		required: true,
		default: {},
		placeholder: 'Add Channel',
		displayOptions: { show: { ...showFor.show, ...fieldsOnly, channelsInput: ['fields'] } },
		options: [
			{
				displayName: 'Channel',
				name: 'channel',
				values: CHANNEL_FIELDS,
			},
		],
	},
	...withToolDefault(
		{
			displayName: 'Channels (JSON)',
			name: 'channelsJson',
			type: 'json',
			required: true,
			default: JSON.stringify([EXAMPLE_CHANNEL], null, 2),
			description:
				'Array of channels (or one channel object) with sender, locationId, smsQty, message, startDate, endDate and telcoId (isat, xl or tsel; "Telkomsel" or "XL Axiata" also work)',
			displayOptions: { show: { ...showFor.show, channelsInput: ['json'] } },
		},
		fromAI('channels', CHANNELS_FOR_MODEL, 'json'),
		fieldsOnly,
	),
	{
		displayName: 'Duplicate Protection',
		name: 'duplicateProtection',
		type: 'options',
		noDataExpression: true,
		default: 'content',
		options: [
			{
				name: 'Campaign Content',
				value: 'content',
				description: 'A campaign identical to one this node sent before (same fields, after date conversion) is not sent again',
			},
			{
				name: 'Custom Key',
				value: 'customKey',
				description: 'A campaign whose key this node sent before is not sent again, e.g. one key per order',
			},
			{
				name: 'Off',
				value: 'off',
				description: 'Send every item, even a campaign this node sent in an earlier run (a re-run publishes it again); a Retry still never re-sends what the execution it retries created',
			},
		],
		description:
			"How this node recognises a campaign it already sent, in this or an earlier execution (Retry, re-run, a second trigger). The history is kept in n8n's database.",
		displayOptions: showFor,
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.orderId }}',
		description: 'A value that names this campaign: an item whose key this node already sent is not sent again',
		displayOptions: { show: { ...showFor.show, duplicateProtection: ['customKey'] } },
	},
	{
		// Tool only: the model chooses per call between a preview and publishing.
		displayName: 'Preview Only',
		name: 'preview',
		// A string holding the model's boolean: n8n's verification lint wants a boolean field's default to be a boolean.
		type: 'string',
		default: fromAI(
			'preview',
			'true: only check the campaign and return the exact request, SMS per recipient and warnings, sending nothing; false: publish it',
			'boolean',
		),
		description: 'Whether the call only previews the campaign (a dry run) instead of publishing it',
		displayOptions: { show: { ...showFor.show, '@tool': [true] } },
	},
];

const operation: OperationModule<CreateRequest>['operation'] = {
	checkAllBeforeSending: true,
	usesService: true,
	instead: runModeInstead,
	// Location IDs, then dates in each place's hours and windows that are over (sendWindows.ts).
	checkWithService: checkPlacesAndWindows,

	prepare(ctx, itemIndex, transport) {
		// On the clock `$now` and `$today` read (luxon's: Date.now in n8n), so a Retry compares like with like.
		const preparedAt = DateTime.now().toMillis();
		const rule = zoneRule(ctx, itemIndex);
		// Read in each channel's place: checked here in WIB, read again once the places are known.
		const zone = rule.kind === 'fixed' ? rule.zone : PROVISIONAL_ZONE;
		const fromJson = ctx.getNodeParameter('campaignInput', itemIndex, 'fields') === 'json';
		const campaign = fromJson ? campaignFromJson(ctx, itemIndex) : campaignFromFields(ctx, itemIndex);
		const check = checkCampaign(campaign, zone);
		if (!check.ok) throw invalidCampaign(ctx, itemIndex, check.problems, fromJson);
		const spending = spendingOf(ctx, itemIndex, check.body);
		const isDryRun = dryRun(ctx, itemIndex);
		// A dry run shows which limit would refuse the campaign instead of failing.
		if (!isDryRun) refuseOverSmsLimit(ctx, itemIndex, spending);
		return {
			body: check.body,
			...campaignKey(ctx, itemIndex, check.body, transport?.baseUrl ?? ''),
			resend: resendOption(ctx, itemIndex),
			zoneNote: rule.kind === 'fixed' ? zoneNote(campaign.channels, zone) : undefined,
			dates: { rule, campaign, fromJson },
			dryRun: isDryRun,
			spending,
			preparedAt,
		};
	},

	checkExecution(ctx, prepared) {
		reserveCampaigns(
			ctx,
			prepared.filter(({ request }) => !request.dryRun).map(({ itemIndex, request }) => ({ itemIndex, spending: request.spending })),
		);
	},

	guard(ctx, prepared) {
		// A Retry recognizes each campaign among all the run's items (itemOrigin.ts): keys once every item is prepared.
		withRetryKeys(ctx, prepared);
		refuseResendUnattended(ctx, prepared);
		const candidates: Candidate[] = [];
		const unclear = new Map<number, IDataObject>();
		for (const { itemIndex, request } of prepared) {
			// A dry run sends nothing, so it records nothing: the real send stays possible.
			if (request.key === undefined || request.retryKey === undefined || request.dryRun) continue;
			// A campaign the node cannot tell from one the retried execution created: not sent, both named.
			if (request.mayBe && !request.resend) unclear.set(itemIndex, unclearJson(request, request.mayBe));
			else {
				// Held, it is sent again as the retried execution sent it: its dates then, not as computed now.
				const retryKey = request.retryKey;
				const sendAgainKey = () => {
					const sent = sentFor(ctx, retryKey)?.dates;
					return sendAgainOf(request, sent ? withDatesSent(request.body, sent) : request.body);
				};
				candidates.push({ itemIndex, key: request.key, retryKey: request.retryKey, resend: request.resend, createdAs: request.createdAs, sendAgainKey });
			}
		}
		if (unclear.size) addUnclearHint(ctx, [...unclear.keys()]);
		if (!candidates.length) return withUnclear(undefined, unclear);
		const followClock = datesFollowClock(ctx);
		if (followClock) addClockDatesHint(ctx);
		// How long this run may keep a campaign "being sent": a wave's requests at its Timeout, and the lock's waits.
		const timeoutMs = Number(ctx.getNodeParameter('options.timeoutMs', 0, DEFAULT_TIMEOUT_MS));
		const sendingForMs = 4 * Math.min(Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS) + 180_000;
		return withUnclear(campaignGuard(ctx, candidates, { datesFollowClock: followClock, sendingForMs }), unclear);
	},

	// A Retry of this execution never takes this run's campaigns for another call's (itemOrigin.ts).
	ended: rememberEnded,

	describeDone(json) {
		if (json.skipped) return `not sent (${String(json.earlierOutcome)})`;
		if (json.dryRun) return 'dry run, not sent';
		return `campaign ${String(json.campaignId ?? json.id ?? '?')} ${String(json.status ?? 'created')}`;
	},

	async send(ctx, request, transport, itemIndex) {
		const sms = smsPerRecipient(request.body);
		addSmsHints(ctx, sms, itemIndex);
		if (request.dryRun) {
			// Told apart from a send above the output, not only by a field in it.
			if (!previewSaid.has(ctx)) ctx.addExecutionHints({ message: PREVIEW_SAID, type: 'warning', location: 'outputPane' });
			previewSaid.add(ctx);
			return [dryRunOutput(ctx, request, sms)];
		}
		// A Retry matches its campaigns to what this one sent, created or not (itemOrigin.ts).
		if (request.retryIdentity) rememberSending(ctx, request.retryIdentity, campaignIdentity(request.body).dates, request.preparedAt);
		try {
			const response = await transport.request({
				method: 'POST',
				path: '/lba/campaign',
				body: request.body as unknown as IDataObject,
				itemIndex,
				retry: false,
			});
			// A Retry of this execution names this campaign when it holds it back.
			if (request.retryIdentity) rememberCreated(ctx, request.retryIdentity.key, response.campaignId);
			return [createdOutput(request, sms, response, keysOutput(request))];
		} catch (error) {
			throw campaignFailure(error, request.target === undefined ? undefined : { forgetKeys: keysOutput(request).forgetKeys, sendAgain: sendAgainOf(request) }, runsAsTool(ctx));
		}
	},
};

/** A date as the unclear item names it: in WIB, with its zone. */
const wib = (ms: number) => `${DateTime.fromMillis(ms, { zone: 'Asia/Jakarta' }).toFormat('yyyy-MM-dd HH:mm')} WIB`;

/** An item the node cannot tell from a campaign the retried execution created (itemOrigin.ts `mayBe`). */
function unclearJson(request: CreateRequest, mayBe: CreatedRecord): IDataObject {
	const dates = campaignIdentity(request.body).dates;
	return {
		skipped: true,
		reason:
			`Not sent: the execution this one retries created campaign ${mayBe.campaignId} (from ${wib(mayBe.dates[0])}), and this one (from ${wib(dates[0])}) differs from it only by what the clock moved meanwhile. ` +
			'Its dates were computed again before this node, so the node cannot tell whether it is that campaign or another one',
		earlierOutcome: 'unclear',
		mayBeCampaignId: mayBe.campaignId,
		howToResend: `${SAY.lookForCampaign(mayBe.campaignId)} ${SAY.ifThisCampaignNothing} ${SAY.ifAnother} ${SEND_ONE_AGAIN}`,
		sendAgainKey: sendAgainOf(request),
		...keysOutput(request),
	};
}

/** Said above the output when a Retry left campaigns unsent because it could not tell them apart. */
function addUnclearHint(ctx: IExecuteFunctions, itemIndexes: number[]): void {
	ctx.addExecutionHints({
		message: `Item${itemIndexes.length === 1 ? '' : 's'} ${itemIndexes.map((index) => index + 1).join(', ')} ${itemIndexes.length === 1 ? 'was' : 'were'} not sent: this Retry cannot tell ${itemIndexes.length === 1 ? 'it' : 'them'} from campaigns the retried execution created. Each item names the campaign it may be and what to do.`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** The guard, with the unclear items left out of its claims and answered as not sent. */
function withUnclear(guard: SendGuard | undefined, unclear: Map<number, IDataObject>): SendGuard | undefined {
	if (!unclear.size) return guard;
	return {
		async claim(itemIndexes) {
			const rest = itemIndexes.filter((itemIndex) => !unclear.has(itemIndex));
			const skipped = guard && rest.length ? await guard.claim(rest) : new Map<number, IDataObject>();
			for (const itemIndex of itemIndexes) if (unclear.has(itemIndex)) skipped.set(itemIndex, unclear.get(itemIndex)!);
			return skipped;
		},
		async settle(results) {
			const sent = results.filter(({ itemIndex }) => !unclear.has(itemIndex));
			if (guard && sent.length) await guard.settle(sent);
		},
	};
}

/** The runs whose panel already says that Preview sent nothing (once per run, not per item). */
const previewSaid = new WeakSet<object>();

/** What sends this campaign again, alone (Mode "Send One Again"): the campaign as sent, and where. */
const sendAgainOf = (request: CreateRequest, body = request.body) => sendAgainKey(request.target ?? '', body);

/** The keys an output names: the campaign's own, and what Forget Sent takes to release every hold on it. */
function keysOutput(request: CreateRequest): { idempotencyKey?: string; forgetKeys?: string } {
	if (request.key === undefined || request.retryKey === undefined) return {};
	return { idempotencyKey: request.key, forgetKeys: forgetKeysOf(request.key, request.retryKey) };
}

/** Its entries in the node's Options collection. */
const options: INodeProperties[] = [
	...SPENDING_OPTIONS,
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only check the campaign and output the exact request, the SMS per recipient and any warnings, sending nothing and recording nothing for duplicate protection',
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: 'Resend',
		name: 'resend',
		type: 'boolean',
		default: false,
		description:
			`Whether to send every item even if this node already sent (or may have sent) the same campaign: a second campaign for each, billed again. ${SAY.resendOffAfter}.`,
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: 'Resend Keys',
		name: 'resendKeys',
		type: 'string',
		default: '',
		placeholder: 'e.g. retry:v4:2e5f… content:v2:45a2…',
		description:
			SAY.resendKeysEmptyAfter,
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'Asia/Jakarta',
		description:
			"IANA timezone for channel dates given without an offset, e.g. Asia/Makassar. Empty: the workflow's timezone when it is WIB, WITA or WIT (Asia/Jakarta, Asia/Pontianak, Asia/Makassar, Asia/Jayapura), else each channel's own place's zone.",
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: "Recipients' Local Time",
		name: 'recipientsLocalTime',
		type: 'boolean',
		default: false,
		description:
			"Whether to read each channel's dates without an offset in its own place's zone: Makassar 09:00 is 09:00 WITA, Jayapura 09:00 is 09:00 WIT, whatever the workflow's timezone",
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
	{
		displayName: 'Allow Night Start',
		name: NIGHT_OPTION,
		type: 'boolean',
		default: false,
		description:
			"Whether a channel may start sending at night, between 21:00 and 08:00 in its recipients' local time (WIB, WITA or WIT). Off: such a campaign is refused before anything is sent.",
		displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
	},
];

export const createCampaign: OperationModule<CreateRequest> = {
	option: {
		// The name and value stay: saved workflows hold the value, docs and other nodes' expressions the name.
		name: 'Create',
		value: 'create',
		action: 'Publish a campaign (sends SMS, billed)',
		description: 'Publish an SMS campaign at once: its SMS go out and are billed (never sent twice: see Duplicate Protection)',
	},
	description,
	options,
	hints: zoneHints(),
	// The channel Location ID's From List.
	listSearch: { searchLocations },
	operation,
};
