import { errorOf } from '../../../../harness';
import { control, fault, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();

interface RawProduct {
	uuid: string;
	name: string;
	price: { amount: number; currency: string };
	details: { data: { mainQuota: string; nightQuota: string; appsQuota: string } };
}

async function catalogue(): Promise<RawProduct[]> {
	const response = await fetch(`${context.sandbox.url}/io/products`, {
		headers: { Authorization: `Bearer ${context.token}`, 'Content-Type': 'application/json' },
	});
	const body = (await response.json()) as { results: RawProduct[] };
	await control(context, 'POST', '/_sandbox/reset');
	return body.results;
}

const products = (overrides = {}) => ({ resource: 'product', operation: 'getMany', ...overrides });

describe('Product > Get Many', () => {
	it('return all + simplify: one item per product, quotas as numbers with readable sizes', async () => {
		const expected = await catalogue();
		const result = await runNode(context, products({ returnAll: true }));
		expect(errorOf(result)).toBeUndefined();
		expect(result.items).toHaveLength(expected.length);
		expected.forEach((product, index) => {
			const item = result.items[index];
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({
				uuid: product.uuid,
				name: product.name,
				price: product.price.amount,
				currency: product.price.currency,
				mainQuotaBytes: Number(product.details.data.mainQuota),
				nightQuotaBytes: Number(product.details.data.nightQuota),
				appsQuotaBytes: Number(product.details.data.appsQuota),
			});
			expect(item.json.mainQuota).toMatch(/^\d+(\.\d+)? (B|KB|MB|GB|TB)$/);
		});
		const [sent] = await requests(context, { path: '/io/products' });
		expect(sent.headers['content-type']).toMatch(/^application\/json/);
	});

	it('a simplified product opens on its name, price and readable quota; uuid and bytes come last', async () => {
		// n8n's table and JSON views show an item's keys in this order.
		const [first] = (await runNode(context, products({ limit: 1 }))).items;
		expect(Object.keys(first.json)).toEqual([
			'name', 'price', 'currency', 'mainQuota', 'nightQuota', 'appsQuota', 'description', 'uuid', 'mainQuotaBytes', 'nightQuotaBytes', 'appsQuotaBytes',
		]);
		expect(first.json.mainQuota).toMatch(/^\d+(\.\d+)? (B|KB|MB|GB|TB)$/);
	});

	it('limit returns the first N; simplify off keeps the raw strings', async () => {
		const expected = await catalogue();
		const result = await runNode(context, products({ returnAll: false, limit: 3, simplify: false }));
		expect(result.items.map((item) => item.json)).toEqual(expected.slice(0, 3));
	});

	it('runs once per input item, each output paired to its input', async () => {
		const result = await runNode(context, products({ limit: 2 }), [{}, {}]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }]);
	});

	// Regression from the reliability suite: slice(0, -1) returned all but one product, slice(0, NaN) none.
	it.each([[-1], [0], [1.5], ['abc'], [null]])('rejects limit %j with an item error and sends nothing', async (limit) => {
		const result = await runNode(context, products({ returnAll: false, limit: '={{ $json.limit }}' }), [{ limit }]);
		expect(errorOf(result)).toMatchObject({ message: 'Limit must be a whole number of at least 1' });
		expect(await requests(context, { path: '/io/products' })).toHaveLength(0);
	});

	// Regression from the secrets suite: an HTML page with HTTP 200 quietly became an empty catalogue.
	it.each([
		['an HTML page', '<html><body>Gateway</body></html>'],
		['JSON without results', { success: true }],
	])('a 200 answer that is %s is an error, not zero products', async (_label, body) => {
		await fault(context, { path: '/io/products', status: 200, body });
		const result = await runNode(context, products());
		expect(errorOf(result)?.message).toBe('The LBA service answered GET /io/products without a product list');
	});

	describe('a 404 says whether the id or the endpoint is wrong (the transport reads RESOURCE_NOT_FOUND and NOT_FOUND)', () => {
		it('RESOURCE_NOT_FOUND: the id in the path names nothing', async () => {
			const body = { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'No campaign 3F9A1C0B7D2E4A65.' } };
			await fault(context, { path: '/io/products', status: 404, body });
			const error = errorOf(await runNode(context, products()));
			expect(error?.message).toBe('The LBA service has no such resource for GET /io/products (HTTP 404): No campaign 3F9A1C0B7D2E4A65. Check the id in the path');
			expect(error?.description).toMatch(/^The endpoint exists, so the Base URL is right/);
		});

		it("NOT_FOUND, the sandbox's own answer for a path it does not serve: check the Base URL", async () => {
			const credentials = { lbaAdsApi: { baseUrl: `${context.sandbox.url}/v1`, accessToken: context.token } };
			const error = errorOf(await runNode(context, products(), [{}], { credentials }));
			expect(error?.message).toBe('The LBA service has no endpoint GET /io/products (HTTP 404): check the Base URL in the LBA Ads credential');
			expect(error?.description).toBe("The Base URL must be the service's root, with no path such as /v1 after it. The service said: No resource at /v1/io/products.");
		});

		it('a 404 that does not say which (a gateway page): both causes, in the message', async () => {
			await fault(context, { path: '/io/products', status: 404, body: { message: 'Not Found' } });
			const error = errorOf(await runNode(context, products()));
			expect(error?.message).toBe('The LBA service answered GET /io/products with HTTP 404: there is no such endpoint, or nothing by the id in its path');
		});
	});
});
