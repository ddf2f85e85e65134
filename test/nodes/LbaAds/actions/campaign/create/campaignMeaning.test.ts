/**
 * The content key sees the campaign by its meaning: the same channels in any order and the same
 * text in NFC or NFD are one campaign; a channel changed in any field, or listed once more, is
 * another. Each campaign goes the way a user's does: the campaign schema, then the key.
 */
import { campaignByMeaning } from '../../../../../../nodes/LbaAds/actions/campaign/create/campaignMeaning';
import { checkCampaign } from '../../../../../../nodes/LbaAds/actions/campaign/create/campaignSchema';
import { contentKey, serviceTarget } from '../../../../../../nodes/LbaAds/duplicateProtection/keys';

const TARGET = serviceTarget('https://api.example.co.id');

type Channel = Record<string, unknown>;
const tsel: Channel = {
	sender: 'MYBRAND',
	locationId: 161,
	smsQty: 1000,
	message: 'Promo hari ini!',
	startDate: '2026-12-01T09:00:00+07:00',
	endDate: '2026-12-07T21:00:00+07:00',
	telcoId: 'tsel',
};
const xl: Channel = { ...tsel, telcoId: 'xl', smsQty: 500 };
const isat: Channel = { ...tsel, telcoId: 'isat', locationId: 3273 };
const campaign = (channels: Channel[], fields: Record<string, unknown> = {}) => ({
	name: 'Bandung weekend promo',
	description: 'Weekend discounts',
	categoryId: 10,
	channels,
	...fields,
});

function keyOf(input: unknown): string {
	const check = checkCampaign(input, 'Asia/Jakarta');
	if (!check.ok) throw new Error(JSON.stringify(check.problems));
	return contentKey(campaignByMeaning(check.body), TARGET);
}

const nfd = (text: string) => text.normalize('NFD');

describe('the content key: the same campaign by meaning', () => {
	it('is pinned for a campaign of three channels, in every order of its channels', () => {
		const orders = [
			[tsel, xl, isat],
			[tsel, isat, xl],
			[xl, tsel, isat],
			[xl, isat, tsel],
			[isat, tsel, xl],
			[isat, xl, tsel],
		];
		// SHA-256 of the canonical JSON written out by hand (2026-11-26): {"campaign":{…,"channels":[tsel, xl,
		// isat]…},"target":…}, each channel with its fields in name order and its dates in UTC.
		for (const channels of orders) {
			expect(keyOf(campaign(channels))).toBe('content:v2:7dbc358453f5f2156b86726100d7241a650361ff429b29e11000f5bb1d8ae3cb');
		}
	});

	it('a one-channel campaign keeps the key content:v2 had (dates as UTC instants, nothing else changed)', () => {
		// The value pinned in test/nodes/LbaAds/duplicateProtection/keys.test.ts for the same campaign.
		expect(keyOf(campaign([tsel]))).toBe('content:v2:240c0bc26d3cc733ffd62d984d4cf11417fdac2a6aef741a4a33b05bb53e1f01');
	});

	it('a channel changed in any one field is another campaign, whatever the order', () => {
		const key = keyOf(campaign([tsel, xl]));
		const changes: Channel = {
			sender: 'OTHERBRAND',
			locationId: 162,
			smsQty: 1001,
			message: 'Promo hari ini?',
			startDate: '2026-12-01T09:00:01+07:00',
			endDate: '2026-12-07T21:00:01+07:00',
			telcoId: 'isat',
		};
		expect(Object.keys(changes).sort()).toEqual(Object.keys(tsel).sort());
		for (const [field, value] of Object.entries(changes)) {
			const changed = { ...tsel, [field]: value };
			expect([field, keyOf(campaign([xl, changed]))]).not.toEqual([field, key]);
			expect([field, keyOf(campaign([changed, xl]))]).not.toEqual([field, key]);
		}
	});

	it('two channels that swap one field between them are another campaign', () => {
		const swapped = [{ ...tsel, smsQty: xl.smsQty }, { ...xl, smsQty: tsel.smsQty }];
		expect(keyOf(campaign(swapped))).not.toBe(keyOf(campaign([tsel, xl])));
	});

	it('a channel listed twice counts twice: [A, A, B] is not [A, B], and [A, B, A] is [A, A, B]', () => {
		expect(keyOf(campaign([tsel, tsel, xl]))).not.toBe(keyOf(campaign([tsel, xl])));
		expect(keyOf(campaign([tsel, xl, tsel]))).toBe(keyOf(campaign([tsel, tsel, xl])));
		expect(keyOf(campaign([tsel, xl, xl]))).not.toBe(keyOf(campaign([tsel, tsel, xl])));
	});

	it('the same text in NFC and NFD (name, description, sender, message) is one campaign', () => {
		const accented = campaign([{ ...tsel, sender: 'CaféBdg', message: 'Promo spesial di café, naïve!' }, xl], {
			name: 'Crème brûlée week',
			description: 'Hélène, Müller, Peña',
		});
		const decomposed = campaign([xl, { ...tsel, sender: nfd('CaféBdg'), message: nfd('Promo spesial di café, naïve!') }], {
			name: nfd('Crème brûlée week'),
			description: nfd('Hélène, Müller, Peña'),
		});
		expect(nfd('café')).not.toBe('café');
		expect(keyOf(decomposed)).toBe(keyOf(accented));
		// Unaccented text is other text.
		expect(keyOf(campaign([{ ...tsel, sender: 'CafeBdg', message: 'Promo spesial di cafe, naive!' }, xl], { name: 'Creme brulee week', description: 'Helene, Muller, Pena' }))).not.toBe(keyOf(accented));
	});

	it('leaves the body as sent alone: the channels keep the order the user gave', () => {
		const check = checkCampaign(campaign([xl, tsel]), 'Asia/Jakarta');
		if (!check.ok) throw new Error('expected a valid campaign');
		const before = JSON.stringify(check.body);
		expect(campaignByMeaning(check.body).channels.map((channel) => channel.telcoId)).toEqual(['tsel', 'xl']);
		expect(JSON.stringify(check.body)).toBe(before);
	});
});
