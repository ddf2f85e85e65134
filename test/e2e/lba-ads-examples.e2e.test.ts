// The three workflows in examples/, run the way a user runs them: our packed package
// installed as a community package in a real n8n 2.40.7, an `lbaAdsApi` credential
// pointing at the offline sandbox, each example imported and executed. Assertions are on the
// node outputs and on what the sandbox received (its journal), with expected values computed
// from the sandbox's own answers, never copied from a past run.
//
// Each example runs the way a user tries it: the editor's "Execute workflow" (POST
// /rest/workflows/:id/run with triggerToStartFrom; a Schedule Trigger emits one item at once).
// `n8n execute --id` only starts workflows with a Manual Trigger (or an Execute Workflow
// Trigger); for anything else n8n 2.40.7 stops with "Missing node to start execution". The last
// test pins that, with n8n stopped (the CLI and a running n8n would share the database).
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as e2e from './lib';

const NODE_JS = path.join(e2e.REPO_ROOT, 'dist', 'nodes', 'LbaAds', 'LbaAds.node.js');
const NODE_TYPE = 'n8n-nodes-lba-ads.lbaAds';
// ISO 8601 with the WIB offset the examples' workflow timezone (Asia/Jakarta) must produce;
// n8n itself runs with GENERIC_TIMEZONE=UTC here, so +07:00 proves the workflow setting is used.
const WIB_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+07:00$/;

type Channel = { sender: string; locationId: number; smsQty: number; message: string; startDate: string; endDate: string; telcoId: string };
type GeocodeAnswer = { status: string; results: Array<{ address_components: Array<{ long_name: string; types: string[] }> }> };
type JournalCampaign = { campaignId: string; channels: string[]; request: { name: string; description: string; categoryId: number; channels: Channel[] } };

function nodeOfType(workflow: any, type: string) {
	const node = workflow.nodes.find((n: any) => n.type === type);
	if (!node) throw new Error(`${workflow.name}: no ${type} node`);
	return node;
}

function nodeNamed(workflow: any, name: string) {
	const node = workflow.nodes.find((n: any) => n.name === name);
	if (!node) throw new Error(`${workflow.name}: no node "${name}"`);
	return node;
}

function expectWibDates(channel: Channel) {
	expect(channel.startDate).toMatch(WIB_DATE);
	expect(channel.endDate).toMatch(WIB_DATE);
	expect(Date.parse(channel.startDate)).toBeLessThan(Date.parse(channel.endDate));
}

