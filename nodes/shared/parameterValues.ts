/** Small conversions of parameter values, shared by the operations. */

/** Digit strings such as "161" (the real service's own sample) count as the number they spell. */
export function digitsToNumber(value: unknown): unknown {
	return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
}

/**
 * A whole-number id (a Location ID, say) as the segment of a request's path, or undefined when the
 * value is not one: what digitsToNumber takes (3273, "3273", " 3273 ", "03273"), written plainly.
 * A path is text; the service (like any OpenAPI server, and the sandbox) reads "3273" as the
 * number 3273 but "03273" or "3.273e3" as no number, answering 404. Use it for every numeric id
 * in a path (`/lba/locations/${id}`, with `id = idInPath(value)` checked in `prepare`).
 */
export function idInPath(value: unknown): string | undefined {
	const number = digitsToNumber(value);
	return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? String(number) : undefined;
}

/** A bad parameter value as an error description shows it: JSON, but NaN, Infinity and undefined by name. */
export function shownValue(value: unknown): string {
	if (typeof value === 'number' || value === undefined) return String(value);
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value); // circular or BigInt
	}
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
