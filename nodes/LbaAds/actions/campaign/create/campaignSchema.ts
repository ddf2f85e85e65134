import { DateTime } from 'luxon';
import { z } from 'zod';

import { parseDate, shownDate, toApiDate, type DateRole } from '../../../helpers/dates';
import { digitsToNumber, shownValue } from '../../../../shared/parameterValues';
import { SAY } from '../../../../shared/instructions';

/** Category ids of spec 2.2; labels with the spec's typos corrected. */
export const CATEGORIES: ReadonlyArray<{ id: number; label: string }> = [
	{ id: 3, label: 'Arts & Entertainment' },
	{ id: 4, label: 'Automotive' },
	{ id: 5, label: 'Business' },
	{ id: 6, label: 'Careers' },
	{ id: 7, label: 'Education' },
	{ id: 8, label: 'Family & Parenting' },
	{ id: 9, label: 'Health & Fitness' },
	{ id: 10, label: 'Food & Drinks' },
	{ id: 11, label: 'Hobby & Interest' },
	{ id: 12, label: 'Home & Garden' },
	{ id: 13, label: "Law, Gov't & Politics" },
	{ id: 14, label: 'News' },
	{ id: 15, label: 'Personal Finance' },
	{ id: 16, label: 'Society' },
	{ id: 17, label: 'Science' },
	{ id: 18, label: 'Pets' },
	{ id: 19, label: 'Sports' },
	{ id: 20, label: 'Style & Fashion' },
	{ id: 21, label: 'Technology & Computing' },
	{ id: 22, label: 'Travel' },
	{ id: 23, label: 'Real Estate' },
	{ id: 24, label: 'Shopping' },
	{ id: 25, label: 'Religion & Spirituality' },
	{ id: 26, label: 'Uncategorized' },
];

/** telcoId values of spec 2.3 with the operators they stand for, and the other names people use for them. */
export const TELCOS: ReadonlyArray<{ id: string; label: string; names: string[] }> = [
	{ id: 'isat', label: 'Indosat Ooredoo Hutchison (isat)', names: ['Indosat', 'Indosat Ooredoo', 'Indosat Ooredoo Hutchison', 'IOH', 'IM3'] },
	{ id: 'tsel', label: 'Telkomsel (tsel)', names: ['Telkomsel'] },
	{ id: 'xl', label: 'XL Axiata (xl)', names: ['XL Axiata', 'XL'] },
];

const CATEGORY_IDS = new Set(CATEGORIES.map((category) => category.id));
const TELCO_IDS = TELCOS.map((telco) => telco.id) as [string, ...string[]];

/** "Food & Drinks", "food and drinks", " FOOD&DRINKS " -> "foodanddrinks": how labels are matched. */
function labelKey(text: string): string {
	return text.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '');
}

const CATEGORY_BY_LABEL = new Map(CATEGORIES.map((category) => [labelKey(category.label), category.id]));
const TELCO_BY_NAME = new Map(
	TELCOS.flatMap((telco) => [telco.id, telco.label, ...telco.names].map((name) => [labelKey(name), telco.id] as const)),
);

/** The valid categories as a model or a person needs them in one line: "3 Arts & Entertainment, 4 Automotive, …". */
export const CATEGORY_LIST = CATEGORIES.map((category) => `${category.id} ${category.label}`).join(', ');
/** "isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata)". */
export const TELCO_LIST = TELCOS.map((telco) => `${telco.id} (${telco.label.replace(/ \(\w+\)$/, '')})`)
	.join(', ')
	.replace(/, ([^,]*)$/, ' or $1');

/** A category given as id, digit string or label (what an expression or an AI model may give). */
function toCategoryId(value: unknown): unknown {
	const number = digitsToNumber(value);
	if (typeof number !== 'string') return number;
	return CATEGORY_BY_LABEL.get(labelKey(number)) ?? number;
}

/** A telco given as id, panel label or operator name ("Telkomsel", "XL Axiata", "Indosat"). */
function toTelcoId(value: unknown): unknown {
	return typeof value === 'string' ? (TELCO_BY_NAME.get(labelKey(value)) ?? value) : value;
}

/**
 * Bounds the spec does not show (8.): the sandbox's documented choices, so the node never sends
 * a campaign the service would refuse. Lengths count characters (Unicode code points), as the
 * service's JSON Schema does: an emoji is one character, not two UTF-16 units.
 */
