// Smoke test of the real package the way users get it: the built package (`npm run build`
// first), packed with `npm pack`, installed as a community package into a real n8n 2.40.7.
// It checks what only the real application shows: the node type and credential load
// (no "Unrecognized node type"), the icon is served, the credential "Test" works, the panel
// renders in Chromium and a Product > Get Many run succeeds from the CLI and from the editor.
// A tiny stub stands in for the API here; the full flows against the sandbox and the
// examples/ workflows belong to their own e2e test.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

import * as e2e from './lib';

const NODE_JS = path.join(e2e.REPO_ROOT, 'dist', 'nodes', 'LbaAds', 'LbaAds.node.js');
const TOKEN = 'lba-e2e-token';
const CREDENTIAL_ID = 'lbaAdsE2eCred001';
const WORKFLOW_ID = 'lbaAdsE2eLoad001';
const PRODUCTS = [
	{ uuid: 'p-1', name: 'Kuota 1 GB', description: 'one', price: { amount: 10000, currency: 'IDR' }, details: { data: { mainQuota: '1073741824' } } },
	{ uuid: 'p-2', name: 'Kuota 2 GB', description: 'two', price: { amount: 18000, currency: 'IDR' }, details: { data: { mainQuota: '2147483648' } } },
	{ uuid: 'p-3', name: 'Kuota 5 GB', description: 'five', price: { amount: 40000, currency: 'IDR' }, details: { data: { mainQuota: '5368709120' } } },
];

function workflow() {
	return {
		id: WORKFLOW_ID,
		name: 'LBA Ads e2e: list products',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 'a0c7a3a2-6a55-4f55-9d7e-0d5b6e0c0001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'a0c7a3a2-6a55-4f55-9d7e-0d5b6e0c0002',
				name: 'LBA Ads',
				type: 'n8n-nodes-lba-ads.lbaAds',
				typeVersion: 1,
				position: [260, 0],
				parameters: { authentication: 'accessToken', resource: 'product', operation: 'getMany', returnAll: false, limit: 2, simplify: true },
				credentials: { lbaAdsApi: { id: CREDENTIAL_ID, name: 'LBA Ads e2e' } },
			},
		],
		connections: { Start: { main: [[{ node: 'LBA Ads', type: 'main', index: 0 }]] } },
	};
}

