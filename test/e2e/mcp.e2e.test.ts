// LBA Ads as MCP tools, the way an MCP client (Claude Desktop, Cursor, ChatGPT...) meets them:
// examples/mcp-server.json (n8n's MCP Server Trigger with bearer authentication and three LBA
// Ads tools) published in real n8n 2.40.7, and a real MCP client (@modelcontextprotocol/sdk,
// streamable HTTP) that lists the tools and drives geocode -> location -> preview -> publish.
// The sandbox's journal is the judge of what was sent.
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as e2e from './lib';

/* eslint-disable @typescript-eslint/no-require-imports */
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
/* eslint-enable @typescript-eslint/no-require-imports */

type Json = Record<string, any>;
type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

const { describeE2E } = e2e;
const TOKEN = 'mcp-e2e-bearer-token';
const workflow = { ...JSON.parse(fs.readFileSync(path.join(e2e.REPO_ROOT, 'examples', 'mcp-server.json'), 'utf8')), id: 'lbaExampleMcpServer' };
const bearerCredential = { id: 'lbaExampleMcpBearer', name: "MCP clients' bearer token", type: 'httpBearerAuth', data: { token: TOKEN } };

const channel = (overrides: Json = {}) => ({
	sender: 'LBADEMO',
	locationId: 3273,
	smsQty: 1000,
	message: 'Promo akhir pekan!',
	startDate: '2036-12-05T09:00:00+07:00',
	endDate: '2036-12-06T21:00:00+07:00',
	telcoId: 'tsel',
	...overrides,
});
const campaign = (overrides: Json = {}, channelOverrides: Json = {}) => ({
	name: 'Bandung weekend promo (MCP)',
	description: 'Weekend promo for the Bandung store',
	category: 'Food & Drinks',
	channels: [channel(channelOverrides)],
	preview: false,
	...overrides,
});
/** A tool's answer: the items it returned, or its error text. */
const itemsOf = (result: ToolResult) => JSON.parse(result.content[0].text) as Json[];
const errorOf = (result: ToolResult) => (result.isError ? result.content[0].text : undefined);

