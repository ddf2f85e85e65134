// Geocode -> Find Targeting Location -> campaign, in real n8n 2.40.7: example (a) run for stores in
// five regencies must create campaigns that each target that regency's own location, as the
// sandbox journal names it. Then the channel's Location ID "From List" picker in Chromium, and
// the picker and the operation against a service without GET /lba/locations.
import * as e2e from './lib';

type Json = Record<string, any>;

/** Stores in five regencies (latitude, longitude). */
const STORES: Array<[string, number, number]> = [
	['bandung', -6.9175, 107.6191],
	['surabaya', -7.2575, 112.7521],
	['medan', 3.5952, 98.6722],
	['makassar', -5.1477, 119.4327],
	['denpasar', -8.6705, 115.2126],
];

/** Example (a) with the store's coordinates and its own id. */
function exampleFor([key, latitude, longitude]: [string, number, number]) {
	const workflow = e2e.loadExample('geocodeToCampaign');
	workflow.id = `lbaTarget${key}`;
	workflow.name = `${workflow.name} (${key})`;
	const geocode = workflow.nodes.find((node: Json) => node.name === 'Where is the store?');
	geocode.parameters = { ...geocode.parameters, latitude, longitude };
	return workflow;
}

const PICKER = e2e.workflow(
	'lbaLocationPicker',
	'Location ID picker',
	[
		e2e.manualTrigger('lp-start'),
		e2e.lbaNode(
			'lp-lba',
			'Campaign',
			e2e.createCampaignParameters({
				name: 'Picker',
				campaignDescription: 'Picker',
				channels: {
					channel: [{ sender: 'LBADEMO', locationId: { __rl: true, mode: 'list', value: '' }, smsQty: 10, message: 'Hi', startDate: '2036-12-05T09:00:00', endDate: '2036-12-06T09:00:00', telcoId: 'tsel' }],
				},
			}),
		),
	],
	e2e.chain('Start', 'Campaign'),
);

e2e.describeE2E(`targeting the geocoded place in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;

	async function journal(): Promise<Json[]> {
		return ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as Json).campaigns;
	}
	async function fault(spec: Json) {
		const res = await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
		expect(res.status).toBe(201);
	}

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('targeting', { workflows: [...STORES.map(exampleFor), PICKER, e2e.loadExample('geocodeToCampaignOwnIds')], shared: true });
		({ sandbox, rest } = setup);
		n8n = setup.n8n!;
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	test('example (a) for stores in five regencies: each campaign targets its own regency', async () => {
		const targeted: string[] = [];
		for (const store of STORES) {
			const before = (await journal()).length;
			const { executionId } = await rest.runWorkflow(`lbaTarget${store[0]}`, "When clicking 'Execute workflow'");
			await rest.waitForExecution(executionId, { timeoutMs: 60_000 });
			const run = await rest.getExecutionRun(executionId);
			expect(run.status).toBe('success');
			const [place] = run.output('Where is the store?');
			const [location] = run.output('Find its targeting location');
			expect(location).toMatchObject({ found: true, name: place.city });
			const [campaign] = (await journal()).slice(before);
			expect(campaign.request.name).toBe(`Promo ${place.city}`);
			expect(campaign.targets).toEqual([{ locationId: location.locationId, place: place.city }]);
			targeted.push(`${place.city} (${location.locationId})`);
		}
		expect(targeted).toEqual(['Kota Bandung (3273)', 'Kota Surabaya (3578)', 'Kota Medan (1275)', 'Kota Makassar (7371)', 'Kota Denpasar (5171)']);
	});

	test('the variant for a service without a location list: your own city -> Location ID table, no GET /lba/locations', async () => {
		e2e.follows('checkLocationIds', 'enterLocationId', 'toolAskLocationId');
		await fault({ path: '/lba/locations', status: 404, times: 100 });
		const before = (await journal()).length;
		const { executionId } = await rest.runWorkflow(e2e.EXAMPLES.geocodeToCampaignOwnIds.id, "When clicking 'Execute workflow'");
		await rest.waitForExecution(executionId, { timeoutMs: 60_000 });
		const run = await rest.getExecutionRun(executionId);
		expect(run.status).toBe('success');
		const [place] = run.output('Where is the store?');
		const received = (await journal()).slice(before);
		expect(received).toHaveLength(1);
		expect(received[0].targets).toEqual([{ locationId: 3273, place: place.city }]);
		expect(place.city).toBe('Kota Bandung');
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
	});

	test('From List in the editor: the picker searches the service; without a list it says so in one line', async () => {
		const session = await e2e.editorSession(n8n);
		try {
			const page = session.page;
			await e2e.openWorkflow(page, n8n.baseUrl, PICKER.id);
			await e2e.openNodePanel(page, 'Campaign');
			const picker = page.locator('[data-test-id="resource-locator-locationId"]');
			await picker.scrollIntoViewIfNeeded();
			await picker.locator('[data-test-id="rlc-input"]').click();
			const search = page.locator('[data-test-id="rlc-search"]').first();
			await search.waitFor({ timeout: 30_000 });
			await (await search.evaluate((el) => el.tagName === 'INPUT') ? search : search.locator('input').first()).fill('bandung');
			const items = page.locator('[data-test-id="rlc-item"]');
			await items.filter({ hasText: 'Kota Bandung, Jawa Barat (3273)' }).first().waitFor({ timeout: 30_000 });
			// The list shows the search answer once it has settled (Playwright's toHaveText waits the same way).
			// Kota Bandung first (the city a marketer means), then Kabupaten Bandung, then the service's order.
			const bandungs = ['Kota Bandung, Jawa Barat (3273)', 'Kabupaten Bandung, Jawa Barat (3204)', 'Kabupaten Bandung Barat, Jawa Barat (3217)'];
			expect(await e2e.innerTextsSettle(items, bandungs)).toEqual(bandungs);
			await page.waitForTimeout(500);
			await e2e.screenshot(page, 'location-from-list');

			// A service without GET /lba/locations: one clear line in the picker.
			await fault({ path: '/lba/locations', status: 404, times: 100 });
			await page.keyboard.press('Escape');
			await e2e.openWorkflow(page, n8n.baseUrl, PICKER.id);
			await e2e.openNodePanel(page, 'Campaign');
			await page.locator('[data-test-id="resource-locator-locationId"] [data-test-id="rlc-input"]').click();
			await page.getByText('This LBA service offers no location list', { exact: false }).first().waitFor({ timeout: 30_000 });
			await e2e.screenshot(page, 'location-no-list');
		} finally {
			await session.close();
		}
	});
});
