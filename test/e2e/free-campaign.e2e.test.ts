// Issue 40, item 4: "Freeing a campaign costs nothing else". A marketer's saved Create node (Custom
// Key duplicate protection, spending limits, timezone, Resend off) holds its campaign back on a
// second run; they free it the way the docs say, in the editor: Mode "Forget Sent Campaigns", the
// held item's forgetKeys pasted into Keys to Forget, Execute step, Mode back to Publish, save. The
// node's setup must come back field by field (REST and the panel), and the next run must create
// exactly one campaign. The second test measures the old way (Operation "Forget Sent" and back):
// the editor drops the fields the other operation hides, so the setup is lost.
import type { Page } from 'playwright-core';

import * as e2e from './lib';

type Json = Record<string, any>;

const NODE = 'Launch Bandung promo';
const OLD_NODE = 'Launch Surabaya promo';
const SHOTS = 'free-campaign';

/** A campaign set up the way a marketer does in the panel; only values the editor stores (no defaults). */
function campaignSetup(name: string, key: string): Json {
	return {
		resource: 'campaign',
		operation: 'create',
		name,
		campaignDescription: 'Weekend discounts at Warung Kita',
		categoryId: 10,
		channels: {
			channel: [
				{
					sender: 'WARUNGKITA',
					locationId: { __rl: true, mode: 'id', value: 3273 },
					smsQty: 1500,
					message: 'Diskon 20% akhir pekan ini di Warung Kita!',
					startDate: '2036-12-05T09:00:00',
					endDate: '2036-12-06T21:00:00',
					telcoId: 'xl',
				},
			],
		},
		duplicateProtection: 'customKey',
		idempotencyKey: `={{ '${key}-' + $now.setZone('Asia/Jakarta').toFormat('yyyy') }}`,
		options: { maxSmsPerCampaign: 2000, maxCampaignsPerExecution: 1, timezone: 'Asia/Jakarta', resend: false, concurrency: 1, timeoutMs: 20000 },
	};
}

const WORKFLOW = e2e.workflow('lbaFreeCampaign', 'Bandung weekend promo', [e2e.manualTrigger('fc-start'), e2e.lbaNode('fc-lba', NODE, campaignSetup('Bandung weekend promo', 'bandung-weekend'))], e2e.chain('Start', NODE));
const OLD_WORKFLOW = e2e.workflow(
	'lbaFreeCampaignOld',
	'Surabaya weekend promo',
	[e2e.manualTrigger('fo-start'), e2e.lbaNode('fo-lba', OLD_NODE, campaignSetup('Surabaya weekend promo', 'surabaya-weekend'))],
	e2e.chain('Start', OLD_NODE),
);

/**
 * The fields compared, as [label, path in the node's parameters, the node's default]. The editor stores
 * no parameter at its default (Resource, Operation, Mode): a field absent there has that value.
 */
const FIELDS: Array<[string, string, unknown?]> = [
	['Resource', 'resource', 'campaign'],
	['Operation', 'operation', 'create'],
	['Max SMS per Campaign', 'options.maxSmsPerCampaign'],
	['Max Campaigns per Execution', 'options.maxCampaignsPerExecution'],
	['Name', 'name'],
	['Description', 'campaignDescription'],
	['Category', 'categoryId'],
	['Channels (count)', 'channels.channel.length'],
	['Sender', 'channels.channel.0.sender'],
	['Location ID', 'channels.channel.0.locationId'],
	['SMS Quantity', 'channels.channel.0.smsQty'],
	['Message', 'channels.channel.0.message'],
	['Send From', 'channels.channel.0.startDate'],
	['Send Until', 'channels.channel.0.endDate'],
	['Telco', 'channels.channel.0.telcoId'],
	['Duplicate Protection', 'duplicateProtection'],
	['Idempotency Key', 'idempotencyKey'],
	['Timezone', 'options.timezone'],
	['Resend', 'options.resend', false],
	['Concurrency', 'options.concurrency'],
	['Timeout', 'options.timeoutMs'],
	['Mode', 'runMode', 'publish'],
];

