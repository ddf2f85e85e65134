import { readFileSync } from 'node:fs';
import path from 'node:path';

import { smsCount } from '../../../../../../nodes/LbaAds/actions/campaign/create/smsSegments';

/** The GSM 03.38 tables, typed from the standard (not read from the code under test). */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

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
		expect(Array.from(GSM_BASIC)).toHaveLength(127);
		expect(smsCount(GSM_BASIC)).toMatchObject({ encoding: 'GSM-7', units: 127 });
		expect(smsCount(GSM_EXTENSION)).toMatchObject({ encoding: 'GSM-7', units: 20 });
		for (const other of ['`', 'ç', 'á', 'Ā', '’', '•', '\t']) expect(smsCount(other).encoding).toBe('UCS-2');
	});
});

// The node sends text in NFC (campaignSchema.ts); docs/choices.md shows what that saves.
describe('smsCount of NFD and NFC text', () => {
	it('the figures in docs/choices.md ("Text in Unicode NFC") are this counter\'s', () => {
		const doc = readFileSync(path.resolve(__dirname, '../../../../../../docs/choices.md'), 'utf8');
		const section = doc.split('## Text in Unicode NFC')[1].split('\n## ')[0];
		const rows = section.split('\n').filter((line) => /^\| [^-|]/.test(line) && !line.startsWith('| Message'));
		expect(rows.length).toBeGreaterThanOrEqual(5);
		const shown = (text: string) => {
			const { encoding, units, segments } = smsCount(text);
			return `${encoding}, ${units} units, ${segments} SMS`;
		};
		for (const row of rows) {
			const [message, characters, asNfd, asNfc] = row.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, ''));
			expect([message, characters]).toEqual([message, `${Array.from(message.normalize('NFD')).length} / ${Array.from(message.normalize('NFC')).length}`]);
			expect([message, asNfd, asNfc]).toEqual([message, shown(message.normalize('NFD')), shown(message.normalize('NFC'))]);
		}
	});

	it('text in the GSM alphabet is already NFC (each character, each pair), so sending NFC never makes a GSM-7 message UCS-2', () => {
		const gsm = Array.from(`${GSM_BASIC}${GSM_EXTENSION}`);
		expect(gsm).toHaveLength(137);
		const changed = gsm.flatMap((first) => [first, ...gsm.map((second) => first + second)]).filter((text) => text.normalize('NFC') !== text);
		expect(changed).toEqual([]);
		// Where NFC does change text, the counter sees the difference: an ohm sign is UCS-2, the omega NFC gives is GSM-7.
		expect([smsCount('\u2126').encoding, smsCount('\u2126'.normalize('NFC')).encoding]).toEqual(['UCS-2', 'GSM-7']);
	});
});
