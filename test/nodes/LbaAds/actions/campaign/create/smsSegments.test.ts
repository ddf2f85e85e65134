import { smsCount } from '../../../../../../nodes/LbaAds/actions/campaign/create/smsSegments';

// Published rules (3GPP TS 23.038 / 23.040), as the usual SMS calculators apply them:
// GSM-7 160 in one SMS, 153 per segment; UCS-2 70, then 67; extension characters take two
// septets and are never split; a surrogate pair (emoji) takes two UTF-16 units, never split.
describe('smsCount', () => {
	it.each([
		['empty', '', 'GSM-7', 0, 1],
		['160 GSM characters: one SMS', 'a'.repeat(160), 'GSM-7', 160, 1],
		['161 GSM characters: two segments (153 + 8)', 'a'.repeat(161), 'GSM-7', 161, 2],
		['306 = 2 x 153', 'a'.repeat(306), 'GSM-7', 306, 2],
		['307: three segments', 'a'.repeat(307), 'GSM-7', 307, 3],
		['70 UCS-2 units: one SMS', 'ā'.repeat(70), 'UCS-2', 70, 1],
		['71 UCS-2 units: two segments (67 + 4)', 'ā'.repeat(71), 'UCS-2', 71, 2],
		['134 = 2 x 67', 'ā'.repeat(134), 'UCS-2', 134, 2],
		['135: three segments', 'ā'.repeat(135), 'UCS-2', 135, 3],
		['the extension table counts two septets: 80 euro signs fill one SMS', '€'.repeat(80), 'GSM-7', 160, 1],
		['81 euro signs: 162 septets, two segments', '€'.repeat(81), 'GSM-7', 162, 2],
		['extension characters ^{}\\[~]| are GSM-7 at two septets', '^{}\\[~]|', 'GSM-7', 16, 1],
		// 152 plain + one escape pair would straddle 153: the pair moves to segment 2.
		['an escape pair is not split across segments', `${'a'.repeat(152)}€${'a'.repeat(10)}`, 'GSM-7', 164, 2],
		['... and 306 septets ending in a pair that cannot fit make three', `${'a'.repeat(152)}€${'a'.repeat(152)}`, 'GSM-7', 306, 3],
		['the GSM basic set is one septet each, accents included', 'Über Ñoño: ÄÖÑÜ§¿äöñüà éèùìò ÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞ ÆæßÉ ¡¤£¥$@', 'GSM-7', 57, 1],
		['one character outside it (ï) makes the whole message UCS-2', 'Naïve', 'UCS-2', 5, 1],
		['one emoji makes the message UCS-2 and counts 2 units', 'Promo 🎉', 'UCS-2', 8, 1],
		['35 emoji = 70 units: one SMS', '😀'.repeat(35), 'UCS-2', 70, 1],
		['36 emoji = 72 units: two segments, pairs not split (33 + 3)', '😀'.repeat(36), 'UCS-2', 72, 2],
		['Indonesian text with curly quotes is UCS-2', 'Diskon “spesial” 20% hari ini di Warung Kita, Bandung. Tunjukkan SMS ini!', 'UCS-2', 73, 2],
		['the same text with straight quotes is GSM-7', 'Diskon "spesial" 20% hari ini di Warung Kita, Bandung. Tunjukkan SMS ini!', 'GSM-7', 73, 1],
	])('%s', (_name, text, encoding, units, segments) => {
		expect(smsCount(text)).toMatchObject({ encoding, units, segments });
	});

	it('names the first character that forced UCS-2', () => {
		expect(smsCount('Diskon “spesial”').nonGsmCharacter).toBe('“');
		expect(smsCount('Diskon "spesial"')).not.toHaveProperty('nonGsmCharacter');
	});

	it('every one of the 127 basic characters and 10 extension characters is GSM-7', () => {
		const basic = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
		expect(Array.from(basic)).toHaveLength(127);
		expect(smsCount(basic)).toMatchObject({ encoding: 'GSM-7', units: 127 });
		expect(smsCount('\f^{}\\[~]|€')).toMatchObject({ encoding: 'GSM-7', units: 20 });
		for (const other of ['`', 'ç', 'á', 'Ā', '’', '•', '\t']) expect(smsCount(other).encoding).toBe('UCS-2');
	});
});