describeE2E(`LBA Ads as MCP tools: examples/mcp-server.json in real n8n ${e2e.n8nVersion()} with a real MCP client`, () => {
	let setup: any;
	let client: any;
	let url: URL;
	const record: string[] = [];

	async function journal(): Promise<string[]> {
		return ((await (await fetch(`${setup.sandbox.url}/_sandbox/campaigns`)).json()) as Json).campaigns.map((c: Json) => c.request.name);
	}
	async function call(name: string, args: Json): Promise<ToolResult> {
		const result = (await client.callTool({ name, arguments: args })) as ToolResult;
		record.push(`### ${name}(${JSON.stringify(args)})\n\n\`\`\`\n${result.content[0].text.slice(0, 1500)}\n\`\`\``);
		return result;
	}

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('mcp', { workflows: [workflow], credentials: () => [bearerCredential], shared: true });
		await setup.rest.activateWorkflow(workflow.id);
		url = new URL(`${setup.n8n.baseUrl}/mcp/lba-ads`);
		// Publishing registers the trigger's webhooks a moment later: connect once they answer.
		for (const deadline = Date.now() + 60_000; ; ) {
			client = new Client({ name: 'lba-e2e-mcp-client', version: '1.0.0' });
			try {
				await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
				break;
			} catch (error) {
				if (Date.now() > deadline) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}, 5 * 60 * 1000);

	afterAll(async () => {
		await client?.close();
		await setup?.close();
		if (record.length) {
			const dir = e2e.ensureDir(path.join(e2e.ARTIFACTS_DIR, 'e2e'));
			fs.writeFileSync(path.join(dir, 'mcp-client.md'), `# What an MCP client received from LBA Ads (real n8n 2.40.7)\n\n${record.join('\n\n')}\n`);
		}
	});

	test('lists the three tools with their descriptions and input schemas, every field described', async () => {
		e2e.follows('toolForgetNot');
		const { tools } = (await client.listTools()) as { tools: Array<{ name: string; description: string; inputSchema: Json }> };
		record.push(`### tools/list\n\n\`\`\`json\n${JSON.stringify(tools, null, 1)}\n\`\`\``);
		expect(tools.map((tool) => tool.name).sort()).toEqual(['create_campaign', 'find_targeting_location', 'reverse_geocode']);
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(byName.create_campaign.description).toMatch(/^Publishes a paid SMS campaign in LBA Ads at once/);
		expect(byName.create_campaign.description).toContain('Call it first with preview: true');
		expect(byName.reverse_geocode.description).toMatch(/^Looks up the address at a latitude and longitude in Indonesia/);
		expect(byName.find_targeting_location.description).toMatch(/^Finds the Location ID a campaign channel needs/);
		const expected: Json = {
			create_campaign: ['category', 'channels', 'description', 'name', 'preview'],
			find_targeting_location: ['placeName'],
			reverse_geocode: ['latitude', 'longitude'],
		};
		for (const tool of tools) {
			const properties = tool.inputSchema.properties as Record<string, Json>;
			expect(Object.keys(properties).sort()).toEqual(expected[tool.name]);
			expect([...tool.inputSchema.required].sort()).toEqual(expected[tool.name]);
			for (const [field, schema] of Object.entries(properties)) {
				expect({ field, described: typeof schema.description === 'string' && schema.description.length > 20 }).toEqual({ field, described: true });
			}
			// The spending limits are the owner's: no field of the schema can set them.
			expect(JSON.stringify(tool.inputSchema)).not.toMatch(/maxSms|maxCampaigns/);
		}
		expect(byName.reverse_geocode.inputSchema.properties.latitude.type).toBe('number');
		expect(byName.create_campaign.inputSchema.properties.preview.type).toBe('boolean');
	});

	test('geocode -> targeting location -> preview (nothing sent) -> publish (one campaign) -> the same publish again, and again in UTC (skipped)', async () => {
		e2e.follows('toolIsoDates');
		const [place] = itemsOf(await call('reverse_geocode', { latitude: -6.9175, longitude: 107.6191 }));
		expect(place).toMatchObject({ found: true, city: 'Kota Bandung', province: 'Jawa Barat' });
		const [location] = itemsOf(await call('find_targeting_location', { placeName: place.city }));
		expect(location).toMatchObject({ found: true, name: 'Kota Bandung', locationId: 3273 });

		const [preview] = itemsOf(await call('create_campaign', campaign({ preview: true }, { locationId: location.locationId })));
		expect(preview).toMatchObject({ dryRun: true, sent: false, request: { method: 'POST', path: '/lba/campaign' } });
		expect(preview.spending).toEqual({ smsQuantity: 1000, smsBilled: 1000, maxSmsPerCampaign: 10000, maxCampaignsPerExecution: 1, campaignsSentInExecution: 0, wouldBeRefusedBy: [] });
		expect(await journal()).toEqual([]);

		const [published] = itemsOf(await call('create_campaign', campaign({}, { locationId: location.locationId })));
		expect(published).toMatchObject({ status: 'Published', idempotencyKey: preview.idempotencyKey });
		expect(await journal()).toEqual(['Bandung weekend promo (MCP)']);

		const [again] = itemsOf(await call('create_campaign', campaign({}, { locationId: location.locationId })));
		expect(again).toMatchObject({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again' });
		expect(await journal()).toEqual(['Bandung weekend promo (MCP)']);

		// The same call with the same instants written in UTC, as models and other systems often give them.
		const inUtc = campaign({}, { locationId: location.locationId, startDate: '2036-12-05T02:00:00Z', endDate: '2036-12-06T14:00:00Z' });
		const [utc] = itemsOf(await call('create_campaign', inUtc));
		expect(utc).toMatchObject({ skipped: true, earlierOutcome: 'created', idempotencyKey: published.idempotencyKey });
		expect(await journal()).toEqual(['Bandung weekend promo (MCP)']);
	});

	test('MCP client repeating a call: the answer of the first is lost (502 after the service created it), the repeat sends nothing', async () => {
		const name = 'Bandung repeat (MCP)';
		await fetch(`${setup.sandbox.url}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 }),
		});
		expect(errorOf(await call('create_campaign', campaign({ name })))).toMatch(/HTTP 502\); the campaign may have been created, so do not send it again/);
		const [again] = itemsOf(await call('create_campaign', campaign({ name })));
		expect(again).toMatchObject({ skipped: true, earlierOutcome: 'unknown' });
		expect((await journal()).filter((each) => each === name)).toHaveLength(1);
	});

	test('a campaign over the spending limit: the whole error reaches the client, nothing is sent', async () => {
		const result = await call('create_campaign', campaign({ name: 'Too big (MCP)' }, { smsQty: 50_000 }));
		expect(errorOf(result)).toBe(
			"NodeOperationError: Item 1 › SMS Quantity: 50,000 over the campaign's channels (50,000 SMS billed, counting SMS per recipient), above the spending limit Max SMS per Campaign (10,000). Nothing was sent. Lower the channels' SMS Quantity to 10,000 in all, or split the campaign. The limit is set in the node's Options by the workflow's owner; an AI model using the tool cannot change it.",
		);
		expect(await journal()).not.toContain('Too big (MCP)');
	});

	test('bad fields: every problem and the valid values in the error, nothing is sent', async () => {
		const result = await call('create_campaign', campaign({ name: 'Bad (MCP)', category: 'Pizza' }, { smsQty: 0, telcoId: 'Smartfren' }));
		const text = errorOf(result) ?? '';
		expect(text).toMatch(/^NodeOperationError: Item 1 › Category: "Pizza" is not a category \(API: categoryId must be a category id from 3 to 26 or its label\)\. /);
		expect(text).toContain('Item 1 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1)');
		expect(text).toContain('Item 1 › Channel 1 › Telco: "Smartfren" is not one of isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata)');
		expect(text).toContain('Nothing was sent. Categories: 3 Arts & Entertainment,');
		expect(await journal()).not.toContain('Bad (MCP)');
	});

	test('in the editor: the MCP workflow, and the spending limits in the Create tool\'s Options', async () => {
		const session = await e2e.editorSession(setup.n8n);
		try {
			const page = session.page;
			await e2e.openWorkflow(page, setup.n8n.baseUrl, workflow.id);
			await e2e.nodeIconLoaded(page, 'create_campaign');
			await page.waitForTimeout(800);
			await e2e.screenshot(page, 'mcp-server-workflow');
			const ndv = await e2e.openNodePanel(page, 'create_campaign');
			const maxSms = ndv.getByText('Max SMS per Campaign', { exact: true });
			await maxSms.scrollIntoViewIfNeeded();
			await expect(maxSms.isVisible()).resolves.toBe(true);
			await expect(ndv.getByText('Max Campaigns per Execution', { exact: true }).isVisible()).resolves.toBe(true);
			await expect(e2e.parameterInput(page, 'maxSmsPerCampaign').locator('input').inputValue()).resolves.toBe('10000');
			// The limits are the owner's: the editor offers no "let the model define this" (✨) button
			// on them, which it shows on a hovered tool parameter that takes expressions.
			const modelButtons = page.locator('[data-test-id="from-ai-override-button"]:visible');
			const hover = async (name: string) => {
				const input = e2e.parameterInput(page, name);
				await input.scrollIntoViewIfNeeded();
				await input.hover();
			};
			const chooseProtection = async (label: string) => {
				await e2e.openOptions(page, 'duplicateProtection');
				await page.locator('[data-test-id="parameter-input-item"]:visible').filter({ hasText: label }).first().click();
				await expect(e2e.parameterInput(page, 'duplicateProtection').locator('input').inputValue()).resolves.toBe(label);
			};
			// The control first, in the same panel: the same hover over a parameter that takes expressions
			// (Idempotency Key, shown with Duplicate Protection = Custom Key) does show the button, so the
			// zeros below are the limits' doing and not a selector or hover that sees nothing. How long the
			// button took to show here is how long the limits get to show one (at least 1 s: a loaded machine).
			await chooseProtection('Custom Key');
			const hovered = Date.now();
			await hover('idempotencyKey');
			await modelButtons.first().waitFor({ timeout: e2e.UI_TIMEOUT });
			const showsWithin = Math.min(10_000, Math.max(1000, 2 * (Date.now() - hovered)));
			await expect(modelButtons.count()).resolves.toBe(1);
			await chooseProtection('Campaign Content'); // as the example has it
			for (const limit of ['maxSmsPerCampaign', 'maxCampaignsPerExecution']) {
				await hover(limit);
				await page.waitForTimeout(showsWithin);
				await expect(modelButtons.count()).resolves.toBe(0);
			}
			await e2e.parameterInput(page, 'maxSmsPerCampaign').scrollIntoViewIfNeeded();
			await page.waitForTimeout(500);
			await e2e.screenshot(page, 'spending-limits');
		} finally {
			await session.close();
		}
	});

	test('refused without the bearer token, and with a wrong one', async () => {
		const listTools = (headers: Record<string, string>) =>
			fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
			});
		const none = await listTools({});
		const wrong = await listTools({ authorization: 'Bearer not-the-token' });
		expect([none.status, wrong.status]).toEqual([403, 403]);
		expect(await none.text()).toBe('Authorization data is wrong!');
		const stranger = new Client({ name: 'stranger', version: '1.0.0' });
		await expect(stranger.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow("Error POSTing to endpoint: Authorization data is wrong!");
	});
});
