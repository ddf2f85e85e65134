/** Small conversions of parameter values, shared by the operations. */

/** Digit strings such as "161" (the real service's own sample) count as the number they spell. */
export function digitsToNumber(value: unknown): unknown {
	return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
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
