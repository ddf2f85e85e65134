import { RETRY } from '../../../../../nodes/shared/transport';
import { errorOf, N8N_MAJOR } from '../../../../harness';
import { fault, holdNextLatency, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();

const geocode = (overrides = {}) => ({
	resource: 'location',
	operation: 'reverseGeocode',
	latitude: '={{ $json.lat }}',
	longitude: '={{ $json.lng }}',
	...overrides,
});

describe('Location > Reverse Geocode', () => {
	it('simplified (default): one item per input with province, city and address', async () => {
		const result = await runNode(context, geocode(), [
			{ lat: -6.9147, lng: 107.6098 }, // Bandung
			{ lat: -8.65, lng: 115.2167 }, // Denpasar
		]);
		expect(errorOf(result)).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({
			found: true,
			status: 'OK',
			country: 'Indonesia',
			countryCode: 'ID',
			province: 'Jawa Barat',
			city: expect.stringMatching(/Bandung/),
			formattedAddress: expect.stringMatching(/Bandung.*Jawa Barat.*Indonesia/),
			placeId: expect.any(String),
			query: { latitude: -6.9147, longitude: 107.6098 },
		});
		expect(result.items[1].json).toMatchObject({ province: 'Bali', city: expect.stringMatching(/Denpasar/) });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		const sent = await requests(context, { path: '/io/location' });
		expect(sent.map((request) => request.query.latlng)).toEqual(['-6.9147,107.6098', '-8.65,115.2167']);
		expect(sent.every((request) => /^application\/json/.test(request.headers['content-type']))).toBe(true);
	});

	it('opens on the place (city, province, address), then the smaller places, coordinates, ids and status', async () => {
		// n8n's table and JSON views show an item's keys in this order.
		const [found] = (await runNode(context, geocode(), [{ lat: -6.9147, lng: 107.6098 }])).items;
		expect(Object.keys(found.json)).toEqual([
			'city', 'province', 'formattedAddress', 'district', 'village', 'locality', 'postalCode', 'country', 'countryCode',
			'found', 'status', 'latitude', 'longitude', 'locationType', 'placeId', 'types', 'query',
		]);
		expect(Object.values(found.json).slice(0, 3)).toEqual(['Kota Bandung', 'Jawa Barat', expect.stringMatching(/^.*Kota Bandung, Jawa Barat, Indonesia$/)]);
		const [sea] = (await runNode(context, geocode(), [{ lat: -5.5, lng: 88.5 }])).items;
		expect(Object.keys(sea.json)[0]).toBe('message');
	});

	it('raw returns the service body; split returns one item per result', async () => {
		const raw = await runNode(context, geocode({ output: 'raw' }), [{ lat: -7.2575, lng: 112.7521 }]);
		expect(raw.items[0].json).toMatchObject({ status: 'OK', results: expect.any(Array) });
		const results = raw.items[0].json.results as unknown[];

		const split = await runNode(context, geocode({ output: 'split' }), [{ lat: -7.2575, lng: 112.7521 }]);
		expect(split.items.map((item) => item.json)).toEqual(results);
		expect(split.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('ZERO_RESULTS (open sea) is not an error: a "not found" item', async () => {
		const result = await runNode(context, geocode(), [{ lat: -5.5, lng: 88.5 }]);
		expect(errorOf(result)).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ found: false, status: 'ZERO_RESULTS', latitude: -5.5, longitude: 88.5 }),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('other non-OK statuses are errors carrying error_message', async () => {
		await fault(context, {
			path: '/io/location',
			status: 200,
			body: { status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your daily request quota.', results: [] },
		});
		const result = await runNode(context, geocode(), [{ lat: -6.2, lng: 106.8 }]);
		expect(errorOf(result)).toMatchObject({
			message: 'The LBA service could not geocode -6.2,106.8: OVER_QUERY_LIMIT',
			description: 'You have exceeded your daily request quota.',
		});
	});

	it.each([
		[{ lat: 91, lng: 100 }, 'Latitude must be a number from -90 to 90, got 91. Nothing was sent.'],
		[{ lat: -6.2, lng: -180.5 }, 'Longitude must be a number from -180 to 180, got -180.5. Nothing was sent.'],
		[{ lat: 'north', lng: 100 }, 'Latitude must be a number from -90 to 90, got "north". Nothing was sent.'],
		[{ lng: 100 }, 'Latitude is required: a number from -90 to 90. Nothing was sent.'],
		// Regressions from the reliability suite: Number() reads these as 16 and 1.
		[{ lat: '0x10', lng: 100 }, 'Latitude must be a number from -90 to 90, got "0x10". Nothing was sent.'],
		[{ lat: 0, lng: '0b1' }, 'Longitude must be a number from -180 to 180, got "0b1". Nothing was sent.'],
		// Both wrong: both named, so an AI agent fixes them in one go.
		[{ lat: 'north', lng: 'east' }, 'Latitude must be a number from -90 to 90, got "north"; Longitude must be a number from -180 to 180, got "east". Nothing was sent.'],
	])('rejects bad coordinates %j without sending', async (item, message) => {
		const result = await runNode(context, geocode(), [item]);
		expect(errorOf(result)?.message).toBe(message);
		expect(await requests(context, { path: '/io/location' })).toHaveLength(0);
	});

	it('sends tiny coordinates as plain decimals (String(1e-7) is "1e-7", which the service refuses)', async () => {
		const result = await runNode(context, geocode({ output: 'raw' }), [{ lat: 1e-7, lng: 100 }]);
		expect(errorOf(result)).toBeUndefined();
		expect((await requests(context, { path: '/io/location' })).map((request) => [request.query.latlng, request.status])).toEqual([
			['0.0000001,100', 200],
		]);
	});

	it('continueOnFail: bad and good coordinates in one run', async () => {
		const result = await runNode(
			context,
			geocode(),
			[{ lat: -6.2, lng: 106.8167 }, { lat: 123, lng: 0 }, { lat: 3.5952, lng: 98.6722 }],
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(result.items.map((item) => [item.pairedItem, item.json.province ?? item.json.error])).toEqual([
			[{ item: 0 }, 'DKI Jakarta'],
			[{ item: 1 }, 'Latitude must be a number from -90 to 90, got 123. Nothing was sent.'],
			[{ item: 2 }, 'Sumatera Utara'],
		]);
	});

	// Regression from the reliability suite: error items carried `description`, so n8n did not
	// recognise them as errors and sent them down the success output.
	it('continue using error output: failing items go to the error output, the rest to success', async () => {
		const result = await runNode(context, geocode(), [{ lat: -6.2, lng: 106.8167 }, { lat: 123, lng: 0 }], {
			node: { onError: 'continueErrorOutput' },
		});
		expect(result.output('LBA', 0).map((item) => [item.pairedItem, item.json.province])).toEqual([[{ item: 0 }, 'DKI Jakarta']]);
		expect(result.output('LBA', 1).map((item) => [item.pairedItem, item.json.error])).toEqual([
			[{ item: 1 }, 'Latitude must be a number from -90 to 90, got 123. Nothing was sent.'],
		]);
	});

	it.each([
		['429 with Retry-After', { status: 429, headers: { 'Retry-After': '1' }, body: { message: 'slow' } }],
		['502', { status: 502, body: { message: 'bad gateway' } }],
		['503', { status: 503, body: { message: 'busy' } }],
		['504', { status: 504, body: { message: 'timeout' } }],
		['a reset connection', { drop: true }],
	])('retries a GET after %s and succeeds', async (_name, spec) => {
		await fault(context, { method: 'GET', path: '/io/location', times: 2, ...spec });
		const result = await runNode(context, geocode(), [{ lat: -5.1477, lng: 119.4327 }]);
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ province: 'Sulawesi Selatan' });
		expect(await requests(context, { path: '/io/location' })).toHaveLength(3);
		// n8n 1.x drops the response headers from its errors, so the node cannot see Retry-After
		// there and waits its own back-off (0.5 s, then 1 s) instead of 2 x Retry-After: 1.
		const backOff = [RETRY.firstDelayMs, RETRY.firstDelayMs * 2];
		expect(context.retryWaits).toEqual(_name.startsWith('429') && N8N_MAJOR >= 2 ? [1000, 1000] : backOff);
	});

	it('an answer slower than the Timeout option is abandoned and retried', async () => {
		// The first answer is held until the node has given up (not raced against a timer); the retry's
		// answer then has the whole Timeout option. At 300 ms, a loaded machine (load 14) once made the
		// retry time out too.
		await fault(context, { method: 'GET', path: '/io/location', latencyMs: 1, times: 1 });
		const slow = holdNextLatency(context);
		try {
			const result = await runNode(context, geocode({ options: { timeoutMs: 2000 } }), [{ lat: -6.9147, lng: 107.6098 }]);
			expect(errorOf(result)).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ province: 'Jawa Barat' });
			expect(await requests(context, { path: '/io/location' })).toHaveLength(2);
			expect(context.retryWaits).toEqual([RETRY.firstDelayMs]);
		} finally {
			slow.release();
		}
	});

	it('a service that never answers in time gives a timeout error naming the limit', async () => {
		await fault(context, { method: 'GET', path: '/io/location', latencyMs: 1500, times: 10 });
		const result = await runNode(context, geocode({ options: { timeoutMs: 200 } }), [{ lat: -6.9147, lng: 107.6098 }]);
		expect(errorOf(result)?.message).toBe('The LBA service did not answer GET /io/location within 200 ms after 4 attempts');
	});

	it('gives up after a bounded number of retries with a clear message', async () => {
		await fault(context, { method: 'GET', path: '/io/location', times: 10, status: 503, body: { message: 'down' } });
		const result = await runNode(context, geocode(), [{ lat: -2.5337, lng: 140.7181 }]);
		expect(errorOf(result)).toMatchObject({
			message: 'The LBA service failed to answer GET /io/location (HTTP 503) after 4 attempts',
			httpCode: '503',
		});
		expect(await requests(context, { path: '/io/location' })).toHaveLength(4);
		expect(context.retryWaits).toEqual([1, 2, 4].map((factor) => RETRY.firstDelayMs * factor));
	});
});