const at = (parameters: Json, path: string): unknown => path.split('.').reduce<any>((value, part) => (value == null ? undefined : value[part]), parameters);
/** What the node reads for a field: the stored value, else its default. */
const effective = (parameters: Json, [, path, fallback]: (typeof FIELDS)[number]): unknown => at(parameters, path) ?? fallback;
const show = (value: unknown) => (value === undefined ? '(not stored)' : JSON.stringify(value));
const without = (parameters: Json, ...names: string[]) => Object.fromEntries(Object.entries(parameters).filter(([name]) => !names.includes(name)));

e2e.describeE2E(`Freeing a held campaign in the editor, real n8n ${e2e.n8nVersion()}`, () => {
	const suite = e2e.editorSuite('free-campaign', { workflows: [WORKFLOW, OLD_WORKFLOW], shared: true });
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;
	let page: Page;
	beforeAll(() => ({ sandbox, n8n, rest, page } = suite));

	async function campaigns(name: string): Promise<Json[]> {
		const { campaigns: all } = (await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: Json[] };
		return all.filter((campaign) => campaign.request?.name === name);
	}
	async function savedNode(workflowId: string, nodeName: string): Promise<Json> {
		return (await rest.getWorkflow(workflowId)).nodes.find((node: Json) => node.name === nodeName);
	}
	async function runSaved(workflowId: string): Promise<e2e.ExecutionRun> {
		const { executionId } = await rest.runWorkflow(workflowId, 'Start');
		await rest.waitForExecution(executionId);
		return rest.getExecutionRun(executionId);
	}
	const choose = (name: string, label: string) => e2e.chooseOption(page, name, label);
	const executeStep = () => e2e.executeStepInPanel(page, rest);
	/**
	 * Save (Ctrl+S; n8n 2.x may have autosaved already) and wait until REST holds a version saved by the
	 * editor (not `versionBefore`, the imported one) whose node is what `done` wants.
	 */
	async function saveAndWait(workflowId: string, versionBefore: string, nodeName: string, done: (node: Json) => boolean): Promise<Json> {
		const nodeOf = (workflow: Json) => workflow.nodes.find((each: Json) => each.name === nodeName);
		const saved = await e2e.saveInEditor(page, rest, workflowId, (workflow) => workflow.versionId !== versionBefore && done(nodeOf(workflow)), {
			what: (workflow) => `${nodeName}: version ${workflow.versionId}, ${JSON.stringify(nodeOf(workflow)?.parameters)}`,
		});
		return nodeOf(saved);
	}

	test('Mode "Forget Sent Campaigns" frees the held campaign; Publish again keeps every field; the next run creates exactly one', async () => {
		e2e.follows('publishAfterForget', 'pasteKeysToForget', 'copyForgetKeys', 'forgetOnCreateNode', 'pageForget');
		const before = await savedNode(WORKFLOW.id, NODE);
		const { versionId } = await rest.getWorkflow(WORKFLOW.id);

		// 1-2. Run it: the campaign is created. Run it again: held back.
		await e2e.openWorkflow(page, n8n.baseUrl, WORKFLOW.id);
		const first = await e2e.runWorkflowFromEditor(page, { expectNodes: [NODE] });
		const [created] = (await rest.getExecutionRun(first.executionId)).output(NODE);
		expect(created).toMatchObject({ status: 'Published', idempotencyKey: expect.stringContaining('bandung-weekend-') });
		expect(await campaigns('Bandung weekend promo')).toHaveLength(1);
		const second = await e2e.runWorkflowFromEditor(page, { expectNodes: [NODE] });
		const [held] = (await rest.getExecutionRun(second.executionId)).output(NODE);
		expect(held).toMatchObject({ skipped: true, earlierOutcome: 'created', idempotencyKey: created.idempotencyKey, forgetKeys: expect.any(String) });
		expect(held.reason).toEqual(expect.any(String));
		expect(held.howToResend).toEqual(expect.any(String));
		expect(await campaigns('Bandung weekend promo')).toHaveLength(1);

		// The held item in the panel: its forgetKeys is what the marketer copies.
		await e2e.openNodePanel(page, NODE);
		const ndv = page.locator('[data-test-id="ndv"]');
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText('JSON', { exact: true }).first().click();
		await output.getByText(held.reason, { exact: false }).first().waitFor({ timeout: 30_000 });
		expect(await output.innerText()).toContain(held.forgetKeys);
		await e2e.screenshot(page, `${SHOTS}-1-held`);

		// 3. Mode: Forget Sent Campaigns; Forget: Some Keys; Keys to Forget: the held item's forgetKeys; Execute step.
		await choose('runMode', 'Forget Sent Campaigns (Sends Nothing)');
		await ndv.getByText('This mode sends nothing', { exact: false }).first().waitFor();
		await choose('forgetWhat', 'Some Keys');
		const keysInput = e2e.parameterInput(page, 'forgetKeys').locator('input, textarea').first();
		await keysInput.fill(held.forgetKeys);
		await keysInput.blur();
		// Every field of the campaign is still in the panel.
		for (const field of ['name', 'campaignDescription', 'categoryId', 'sender', 'duplicateProtection', 'idempotencyKey']) {
			expect(await e2e.parameterInput(page, field).count()).toBeGreaterThan(0);
		}
		const forget = await executeStep();
		expect(forget.status).toBe('success');
		const [forgot] = forget.output(NODE);
		expect(forgot).toMatchObject({ message: expect.stringMatching(/^Forgot \d+ keys?: the next run sends that campaign again\.$/), entriesBefore: expect.any(Number), entriesAfter: expect.any(Number) });
		expect(forgot.forgotten).toContain(created.idempotencyKey);
		expect(`${forgot.forgotten} ${forgot.notFound}`.trim().split(/\s+/).sort()).toEqual(held.forgetKeys.split(/\s+/).sort());
		expect(forgot.entriesAfter).toBeLessThan(forgot.entriesBefore);
		await output.getByText('JSON', { exact: true }).first().click();
		await output.getByText(forgot.message, { exact: false }).first().waitFor({ timeout: 30_000 });
		expect(await campaigns('Bandung weekend promo')).toHaveLength(1); // forgetting sent nothing
		await page.waitForTimeout(500);
		await e2e.screenshot(page, `${SHOTS}-2-forget-mode-output`);

		// Mode back to Publish, then save.
		await choose('runMode', 'Publish (Sends SMS, Billed)');
		await e2e.parameterInput(page, 'forgetKeys').waitFor({ state: 'detached', timeout: e2e.UI_TIMEOUT }); // the panel re-renders after the change
		expect(await e2e.parameterInput(page, 'forgetKeys').count()).toBe(0);
		await ndv.getByText('Executing this node publishes each campaign', { exact: false }).first().waitFor();
		await page.waitForTimeout(300);
		await e2e.screenshot(page, `${SHOTS}-3-publish-restored`);

		// 4. The panel shows the setup as it was.
		const shown = async (name: string) => {
			const input = e2e.parameterInput(page, name);
			await input.scrollIntoViewIfNeeded();
			const field = input.locator('input, textarea').first();
			return (await field.count()) ? field.inputValue() : input.innerText();
		};
		expect(await shown('name')).toBe('Bandung weekend promo');
		expect(await shown('campaignDescription')).toBe(before.parameters.campaignDescription);
		expect(await shown('categoryId')).toBe('Food & Drinks');
		expect(await shown('sender')).toBe('WARUNGKITA');
		expect(await shown('smsQty')).toBe('1500');
		expect(await shown('message')).toBe('Diskon 20% akhir pekan ini di Warung Kita!');
		expect(await shown('duplicateProtection')).toBe('Custom Key');
		expect(await shown('idempotencyKey')).toContain('bandung-weekend-');
		expect(await shown('maxSmsPerCampaign')).toBe('2000');
		expect(await shown('maxCampaignsPerExecution')).toBe('1');
		expect(await shown('timezone')).toBe('Asia/Jakarta');
		await e2e.closeNodePanel(page);

		const after = await saveAndWait(WORKFLOW.id, versionId, NODE, (node) => (node.parameters.runMode ?? 'publish') === 'publish' && node.parameters.forgetKeys === undefined);
		const rows = FIELDS.map((field) => ({
			label: field[0],
			before: at(before.parameters, field[1]),
			after: at(after.parameters, field[1]),
			same: JSON.stringify(effective(before.parameters, field)) === JSON.stringify(effective(after.parameters, field)),
		}));
		e2e.writeReport(
			'free-campaign',
			'Freeing a held campaign with Mode "Forget Sent Campaigns"',
			e2e.markdownTable<(typeof rows)[number]>(
				[
					['field', (row) => row.label],
					['before', (row) => show(row.before)],
					['after', (row) => show(row.after)],
					['same', (row) => (row.same ? 'yes' : 'NO')],
				],
				rows,
			),
		);
		// Spending limits first, then every other field; Mode is Publish again.
		for (const field of FIELDS) expect({ [field[0]]: effective(after.parameters, field) }).toEqual({ [field[0]]: effective(before.parameters, field) });
		expect(effective(after.parameters, FIELDS.find(([label]) => label === 'Mode')!)).toBe('publish');
		// Nothing else changed either: the whole parameter set, and the node's settings (credential, id, type).
		expect(without(after.parameters, 'runMode', 'resource', 'operation')).toEqual(without(before.parameters, 'runMode', 'resource', 'operation'));
		expect(without(after, 'parameters', 'position')).toEqual(without(before, 'parameters', 'position'));

		// 5. Run it: exactly one new campaign.
		const third = await e2e.runWorkflowFromEditor(page, { expectNodes: [NODE] });
		const [again] = (await rest.getExecutionRun(third.executionId)).output(NODE);
		expect(again).toMatchObject({ status: 'Published', idempotencyKey: created.idempotencyKey });
		expect(again.skipped).toBeUndefined();
		const journal = await campaigns('Bandung weekend promo');
		expect(journal).toHaveLength(2);
		expect(journal[1].request).toEqual(journal[0].request);
	});

	test('the old way, Operation "Forget Sent" and back to Create: the campaign is freed but its setup is lost', async () => {
		e2e.follows('pageNotOperation');
		const before = await savedNode(OLD_WORKFLOW.id, OLD_NODE);
		const { versionId } = await rest.getWorkflow(OLD_WORKFLOW.id);
		expect((await runSaved(OLD_WORKFLOW.id)).output(OLD_NODE)[0]).toMatchObject({ status: 'Published' });
		expect((await runSaved(OLD_WORKFLOW.id)).output(OLD_NODE)[0]).toMatchObject({ skipped: true });
		expect(await campaigns('Surabaya weekend promo')).toHaveLength(1);

		await e2e.openWorkflow(page, n8n.baseUrl, OLD_WORKFLOW.id);
		await e2e.openNodePanel(page, OLD_NODE);
		await choose('operation', 'Forget Sent');
		await choose('forget', 'All Campaigns');
		const forget = await executeStep();
		const [forgot] = forget.output(OLD_NODE);
		expect(forgot).toMatchObject({ forgotten: 'all', entriesAfter: 0 });
		await choose('operation', 'Create');
		await page.waitForTimeout(300);
		await e2e.screenshot(page, `${SHOTS}-4-old-way-back-to-create`);
		await e2e.closeNodePanel(page);
		const after = await saveAndWait(OLD_WORKFLOW.id, versionId, OLD_NODE, (node) => node.parameters.operation === 'create' || node.parameters.operation === undefined);
		const lost = FIELDS.filter((field) => JSON.stringify(effective(before.parameters, field)) !== JSON.stringify(effective(after.parameters, field)));
		e2e.writeReport(
			'free-campaign-old-way',
			'Freeing a held campaign the old way (Operation "Forget Sent" and back)',
			e2e.markdownTable<(typeof FIELDS)[number]>(
				[
					['field', ([label]) => label],
					['before', ([, path]) => show(at(before.parameters, path))],
					['after', ([, path]) => show(at(after.parameters, path))],
					['kept', (field) => (lost.includes(field) ? 'LOST' : 'yes')],
				],
				FIELDS,
			),
		);
		// Everything of the campaign is gone; only the node-wide options (Concurrency, Timeout) and defaults remain.
		expect(lost.map(([label]) => label)).toEqual(
			FIELDS.map(([label]) => label).filter((label) => !['Resource', 'Operation', 'Mode', 'Resend', 'Concurrency', 'Timeout'].includes(label)),
		);
		// What the issue measured: the next run has no campaign to send.
		const run = await runSaved(OLD_WORKFLOW.id);
		expect(run.status).toBe('error');
		expect(await campaigns('Surabaya weekend promo')).toHaveLength(1);
	});
});