export const LIMITS = {
	name: 255,
	description: 1000,
	/** The longest alphanumeric SMS sender ID (GSM 03.40). */
	sender: 11,
	/** One SMS; smsQty counts messages. */
	message: 160,
	smsQty: 10_000_000,
	/** A positive 32-bit integer. */
	locationId: 2_147_483_647,
	/** Channel ids end in a two-digit sequence. */
	channels: 99,
};

/**
 * Text as sent: trimmed and in Unicode NFC, so the same words typed with combining accents (a copy
 * from macOS or a CMS) are the same campaign and stay in the GSM alphabet ("é" is GSM, "e" + U+0301
 * is UCS-2): see docs/choices.md. The length is counted as sent.
 */
function requiredText(maxCharacters: number) {
	return z
		.string({ required_error: 'is required', invalid_type_error: 'must be text' })
		.trim()
		.min(1, 'must not be empty')
		.transform((text) => text.normalize('NFC'))
		.refine(
			(text) => characterCount(text) <= maxCharacters,
			(text) => ({
				message: `must be at most ${maxCharacters} characters`,
				params: { panel: `${characterCount(text)} of ${maxCharacters} characters (${characterCount(text) - maxCharacters} too many)` },
			}),
		);
}

function characterCount(text: string): number {
	return Array.from(text).length;
}

/** Whole numbers from 1 to `max`. */
function positiveInteger(max: number) {
	return z.preprocess(
		digitsToNumber,
		z
			.number({ required_error: 'is required', invalid_type_error: 'must be a whole number' })
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.max(max, `must be at most ${max.toLocaleString('en-US')}`),
	);
}

const telcoId = z.preprocess(
	toTelcoId,
	z.enum(TELCO_IDS, {
		errorMap: (_issue, ctx) => ({ message: ctx.data === undefined ? 'is required' : `must be ${TELCO_LIST}` }),
	}),
);

function apiDate(zone: string, role: DateRole) {
	return z.unknown().transform((value, ctx) => {
		const parsed = parseDate(value, zone, role);
		if (!parsed.ok) {
			const required = parsed.reason === 'is required';
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: required ? 'is required' : 'must be a date and time in ISO 8601 with a UTC offset',
				params: { panel: required ? (value === undefined || value === null ? 'missing' : 'empty') : parsed.reason },
			});
			return z.NEVER;
		}
		return parsed.value;
	});
}

function channelSchema(zone: string) {
	return z
		.object({
			sender: requiredText(LIMITS.sender),
			locationId: positiveInteger(LIMITS.locationId),
			smsQty: positiveInteger(LIMITS.smsQty),
			message: requiredText(LIMITS.message),
			startDate: apiDate(zone, 'start'),
			endDate: apiDate(zone, 'end'),
			telcoId,
		})
		.strict()
		.superRefine((channel, ctx) => {
			// zod still runs this when a date failed to parse; compare only two real dates.
			const { startDate, endDate } = channel as { startDate: unknown; endDate: unknown };
			if (!DateTime.isDateTime(startDate) || !DateTime.isDateTime(endDate)) return;
			// Compared as sent: the API format has whole seconds, so 09:00:00.100 < 09:00:00.900 is not enough.
			if (wholeSeconds(endDate) <= wholeSeconds(startDate)) {
				const order = wholeSeconds(endDate) < wholeSeconds(startDate) ? 'is before' : 'is the same time as';
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['endDate'],
					message: 'must be after startDate',
					params: { panel: `${shownDate(endDate)} ${order} Send From (${shownDate(startDate)})` },
				});
			}
		})
		.transform((channel) => ({
			...channel,
			startDate: toApiDate(channel.startDate),
			endDate: toApiDate(channel.endDate),
		}));
}

function wholeSeconds(date: DateTime): number {
	return Math.floor(date.toMillis() / 1000);
}

function campaignSchema(zone: string) {
	return z
		.object({
			name: requiredText(LIMITS.name),
			description: requiredText(LIMITS.description),
			// The list of categories is long: the operation adds it to the error's description.
			categoryId: z.preprocess(
				toCategoryId,
				z.unknown().transform((id, ctx) => {
					if (typeof id === 'number' && CATEGORY_IDS.has(id)) return id;
					if (id === undefined) {
						ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required', params: { panel: 'missing' } });
					} else {
						ctx.addIssue({
							code: z.ZodIssueCode.custom,
							message: 'must be a category id from 3 to 26 or its label',
							params: { panel: `${shownValue(id)} is not a category` },
						});
					}
					return z.NEVER;
				}),
			),
			channels: z
				.array(channelSchema(zone), {
					required_error: 'is required',
					invalid_type_error: 'must be a list of channels',
				})
				.min(1, 'must contain at least one channel')
				.max(LIMITS.channels, `must contain at most ${LIMITS.channels} channels`),
		})
		.strict();
}

