import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isResourceLocatorValue, jsonParse, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fromAI, runsAsTool, toolDescription, withToolDefault } from '../../helpers/aiTool';
import { CATEGORIES, CATEGORY_LIST, checkCampaign, LIMITS, TELCO_LIST, TELCOS, type CampaignBody } from '../../helpers/campaignSchema';
import { isValidZone, readInZone } from '../../helpers/dates';
import {
	campaignGuard,
	contentKey,
	customKey,
	HOW_TO_RESEND,
	type Candidate,
	type ProtectionMode,
} from '../../helpers/duplicateProtection';
import type { Operation } from '../../helpers/runItems';
import { smsCount } from '../../helpers/smsSegments';
import { failureOutcome } from '../../transport';

const showFor = { show: { resource: ['campaign'], operation: ['create'] } };

const FIELD_LABELS: Record<string, string> = {
	name: 'Name',
	description: 'Description',
	categoryId: 'Category',
	channels: 'Channels',
};

const CHANNEL_FIELD_LABELS: Record<string, string> = {
	sender: 'Sender',
	locationId: 'Location ID',
	smsQty: 'SMS Quantity',
	message: 'Message',
	startDate: 'Send From',
	endDate: 'Send Until',
	telcoId: 'Telco',
};

/** What an AI model reads about Create Campaign (the tool's description). */
const TOOL_DESCRIPTION =
	'Publishes a paid SMS campaign in LBA Ads at once: the SMS go to real subscribers and are billed. ' +
	"Call it only when the user has confirmed the campaign's name, message, sender, location, operators, SMS quantity and dates, " +
	'and call it once per campaign. Never call it again for a campaign after an error that says the campaign may have been created. ' +
	'A campaign identical to one this tool already sent is not sent again: the result then says skipped: true and why. ' +
	'Returns the campaign id, its status and the SMS each recipient gets. Give dates in ISO 8601 with the UTC offset of the place, e.g. 2026-12-01T09:00:00+07:00 (WIB). ' +
	'Call it first with preview: true to check the campaign and show the user the exact request, the SMS per recipient and any warnings: that sends nothing and costs nothing; then call it with preview: false to publish.';

/** The documented JSON shape of channels, for the model (and the README). */
export const CHANNELS_FOR_MODEL =
	`JSON array of 1 to ${LIMITS.channels} channels; each channel sends SMS to one operator's subscribers in one location: ` +
	'[{"sender": "MYBRAND", "locationId": 161, "smsQty": 1000, "message": "Promo hari ini!", "startDate": "2026-12-01T09:00:00+07:00", "endDate": "2026-12-07T21:00:00+07:00", "telcoId": "tsel"}]. ' +
	`sender: the sender name the user registered, at most ${LIMITS.sender} characters. ` +
	'locationId: the whole-number Location ID of the target area, as the user gives it or as a Find Targeting Location tool finds it from a city name. ' +
	`smsQty: how many SMS, 1 to ${LIMITS.smsQty.toLocaleString('en-US')}. message: the SMS text, at most ${LIMITS.message} characters. ` +
	`telcoId: ${TELCO_LIST}; one channel per operator to reach them all. ` +
	'startDate and endDate: ISO 8601 with the UTC offset of the place: +07:00 WIB (Java, Sumatra), +08:00 WITA (Bali, Sulawesi), +09:00 WIT (Maluku, Papua); endDate after startDate.';

