import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Idempotency keys: what makes two campaigns "the same campaign" for duplicate protection.
 *
 * A key names a campaign by its meaning and by where it goes (the service's base URL), and
 * carries a version, so that a change of format never makes an upgrade send again:
 * - `content:v2:<sha256>`: the campaign with its dates as instants (UTC), and the target;
 * - `custom:v2:<target> <text>`: a key the user gives, for one target;
 * - `retry:v1:<sha256>`: the item as the execution saw it before any expression was evaluated
 *   (the node's parameters as written, its input item, its place in the run, the execution it
 *   started in). A Retry reuses the input of the failed node, so it finds this key even when
 *   `$now` changed the campaign's dates.
 * Keys of earlier versions (0.1.0: `content:<sha256>` of the body as sent, `custom:<text>`) are
 * still honoured: see `legacyKey`.
 */

export type ProtectionMode = 'content' | 'customKey' | 'off';

const CONTENT_PREFIX = 'content:v2:';
const CUSTOM_PREFIX = 'custom:v2:';
const RETRY_PREFIX = 'retry:v1:';
const LEGACY_CONTENT_PREFIX = 'content:';
const LEGACY_CUSTOM_PREFIX = 'custom:';
const CREATED_PREFIX = 'created:';

export const HOW_TO_RESEND =
	'To send it again on purpose, turn on Options > Resend for this item (an expression such as {{ $json.resend }} picks items), or run this same node once with the operation Forget Sent Campaigns.';

/**
 * Where campaigns go, as one string: the base URL with its scheme and host in lower case,
 * default ports and trailing slashes removed. Re-creating a credential with the same URL keeps it.
 */
export function serviceTarget(baseUrl: string): string {
	const text = String(baseUrl ?? '').trim();
	try {
		const url = new URL(text);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		return text.replace(/\/+$/, '').toLowerCase();
	}
}

/** The key of a campaign by its meaning: `campaign` has its dates as UTC instants already. */
export function contentKey(campaign: unknown, target: string): string {
	return `${CONTENT_PREFIX}${sha256({ campaign, target })}`;
}

/** The key a user gives (e.g. {{ $json.orderId }}) for one target, or undefined when it is empty. */
export function customKey(value: unknown, target: string): string | undefined {
	const text = customText(value);
	return text === undefined ? undefined : `${CUSTOM_PREFIX}${target} ${text}`;
}

/** What identifies one item of one execution before its expressions are evaluated (see the header). */
export interface ItemOrigin {
	target: string;
	/** The node's parameters as written (expressions unevaluated) that define the campaign. */
	parameters: unknown;
	/** The item's input JSON, which a Retry reuses. */
	input: unknown;
	itemIndex: number;
	runIndex: number;
	/** The execution the item first ran in (kept by a Retry). */
	execution: string;
}

export function retryKey(origin: ItemOrigin): string {
	return `${RETRY_PREFIX}${sha256(origin)}`;
}

/**
 * The key 0.1.0 recorded for the same campaign: a hash of the body as sent (dates with the
 * offset they were written in), or `custom:<text>`. It names no target.
 */
export function legacyKey(mode: 'content' | 'customKey', bodyAsSent: unknown, customValue?: unknown): string | undefined {
	if (mode === 'content') return `${LEGACY_CONTENT_PREFIX}${createHash('sha256').update(canonicalJson(bodyAsSent)).digest('hex')}`;
	const text = customText(customValue);
	return text === undefined ? undefined : `${LEGACY_CUSTOM_PREFIX}${text}`;
}

/**
 * The keys to forget for what a user typed: a full key from an output, or a custom key's own
 * text (then its key for `target` when known, and the key 0.1.0 recorded for it).
 */
export function keysFromUser(value: unknown, target: string | undefined): string[] {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text === '') return [];
	if ([CONTENT_PREFIX, CUSTOM_PREFIX, RETRY_PREFIX, LEGACY_CONTENT_PREFIX, LEGACY_CUSTOM_PREFIX].some((prefix) => text.startsWith(prefix))) return [text];
	const keys = [`${LEGACY_CUSTOM_PREFIX}${text}`];
	if (target !== undefined) keys.unshift(`${CUSTOM_PREFIX}${target} ${text}`);
	return keys;
}

function customText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim();
	return text === '' ? undefined : text;
}

function sha256(value: unknown): string {
	return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** JSON with object keys sorted and undefined members left out: equal values, equal text. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** Recorded beside a key while a run sends its campaign (taken out when that run settles it). */
export const sendingMark = (key: string) => `sending:${key}`;

/** Recorded beside a key once its campaign was created. */
export const createdMark = (key: string) => `${CREATED_PREFIX}${key}`;
