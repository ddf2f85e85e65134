import { checkCampaign } from '../../nodes/LbaAds/helpers/campaignSchema';

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
		['missing name', { ...campaign, name: undefined }, 'name', /required/],
		['blank description', { ...campaign, description: '   ' }, 'description', /empty/],
		['unknown category', { ...campaign, categoryId: 2 }, 'categoryId', /category ids/],
		['no channels', { ...campaign, channels: [] }, 'channels', /at least one/],
		['channels not a list', { ...campaign, channels: { ...channel } }, 'channels', /list/],
		['unknown top-level field', { ...campaign, budget: 5 }, 'campaign', /unknown field "budget"/],
	])('%s', (_name, input, field, message) => {
		expect(problems(input)).toEqual([{ field, message: expect.stringMatching(message) }]);
	});

	it.each([
		['sender', { sender: '' }, /empty/],
		['locationId', { locationId: 0 }, /at least 1/],
		['locationId', { locationId: 1.5 }, /whole number/],
		['locationId', { locationId: 'abc' }, /whole number/],
		['smsQty', { smsQty: -3 }, /at least 1/],
		['smsQty', { smsQty: undefined }, /required/],
		['message', { message: 42 }, /text/],
		['telcoId', { telcoId: 'indosat' }, /isat, tsel, xl/],
		['startDate', { startDate: 'soon' }, /not a date/],
		['endDate', { endDate: '' }, /required/],
		['endDate', { endDate: '2026-12-01T09:00:00' }, /must be after startDate/],
		['endDate', { endDate: '2026-11-30T09:00:00' }, /must be after startDate/],
		['smsQuantity', { smsQuantity: 5 }, /unknown field "smsQuantity"/],
	])('channel field %s: %j', (field, change, message) => {
		const input = { ...campaign, channels: [channel, { ...channel, ...change }] };
		const found = problems(input);
		expect(found).toContainEqual({
			field: field === 'smsQuantity' ? 'channels[1]' : `channels[1].${field}`,
			message: expect.stringMatching(message),
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
});