export const description: INodeProperties[] = [
	toolDescription('campaign', 'create', TOOL_DESCRIPTION),
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
			displayOptions: showFor,
		},
		fromAI('category', `Campaign category, its id or its label, one of: ${CATEGORY_LIST}`, 'string'),
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
	),
	{
		displayName: 'Channels',
		name: 'channels',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Channel' },
		required: true,
		default: {},
		placeholder: 'Add Channel',
		displayOptions: { show: { ...showFor.show, channelsInput: ['fields'] } },
		options: [
			{
				displayName: 'Channel',
				name: 'channel',
				// Alphabetical, as n8n's verification lint requires; "Send From/Until" keeps the dates together and in order.
				values: [
					{
						displayName: 'Location ID',
						name: 'locationId',
						type: 'resourceLocator',
						required: true,
						default: { mode: 'id', value: '' },
						description:
							'Where the channel distributes the message: the Location ID you were given, or one picked from the service\'s list',
						modes: [
							{
								displayName: 'By ID',
								name: 'id',
								type: 'string',
								placeholder: 'e.g. 3273',
								validation: [
									{ type: 'regex', properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: 'A Location ID is a whole number' } },
								],
							},
							{
								displayName: 'From List',
								name: 'list',
								type: 'list',
								typeOptions: { searchListMethod: 'searchLocations', searchable: true, searchFilterRequired: false },
							},
						],
					},
					{
						displayName: 'Message',
						name: 'message',
						type: 'string',
						required: true,
						default: '',
						typeOptions: { rows: 3 },
						description: 'Text of the SMS',
						hint: 'One SMS holds 160 GSM characters, or 70 if the text has an emoji, a curly quote or another character outside the GSM alphabet; the output shows the SMS per recipient',
					},
					{
						displayName: 'Send From',
						name: 'startDate',
						type: 'dateTime',
						required: true,
						default: '',
						description:
							'When sending starts. Without an offset it is read in the workflow timezone (or the Timezone option).',
					},
					{
						displayName: 'Send Until',
						name: 'endDate',
						type: 'dateTime',
						required: true,
						default: '',
						description: 'When sending stops; must be after Send From. A plain date means the end of that day.',
					},
					{
						displayName: 'Sender',
						name: 'sender',
						type: 'string',
						required: true,
						default: '',
						description: 'Sender name issued to you when you registered as a partner',
					},
					{
						displayName: 'SMS Quantity',
						name: 'smsQty',
						type: 'number',
						required: true,
						default: 1,
						typeOptions: { minValue: 1, numberPrecision: 0 },
						description: 'How many SMS messages this channel sends',
					},
					{
						displayName: 'Telco',
						name: 'telcoId',
						type: 'options',
						required: true,
						default: 'tsel',
						options: TELCOS.map((telco) => ({ name: telco.label, value: telco.id })),
						description:
							'Telecom operator whose subscribers receive the SMS. An expression may also give the ID or the operator, e.g. "Telkomsel".',
					},
				],
			},
		],
	},
	...withToolDefault(
		{
			displayName: 'Channels (JSON)',
			name: 'channelsJson',
			type: 'json',
			required: true,
			default:
				'[\n  {\n    "sender": "MYBRAND",\n    "locationId": 161,\n    "smsQty": 1000,\n    "message": "Promo hari ini!",\n    "startDate": "2026-12-01T09:00:00+07:00",\n    "endDate": "2026-12-07T21:00:00+07:00",\n    "telcoId": "tsel"\n  }\n]',
			description:
				'Array of channels (or one channel object) with sender, locationId, smsQty, message, startDate, endDate and telcoId (isat, xl or tsel; "Telkomsel" or "XL Axiata" also work)',
			displayOptions: { show: { ...showFor.show, channelsInput: ['json'] } },
		},
		fromAI('channels', CHANNELS_FOR_MODEL, 'json'),
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
				description: 'Send every item, even a campaign sent before (a Retry or re-run can then publish it twice)',
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

interface CreateRequest {
	body: CampaignBody;
	/** The idempotency key (undefined with Duplicate Protection off). */
	key?: string;
	resend: boolean;
	/** Which dates had no UTC offset and the timezone they were read in: the output says so. */
	zoneNote?: { assumedTimezone: string; datesWithoutOffset: string[] };
	/** Dry run: validate and convert, then show the request instead of sending it. */
	dryRun: boolean;
}

export const create: Operation<CreateRequest> = {
	checkAllBeforeSending: true,

	prepare(ctx, itemIndex) {
		const zone = timezone(ctx, itemIndex);
		const fromFields = ctx.getNodeParameter('channelsInput', itemIndex, 'fields') === 'fields';
		const channels = fromFields
			? ((ctx.getNodeParameter('channels.channel', itemIndex, []) as IDataObject[]) ?? []).map(withPlainLocationId)
			: channelsFromJson(ctx, itemIndex);

		const check = checkCampaign(
			{
				name: ctx.getNodeParameter('name', itemIndex),
				description: ctx.getNodeParameter('campaignDescription', itemIndex),
				categoryId: ctx.getNodeParameter('categoryId', itemIndex),
				channels,
			},
			zone,
		);
		if (!check.ok) {
			const fields = [...new Set(check.problems.map(({ field }) => readableField(field)))];
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid campaign, nothing was sent: ${check.problems.map(({ field, message }) => `${field} ${message}`).join('; ')}`,
				{
					itemIndex,
					description: [
						`Fix ${fields.length === 1 ? 'this field' : 'these fields'}: ${fields.join(', ')}.`,
						...(check.problems.some(({ field }) => field === 'categoryId') ? [`Categories: ${CATEGORY_LIST}.`] : []),
					].join('\n'),
				},
			);
		}
		return {
			body: check.body,
			key: idempotencyKey(ctx, itemIndex, check.body),
			resend: resendOption(ctx, itemIndex),
			zoneNote: zoneNote(channels, zone),
			dryRun: dryRun(ctx, itemIndex),
		};
	},

	guard(ctx, prepared) {
		const candidates: Candidate[] = [];
		for (const { itemIndex, request } of prepared) {
			// A dry run sends nothing, so it records nothing: the real send stays possible.
			if (request.key !== undefined && !request.dryRun) candidates.push({ itemIndex, key: request.key, resend: request.resend });
		}
		return candidates.length ? campaignGuard(ctx, candidates) : undefined;
	},

	async send(ctx, request, transport, itemIndex) {
		const sms = smsPerRecipient(request.body);
		addSmsHints(ctx, sms, itemIndex);
		if (request.dryRun) return [dryRunOutput(request, sms)];
		try {
			const response = await transport.request({
				method: 'POST',
				path: '/lba/campaign',
				body: request.body as unknown as IDataObject,
				itemIndex,
				retry: false,
			});
			return [
				{
					...response,
					...(request.key === undefined ? {} : { idempotencyKey: request.key }),
					smsPerRecipient: sms,
					...request.zoneNote,
				},
			];
		} catch (error) {
			throw withProtectionNote(error as NodeApiError, request.key);
		}
	},
};

type ChannelSms = { channel: number } & ReturnType<typeof smsCount>;

/** What each channel's message costs per recipient, counted on the text as sent. */
function smsPerRecipient(body: CampaignBody): ChannelSms[] {
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
function addSmsHints(ctx: IExecuteFunctions, sms: ChannelSms[], itemIndex: number): void {
	for (const warning of smsWarnings(sms)) {
		ctx.addExecutionHints({ message: `Item ${itemIndex + 1}, ${warning}`, type: 'info', location: 'outputPane' });
	}
}

function dryRunOutput(request: CreateRequest, sms: ChannelSms[]): IDataObject {
	const warnings = [...smsWarnings(sms)];
	if (request.zoneNote) {
		warnings.push(`${request.zoneNote.datesWithoutOffset.join(', ')} had no UTC offset and were read in ${request.zoneNote.assumedTimezone}.`);
	}
	return {
		dryRun: true,
		sent: false,
		request: { method: 'POST', path: '/lba/campaign', body: request.body as unknown as IDataObject },
		smsPerRecipient: sms as unknown as IDataObject[],
		warnings,
		...(request.key === undefined ? {} : { idempotencyKey: request.key }),
		...request.zoneNote,
	};
}

/** Options > Dry Run on the node; on the tool, the model's `preview` argument. */
function dryRun(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const option = ctx.getNodeParameter('options.dryRun', itemIndex, false);
	if (option === true || option === 'true') return true;
	if (!runsAsTool(ctx)) return false;
	const preview = ctx.getNodeParameter('preview', itemIndex, false);
	return preview === true || preview === 'true';
}

/** A campaign that may exist keeps its key: its error says a re-run will not send it again. */
function withProtectionNote(error: NodeApiError, key: string | undefined): NodeApiError {
	if (key !== undefined && failureOutcome(error) === 'unknown') {
		error.description = `${error.description ?? ''} Duplicate protection kept this campaign's key (${key}), so a Retry or re-run will not send it again. ${HOW_TO_RESEND}`.trim();
	}
	return error;
}

function idempotencyKey(ctx: IExecuteFunctions, itemIndex: number, body: CampaignBody): string | undefined {
	const mode = ctx.getNodeParameter('duplicateProtection', itemIndex, 'content') as ProtectionMode;
	if (mode === 'off') return undefined;
	if (mode === 'content') return contentKey(body);
	const key = customKey(ctx.getNodeParameter('idempotencyKey', itemIndex, ''));
	if (key === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'Idempotency Key is empty', {
			itemIndex,
			description:
				'Nothing was sent for this item. With Duplicate Protection set to Custom Key, every item needs a key, e.g. {{ $json.orderId }}.',
		});
	}
	return key;
}

function resendOption(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const value = ctx.getNodeParameter('options.resend', itemIndex, false);
	return value === true || value === 'true';
}

function timezone(ctx: IExecuteFunctions, itemIndex: number): string {
	const override = String(ctx.getNodeParameter('options.timezone', itemIndex, '') ?? '').trim();
	if (!override) return ctx.getTimezone();
	if (!isValidZone(override)) {
		throw new NodeOperationError(ctx.getNode(), `Unknown timezone "${override}"`, {
			itemIndex,
			description: 'Use an IANA name such as Asia/Jakarta, Asia/Makassar or Asia/Jayapura.',
		});
	}
	return override;
}

/** Dates given as wall-clock text were read in `zone`: worth saying, as an AI model often omits the offset. */
function zoneNote(channels: unknown, zone: string): CreateRequest['zoneNote'] {
	if (!Array.isArray(channels)) return undefined;
	const datesWithoutOffset: string[] = [];
	channels.forEach((channel: IDataObject, index) => {
		for (const field of ['startDate', 'endDate']) {
			if (readInZone(channel?.[field])) datesWithoutOffset.push(`channels[${index}].${field}`);
		}
	});
	return datesWithoutOffset.length ? { assumedTimezone: zone, datesWithoutOffset } : undefined;
}

function channelsFromJson(ctx: IExecuteFunctions, itemIndex: number): unknown {
	const value = ctx.getNodeParameter('channelsJson', itemIndex);
	if (typeof value !== 'string') return asList(value); // an expression already produced an array or object
	try {
		return asList(jsonParse(value));
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), 'Channels (JSON) is not valid JSON', {
			itemIndex,
			description: (error as Error).message,
		});
	}
}

/**
 * The panel's Location ID is a resource locator ({ __rl, mode, value }); workflows saved by 0.1.0
 * hold a plain number. Both become the value the campaign schema checks.
 */
function withPlainLocationId(channel: IDataObject): IDataObject {
	const locationId = channel?.locationId as unknown;
	return isResourceLocatorValue(locationId) ? { ...channel, locationId: locationId.value } : channel;
}

/** One channel object is a list of one: what an AI model or an earlier node often gives. */
function asList(value: unknown): unknown {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value;
}

/** 'channels[1].endDate' -> 'Channel 2 End (channels[1].endDate)' so users find it in the panel. */
function readableField(field: string): string {
	if (FIELD_LABELS[field]) return `${FIELD_LABELS[field]} (${field})`;
	const match = /^channels\[(\d+)\](?:\.(\w+))?$/.exec(field);
	if (!match) return field;
	const label = match[2] ? ` ${CHANNEL_FIELD_LABELS[match[2]] ?? match[2]}` : '';
	return `Channel ${Number(match[1]) + 1}${label} (${field})`;
}
