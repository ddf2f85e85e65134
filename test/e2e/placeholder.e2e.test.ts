// Proves the whole e2e chain on a tiny placeholder community package (not the LBA node):
// npm pack -> install into $N8N_USER_FOLDER/.n8n/nodes -> n8n import:credentials/workflow ->
// n8n execute -> n8n start -> owner setup + login via REST -> credential test via REST ->
// editor in headless Chromium: sign in, open workflow, node panel, run, success.
// Runs only with LBA_E2E=1 (set by test/e2e/jest.config.js); needs scripts/install-n8n.sh
// (called automatically if n8n is not cached) and scripts/install-chromium.sh.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

import * as e2e from './lib';

const FIXTURES = path.join(__dirname, 'fixtures');
const WORKFLOW = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'placeholder-workflow.json'), 'utf8'));
const TOKEN = 'e2e-token';
const CREDENTIAL_ID = 'e2ePlaceholdCred';

e2e.describeE2E(`placeholder community package in real n8n ${e2e.n8nVersion()}`, () => {
	let userFolder: ReturnType<typeof e2e.makeUserFolder>;
	let pingServer: http.Server;
	let pingUrl = '';
	const pings: Array<{ url?: string; authorization?: string }> = [];
	let n8n: e2e.N8nInstance | undefined;
	let rest: e2e.N8nRest;
	let browser: Awaited<ReturnType<typeof e2e.launchBrowser>> | undefined;

	beforeAll(async () => {
		e2e.n8nBin(); // installs n8n (minutes) only when it is not cached yet
		userFolder = e2e.makeUserFolder();

		// Stand-in for the LBA sandbox: GET /ping answers only the right Bearer token.
		pingServer = http.createServer((req, res) => {
			pings.push({ url: req.url, authorization: req.headers.authorization });
			res.setHeader('content-type', 'application/json');
			if (req.headers.authorization !== `Bearer ${TOKEN}`) {
				res.statusCode = 401;
				res.end(JSON.stringify({ error: 'unauthorized' }));
				return;
			}
			res.end(JSON.stringify({ pong: true, path: req.url }));
		});
		await new Promise<void>((resolve) => pingServer.listen(0, '127.0.0.1', resolve));
		pingUrl = `http://127.0.0.1:${(pingServer.address() as { port: number }).port}`;

		const tgz = await e2e.packPackage(path.join(FIXTURES, 'placeholder-package'), userFolder.dir);
		await e2e.installCommunityPackage(userFolder, tgz);
		await e2e.importCredentials(userFolder, [
			{
				id: CREDENTIAL_ID,
				name: 'E2E placeholder credential',
				type: 'placeholderApi',
				data: { baseUrl: pingUrl, accessToken: TOKEN },
			},
		]);
		await e2e.importWorkflow(userFolder, WORKFLOW);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await new Promise((resolve) => pingServer?.close(resolve));
		if (process.env.LBA_E2E_KEEP === '1') {
			console.log(`kept N8N_USER_FOLDER ${userFolder.dir}`);
		} else {
			userFolder?.cleanup();
		}
	});

	test('the packed package is installed as a community package (no n8n-workflow copy)', () => {
		const pkgDir = path.join(userFolder.nodesDir, 'node_modules', 'n8n-nodes-e2e-placeholder');
		expect(fs.existsSync(path.join(pkgDir, 'nodes', 'Placeholder', 'Placeholder.node.js'))).toBe(true);
		expect(fs.existsSync(path.join(pkgDir, 'nodes', 'Placeholder', 'placeholder.svg'))).toBe(true);
		expect(fs.existsSync(path.join(userFolder.nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
	});

	test('n8n execute --id runs the imported workflow with the imported credential', async () => {
		const before = pings.length;
		const res = await e2e.executeWorkflow(userFolder, WORKFLOW.id);
		if (!res.ok) throw new Error(`execute failed: ${JSON.stringify(res.error)}\n${res.stdout.slice(-3000)}`);
		expect(res.output('E2E Placeholder')).toEqual([
			{
				greeting: 'hello from e2e',
				colour: 'blue',
				placeholder: true,
				itemIndex: 0,
				pong: { pong: true, path: '/ping' },
			},
		]);
		expect(pings.slice(before)).toEqual([{ url: '/ping', authorization: `Bearer ${TOKEN}` }]);
	});

	test('n8n start: health, owner setup, login, node type and icon, credential test', async () => {
		n8n = await e2e.startN8n(userFolder);
		const anon = new e2e.N8nRest(n8n.baseUrl);
		expect((await anon.request('GET', '/rest/login')).status).toBe(401);

		rest = await e2e.setupOwnerAndLogin(n8n);
		expect(rest.ownerCreated).toBe(true);
		expect((await rest.currentUser()).email).toBe(e2e.DEFAULT_OWNER.email);

		const types = await rest.request('GET', '/types/nodes.json');
		const ours = (types.body as Array<{ name: string; iconUrl?: unknown }>).find(
			(t) => t.name === 'n8n-nodes-e2e-placeholder.placeholder',
		);
		expect(ours).toBeDefined();
		const iconUrl = String(ours?.iconUrl);
		const icon = await fetch(`${n8n.baseUrl}/${iconUrl}`);
		expect(icon.status).toBe(200);
		expect(await icon.text()).toContain('<svg');

		// The editor's credential "Test" button: saved credential, then unsaved wrong token.
		await expect(rest.testSavedCredential(CREDENTIAL_ID)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const bad = await rest.testCredential({ name: 'wrong', type: 'placeholderApi', data: { baseUrl: pingUrl, accessToken: 'wrong' } });
		expect(bad.status).toBe('Error');
	});

	test('editor in Chromium: sign in, open workflow, node panel, run it, success', async () => {
		if (!n8n) throw new Error('n8n not started');
		browser = await e2e.launchBrowser();
		const { page } = browser;
		await e2e.signInThroughUi(page, n8n.baseUrl, e2e.DEFAULT_OWNER);
		await e2e.openWorkflow(page, n8n.baseUrl, WORKFLOW.id);

		expect(await e2e.nodeIconLoaded(page, 'E2E Placeholder')).toBe(true);
		await e2e.screenshot(page, 'placeholder-canvas');

		await e2e.openNodePanel(page, 'E2E Placeholder');
		const panelText = await page.locator('[data-test-id="node-parameters"]').innerText();
		for (const label of ['Credential for E2E Placeholder API', 'Operation', 'Greeting', 'Colour']) {
			expect(panelText).toContain(label);
		}
		await expect(e2e.parameterInput(page, 'greeting').locator('input, textarea').first().inputValue()).resolves.toBe('hello from e2e');
		expect(await e2e.openOptions(page, 'colour')).toEqual(['Blue', 'Green', 'Red']);
		await e2e.screenshot(page, 'placeholder-node-panel');
		await e2e.closeNodePanel(page);

		const before = pings.length;
		const run = await e2e.runWorkflowFromEditor(page, { expectNodes: ['Start', 'E2E Placeholder'] });
		expect(run.request.triggerToStartFrom).toEqual({ name: 'Start' });
		await e2e.screenshot(page, 'placeholder-run-success');

		const exec = await rest.waitForExecution(run.executionId);
		expect(exec.status).toBe('success');
		const decoded = await rest.getExecutionRun(run.executionId);
		expect(decoded.output('E2E Placeholder')[0]).toMatchObject({ greeting: 'hello from e2e', pong: { pong: true } });
		expect(pings.slice(before)).toEqual([{ url: '/ping', authorization: `Bearer ${TOKEN}` }]);
	});
});
