// LBA Ads Trigger in real n8n 2.40.7: two published (active) workflows poll the sandbox every
// minute (n8n's shortest poll interval). The sandbox catalogue is changed through its control API;
// each change must start exactly one execution carrying exactly the expected events, across polls
// and a restart of n8n (the node's static data is saved with the workflow). Then the editor's
// "Fetch Test Event" on the trigger, for the README's screenshot.
import * as e2e from './lib';

type Json = Record<string, any>;

const TRIGGER = 'Every catalogue change';
const ALL_EVENTS = {
	id: 'lbaTriggerAllEvents',
	name: 'Trigger: all catalogue events',
	nodes: [
		{
			id: 'tr-trigger',
			name: TRIGGER,
			type: 'n8n-nodes-lba-ads.lbaAdsTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['newProduct', 'priceChanged', 'quotaChanged', 'productRemoved'], options: {} },
			credentials: { lbaAdsApi: { id: e2e.SANDBOX_CREDENTIAL_ID, name: e2e.SANDBOX_CREDENTIAL_NAME } },
		},
		{ id: 'tr-noop', name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [240, 0], parameters: {} },
	],
	connections: { [TRIGGER]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};
const EXAMPLE = e2e.EXAMPLES.cheaperPackageAlert.id;
const POLL_WAIT_MS = 100_000; // polls run at second 0 of every minute

const NEW_PACKAGE = {
	uuid: '6f1c2b9e-8d1a-4f7e-9a51-2c3d4e5f6a7b',
	name: 'Promo Kilat 8 GB',
	description: 'Kuota utama 8 GB. Masa aktif 7 hari.',
	details: { data: { mainQuota: String(8 * 1024 ** 3), nightQuota: '0', appsQuota: '0' } },
	price: { amount: 12000, currency: 'IDR' },
};

e2e.describeE2E(`LBA Ads Trigger in real n8n ${e2e.n8nVersion()} (published workflows, polling)`, () => {
	let setup: e2e.LbaN8n;
	let sandbox: e2e.LbaN8n['sandbox'];
	let rest: e2e.N8nRest;
	let catalogue: Json[];

	async function control(method: string, path: string, body?: unknown) {
		const res = await fetch(`${sandbox.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
		expect(res.status).toBe(200);
		return res.json();
	}
	async function productPolls(): Promise<number> {
		const { requests } = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Json;
		return requests.filter((request: Json) => request.path === '/io/products').length;
	}
	/** Stops n8n, runs `whileStopped`, and starts the same n8n (same user folder) again. */
	async function restart(whileStopped: () => Promise<unknown>) {
		await setup.n8n!.stop();
		await whileStopped();
		await setup.start();
		rest = setup.rest;
	}
	/** Waits until `workflowId` has `count` finished executions; returns them, oldest first. */
	async function executions(workflowId: string, count: number, timeoutMs = POLL_WAIT_MS) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = await rest.listExecutions(workflowId);
			if (list.length >= count && list.every((execution) => !['new', 'running', 'waiting'].includes(execution.status))) return list;
			if (Date.now() > deadline) throw new Error(`${workflowId}: ${list.length} executions after ${timeoutMs} ms, expected ${count}`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
	async function events(executionId: string, node = TRIGGER) {
		const run = await rest.getExecutionRun(executionId);
		expect(run.status).toBe('success');
		return run.output(node);
	}
	const summary = (items: Json[]) => items.map((item) => `${item.event} ${item.name}${item.changes?.price ? ` ${item.changes.price.old}->${item.changes.price.new}` : ''}`).sort();

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('trigger', { workflows: [ALL_EVENTS, e2e.loadExample('cheaperPackageAlert')] });
		({ sandbox, rest } = setup);
		catalogue = ((await (await fetch(`${sandbox.url}/io/products`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } })).json()) as Json).results;
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	test('publishing records the catalogue; each change is one execution with exactly its events, across polls and a restart', async () => {
		const [cheap, daily, weekly, , , , , , , , nightly] = catalogue;
		await rest.activateWorkflow(ALL_EVENTS.id);
		await rest.activateWorkflow(EXAMPLE);
		// Activation polls once at once: that poll only records the catalogue.
		for (const deadline = Date.now() + 30_000; (await productPolls()) < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 500));
		expect(await productPolls()).toBeGreaterThanOrEqual(2);
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(await rest.listExecutions(ALL_EVENTS.id)).toHaveLength(0);

		// Change 1: a new package, one cheaper, one dearer, one with more quota.
		await control('POST', '/_sandbox/products', {
			upsert: [
				NEW_PACKAGE,
				{ ...cheap, price: { amount: 2500, currency: 'IDR' } },
				{ ...daily, price: { amount: 6000, currency: 'IDR' } },
				{ ...weekly, details: { data: { ...weekly.details.data, mainQuota: String(4 * 1024 ** 3) } } },
			],
		});
		const [first] = await executions(ALL_EVENTS.id, 1);
		expect(summary(await events(first.id))).toEqual(
			[`newProduct ${NEW_PACKAGE.name}`, `priceChanged ${cheap.name} 3000->2500`, `priceChanged ${daily.name} 5000->6000`, `quotaChanged ${weekly.name}`].sort(),
		);
		// The example keeps the new and the cheaper package, and words the alerts.
		const [alertRun] = await executions(EXAMPLE, 1);
		expect((await events(alertRun.id, 'Alert text')).map((item) => item.alert)).toEqual([
			`Cheaper package: ${cheap.name} for Rp 2.500 (was Rp 3.000), 500 MB main quota`,
			`New package: ${NEW_PACKAGE.name} for Rp 12.000, 8 GB main quota`,
		]);

		// Change 2 while n8n is down: after the restart, only the removal comes, once.
		await restart(() => control('POST', '/_sandbox/products', { remove: [nightly.uuid] }));
		const afterRestart = await executions(ALL_EVENTS.id, 2);
		expect(summary(await events(afterRestart[1].id))).toEqual([`productRemoved ${nightly.name}`]);

		// Another poll with no change: no execution (for either workflow).
		const polls = await productPolls();
		const deadline = Date.now() + POLL_WAIT_MS;
		while ((await productPolls()) < polls + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(await productPolls()).toBeGreaterThanOrEqual(polls + 2);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(await rest.listExecutions(ALL_EVENTS.id)).toHaveLength(2);
		expect(await rest.listExecutions(EXAMPLE)).toHaveLength(1);
	});

	test('"Fetch Test Event" in the editor shows a real package at once', async () => {
		const session = await e2e.editorSession(setup.n8n!);
		try {
			const page = session.page;
			await e2e.openWorkflow(page, setup.n8n!.baseUrl, EXAMPLE);
			await e2e.openNodePanel(page, 'When data packages change');
			await page.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]').first().click();
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.getByText(catalogue[0].uuid, { exact: false }).first().waitFor({ timeout: 60_000 });
			await page.waitForTimeout(800);
			await e2e.screenshot(page, 'trigger-fetch-test-event');
		} finally {
			await session.close();
		}
	});
});