export type CampaignBody = z.output<ReturnType<typeof campaignSchema>>;

export interface CampaignProblem {
	/** Where, in the API's terms: "channels[0].message". */
	field: string;
	/** The API's rule: "must be at most 160 characters". */
	message: string;
	/** What is wrong, in the panel's words: "189 of 160 characters (29 too many)". */
	panel: string;
}

export type CampaignCheck = { ok: true; body: CampaignBody } | { ok: false; problems: CampaignProblem[] };

const schemasByZone = new Map<string, ReturnType<typeof campaignSchema>>();

/** Validates and normalises a campaign; offset-less dates are read in `zone`. */
export function checkCampaign(input: unknown, zone: string): CampaignCheck {
	let schema = schemasByZone.get(zone);
	if (!schema) {
		schema = campaignSchema(zone);
		schemasByZone.set(zone, schema);
	}
	const result = schema.safeParse(input);
	if (result.success) return { ok: true, body: result.data };
	return {
		ok: false,
		problems: result.error.issues.map((issue) => ({
			field: fieldPath(issue.path),
			message: issue.code === z.ZodIssueCode.unrecognized_keys ? `has ${unknownKeysText(issue.keys)}` : issue.message,
			panel: panelWords(issue, valueAt(input, issue.path)),
		})),
	};
}

const CHANNEL_KEYS = ['sender', 'locationId', 'smsQty', 'message', 'startDate', 'endDate', 'telcoId'];
const CAMPAIGN_KEYS = ['name', 'description', 'categoryId', 'channels'];

/** What is wrong, in the words of a person looking at the panel (the value, and what it should be). */
function panelWords(issue: z.ZodIssue, value: unknown): string {
	const panel = (issue as { params?: { panel?: unknown } }).params?.panel;
	if (typeof panel === 'string') return panel;
	const number = digitsToNumber(value);
	const shown = typeof number === 'number' ? number.toLocaleString('en-US') : shownValue(value);
	switch (issue.code) {
		case z.ZodIssueCode.unrecognized_keys:
			return `${unknownKeysText(issue.keys)}${suggestion(issue.keys, issue.path.length ? CHANNEL_KEYS : CAMPAIGN_KEYS)}`;
		case z.ZodIssueCode.invalid_type:
			if (value === undefined || value === null) return 'missing';
			if (issue.expected === 'string') return `${shown} is not text`;
			if (issue.expected === 'array') return `${shown} is not a list of channels`;
			if (issue.expected === 'object') return issue.path.length ? `${shown} is not a channel object` : `${shown} is not a campaign object`;
			return `${shown} is not a whole number`;
		case z.ZodIssueCode.too_small:
			if (issue.type === 'string') return 'empty';
			if (issue.type === 'array') return `none; ${SAY.addChannel}`;
			return `${shown} is less than ${Number(issue.minimum).toLocaleString('en-US')}`;
		case z.ZodIssueCode.too_big:
			if (issue.type === 'array') return `${Array.isArray(value) ? value.length : shown}, more than ${Number(issue.maximum)}`;
			return `${shown} is more than ${Number(issue.maximum).toLocaleString('en-US')}`;
		case z.ZodIssueCode.invalid_enum_value:
			return `${shown} is not one of ${TELCO_LIST}`;
		default:
			return issue.message;
	}
}

function unknownKeysText(keys: string[]): string {
	return `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((key) => `"${key}"`).join(', ')}`;
}

/** ' (did you mean "smsQty"?)' for a field written another way ("smsQuantity", "location_id"). */
function suggestion(keys: string[], known: string[]): string {
	const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
	const meant = keys.flatMap((key) =>
		known.filter((name) => {
			const [a, b] = [squash(key), squash(name)];
			return a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a) || a.slice(0, 4) === b.slice(0, 4)));
		}),
	);
	return meant.length ? ` (did you mean ${[...new Set(meant)].map((name) => `"${name}"`).join(' or ')}?)` : '';
}

/** The input's value at a zod path (undefined where there is none). */
function valueAt(input: unknown, path: Array<string | number>): unknown {
	let value = input;
	for (const part of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string | number, unknown>)[part];
	}
	return value;
}

/** ['channels', 1, 'endDate'] -> 'channels[1].endDate' */
function fieldPath(path: Array<string | number>): string {
	return path.reduce<string>(
		(text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
		'',
	) || 'campaign';
}
