// Create Campaign's dry run and SMS counts in real n8n 2.40.7: run from the editor with
// Options > Dry Run on, the output shows the exact request, the SMS per recipient and warnings,
// and the sandbox journal shows nothing was sent. Turned off, the same node sends exactly the
// previewed body. Screenshots for the README.
import * as e2e from './lib';

type Json = Record<string, any>;

const NODE = 'Preview the campaign';
const CURLY = 'Diskon “spesial” 20% 🎉 hari ini di Warung Kita Bandung. Tunjukkan SMS ini di kasir, berlaku sampai Minggu!';
const channel = (telcoId: string, message: string) => ({
	sender: 'WARUNGKITA',
	locationId: 3273,
	smsQty: 1000,
	message,
	startDate: '2036-12-05T09:00:00',
	endDate: '2036-12-06T21:00:00',
	telcoId,
});
const parameters = (dryRun: boolean) => ({
	resource: 'campaign',
	operation: 'create',
	name: 'Weekend promo Bandung',
	campaignDescription: 'Dry run first',
	categoryId: 10,
	channelsInput: 'fields',
	channels: { channel: [channel('tsel', 'Diskon 20% akhir pekan ini di Warung Kita!'), channel('xl', CURLY)] },
	options: { dryRun },
});
const WORKFLOW = e2e.workflow('lbaDryRun', 'Dry run of a campaign', [e2e.manualTrigger('dr-start'), e2e.lbaNode('dr-lba', NODE, parameters(true))], e2e.chain('Start', NODE), {
	timezone: 'Asia/Jakarta',
});

e2e.describeE2E(`Create Campaign dry run in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;

	async function campaignRequests(): Promise<Json[]> {
		const { requests } = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Json;
		return requests.filter((request: Json) => request.path === '/lba/campaign');
	}

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('dry-run', { workflows: [WORKFLOW], shared: true });
		({ sandbox, rest } = setup);
		n8n = setup.n8n!;
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	test('from the editor: the exact request, SMS per recipient and warnings, nothing sent; then the real send matches it', async () => {
		const session = await e2e.editorSession(n8n);
		let executionId: string;
		try {
			const page = session.page;
			await e2e.openWorkflow(page, n8n.baseUrl, WORKFLOW.id);
			({ executionId } = await e2e.runWorkflowFromEditor(page, { expectNodes: [NODE] }));
			await e2e.openNodePanel(page, NODE);
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.getByText('JSON', { exact: true }).first().click();
			await ndv.getByText('smsPerRecipient', { exact: false }).first().waitFor({ timeout: 30_000 });
			await page.waitForTimeout(800);
			await e2e.screenshot(page, 'dry-run-output');
		} finally {
			await session.close();
		}

		expect(await campaignRequests()).toHaveLength(0);
		const run = await rest.getExecutionRun(executionId!);
		const [preview] = run.output(NODE);
		expect(preview).toMatchObject({
			dryRun: true,
			sent: false,
			request: { method: 'POST', path: '/lba/campaign', body: { name: 'Weekend promo Bandung', categoryId: 10 } },
			smsPerRecipient: [
				{ channel: 1, encoding: 'GSM-7', units: 42, segments: 1 },
				{ channel: 2, encoding: 'UCS-2', units: 107, segments: 2, nonGsmCharacter: '“' },
			],
			assumedTimezone: 'Asia/Jakarta',
		});
		expect(preview.request.body.channels[1]).toMatchObject({ startDate: '2036-12-05T09:00:00+07:00', endDate: '2036-12-06T21:00:00+07:00' });
		expect(preview.warnings[0]).toBe('Channel 2: “ (U+201C) is not in the GSM alphabet, so the message is sent as UCS-2 (70 per SMS): 107 units, 2 SMS per recipient.');
		// n8n shows the SMS warning as a hint above the output.
		expect(JSON.stringify(run.run.resultData.runData[NODE][0].hints ?? [])).toContain('2 SMS per recipient');

		// Dry Run off: the same node sends the body it previewed, once.
		const saved = await rest.getWorkflow(WORKFLOW.id);
		const nodes = saved.nodes.map((node: Json) => (node.name === NODE ? { ...node, parameters: parameters(false) } : node));
		await rest.call('PATCH', `/rest/workflows/${WORKFLOW.id}`, { nodes, connections: saved.connections, versionId: saved.versionId });
		const { executionId: realId } = await rest.runWorkflow(WORKFLOW.id, 'Start');
		await rest.waitForExecution(realId);
		const [created] = (await rest.getExecutionRun(realId)).output(NODE);
		expect(created).toMatchObject({ status: 'Published', smsPerRecipient: preview.smsPerRecipient, idempotencyKey: preview.idempotencyKey });
		const sent = await campaignRequests();
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual(preview.request.body);
	});

	test('Campaign Input = JSON: the same campaign as one JSON value gets the same key (not sent again); a list is refused, nothing sent', async () => {
		const saved = await rest.getWorkflow(WORKFLOW.id);
		const withParameters = (parameters: Json) => saved.nodes.map((node: Json) => (node.name === NODE ? { ...node, parameters } : node));
		const runWith = async (parameters: Json) => {
			const current = await rest.getWorkflow(WORKFLOW.id);
			await rest.call('PATCH', `/rest/workflows/${WORKFLOW.id}`, { nodes: withParameters(parameters), connections: current.connections, versionId: current.versionId });
			const { executionId } = await rest.runWorkflow(WORKFLOW.id, 'Start');
			await rest.waitForExecution(executionId);
			return rest.getExecutionRun(executionId);
		};
		// The campaign from the panel's fields (sent by the test above, or now).
		await runWith(parameters(false));
		const [sentBefore] = await campaignRequests();
		const asJson = (campaignJson: string) => ({ resource: 'campaign', operation: 'create', campaignInput: 'json', campaignJson });
		const sameCampaign = await runWith(asJson(JSON.stringify(sentBefore.body)));
		const [item] = sameCampaign.output(NODE);
		expect(item).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		const list = await runWith(asJson(JSON.stringify([sentBefore.body])));
		expect(list.error?.message).toContain('Item 1 › Campaign (JSON): an array of 1, not one campaign object');
		expect(await campaignRequests()).toHaveLength(1);
	});
});