e2e.describeE2E(`n8n-nodes-lba-ads loads and runs in real n8n ${e2e.n8nVersion()}`, () => {
	let userFolder: ReturnType<typeof e2e.makeUserFolder>;
	let stub: http.Server;
	let stubUrl = '';
	const calls: Array<{ method?: string; url?: string; authorization?: string }> = [];
	let n8n: e2e.N8nInstance | undefined;
	let rest: e2e.N8nRest;
	let browser: e2e.BrowserSession | undefined;

	beforeAll(async () => {
		if (!fs.existsSync(NODE_JS)) throw new Error(`${NODE_JS} missing: run 'npm run build' first`);
		e2e.n8nBin();
		userFolder = e2e.makeUserFolder();
		stub = http.createServer((req, res) => {
			calls.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
			res.setHeader('content-type', 'application/json');
			if (req.headers.authorization !== `Bearer ${TOKEN}`) {
				res.statusCode = 401;
				res.end(JSON.stringify({ error: 'invalid_token' }));
			} else if (req.method === 'GET' && req.url === '/io/products') {
				res.end(JSON.stringify({ results: PRODUCTS }));
			} else {
				res.statusCode = 404;
				res.end(JSON.stringify({ error: 'not_found' }));
			}
		});
		await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
		stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;

		const tgz = await e2e.packPackage(e2e.REPO_ROOT, userFolder.dir);
		const installed = await e2e.installCommunityPackage(userFolder, tgz);
		expect(installed.name).toBe('n8n-nodes-lba-ads');
		await e2e.importCredentials(userFolder, [
			{ id: CREDENTIAL_ID, name: 'LBA Ads e2e', type: 'lbaAdsApi', data: { baseUrl: stubUrl, accessToken: TOKEN } },
		]);
		await e2e.importWorkflow(userFolder, workflow());
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await new Promise((resolve) => stub?.close(resolve));
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept N8N_USER_FOLDER ${userFolder.dir}`);
		else userFolder?.cleanup();
	});

	test('installed like a user install: dist only, no runtime dependencies, no n8n-workflow copy', () => {
		const pkgDir = path.join(userFolder.nodesDir, 'node_modules', 'n8n-nodes-lba-ads');
		expect(fs.existsSync(path.join(pkgDir, 'dist', 'nodes', 'LbaAds', 'LbaAds.node.js'))).toBe(true);
		expect(fs.existsSync(path.join(pkgDir, 'dist', 'nodes', 'LbaAds', 'lbaAds.svg'))).toBe(true);
		expect(fs.existsSync(path.join(pkgDir, 'nodes'))).toBe(false); // sources are not shipped
		expect(fs.existsSync(path.join(userFolder.nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
	});

	test('n8n execute: Product > Get Many through the community package', async () => {
		const before = calls.length;
		const res = await e2e.executeWorkflow(userFolder, WORKFLOW_ID);
		if (!res.ok) throw new Error(res.failure);
		const out = res.output('LBA Ads');
		expect(out.map((p) => p.name)).toEqual(['Kuota 1 GB', 'Kuota 2 GB']);
		expect(out[0]).toMatchObject({ price: 10000, currency: 'IDR', mainQuotaBytes: 1073741824, mainQuota: '1 GB' });
		expect(calls.slice(before)).toEqual([{ method: 'GET', url: '/io/products', authorization: `Bearer ${TOKEN}` }]);
	});

	test('n8n start: node type, icons and credential test', async () => {
		n8n = await e2e.startN8n(userFolder);
		rest = await e2e.setupOwnerAndLogin(n8n);

		const nodes = (await rest.request('GET', '/types/nodes.json')).body as Array<{ name: string; iconUrl?: unknown; displayName: string }>;
		const node = nodes.find((t) => t.name === 'n8n-nodes-lba-ads.lbaAds');
		expect(node?.displayName).toBe('LBA Ads');
		const iconUrls = typeof node?.iconUrl === 'string' ? [node.iconUrl] : Object.values((node?.iconUrl ?? {}) as Record<string, string>);
		expect(iconUrls.length).toBeGreaterThan(0);
		for (const url of iconUrls) {
			const icon = await fetch(`${n8n.baseUrl}/${url}`);
			expect(icon.status).toBe(200);
			expect(await icon.text()).toContain('<svg');
		}

		const creds = (await rest.request('GET', '/types/credentials.json')).body as Array<{ name: string }>;
		expect(creds.map((c) => c.name)).toEqual(expect.arrayContaining(['lbaAdsApi', 'lbaAdsOAuth2Api']));

		await expect(rest.testSavedCredential(CREDENTIAL_ID)).resolves.toMatchObject({ status: 'OK' });
		const bad = await rest.testCredential({ name: 'wrong', type: 'lbaAdsApi', data: { baseUrl: stubUrl, accessToken: 'wrong' } });
		expect(bad.status).toBe('Error');
	});

	test('editor in Chromium: icon, node panel, run from the editor', async () => {
		if (!n8n) throw new Error('n8n not started');
		browser = await e2e.editorSession(n8n);
		const { page } = browser;
		await e2e.openWorkflow(page, n8n.baseUrl, WORKFLOW_ID);
		expect(await e2e.nodeIconLoaded(page, 'LBA Ads')).toBe(true);

		await e2e.openNodePanel(page, 'LBA Ads');
		const panelText = await page.locator('[data-test-id="node-parameters"]').innerText();
		// (n8n does not list the `authentication` parameter among the others.)
		for (const label of ['Credential', 'Resource', 'Operation', 'Return All', 'Limit', 'Simplify']) {
			expect(panelText).toContain(label);
		}
		await e2e.screenshot(page, 'lba-ads-node-panel');
		// n8n itself appends "Custom API Call" (its HTTP Request shortcut for nodes whose
		// credentials have generic `authenticate`); ours come first, in order.
		const resources = await e2e.openOptions(page, 'resource');
		expect(resources.filter((r) => r !== 'Custom API Call')).toEqual(['Campaign', 'Location', 'Product']);
		await e2e.screenshot(page, 'lba-ads-resource-options');
		await e2e.closeNodePanel(page);

		const run = await e2e.runWorkflowFromEditor(page, { expectNodes: ['Start', 'LBA Ads'] });
		await e2e.screenshot(page, 'lba-ads-run-success');
		const exec = await rest.getExecutionRun(run.executionId);
		expect(exec.status).toBe('success');
		expect(exec.output('LBA Ads').map((p) => p.name)).toEqual(['Kuota 1 GB', 'Kuota 2 GB']);
	});
});
