import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

import { errorOf } from '../../harness';
import { campaigns, useSandbox } from './setup';

const context = useSandbox();

function example(name: string) {
	return JSON.parse(readFileSync(path.join(__dirname, '../../../examples', name), 'utf8'));
}

describe('examples/geocode-to-campaign.json in the engine', () => {
	it('geocodes Bandung and launches a campaign named after the city, dates from $now with +07:00', async () => {
		const result = await context.n8n.runWorkflow(example('geocode-to-campaign.json'), {
			credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } },
		});
		expect(errorOf(result)).toBeUndefined();

		const place = result.output('Where is the store?')[0].json;
		expect(place).toMatchObject({ province: 'Jawa Barat', city: expect.stringMatching(/Bandung/) });

		const [sent] = await campaigns(context);
		const channel = (sent.request.channels as Array<Record<string, string>>)[0];
		expect(sent.request.name).toBe(`Promo ${place.city}`);
		expect(channel.message).toContain(String(place.city));

		// $now in the workflow timezone (Asia/Jakarta): tomorrow 09:00 and in 7 days 21:00, sent with +07:00.
		const now = DateTime.now().setZone('Asia/Jakarta');
		expect(channel.startDate).toBe(now.plus({ days: 1 }).toFormat("yyyy-MM-dd'T'09:00:00+07:00"));
		expect(channel.endDate).toBe(now.plus({ days: 7 }).toFormat("yyyy-MM-dd'T'21:00:00+07:00"));

		expect(result.output('Launch city campaign')[0].json).toMatchObject({ status: 'Published', campaignId: sent.campaignId });
		// The campaign targets the geocoded city's own location (the sandbox journal names it).
		expect(result.output('Find its targeting location')[0].json).toMatchObject({ found: true, name: place.city });
		expect((sent as unknown as { targets: unknown }).targets).toEqual([{ locationId: expect.any(Number), place: place.city }]);
	});
});
