/**
 * The content key's channel order (issue 42, item 3). The channels are put in one order by their
 * text with the fields in name order (endDate first). A text with the fields in another order
 * (the schema's: sender first) sorts some campaigns' channels differently: their pinned
 * `content:v2` key would change after an upgrade, and a run after the upgrade would pay for them
 * again. The golden test's channels sort the same either way; these two do not: A has the earlier
 * sender, B the earlier endDate.
 */
import { createHash } from 'node:crypto';

import { campaignByMeaning } from '../../../../../../nodes/LbaAds/actions/campaign/create/campaignMeaning';
import { checkCampaign, type CampaignBody } from '../../../../../../nodes/LbaAds/actions/campaign/create/campaignSchema';
import { contentKey, serviceTarget } from '../../../../../../nodes/LbaAds/duplicateProtection/keys';

const TARGET = serviceTarget('https://api.example.co.id');

const a = { sender: 'AAA', locationId: 161, smsQty: 1000, message: 'Promo A', startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-09T21:00:00+07:00', telcoId: 'tsel' };
const b = { sender: 'ZZZ', locationId: 161, smsQty: 1000, message: 'Promo B', startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-07T21:00:00+07:00', telcoId: 'tsel' };
/** The same channels with their fields given in other orders (reversed, and telcoId first). */
const reversed = (channel: Record<string, unknown>) => Object.fromEntries(Object.entries(channel).reverse());
const telcoFirst = ({ telcoId, ...rest }: Record<string, unknown>) => ({ telcoId, ...rest });

const campaign = (channels: Array<Record<string, unknown>>) => ({ name: 'Two senders', description: 'Channel order', categoryId: 10, channels });

function checked(input: unknown): CampaignBody {
	const check = checkCampaign(input, 'Asia/Jakarta');
	if (!check.ok) throw new Error(JSON.stringify(check.problems));
	return check.body;
}

const keyOf = (body: CampaignBody) => contentKey(campaignByMeaning(body), TARGET);

/**
 * The key as the released code computes it (before this test was written). It is the SHA-256 of
 * CANONICAL below, written out by hand: B (endDate 14:00Z) before A (endDate 2026-12-09), each
 * channel's fields in name order, its dates in UTC.
 */
const PINNED = 'content:v2:a5ed45cb1c23760c282679047584485164bad28d35254fd6aa1940e62f79b8ff';
const CANONICAL =
	'{"campaign":{"categoryId":10,"channels":[' +
	'{"endDate":"2026-12-07T14:00:00Z","locationId":161,"message":"Promo B","sender":"ZZZ","smsQty":1000,"startDate":"2026-12-01T02:00:00Z","telcoId":"tsel"},' +
	'{"endDate":"2026-12-09T14:00:00Z","locationId":161,"message":"Promo A","sender":"AAA","smsQty":1000,"startDate":"2026-12-01T02:00:00Z","telcoId":"tsel"}' +
	'],"description":"Channel order","name":"Two senders"},"target":"https://api.example.co.id"}';

describe('the content key of channels whose order depends on how their fields are ordered', () => {
	it('is pinned, in both orders of the channels', () => {
		expect(PINNED).toBe(`content:v2:${createHash('sha256').update(CANONICAL).digest('hex')}`);
		expect(keyOf(checked(campaign([a, b])))).toBe(PINNED);
		expect(keyOf(checked(campaign([b, a])))).toBe(PINNED);
	});

	it('does not depend on the order in which a channel gives its fields', () => {
		for (const order of [reversed, telcoFirst]) {
			expect(keyOf(checked(campaign([order(a), order(b)])))).toBe(PINNED);
			expect(keyOf(checked(campaign([order(b), a])))).toBe(PINNED);
		}
	});

	it('nor on the order of the fields in the body it is given (a body not rebuilt by the schema)', () => {
		const body = checked(campaign([a, b]));
		const withFields = (order: (channel: Record<string, unknown>) => Record<string, unknown>) => ({ ...body, channels: body.channels.map(order) }) as CampaignBody;
		// The schema's order puts sender first, reversed puts endDate (after telcoId) first: A first in one, B in the other, unless sorted.
		expect(Object.keys(reversed(body.channels[0])).slice(0, 2)).toEqual(['telcoId', 'endDate']);
		expect(keyOf(withFields(reversed))).toBe(keyOf(body));
		expect(keyOf(withFields(reversed))).toBe(PINNED);
		expect(keyOf(withFields(telcoFirst))).toBe(PINNED);
	});
});
