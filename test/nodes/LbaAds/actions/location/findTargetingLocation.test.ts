/**
 * Location > Find Targeting Location and the channel's Location ID picker, against the sandbox's
 * GET /lba/locations (beyond the API document), and what happens where a service has no list.
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf } from '../../../../harness';
import { campaigns, channel, createParameters, fault, requests, runNode, searchList, useSandbox } from '../../setup';

const context = useSandbox();
const find = (overrides: IDataObject = {}) => ({ resource: 'location', operation: 'findTargetingLocation', placeName: '={{ $json.city }}', ...overrides });

describe('Location > Find Targeting Location', () => {
	it('finds the Location ID of a geocoded city, the exact name first', async () => {
		const result = await runNode(context, find(), [{ city: 'Kota Bandung' }, { city: 'Bandung' }, { city: 'Kabupaten Bandung' }, { city: 'Atlantis' }]);
		expect(result.items.map((item) => [item.json.found, item.json.locationId ?? null, item.json.name ?? item.json.message])).toEqual([
			[true, 3273, 'Kota Bandung'],
			[true, 3273, 'Kota Bandung'],
			[true, 3204, 'Kabupaten Bandung'],
			[false, null, 'No targeting location matches "Atlantis"'],
		]);
		expect((await requests(context, { path: '/lba/locations' })).map((request) => request.query.name)).toEqual(['Bandung', 'Bandung', 'Bandung', 'Atlantis']);
	});

	it('All Matches: one item per location, best first', async () => {
		const result = await runNode(context, find({ matches: 'all' }), [{ city: 'Kota Bandung' }]);
		expect(result.items.map((item) => item.json.name)).toEqual(['Kota Bandung', 'Kabupaten Bandung', 'Kabupaten Bandung Barat']);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it.each([
		['404', { status: 404, body: { message: 'Not found' } }],
		['401', { status: 401, body: { fault: { faultstring: 'Invalid access token' } } }],
		['an unexpected shape', { status: 200, body: { locations: [] } }],
	])('a service without the list (%s) gets one clear message, and nothing else is sent', async (_name, answer) => {
		await fault(context, { path: '/lba/locations', times: 10, ...answer });
		const result = await runNode(context, find(), [{ city: 'Kota Bandung' }]);
		expect(errorOf(result)?.message).toBe(
			'This LBA service offers no location list, so a Location ID cannot be looked up: enter the Location ID you were given (By ID), or map place names to IDs yourself, e.g. in an n8n Data Table',
		);
		expect((await requests(context)).map((request) => request.path)).toEqual(expect.arrayContaining(['/lba/locations']));
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});
});

describe("Campaign > Create: the channel's Location ID", () => {
	it('takes the picker\'s value ({ __rl, mode, value }), By ID or From List', async () => {
		const result = await runNode(
			context,
			createParameters({}, [
				channel({ locationId: { __rl: true, mode: 'id', value: '3273' } }),
				channel({ locationId: { __rl: true, mode: 'list', value: '3578', cachedResultName: 'Kota Surabaya' }, telcoId: 'xl' }),
			]),
		);
		expect(errorOf(result)).toBeUndefined();
		const [sent] = await campaigns(context);
		expect((sent as unknown as { targets: unknown }).targets).toEqual([
			{ locationId: 3273, place: 'Kota Bandung' },
			{ locationId: 3578, place: 'Kota Surabaya' },
		]);
	});

	it('a workflow saved by 0.1.0 (a plain number) keeps working', async () => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: 3273 })]));
		expect(errorOf(result)).toBeUndefined();
		const [sent] = await campaigns(context);
		expect((sent.request.channels as IDataObject[])[0].locationId).toBe(3273);
	});

	it.each([
		['typed', 'Bandung'],
		['from an expression', '={{ "Bandung" }}'],
	])('a non-numeric ID %s is refused by the node before anything is sent, naming the item and channel (no By ID regex: n8n\'s times out under load)', async (_how, value) => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: { __rl: true, mode: 'id', value } })]));
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 1 › Location ID: "Bandung" is not a whole number (API: channels[0].locationId must be a whole number). Nothing was sent.',
		);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});
});

describe("the Location ID picker's From List (searchLocations), as the panel asks for it", () => {
	it('lists the places whose name holds what was typed, Kota before Kabupaten, each as name, province (ID)', async () => {
		const { results } = await searchList(context, 'searchLocations', 'bandung', createParameters());
		expect(results.slice(0, 2)).toEqual([
			{ name: 'Kota Bandung, Jawa Barat (3273)', value: '3273' },
			{ name: 'Kabupaten Bandung, Jawa Barat (3204)', value: '3204' },
		]);
		expect(await requests(context, { path: '/lba/locations' })).toHaveLength(1);
	});

	it('a service without the list: one clear line in the picker', async () => {
		await fault(context, { method: 'GET', path: '/lba/locations', status: 404, times: 1 });
		await expect(searchList(context, 'searchLocations', 'bandung')).rejects.toThrow(/^This LBA service offers no location list/);
	});
});

describe('Find Targeting Location as an AI tool', () => {
	it('the model gives the place name', async () => {
		const result = await runNode(context, { resource: 'location', operation: 'findTargetingLocation' }, [{ placeName: 'Surabaya' }], {
			node: { type: 'n8n-nodes-lba-ads.lbaAdsTool' },
		});
		expect(result.items[0].json).toMatchObject({ found: true, locationId: 3578, name: 'Kota Surabaya' });
	});
});
