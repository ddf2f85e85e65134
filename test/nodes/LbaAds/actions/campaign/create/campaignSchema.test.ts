import { checkCampaign } from '../../../../../../nodes/LbaAds/actions/campaign/create/campaignSchema';
import { clock } from '../../../../../../nodes/LbaAds/helpers/dates';

// The node's clock, fixed as in the node tests (2026-11-26 09:00 WIB): a refusal's example date is tomorrow's, 2026-11-27.
const realNow = clock.now;
beforeAll(() => (clock.now = () => Date.parse('2026-11-26T02:00:00Z')));
afterAll(() => (clock.now = realNow));

const channel = {
	sender: 'MYBRAND',
	locationId: 161,
	smsQty: 1000,
	message: 'Promo hari ini',
	startDate: '2026-12-01T09:00:00',
	endDate: '2026-12-07T21:00:00',
	telcoId: 'tsel',
};
const campaign = { name: 'Promo', description: 'Weekend promo', categoryId: 10, channels: [channel] };

function problems(input: unknown) {
	const result = checkCampaign(input, 'Asia/Jakarta');
	if (result.ok) throw new Error('expected the campaign to be rejected');
	return result.problems;
}

describe('campaign validation (before anything is sent)', () => {
	it('normalises a valid campaign to the API types', () => {
		const result = checkCampaign(
			{ ...campaign, categoryId: '10', channels: [{ ...channel, locationId: '161', smsQty: ' 1000 ', telcoId: 'TSEL' }] },
			'Asia/Jakarta',
		);
		expect(result).toEqual({
			ok: true,
			body: {
				name: 'Promo',
				description: 'Weekend promo',
				categoryId: 10,
				channels: [
					{
						...channel,
						locationId: 161,
						smsQty: 1000,
						telcoId: 'tsel',
						startDate: '2026-12-01T09:00:00+07:00',
						endDate: '2026-12-07T21:00:00+07:00',
					},
				],
			},
		});
	});

	it.each([
		['missing name', { ...campaign, name: undefined }, 'name', /^is required$/, 'missing'],
		['blank description', { ...campaign, description: '   ' }, 'description', /^must not be empty$/, 'empty'],
		['unknown category', { ...campaign, categoryId: 2 }, 'categoryId', /^must be a category id from 3 to 26 or its label$/, '2 is not a category'],
		['unknown category label', { ...campaign, categoryId: 'Pizza' }, 'categoryId', /^must be a category id from 3 to 26 or its label$/, '"Pizza" is not a category'],
		['missing category', { ...campaign, categoryId: undefined }, 'categoryId', /^is required$/, 'missing'],
		['no channels', { ...campaign, channels: [] }, 'channels', /at least one/, 'none; add at least one channel'],
		['channels not a list', { ...campaign, channels: { ...channel } }, 'channels', /list/, expect.stringMatching(/^\{"sender":"MYBRAND",.* is not a list of channels$/)],
		['unknown top-level field', { ...campaign, budget: 5 }, 'campaign', /^has unknown field "budget"$/, 'unknown field "budget"'],
	])('%s', (_name, input, field, message, panel) => {
		expect(problems(input)).toEqual([{ field, message: expect.stringMatching(message), panel }]);
	});

	it.each([
		['sender', { sender: '' }, /empty/, 'empty'],
		['locationId', { locationId: 0 }, /at least 1/, '0 is less than 1'],
		['locationId', { locationId: 1.5 }, /whole number/, '1.5 is not a whole number'],
		['locationId', { locationId: 'abc' }, /whole number/, '"abc" is not a whole number'],
		['smsQty', { smsQty: -3 }, /at least 1/, '-3 is less than 1'],
		['smsQty', { smsQty: undefined }, /required/, 'missing'],
		['message', { message: 42 }, /text/, '42 is not text'],
		['telcoId', { telcoId: 'smartfren' }, /^must be isat \(Indosat Ooredoo Hutchison\), tsel \(Telkomsel\) or xl \(XL Axiata\)$/, '"smartfren" is not one of isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata)'],
		['startDate', { startDate: 'soon' }, /^must be a date and time in ISO 8601 with a UTC offset$/, '"soon" is not a date the node can read ("soon" is no day it knows); type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB)'],
		['endDate', { endDate: '' }, /required/, 'empty'],
		['endDate', { endDate: '2026-12-01T09:00:00' }, /^must be after startDate$/, '2026-12-01 09:00 Asia/Jakarta is the same time as Send From (2026-12-01 09:00 Asia/Jakarta)'],
		['endDate', { endDate: '2026-11-30T09:00:00' }, /^must be after startDate$/, '2026-11-30 09:00 Asia/Jakarta is before Send From (2026-12-01 09:00 Asia/Jakarta)'],
		['smsQuantity', { smsQuantity: 5 }, /unknown field "smsQuantity"/, 'unknown field "smsQuantity" (did you mean "smsQty"?)'],
	])('channel field %s: %j', (field, change, message, panel) => {
		const input = { ...campaign, channels: [channel, { ...channel, ...change }] };
		const found = problems(input);
		expect(found).toContainEqual({
			field: field === 'smsQuantity' ? 'channels[1]' : `channels[1].${field}`,
			message: expect.stringMatching(message),
			panel,
		});
		expect(found.every((problem) => problem.field.startsWith('channels[1]'))).toBe(true);
	});

	it('reports every problem at once, not just the first', () => {
		const found = problems({ ...campaign, name: '', channels: [{ ...channel, smsQty: 0, telcoId: 'x' }] });
		expect(found.map((problem) => problem.field).sort()).toEqual(['channels[0].smsQty', 'channels[0].telcoId', 'name']);
	});

	it('reads offset-less dates in the zone it is given', () => {
		const result = checkCampaign(campaign, 'Asia/Jayapura');
		expect(result.ok && result.body.channels[0].startDate).toBe('2026-12-01T09:00:00+09:00');
	});

	it('sends every text in Unicode NFC: accents typed as combining marks (macOS, a CMS) are composed', () => {
		const nfd = (text: string) => text.normalize('NFD');
		const result = checkCampaign(
			{ ...campaign, name: nfd('Crème brûlée'), description: nfd('Hélène'), channels: [{ ...channel, sender: nfd('CaféBdg'), message: nfd(' Promo spesial di café ') }] },
			'Asia/Jakarta',
		);
		if (!result.ok) throw new Error('expected a valid campaign');
		const { name, description, channels } = result.body;
		expect([name, description, channels[0].sender, channels[0].message]).toEqual(['Crème brûlée', 'Hélène', 'CaféBdg', 'Promo spesial di café']);
		expect([name, description, channels[0].sender, channels[0].message].every((text) => text === text.normalize('NFC'))).toBe(true);
		expect(nfd('Crème brûlée')).not.toBe('Crème brûlée');
	});

	it('counts the length as sent: 160 characters in NFC pass although their NFD copy has 161', () => {
		const message = `${'x'.repeat(156)}café`;
		expect(Array.from(message.normalize('NFD'))).toHaveLength(161);
		expect(checkCampaign({ ...campaign, channels: [{ ...channel, message: message.normalize('NFD') }] }, 'Asia/Jakarta').ok).toBe(true);
		expect(problems({ ...campaign, channels: [{ ...channel, message: `x${message}`.normalize('NFD') }] })).toContainEqual({
			field: 'channels[0].message',
			message: 'must be at most 160 characters',
			panel: '161 of 160 characters (1 too many)',
		});
	});
});

// Defects the generated-input suite (test/reliability/bad-input) found: each of these was sent
// and refused by the service (or, for emoji, refused by the node although the service takes it).
describe('regressions found by the reliability suite', () => {
	const withChannel = (overrides: Record<string, unknown>) => ({ ...campaign, channels: [{ ...channel, ...overrides }] });

	it.each([
		['sender over 11 characters', withChannel({ sender: 'ABCDEFGHIJKL' }), 'channels[0].sender', 'must be at most 11 characters', '12 of 11 characters (1 too many)'],
		['message over 160 characters', withChannel({ message: 'x'.repeat(161) }), 'channels[0].message', 'must be at most 160 characters', '161 of 160 characters (1 too many)'],
		['name over 255 characters', { ...campaign, name: 'n'.repeat(256) }, 'name', 'must be at most 255 characters', '256 of 255 characters (1 too many)'],
		['description over 1000 characters', { ...campaign, description: 'd'.repeat(1001) }, 'description', 'must be at most 1000 characters', '1001 of 1000 characters (1 too many)'],
		['smsQty over 10,000,000', withChannel({ smsQty: 10_000_001 }), 'channels[0].smsQty', 'must be at most 10,000,000', '10,000,001 is more than 10,000,000'],
		['locationId over 32 bits', withChannel({ locationId: 2_147_483_648 }), 'channels[0].locationId', 'must be at most 2,147,483,647', '2,147,483,648 is more than 2,147,483,647'],
		['100 channels', { ...campaign, channels: Array.from({ length: 100 }, () => channel) }, 'channels', 'must contain at most 99 channels', '100, more than 99'],
		['dates equal once sent in whole seconds', withChannel({ startDate: '2026-12-01T09:00:00.100+07:00', endDate: '2026-12-01T09:00:00.900+07:00' }), 'channels[0].endDate', 'must be after startDate', '2026-12-01 09:00 +07:00 is the same time as Send From (2026-12-01 09:00 +07:00)'],
		['a five-digit year (epoch far in the future)', withChannel({ endDate: 8.6e15 }), 'channels[0].endDate', 'must be a date and time in ISO 8601 with a UTC offset', expect.stringMatching(/^year \d+ is outside 0000-9999/)],
		['an offset beyond 18 hours', withChannel({ endDate: '2026-12-07T21:00:00+24:00' }), 'channels[0].endDate', 'must be a date and time in ISO 8601 with a UTC offset', 'UTC offset +24:00 is outside -18:00 to +18:00'],
	])('rejects %s', (_label, input, field, message, panel) => {
		expect(problems(input)).toContainEqual({ field, message, panel });
	});

	it('counts characters as the service does: 160 emoji are 160 characters, not 320', () => {
		const result = checkCampaign(withChannel({ message: '😀'.repeat(160), sender: '👍🏽'.repeat(5) }), 'Asia/Jakarta');
		expect(result.ok).toBe(true);
	});

	it('accepts the bounds themselves', () => {
		const result = checkCampaign(
			{ ...campaign, name: 'n'.repeat(255), channels: [{ ...channel, sender: 'S'.repeat(11), message: 'm'.repeat(160), smsQty: 10_000_000, locationId: 2_147_483_647 }] },
			'Asia/Jakarta',
		);
		expect(result.ok).toBe(true);
	});
});
