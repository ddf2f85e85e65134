// LBA Ads as an AI agent's tool, in real n8n 2.40.7: AI Agent 3.1 + OpenAI Chat Model 1.3 (the
// Responses API, its default) whose credential's Base URL points at a scripted OpenAI-compatible
// server on loopback (lib/scripted-model.js), and the LBA Ads Tool nodes n8n builds from our
// `usableAsTool`, left at their defaults. The script plays the model: it reads the tool results
// n8n hands it and decides the next call. The assertions are on what the model received (tool
// schemas, tool results) and on the sandbox journal. What the model received is also written to
// artifacts/e2e/ai-agent-tool.md.
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as e2e from './lib';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startScriptedModel } = require('./lib/scripted-model');

type Json = Record<string, any>;
type ScriptedModel = { url: string; turns: Array<Turn & { body: Json }>; setScript(script: (turn: Turn) => Json): void; close(): Promise<void> };
type Turn = { index: number; api: string; prompt: string; tools: Array<{ name: string; description: string; parameters: Json }>; toolResults: Array<{ name: string; arguments: Json; output: string }> };

/** The tool nodes as n8n names them when added from the node creator (each name becomes the tool's name). */
const TOOLS = {
	geocode: { node: 'Reverse geocode a location in LBA Ads', tool: 'Reverse_geocode_a_location_in_LBA_Ads', resource: 'location', operation: 'reverseGeocode' },
	create: { node: 'Create a campaign in LBA Ads', tool: 'Create_a_campaign_in_LBA_Ads', resource: 'campaign', operation: 'create' },
	products: { node: 'Get many products in LBA Ads', tool: 'Get_many_products_in_LBA_Ads', resource: 'product', operation: 'getMany' },
};
type ToolKey = keyof typeof TOOLS;

const MODEL_CREDENTIAL = { id: 'scriptedOpenAi', name: 'Scripted model' };

/** Manual Trigger -> AI Agent with the OpenAI Chat Model and LBA Ads Tool nodes (only resource and operation set). */
function agentWorkflow(id: string, prompt: string, tools: ToolKey[], createOptions: Json = {}, createSettings: Json = {}) {
	const nodes: Json[] = [
		{ id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: `${id}-agent`, name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, position: [220, 0], parameters: { promptType: 'define', text: prompt, options: {} } },
		{
			id: `${id}-model`,
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [160, 220],
			parameters: { model: { __rl: true, mode: 'list', value: 'scripted-gpt' }, options: {} },
			credentials: { openAiApi: MODEL_CREDENTIAL },
		},
	];
	const connections: Json = {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
	};
	tools.forEach((key, index) => {
		const tool = TOOLS[key];
		const parameters = { resource: tool.resource, operation: tool.operation, ...(key === 'create' && Object.keys(createOptions).length ? { options: createOptions } : {}) };
		nodes.push(e2e.lbaNode(`${id}-${key}`, tool.node, parameters, { type: 'n8n-nodes-lba-ads.lbaAdsTool', position: [380 + index * 200, 220], ...(key === 'create' ? createSettings : {}) }));
		connections[tool.node] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	});
	return { id, name: `AI agent: ${id}`, nodes, connections, settings: { executionOrder: 'v1', timezone: 'Asia/Jakarta' } };
}

/** A campaign as the model sends it to the Create tool. */
function campaignCall(name: string, channel: Json = {}, fields: Json = {}) {
	return {
		name,
		description: 'Weekend promo for the store',
		category: 'Food & Drinks',
		channels: [
			{
				sender: 'LBADEMO',
				locationId: 3273,
				smsQty: 500,
				message: 'Diskon 20% akhir pekan ini!',
				startDate: '2036-12-05T09:00:00+07:00',
				endDate: '2036-12-06T21:00:00+07:00',
				telcoId: 'Telkomsel',
				...channel,
			},
		],
		preview: false,
		...fields,
	};
}

