import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Idempotency keys: what makes two campaigns "the same campaign" for duplicate protection.
 *
 * A key names a campaign by its meaning and by where it goes (the service's base URL), and
 * carries a version, so that a change of format never makes an upgrade send again:
 * - `content:v2:<sha256>`: the campaign with its dates as instants (UTC), and the target;
 * - `custom:v2:<target> <text>`: a key the user gives, for one target;
 * - `retry:v4:<sha256>`: which campaign of the execution it is (its execution, the campaign
 *   without its dates and its place among identical ones: see itemOrigin.ts), never where its
 *   item sat, nor in which round of a loop. A Retry finds this key however the data before the
 *   node was computed again and whatever `$now` gave. (`retry:v3` also held the node's run index,
 *   so a loop's rounds shifted by a row added before a Retry billed their campaigns again;
 *   `retry:v2` was the item's `pairedItem` lineage; `retry:v1` also held the parameters as written.)
 * Golden tests pin the formats; a later change of format gets a new version prefix.
 */

export type ProtectionMode = 'content' | 'customKey' | 'off';

const CONTENT_PREFIX = 'content:v2:';
const CUSTOM_PREFIX = 'custom:v2:';
const RETRY_PREFIX = 'retry:v4:';
const CREATED_PREFIX = 'created:';

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

/** Which campaign of one execution an item is (itemOrigin.ts `retryKeysOf` gives its parts). */
export function retryKey(identity: IDataObject | { [key: string]: unknown }): string {
	return `${RETRY_PREFIX}${sha256(identity)}`;
}

/**
 * An input item as a Retry finds it again (itemOrigin.ts `numbered`): 16 hex digits of its JSON's
 * hash, enough to tell apart the items of one run, short enough to keep with every campaign sent.
 */
export function rowKey(json: unknown): string {
	return sha256(json ?? null).slice(0, 16);
}

/** A key of fixed form at the start of what a user gave (a custom key, which may hold spaces, comes last). */
const LEADING_FULL_KEY = /^(?:content:v2|retry:v[1-4]):[0-9a-f]{64}(?=[\s,]|$)/;

/**
 * The keys to forget for what a user gave: an output's `forgetKeys` (its retry key, then its own
 * key), one key from an output or an error, a list of them, or a custom key's own text (its key
 * for `target`; none when the target is not known).
 */
export function keysFromUser(value: unknown, target: string | undefined): string[] {
	if (Array.isArray(value)) return [...new Set(value.flatMap((entry) => keysFromUser(entry, target)))];
	let text = value === undefined || value === null ? '' : String(value).trim().normalize('NFC');
	const keys: string[] = [];
	for (let match = LEADING_FULL_KEY.exec(text); match; match = LEADING_FULL_KEY.exec(text)) {
		keys.push(match[0]);
		text = text.slice(match[0].length).replace(/^[\s,]+/, '');
	}
	if (text.startsWith(CUSTOM_PREFIX)) keys.push(text);
	else if (text !== '' && target !== undefined) keys.push(`${CUSTOM_PREFIX}${target} ${text}`);
	return [...new Set(keys)];
}

/** What an output names for Forget Sent: every key that holds the campaign back, its retry key first. */
export function forgetKeysOf(key: string, retry: string): string {
	return key === retry ? retry : `${retry} ${key}`;
}

const SEND_AGAIN_PREFIX = 'again:v1:';

/**
 * What sending a campaign again needs, in the key a held item names (issue 60): the campaign as
 * it was sent (its dates as instants, so neither `$now` nor a Retry computes them again) and where
 * it went. Mode "Send One Again" of the Create node reads it back (`readSendAgainKey`).
 */
export function sendAgainKey(target: string, campaign: unknown): string {
	return `${SEND_AGAIN_PREFIX}${Buffer.from(JSON.stringify({ target, campaign }), 'utf8').toString('base64url')}`;
}

/** The campaign and target a send-again key names, or undefined when the text is not one (cut short, say). */
export function readSendAgainKey(text: string): { target: string; campaign: IDataObject } | undefined {
	const trimmed = String(text ?? '').trim();
	if (!trimmed.startsWith(SEND_AGAIN_PREFIX)) return undefined;
	try {
		const { target, campaign } = JSON.parse(Buffer.from(trimmed.slice(SEND_AGAIN_PREFIX.length), 'base64url').toString('utf8')) as { target?: unknown; campaign?: unknown };
		return typeof target === 'string' && campaign && typeof campaign === 'object' ? { target, campaign: campaign as IDataObject } : undefined;
	} catch {
		return undefined;
	}
}

/** The key that records a campaign sent again by its send-again key: once per key, per node. */
export const sentAgainKey = (sendAgain: string) => `again:${sha256(sendAgain.trim())}`;

function customText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	// In Unicode NFC, as campaign text is sent: "é" typed as one character or as e + accent is one key.
	const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim().normalize('NFC');
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

/**
 * Recorded beside a key while a run sends its campaign (taken out when that run settles it), with
 * the 5-minute slot by whose end that run has surely settled or died: its wave's requests at their
 * timeout, plus the history lock's waits. A mark whose slot has ended is a run that stopped mid-send.
 */
export const sendingMark = (key: string, slot: number) => `sending:${slot}:${key}`;
export const SENDING_SLOT_MS = 300_000;
/** The slot whose end is at or after `ms`. */
export const sendingSlotOf = (ms: number) => Math.ceil(ms / SENDING_SLOT_MS);
/** The longest a run sends one wave (4 requests per slot at the longest Timeout, and the lock's waits), in slots. */
const LONGEST_SEND_SLOTS = Math.ceil((44 * 60_000) / SENDING_SLOT_MS);
/** Every mark of a run that may still be sending `key` now. */
export const liveSendingMarks = (key: string, nowMs: number): string[] =>
	Array.from({ length: LONGEST_SEND_SLOTS + 1 }, (_, step) => sendingMark(key, sendingSlotOf(nowMs) + step));

/** Recorded beside a key once its campaign was created. */
export const createdMark = (key: string) => `${CREATED_PREFIX}${key}`;

/**
 * Recorded with a question about a "created" mark, in the same write, and taken out with it: the
 * store answers only by recording, so a question a stopped run left behind must not read as "created".
 */
export const questionMark = (mark: string) => `asking:${mark}`;