e2e.describeE2E(`examples/ in real n8n ${e2e.n8nVersion()} against the sandbox`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let userFolder: e2e.UserFolder;
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;
	let browser: e2e.BrowserSession | undefined;

	/** A sandbox answer, typed as the caller expects it (the test then checks it). */
	async function sandboxApi<T>(urlPath: string): Promise<T> {
		const res = await fetch(sandbox.url + urlPath, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } });
		expect(res.status).toBe(200);
		return (await res.json()) as T;
	}
	async function journal(): Promise<JournalCampaign[]> {
		return ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: JournalCampaign[] }).campaigns;
	}
	/** The city the sandbox itself answers for the example's coordinates (what `city` must be). */
	async function expectedCity(): Promise<string> {
		const { latitude, longitude } = nodeNamed(e2e.loadExample('geocodeToCampaign'), 'Where is the store?').parameters;
		const answer = await sandboxApi<GeocodeAnswer>(`/io/location?latlng=${latitude},${longitude}`);
		expect(answer.status).toBe('OK');
		const regency = answer.results[0].address_components.find((c) => c.types.includes('administrative_area_level_2'));
		expect(typeof regency?.long_name).toBe('string');
		return regency!.long_name; // checked just above
	}
	/** The example run as the editor's "Execute workflow" runs it, from its trigger; its record once ended. */
	async function runFromEditor(key: keyof typeof e2e.EXAMPLES) {
		const example = e2e.loadExample(key);
		const trigger = example.nodes.find((node: any) => /trigger/i.test(node.type));
		const { executionId } = await rest.runWorkflow(example.id, trigger.name);
		await rest.waitForExecution(executionId);
		const run = await rest.getExecutionRun(executionId);
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');
		return run;
	}

	beforeAll(async () => {
		if (!fs.existsSync(NODE_JS)) throw new Error(`${NODE_JS} missing: run 'npm run build' first`);
		const used = (['geocodeToCampaign', 'scheduledCampaignLaunch', 'productsUnderPrice'] as const).map((key) => e2e.loadExample(key));
		setup = await e2e.startLbaN8n('examples', { workflows: used });
		({ sandbox, userFolder } = setup);
		n8n = setup.n8n!; // started: no `start: false`
		rest = setup.rest;
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await browser?.close();
		await setup?.close();
	});

	test('(a) geocode-to-campaign: the geocoded city in name and message, WIB dates, Published', async () => {
		const city = await expectedCity();
		const before = (await journal()).length;

		const res = await runFromEditor('geocodeToCampaign');
		expect(res.output('Where is the store?')).toEqual([expect.objectContaining({ found: true, city })]);
		const [created] = res.output('Launch city campaign');
		expect(created).toMatchObject({ success: true, status: 'Published' });

		const received = (await journal()).slice(before);
		expect(received.map((c) => c.campaignId)).toEqual([created.campaignId]);
		const { request } = received[0];
		expect(request.name).toContain(city);
		expect(request.description).toContain(city);
		expect(request.channels).toHaveLength(1);
		expect(request.channels[0].message).toContain(city);
		expectWibDates(request.channels[0]);
		// The channel targets the geocoded city's own location, as the sandbox's journal names it.
		expect((received[0] as unknown as { targets: unknown }).targets).toEqual([{ locationId: request.channels[0].locationId, place: city }]);
	});

	test('(c) products-under-price: exactly the catalogue products under Rp 50.000', async () => {
		const catalogue = (await sandboxApi<{ results: Array<{ uuid: string; price: { amount: number } }> }>('/io/products')).results;
		const expected = catalogue.filter((p) => p.price.amount < 50000).map((p) => p.uuid);
		// A filter that keeps everything or nothing would make this test say little.
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(catalogue.length);

		const res = await runFromEditor('productsUnderPrice');
		expect(res.output('List data packages')).toHaveLength(catalogue.length);
		const kept = res.output('Under Rp 50.000');
		for (const product of kept) expect(product.price).toBeLessThan(50000);
		expect(kept.map((p) => p.uuid)).toEqual(expected);
	});

	test('(b) scheduled-campaign-launch from the editor\'s "Execute workflow": tsel + xl, WIB dates', async () => {
		const example = e2e.loadExample('scheduledCampaignLaunch');
		nodeOfType(example, 'n8n-nodes-base.scheduleTrigger');
		const launch = nodeOfType(example, NODE_TYPE);
		const before = (await journal()).length;

		const exec = await runFromEditor('scheduledCampaignLaunch');
		const [created] = exec.output(launch.name);
		expect(created).toMatchObject({ success: true, status: 'Published' });
		expect(created.channels).toHaveLength(2);

		const received = (await journal()).slice(before);
		expect(received.map((c) => c.campaignId)).toEqual([created.campaignId]);
		const { channels } = received[0].request;
		expect(channels.map((c) => c.telcoId)).toEqual(['tsel', 'xl']);
		for (const channel of channels) expectWibDates(channel);
	});

	test('editor in Chromium: example (a) panel, authentication choice, run from the editor', async () => {
		const nodeTypes = (await rest.request('GET', '/types/nodes.json')).body as Array<{ name: string; properties: any[] }>;
		const properties = nodeTypes.find((t) => t.name === NODE_TYPE)!.properties;
		const optionNames = (prop: any) => prop.options.map((o: any) => o.name);
		const category = properties.find((p) => p.name === 'categoryId');
		const channelFields = properties.find((p) => p.name === 'channels').options.find((o: any) => o.name === 'channel').values;
		const telco = channelFields.find((f: any) => f.name === 'telcoId');

		browser = await e2e.editorSession(n8n);
		const { page } = browser;
		await e2e.openWorkflow(page, n8n.baseUrl, e2e.EXAMPLES.geocodeToCampaign.id);
		expect(await e2e.nodeIconLoaded(page, 'Launch city campaign')).toBe(true);
		await e2e.openNodePanel(page, 'Launch city campaign');

		// Channels collection: every field of the channel, with the example's values.
		const channelBox = page.locator('[data-test-id="fixed-collection-channels"]');
		await channelBox.scrollIntoViewIfNeeded();
		const channelText = await channelBox.innerText();
		for (const field of channelFields) expect(channelText).toContain(field.displayName);
		const exampleChannel = nodeNamed(e2e.loadExample('geocodeToCampaign'), 'Launch city campaign').parameters.channels.channel[0];
		await expect(e2e.parameterInput(page, 'sender').locator('input').inputValue()).resolves.toBe(exampleChannel.sender);
		// Location ID is a resource locator since 0.2: the example gives it from Find Targeting Location.
		expect(exampleChannel.locationId).toMatchObject({ __rl: true, mode: 'id', value: '={{ $json.locationId }}' });
		await e2e.screenshot(page, 'examples-node-panel-channels');

		// Category: all 24 of the API's categories, in the description's order.
		const categories = await e2e.openOptions(page, 'categoryId');
		expect(categories).toEqual(optionNames(category));
		expect(categories).toHaveLength(24);
		expect(categories).toEqual(expect.arrayContaining(['Hobby & Interest', 'Religion & Spirituality']));
		await e2e.screenshot(page, 'examples-category-options');
		await e2e.closeOptions(page);

		// Telco: the three operators.
		const telcos = await e2e.openOptions(page, 'telcoId');
		expect(telcos).toEqual(optionNames(telco));
		expect(telcos).toHaveLength(3);
		await e2e.screenshot(page, 'examples-telco-options');
		await e2e.closeOptions(page);

		// Duplicate Protection: the three ways, Campaign Content by default.
		const protection = properties.find((p) => p.name === 'duplicateProtection');
		await e2e.parameterInput(page, 'duplicateProtection').scrollIntoViewIfNeeded();
		await expect(e2e.parameterInput(page, 'duplicateProtection').locator('input').inputValue()).resolves.toBe('Campaign Content');
		const ways = await e2e.openOptions(page, 'duplicateProtection');
		expect(ways).toEqual(optionNames(protection));
		expect(ways).toEqual(['Campaign Content', 'Custom Key', 'Off']);
		await page.waitForTimeout(300); // the menu fades in
		await e2e.screenshot(page, 'examples-duplicate-protection-options');
		await e2e.closeOptions(page);
		await e2e.closeNodePanel(page);

		// Run it from the editor: green nodes, the run button back, success over REST. Test (a) already
		// created today's campaign (same city, same dates), so duplicate protection holds it back:
		// the item says so and the sandbox's journal gets nothing new.
		const campaignsBefore = await journal();
		const createdByA = campaignsBefore[0];
		expect(createdByA.request.name).toContain(await expectedCity());
		const run = await e2e.runWorkflowFromEditor(page, { expectNodes: ["When clicking 'Execute workflow'", 'Where is the store?', 'Find its targeting location', 'Launch city campaign'] });
		await e2e.screenshot(page, 'examples-geocode-run-success');
		await rest.waitForExecution(run.executionId);
		const exec = await rest.getExecutionRun(run.executionId);
		expect(exec.status).toBe('success');
		const [held] = exec.output('Launch city campaign');
		expect(held).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again' });
		expect(await journal()).toHaveLength(campaignsBefore.length);

		await e2e.openNodePanel(page, 'Launch city campaign');
		await page.getByText('Created in an earlier run; not sent again').first().waitFor(); // the run's output, in the panel
		await e2e.screenshot(page, 'examples-geocode-rerun-skipped');

		// Authentication: n8n 2.40.7 shows no "Authentication" parameter in the panel; the
		// choice is the mode menu of the credential dialog ("Create new credential"), whose
		// entries are the `authentication` options, each switching to its credential type.
		expect(await e2e.parameterInput(page, 'authentication').count()).toBe(0);
		await page.locator('[data-test-id="node-credentials-select"]').click();
		await expect(page.locator('[data-test-id="node-credentials-select-item-lbaSandboxCredential"]').innerText()).resolves.toContain('LBA Ads API');
		await page.locator('[data-test-id="node-credentials-select-item-new"]').click();
		const dialog = page.locator('[data-test-id="editCredential-modal"]');
		await dialog.waitFor();
		const modeTrigger = dialog.locator('[data-test-id="credential-mode-dropdown-trigger"]');
		await expect(modeTrigger.innerText()).resolves.toContain('Access Token');
		await modeTrigger.click();
		const modeMenu = page.locator(`[id="${await dialog.locator('[data-test-id="credential-mode-dropdown"]').getAttribute('aria-controls')}"]`);
		await modeMenu.getByRole('menuitem').first().waitFor(); // the menu renders after the click
		const modes = (await modeMenu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
		const authentication = properties.find((p) => p.name === 'authentication');
		expect(modes).toEqual(optionNames(authentication));
		await page.waitForTimeout(300); // the menu fades in
		await e2e.screenshot(page, 'examples-authentication-modes');
		await modeMenu.getByRole('menuitem', { name: 'OAuth2 (Client Credentials)' }).click();
		await dialog.getByText('LBA Ads OAuth2 API').waitFor();
		for (const field of ['clientId', 'clientSecret', 'baseUrl']) {
			await expect(dialog.locator(`[data-test-id="parameter-input-${field}"]`).count()).resolves.toBe(1);
		}
		await e2e.screenshot(page, 'examples-authentication-choice');
	});

	test('(b) scheduled-campaign-launch: `n8n execute` refuses a Schedule Trigger workflow', async () => {
		await browser?.close();
		browser = undefined;
		await n8n.stop();
		const before = (await journal()).length;
		const res = await e2e.executeWorkflow(userFolder, e2e.EXAMPLES.scheduledCampaignLaunch.id);
		expect(res.ok).toBe(false);
		expect(res.stdout + res.stderr).toContain('Missing node to start execution');
		expect(await journal()).toHaveLength(before);
	});
});