/** A regular (non-tool) LBA Ads node given a bad campaign by expression: how its panel shows the error. */
const REGULAR_ERROR_WORKFLOW = e2e.workflow(
	'aiRegularError',
	'Regular node: bad campaign',
	[
		e2e.manualTrigger('re-start'),
		e2e.lbaNode('re-lba', 'Create a campaign', {
			resource: 'campaign',
			operation: 'create',
			name: 'Bad campaign',
			campaignDescription: 'Shows the error panel',
			categoryId: '={{ "Pizza" }}',
			channelsInput: 'json',
			channelsJson: JSON.stringify([{ ...campaignCall('x').channels[0], telcoId: 'Smartfren', smsQty: 0 }]),
		}),
	],
	e2e.chain('Start', 'Create a campaign'),
);

const WORKFLOWS = {
	chain: agentWorkflow('aiChain', 'Launch a weekend promo for our store at -6.9175, 107.6191', ['geocode', 'create']),
	products: agentWorkflow('aiProducts', 'Which data packages cost less than 30000 rupiah?', ['products']),
	correct: agentWorkflow('aiCorrect', 'Launch the Surabaya promo', ['create']),
	lostAnswer: agentWorkflow('aiLostAnswer', 'Launch the Medan promo', ['create']),
	retryOnFail: agentWorkflow('aiRetryOnFail', 'Launch the Denpasar promo', ['create'], {}, { retryOnFail: true, maxTries: 2, waitBetweenTries: 1100 }),
	limits: agentWorkflow('aiLimits', 'Launch as many Makassar promos as you can', ['create'], { maxSmsPerCampaign: 2000, maxCampaignsPerExecution: 2 }),
	notCreated: agentWorkflow('aiNotCreated', 'Launch the Bogor promo', ['create']),
	// The new workflow a held tool result's advice has the user make: one LBA Ads node, Create Campaign (not the tool), Mode Send One Again.
	sendAgain: e2e.workflow(
		'aiSendAgain',
		'Send one campaign again',
		[e2e.manualTrigger('aiSendAgain-start'), e2e.lbaNode('aiSendAgain-lba', 'Send again', { resource: 'campaign', operation: 'create', runMode: 'sendAgain', sendAgainKey: '' })],
		e2e.chain('Start', 'Send again'),
	),
};

const lastResult = (turn: Turn) => turn.toolResults[turn.toolResults.length - 1];
const parsed = (output: string) => JSON.parse(output) as Json[];

