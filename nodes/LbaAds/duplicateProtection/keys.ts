import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** Idempotency keys: what makes two campaigns "the same campaign" for duplicate protection. */

export type ProtectionMode = 'content' | 'customKey' | 'off';

const CONTENT_PREFIX = 'content:';
const CUSTOM_PREFIX = 'custom:';
const CREATED_PREFIX = 'created:';

export const HOW_TO_RESEND =
	'To send it again on purpose, turn on Options > Resend for this item (an expression such as {{ $json.resend }} picks items), or run this same node once with the operation Forget Sent Campaigns.';

/** The key of a campaign body exactly as it would be sent: a hash of its canonical JSON. */
export function contentKey(body: unknown): string {
	return `${CONTENT_PREFIX}${createHash('sha256').update(canonicalJson(body)).digest('hex')}`;
}

/** The key a user gives (e.g. {{ $json.orderId }}), or undefined when it is empty. */
export function customKey(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim();
	return text === '' ? undefined : `${CUSTOM_PREFIX}${text}`;
}

/** A key as a user types it for forgetting: a full key from an output, or a custom key's own text. */
export function keyFromUser(value: unknown): string | undefined {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text.startsWith(CONTENT_PREFIX) || text.startsWith(CUSTOM_PREFIX)) return text;
	return customKey(text);
}

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

/** Recorded beside a key once its campaign was created. */
export const createdMark = (key: string) => `${CREATED_PREFIX}${key}`;

