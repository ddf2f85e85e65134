/**
 * How many SMS one message takes per recipient (3GPP TS 23.038 / GSM 03.38 and TS 23.040).
 *
 * - GSM 7-bit: the basic character set costs one septet, the extension table (reached through an
 *   escape) two. One SMS holds 160 septets; a long message is split into segments of 153, as the
 *   user data header takes the rest, and an escape pair is never split across two segments.
 * - Anything outside those tables makes the whole message UCS-2, counted in UTF-16 units (an
 *   emoji is two): 70 in one SMS, segments of 67, a surrogate pair never split.
 */

/** The basic character set, as Unicode (index = GSM code; ESC at 0x1B is not a character). */
const GSM_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ' + // 0x00-0x1A (0x1B ESC left out)
	'ÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table: ESC + code; form feed, ^ { } \ [ ~ ] | €. */
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(Array.from(GSM_BASIC));
const EXTENSION = new Set(Array.from(GSM_EXTENSION));

export const SMS_LIMITS = {
	'GSM-7': { single: 160, segment: 153 },
	'UCS-2': { single: 70, segment: 67 },
} as const;

export type SmsEncoding = keyof typeof SMS_LIMITS;

export interface SmsCount {
	encoding: SmsEncoding;
	/** Septets (GSM-7) or UTF-16 units (UCS-2): what the limits count. */
	units: number;
	/** SMS per recipient. */
	segments: number;
	/** For UCS-2: the first character that is not in the GSM alphabet, which forced it. */
	nonGsmCharacter?: string;
}

export function smsCount(text: string): SmsCount {
	const characters = Array.from(text);
	const nonGsmCharacter = characters.find((character) => !BASIC.has(character) && !EXTENSION.has(character));
	const encoding: SmsEncoding = nonGsmCharacter === undefined ? 'GSM-7' : 'UCS-2';
	// The cost of each character in the encoding's units; none is ever split across segments.
	const costs = characters.map((character) =>
		encoding === 'GSM-7' ? (EXTENSION.has(character) ? 2 : 1) : character.length,
	);
	const units = costs.reduce((sum, cost) => sum + cost, 0);
	const limits = SMS_LIMITS[encoding];
	let segments = 1;
	if (units > limits.single) {
		let used = 0;
		for (const cost of costs) {
			if (used + cost > limits.segment) {
				segments++;
				used = 0;
			}
			used += cost;
		}
	}
	return nonGsmCharacter === undefined ? { encoding, units, segments } : { encoding, units, segments, nonGsmCharacter };
}