e2e.describeE2E(`LBA Ads Tool with a real AI Agent in n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let model: ScriptedModel;
	let rest: e2e.N8nRest;
	const report: string[] = [];

	async function journal(name: string) {
		const all: Array<{ request: Json }> = ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as Json).campaigns;
		return all.filter((campaign) => campaign.request.name === name);
	}

	/** Runs the workflow as the editor's "Execute workflow" does; returns the model's turns of this run. */
	async function runAgent(id: string, script: (turn: Turn) => Json) {
		const from = model.turns.length;
		model.setScript(script);
		const { executionId } = await rest.runWorkflow(id, 'Start');
		await rest.waitForExecution(executionId, { timeoutMs: 120_000 });
		const run = await rest.getExecutionRun(executionId);
		const turns = model.turns.slice(from);
		report.push(
			`## ${id}\n\nExecution ${run.status}. Agent output: ${JSON.stringify(run.output('AI Agent')[0]?.output ?? null)}\n`,
			...turns.flatMap((turn) =>
				turn.toolResults.length && turn === turns[turns.length - 1]
					? turn.toolResults.map((result) => `Tool result of ${result.name}(${JSON.stringify(stripId(result.arguments))}):\n\n\`\`\`json\n${result.output}\n\`\`\`\n`)
					: [],
			),
		);
		return { run, turns };
	}

	beforeAll(async () => {
		model = await startScriptedModel({ model: 'scripted-gpt' });
		setup = await e2e.startLbaN8n('ai-agent', {
			shared: true,
			workflows: Object.values(WORKFLOWS),
			credentials: () => [{ ...MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted', url: model.url } }],
		});
		({ sandbox, rest } = setup);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
		await model?.close();
		if (report.length) {
			const dir = e2e.ensureDir(path.join(e2e.ARTIFACTS_DIR, 'e2e'));
			fs.writeFileSync(path.join(dir, 'ai-agent-tool.md'), `# What the model received (real n8n ${e2e.n8nVersion()}, AI Agent 3.1)\n\n${report.join('\n')}\n`);
		}
	});

	test('geocode, then a campaign for the geocoded city: chained by the model; tools described for it', async () => {
		e2e.follows('toolCityName', 'toolDegrees');
		const { run, turns } = await runAgent('aiChain', (turn) => {
			if (turn.toolResults.length === 0) return { call: { tool: TOOLS.geocode.tool, arguments: { latitude: -6.9175, longitude: 107.6191 } } };
			if (turn.toolResults.length === 1) {
				const [place] = parsed(lastResult(turn).output);
				return { call: { tool: TOOLS.create.tool, arguments: campaignCall(`Weekend promo ${place.city}`, { message: `Promo akhir pekan di ${place.locality}!` }) } };
			}
			const [campaign] = parsed(lastResult(turn).output);
			return { text: `Campaign ${campaign.campaignId} is ${campaign.status}.` };
		});
		expect(run.status).toBe('success');
		expect(turns).toHaveLength(3);

		// The tools as the model received them: our descriptions, and a described field for each value.
		report.push(`Tools offered to the model (first turn):\n\n\`\`\`json\n${JSON.stringify(turns[0].tools, null, 2)}\n\`\`\`\n`);
		const offered = Object.fromEntries(turns[0].tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(offered).sort()).toEqual([TOOLS.create.tool, TOOLS.geocode.tool]);
		const create = offered[TOOLS.create.tool];
		expect(create.description).toMatch(/^Publishes a paid SMS campaign in LBA Ads at once: .* Never call it again for a campaign after an error that says the campaign may have been created\./);
		expect(create.description).toMatch(/\d{4}-\d{2}-\d{2}T09:00:00\+07:00 \(WIB\)/);
		expect(Object.keys(create.parameters.properties).sort()).toEqual(['category', 'channels', 'description', 'name', 'preview']);
		expect(create.parameters.properties.preview).toMatchObject({ type: 'boolean', description: expect.stringMatching(/^true: only check the campaign/) });
		expect(create.description).toContain('Call it first with preview: true');
		expect(create.parameters.properties.category).toMatchObject({ type: 'string', description: expect.stringContaining('10 Food & Drinks') });
		expect(create.parameters.properties.channels.description).toMatch(/^JSON array of 1 to 99 channels;.*"telcoId": "tsel".*\+07:00 WIB/);
		expect(create.parameters.properties.name.description).toBe('Campaign name, at most 255 characters');
		const geocode = offered[TOOLS.geocode.tool];
		expect(geocode.description).toMatch(/^Looks up the address at a latitude and longitude in Indonesia/);
		expect(geocode.parameters.properties.latitude).toMatchObject({ type: 'number', description: expect.stringContaining('-90 to 90') });

		// The chain: the campaign targets what the geocode result said.
		const [place] = parsed(turns[1].toolResults[0].output);
		expect(place).toMatchObject({ found: true, city: 'Kota Bandung', locality: 'Bandung' });
		const [created] = parsed(turns[2].toolResults[1].output);
		expect(created).toMatchObject({ status: 'Published', idempotencyKey: expect.stringMatching(/^content:/) });
		const campaigns = await journal('Weekend promo Kota Bandung');
		expect(campaigns).toHaveLength(1);
		expect(campaigns[0].request).toMatchObject({ categoryId: 10, channels: [{ telcoId: 'tsel', message: 'Promo akhir pekan di Bandung!' }] });
		expect(run.output('AI Agent')[0].output).toBe(`Campaign ${created.campaignId} is Published.`);
	});

	test('products: the model receives the data packages', async () => {
		const { run, turns } = await runAgent('aiProducts', (turn) =>
			turn.toolResults.length === 0
				? { call: { tool: TOOLS.products.tool, arguments: {} } }
				: { text: parsed(lastResult(turn).output).filter((product) => product.price < 30000).map((product) => product.name).join(', ') },
		);
		expect(run.status).toBe('success');
		expect(turns[0].tools[0].description).toMatch(/^Lists the mobile data packages/);
		const catalogue = ((await (await fetch(`${sandbox.url}/io/products`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } })).json()) as Json).results as Json[];
		const received = parsed(lastResult(turns[1]).output);
		expect(received.map((product) => product.name)).toEqual(catalogue.slice(0, 50).map((product) => product.name));
		const cheap = catalogue.filter((product) => product.price.amount < 30000).map((product) => product.name);
		expect(cheap.length).toBeGreaterThan(0);
		expect(run.output('AI Agent')[0].output).toBe(cheap.join(', '));
	});

	test('a bad call: the model reads every problem and the valid values in the error, and corrects it', async () => {
		const name = 'Surabaya promo';
		const { run, turns } = await runAgent('aiCorrect', (turn) => {
			if (turn.toolResults.length === 0) {
				// Three mistakes at once, and a date without an offset.
				return { call: { tool: TOOLS.create.tool, arguments: campaignCall(name, { telcoId: 'Smartfren', smsQty: 0, startDate: '2036-12-05T09:00:00' }, { category: 'Promo' }) } };
			}
			if (turn.toolResults.length === 1) {
				// The script corrects only from what the error message says.
				const [{ error }] = parsed(lastResult(turn).output);
				const category = /\b10 (Food & Drinks)\b/.exec(error)?.[1];
				const telco = /\b(tsel) \(Telkomsel\)/.exec(error)?.[1];
				const smsQty = /smsQty must be at least (\d+)/.exec(error)?.[1];
				if (!category || !telco || !smsQty) return { text: `I could not understand the error: ${error}` };
				return { call: { tool: TOOLS.create.tool, arguments: campaignCall(name, { telcoId: telco, smsQty: Number(smsQty) * 500, startDate: '2036-12-05T09:00:00' }, { category }) } };
			}
			return { text: 'Launched.' };
		});
		expect(run.status).toBe('success');
		const [{ error }] = parsed(turns[1].toolResults[0].output);
		expect(error).toMatch(/^Item 1 › Category: "Promo" is not a category \(API: categoryId must be a category id from 3 to 26 or its label\)\. /);
		expect(error).toContain('Categories: 3 Arts & Entertainment, 4 Automotive,');
		expect(error).toContain('Item 1 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1)');
		expect(error).toContain('Item 1 › Channel 1 › Telco: "Smartfren" is not one of isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata)');
		const [created] = parsed(turns[2].toolResults[1].output);
		expect(created).toMatchObject({ status: 'Published', assumedTimezone: 'Asia/Jakarta', datesWithoutOffset: ['channels[0].startDate'] });
		const campaigns = await journal(name);
		expect(campaigns).toHaveLength(1);
		expect(campaigns[0].request.channels[0]).toMatchObject({ telcoId: 'tsel', smsQty: 500, startDate: '2036-12-05T09:00:00+07:00' });
	});

	test('a 502 after the service created the campaign: the message says so, and a repeated call creates nothing', async () => {
		e2e.follows('toolNeverAgain');
		const name = 'Medan promo';
		await fetch(`${sandbox.url}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 }),
		});
		// A careless model that calls again after the error: duplicate protection must hold anyway.
		const { run, turns } = await runAgent('aiLostAnswer', (turn) =>
			turn.toolResults.length < 2 ? { call: { tool: TOOLS.create.tool, arguments: campaignCall(name) } } : { text: 'Done.' },
		);
		expect(run.status).toBe('success');
		const [{ error }] = parsed(turns[1].toolResults[0].output);
		expect(error).toMatch(/^The LBA service failed to answer POST \/lba\/campaign \(HTTP 502\); the campaign may have been created, so do not send it again\./);
		const [again] = parsed(turns[2].toolResults[1].output);
		expect(again).toMatchObject({ skipped: true, earlierOutcome: 'unknown', reason: expect.stringMatching(/^May have been created in an earlier run/) });
		expect(await journal(name)).toHaveLength(1);
	});

	test("a 502 before the service created the campaign, the tool called again: held; its advice followed (not in LBA Ads, so Send One Again on the user's Create node in the editor): sent once", async () => {
		e2e.follows('sendOneAgainFromTool', 'sendOneAgainFromToolWithKey');
		const name = 'Bogor promo';
		await fetch(`${sandbox.url}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ method: 'POST', path: '/lba/campaign', when: 'before', status: 502, times: 1 }),
		});
		const { run, turns } = await runAgent('aiNotCreated', (turn) =>
			turn.toolResults.length < 2 ? { call: { tool: TOOLS.create.tool, arguments: campaignCall(name, { locationId: 3271 }) } } : { text: 'Done.' },
		);
		expect(run.status).toBe('success');
		// The first call's error, as the model read it: the way out a tool user can take, the key in it.
		const [{ error }] = parsed(turns[1].toolResults[0].output);
		const [held] = parsed(turns[2].toolResults[1].output);
		expect(held).toMatchObject({ skipped: true, earlierOutcome: 'unknown', sendAgainKey: expect.stringMatching(/^again:v1:/) });
		expect(error).toContain(`only if it is missing, send it again: show the user this key: ${held.sendAgainKey}. The user then, in the editor, makes a new workflow`);
		expect(held.howToResend).toBe(
			"Wait a few minutes, then look for it in LBA Ads. If it is there, do nothing. If it is missing: show the user the held result's sendAgainKey. The user then, in the editor, makes a new workflow with one LBA Ads node set to Resource Campaign and Operation Create (not the tool), the same credential, any text in its Name and Description fields (this mode does not use them) and Mode Send One Again, pastes the key into Send Again Key and clicks Execute step. Only this campaign is sent, once. Keep that workflow for any later key: another node would send the same key again, billed again.",
		);
		// "Wait a few minutes, then look for it in LBA Ads": it is not there.
		expect(await journal(name)).toHaveLength(0);
		// The new workflow (n8n puts a Manual Trigger before its first node): the LBA Ads node, Resource
		// Campaign, Operation Create, any text in Name and Description, Mode Send One Again, the key pasted; Execute step.
		const steps = e2e.userSteps(setup!);
		const setLba = (change: (parameters: Json) => Json) => steps.setNode(WORKFLOWS.sendAgain.id, 'Send again', (node: Json) => ({ ...node, parameters: change(node.parameters) }));
		await setLba((parameters) => ({ ...parameters, name: 'x', campaignDescription: 'x', sendAgainKey: held.sendAgainKey }));
		const step = await steps.executeStep(WORKFLOWS.sendAgain.id, 'Send again', {}, ['Send again']);
		expect([step.status, step.error?.message]).toEqual(['success', undefined]);
		expect(step.output('Send again')[0]).toMatchObject({ status: 'Published' });
		// "Keep that workflow for any later key": the same key on it again sends nothing more.
		const again = await steps.executeStep(WORKFLOWS.sendAgain.id, 'Send again', {}, ['Send again']);
		expect(again.output('Send again')[0]).toMatchObject({ skipped: true });
		const sent = await journal(name);
		expect(sent).toHaveLength(1);
		expect(sent[0].request.channels[0]).toMatchObject({ locationId: 3271, startDate: '2036-12-05T09:00:00+07:00' });
	});

	test("AI agent tool with Retry On Fail: the first try's answer is lost (502 after the service created it), the second try sends nothing", async () => {
		const name = 'Denpasar promo';
		await fetch(`${sandbox.url}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 }),
		});
		const { run, turns } = await runAgent('aiRetryOnFail', (turn) => (turn.toolResults.length < 1 ? { call: { tool: TOOLS.create.tool, arguments: campaignCall(name) } } : { text: 'Done.' }));
		expect(run.status).toBe('success');
		const [secondTry] = parsed(turns[1].toolResults[0].output);
		expect(secondTry).toMatchObject({ skipped: true, earlierOutcome: 'unknown' });
		expect(await journal(name)).toHaveLength(1);
	});

	test('spending limits set by the user hold whatever the model asks: over Max SMS refused, and a third campaign in one execution refused', async () => {
		// A greedy model: one huge campaign, then three small ones, each in a call of its own.
		const calls = [campaignCall('Makassar huge', { smsQty: 50_000 }), ...[1, 2, 3].map((n) => campaignCall(`Makassar promo ${n}`, { smsQty: 1000 }))];
		const { run, turns } = await runAgent('aiLimits', (turn) =>
			turn.toolResults.length < calls.length ? { call: { tool: TOOLS.create.tool, arguments: calls[turn.toolResults.length] } } : { text: 'Done.' },
		);
		expect(run.status).toBe('success');
		const results = turns[turns.length - 1].toolResults.map((result) => parsed(result.output)[0]);
		expect(results[0].error).toBe(
			"Item 1 › SMS Quantity: 50,000 over the campaign's channels (50,000 SMS billed, counting SMS per recipient), above the spending limit Max SMS per Campaign (2,000). Nothing was sent. Lower the channels' SMS Quantity to 2,000 in all, or split the campaign. The limit is set in the node's Options by the workflow's owner; an AI model using the tool cannot change it.",
		);
		expect([results[1].status, results[2].status]).toEqual(['Published', 'Published']);
		expect(results[3].error).toMatch(/^Item 1 › Max Campaigns per Execution \(2\): this run has 1 campaign and 2 campaigns were sent earlier in this execution, over this spending limit\. Nothing of this run was sent\. Send at most 0 more campaigns/);
		expect(await journal('Makassar huge')).toHaveLength(0);
		expect(await journal('Makassar promo 3')).toHaveLength(0);
		expect((await journal('Makassar promo 1')).length + (await journal('Makassar promo 2')).length).toBe(2);
	});
});

e2e.describeE2E('examples/ai-campaign-assistant.json chatted with in the editor, and a regular node error panel', () => {
	let model: ScriptedModel;
	// The scripted model first: the suite's credential points at it.
	beforeAll(async () => {
		model = await startScriptedModel({ model: 'gpt-4.1-mini' });
	});
	const suite = e2e.editorSuite('ai-chat', {
		shared: true,
		workflows: [REGULAR_ERROR_WORKFLOW, e2e.loadExample('aiCampaignAssistant')],
		credentials: () => [{ ...e2e.EXAMPLE_OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted', url: model.url } }],
	});
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	beforeAll(() => ({ sandbox, n8n } = suite));
	afterAll(async () => {
		await model?.close();
	});

	test('chat: the agent geocodes, previews the campaign (dry run), and publishes it once after "Yes"', async () => {
		e2e.follows('toolCallOnce', 'toolPreviewFirst');
		const page = suite.page;
		// The model's side of the conversation, one step per call.
		let step = 0;
		let city = '';
		model.setScript((turn) => {
			step++;
			if (step === 1) return { call: { tool: TOOLS.geocode.tool, arguments: { latitude: -6.9175, longitude: 107.6191 } } };
			if (step === 2) {
				city = parsed(lastResult(turn).output)[0].city;
				return { call: { tool: TOOLS.create.tool, arguments: campaignCall(`Weekend promo ${city}`, { sender: 'WARUNGKITA', smsQty: 1000 }, { preview: true }) } };
			}
			if (step === 3) {
				const [preview] = parsed(lastResult(turn).output);
				const [sms] = preview.smsPerRecipient;
				return { text: `Your store is in ${city}. Preview of "${preview.request.body.name}": 1000 SMS on ${preview.request.body.channels[0].telcoId}, ${sms.segments} SMS per recipient (${sms.encoding}), ${preview.request.body.channels[0].startDate} to ${preview.request.body.channels[0].endDate}. Shall I publish it?` };
			}
			if (step === 4 && turn.prompt === 'Yes') {
				return { call: { tool: TOOLS.create.tool, arguments: campaignCall(`Weekend promo ${city}`, { sender: 'WARUNGKITA', smsQty: 1000 }) } };
			}
			if (step === 5) return { text: `Published: campaign ${parsed(lastResult(turn).output)[0].campaignId}.` };
			return { text: `Unexpected step ${step}` };
		});

		await e2e.openWorkflow(page, n8n.baseUrl, e2e.EXAMPLES.aiCampaignAssistant.id);
		await page.locator('[data-test-id="workflow-chat-button"]').click();
		const input = page.locator('[data-test-id="canvas-chat"] textarea').first();
		const botMessages = page.locator('[data-test-id="canvas-chat"] .chat-message-from-bot');
		await input.fill('Launch a weekend promo for our store at -6.9175, 107.6191: sender WARUNGKITA, location 3273, 1000 SMS on Telkomsel');
		await input.press('Enter');
		await botMessages.filter({ hasText: 'Shall I publish it?' }).first().waitFor({ timeout: 60_000 });
		expect(await botMessages.first().innerText()).toContain('Preview of "Weekend promo Kota Bandung": 1000 SMS on tsel, 1 SMS per recipient (GSM-7), 2036-12-05T09:00:00+07:00 to 2036-12-06T21:00:00+07:00.');
		expect(await journalCount(sandbox.url)).toBe(0);
		await input.fill('Yes');
		await input.press('Enter');
		await botMessages.filter({ hasText: /Published: campaign [0-9A-F]{16}\./ }).first().waitFor({ timeout: 60_000 });
		await page.waitForTimeout(1000);
		await e2e.screenshot(page, 'ai-agent-chat');

		const campaigns = ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as Json).campaigns as Array<{ campaignId: string; request: Json }>;
		expect(campaigns.map((campaign) => campaign.request.name)).toEqual(['Weekend promo Kota Bandung']);
		expect(await botMessages.nth(1).innerText()).toContain(`Published: campaign ${campaigns[0].campaignId}.`);

		// The Create tool's panel: the description the model reads and the fields it fills.
		await e2e.openNodePanel(page, TOOLS.create.node);
		const description = e2e.parameterInput(page, 'toolDescription').locator('textarea, input').first();
		await description.waitFor({ timeout: 30_000 });
		expect(await description.inputValue()).toMatch(/^Publishes a paid SMS campaign in LBA Ads at once/);
		await page.waitForTimeout(500);
		await e2e.screenshot(page, 'ai-tool-panel');
		await page.keyboard.press('Escape');
	});

	test('the regular node: every problem in the error title, the field labels below it', async () => {
		const page = suite.page;
		const before = await journalCount(sandbox.url);
		await e2e.openWorkflow(page, n8n.baseUrl, REGULAR_ERROR_WORKFLOW.id);
		await Promise.all([
			page.waitForResponse((r) => /\/rest\/workflows\/[^/]+\/run$/.test(new URL(r.url()).pathname), { timeout: 60_000 }),
			page.locator('[data-test-id="execute-workflow-button"]').click(),
		]);
		// The run's end as a lasting state (the button back from its spinner), not the "Problem in node" toast.
		await page.locator('[data-test-id="execute-workflow-button"]').filter({ hasText: 'Execute workflow' }).waitFor({ timeout: 60_000 });
		await e2e.screenshot(page, 'regular-node-error-canvas');
		await e2e.openNodePanel(page, 'Create a campaign');
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.getByText('Item 1 › Category: "Pizza" is not a category', { exact: false }).first().waitFor({ timeout: 30_000 });
		const text = await ndv.innerText();
		expect(text).toContain('Fix them in the panel, then run again.');
		expect(text).toContain('Categories: 3 Arts & Entertainment, 4 Automotive,');
		await page.waitForTimeout(500);
		await e2e.screenshot(page, 'regular-node-error-panel');
		await page.keyboard.press('Escape');
		expect(await journalCount(sandbox.url)).toBe(before);
	});
});

async function journalCount(sandboxUrl: string): Promise<number> {
	return (((await (await fetch(`${sandboxUrl}/_sandbox/campaigns`)).json()) as Json).campaigns as unknown[]).length;
}

function stripId(args: Json) {
	const { id: _id, ...rest } = args ?? {};
	return rest;
}
