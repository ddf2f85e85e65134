// The README's install instruction, done as a user does it, through n8n 2.40.7's own installer:
// Settings → Community nodes → Install `n8n-nodes-lba-ads`, use the node against the sandbox,
// Update to a newer version from the same page, Uninstall.
//
// Path taken: the proxy, not a replay. The package is `npm publish`ed (as its own version, later the next patch) to
// a local Verdaccio without uplinks. n8n runs with HTTPS_PROXY at a test-only proxy on loopback
// that serves CONNECT registry.npmjs.org:443 with a certificate from a CA made for this run
// (NODE_EXTRA_CA_CERTS for n8n, npm_config_cafile for the npm it spawns) and forwards to
// Verdaccio; it refuses every other host. n8n's installer, its default registry setting and its
// version check stay as they ship (a different registry needs an enterprise licence). See
// lib/registry.js.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';

import * as e2e from './lib';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');

type Json = Record<string, any>;

const PACKAGE = 'n8n-nodes-lba-ads';
/** The version this checkout would release, and the next patch, published later as the Update. */
const VERSION = (JSON.parse(fs.readFileSync(path.join(e2e.REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NEXT = VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1));
const escaped = (version: string) => version.replace(/\./g, '\\.');
const NODE_TYPE = `${PACKAGE}.lbaAds`;
/** Manual Trigger → LBA Ads Product > Get Many (all, simplified) with the given credential. */
function productsWorkflow(credential: { id: string; name: string }) {
	return {
		name: 'Installed from the registry: list products',
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 'ci-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'ci-products',
				name: 'List products',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [260, 0],
				parameters: { resource: 'product', operation: 'getMany', returnAll: true, simplify: true },
				credentials: { lbaAdsApi: credential },
			},
		],
		connections: { Start: { main: [[{ node: 'List products', type: 'main', index: 0 }]] } },
	};
}

e2e.describeE2E(`installed, used, updated and uninstalled through n8n ${e2e.n8nVersion()} Settings → Community nodes`, () => {
	let sandbox: { url: string; tokens: string[]; close(): Promise<void> };
	let registry: e2e.LocalRegistry | undefined;
	let proxy: e2e.RegistryProxy | undefined;
	let userFolder: e2e.UserFolder;
	let tgz: string;
	let n8n: e2e.N8nInstance | undefined;
	let rest: e2e.N8nRest;
	let browser: e2e.BrowserSession | undefined;
	let page: Page;
	let workflow: { id: string; name: string };

	const installedDir = () => path.join(userFolder.nodesDir, 'node_modules', PACKAGE);
	const packageCard = (): Locator => page.locator('[data-test-id="community-package-card"]').filter({ hasText: PACKAGE });
	async function nodeTypes(): Promise<string[]> {
		return ((await rest.request('GET', '/types/nodes.json')).body as Json[]).map((t) => t.name);
	}
	/** "Install" at the top of the list, or "Install a community node" in the empty state. */
	const installButton = (): Locator => page.getByRole('button', { name: /^Install/ }).first();
	/** The Community nodes settings page, loaded. */
	async function openCommunityNodesPage() {
		await page.goto(`${n8n!.baseUrl}/settings/community-nodes`, { waitUntil: 'domcontentloaded' });
		await installButton().waitFor({ timeout: 60000 });
	}

	beforeAll(async () => {
		if (!fs.existsSync(path.join(e2e.REPO_ROOT, 'dist', 'nodes', 'LbaAds', 'LbaAds.node.js'))) {
			throw new Error("dist/ missing: run 'npm run build' first");
		}
		e2e.n8nBin();
		sandbox = await startSandbox({ port: 0, quiet: true });
		registry = await e2e.startVerdaccio();
		userFolder = e2e.makeUserFolder('lba-e2e-community-install-');
		tgz = await e2e.packPackage(e2e.REPO_ROOT, fs.mkdtempSync(path.join(userFolder.dir, 'pack-')));
		await e2e.publishAs(registry, tgz, VERSION);
		proxy = await e2e.startRegistryProxy(registry.url);
		n8n = await e2e.startN8n(userFolder, { env: proxy.env(path.join(userFolder.dir, 'npm-cache')) });
		rest = await e2e.setupOwnerAndLogin(n8n);
		browser = await e2e.editorSession(n8n, { viewport: { width: 1280, height: 800 } }); // smaller pictures for docs/
		page = browser.page;
	}, 10 * 60 * 1000);

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await proxy?.close();
		await registry?.close();
		await sandbox?.close();
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept N8N_USER_FOLDER ${userFolder?.dir}`);
		else userFolder?.cleanup();
	});

	test('Install: the package name and the risk checkbox; n8n fetches it from the registry and loads both nodes', async () => {
		expect(await nodeTypes()).not.toContain(NODE_TYPE);
		await openCommunityNodesPage();
		await installButton().click();
		await page.locator('[data-test-id="package-name-input"]').fill(PACKAGE);
		await page.locator('[data-test-id="user-agreement-checkbox"]').click();
		await e2e.screenshot(page, 'community-install-1-dialog');

		const [response] = await Promise.all([
			page.waitForResponse((r) => new URL(r.url()).pathname === '/rest/community-packages' && r.request().method() === 'POST', { timeout: 180000 }),
			page.locator('[data-test-id="install-community-package-button"]').click(),
		]);
		const body = (await response.json()) as Json;
		if (response.status() !== 200) throw new Error(`install answered ${response.status()}: ${JSON.stringify(body)}\n${n8n!.logs().slice(-3000)}`);
		expect(body.data).toMatchObject({ packageName: PACKAGE, installedVersion: VERSION });
		expect((body.data.installedNodes as Json[]).map((node) => node.type).sort()).toEqual([NODE_TYPE, `${PACKAGE}.lbaAdsTrigger`]);

		// The package card, a lasting state (not the "Package installed" toast, gone on a loaded machine).
		await packageCard().waitFor({ timeout: 30000 });
		await expect(packageCard().innerText()).resolves.toMatch(new RegExp(`LBA Ads,\\s*LBA Ads Trigger[\\s\\S]*v${escaped(VERSION)}`));
		await e2e.screenshot(page, 'community-install-2-installed');

		// It came through the proxy from the local registry: n8n's own version check first, then
		// npm's `pack` fetching that version's tarball.
		const versionCheck = proxy!.requests.find((r) => r.path === `/${PACKAGE}/latest`);
		expect(versionCheck).toMatchObject({ method: 'GET', status: 200, userAgent: 'n8n' });
		expect(proxy!.requests).toContainEqual(expect.objectContaining({ path: `/${PACKAGE}/-/${PACKAGE}-${VERSION}.tgz`, status: 200, userAgent: expect.stringMatching(/^npm\//) }));
		expect(proxy!.refused).not.toContain(`${e2e.PUBLIC_REGISTRY_HOST}:443`);
		// n8n's ban-list check (POST https://api.n8n.io/api/package) went to the proxy as well and was
		// refused: nothing of the install reaches the internet (n8n treats that failure as "not banned").
		expect(proxy!.refused).toContain('api.n8n.io:443');
		// What n8n left on disk: the published files, with the peer dependency stripped.
		const installed = JSON.parse(fs.readFileSync(path.join(installedDir(), 'package.json'), 'utf8'));
		expect(installed).toMatchObject({ name: PACKAGE, version: VERSION });
		expect(installed.peerDependencies).toBeUndefined();
		expect(fs.existsSync(path.join(installedDir(), 'node_modules'))).toBe(false); // nothing pulled in: no runtime dependencies
		expect(await nodeTypes()).toEqual(expect.arrayContaining([NODE_TYPE, `${PACKAGE}.lbaAdsTrigger`]));
	});

	test('the installed node runs from the editor against the sandbox', async () => {
		const catalogue = (await (await fetch(`${sandbox.url}/io/products`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } })).json()) as Json;
		expect(catalogue.results.length).toBeGreaterThan(0);

		// Saved over the editor's REST API, which accepts the credential type only now that the package is loaded.
		const { name, type, data } = e2e.sandboxCredential(sandbox.url, sandbox.tokens[0]);
		const credential = await rest.call('POST', '/rest/credentials', { name, type, data });
		workflow = await rest.call('POST', '/rest/workflows', productsWorkflow({ id: credential.id, name }));

		await e2e.openWorkflow(page, n8n!.baseUrl, workflow.id);
		expect(await e2e.nodeIconLoaded(page, 'List products')).toBe(true);
		const { executionId } = await e2e.runWorkflowFromEditor(page, { expectNodes: ['Start', 'List products'], timeoutMs: 90000 });
		await e2e.screenshot(page, 'community-install-3-run');

		const run = await rest.getExecutionRun(executionId);
		expect(run.status).toBe('success');
		const products = run.output('List products');
		expect(products.map((p) => [p.uuid, p.name, p.price])).toEqual(catalogue.results.map((p: Json) => [p.uuid, p.name, p.price.amount]));
	});

	test(`Update: ${NEXT} published to the registry shows up on the same page and installs`, async () => {
		await e2e.publishAs(registry!, tgz, NEXT);
		await openCommunityNodesPage();
		// n8n asks `npm outdated` (through the proxy) whether a newer version exists.
		const updateButton = packageCard().getByRole('button', { name: 'Update' });
		await updateButton.waitFor({ timeout: 60000 });
		await updateButton.click();
		const dialog = page.getByRole('dialog').filter({ hasText: 'Update node package' });
		await dialog.waitFor({ timeout: 30000 });
		// The dialog names the workflows that use the package's nodes (ours; it looks them up after opening).
		await dialog.getByText(workflow.name).waitFor({ timeout: 30000 });
		await e2e.screenshot(page, 'community-install-4-update-dialog');

		const [response] = await Promise.all([
			page.waitForResponse((r) => new URL(r.url()).pathname === '/rest/community-packages' && r.request().method() === 'PATCH', { timeout: 180000 }),
			dialog.getByRole('button', { name: 'Confirm update' }).click(),
		]);
		const body = (await response.json()) as Json;
		if (response.status() !== 200) throw new Error(`update answered ${response.status()}: ${JSON.stringify(body)}\n${n8n!.logs().slice(-3000)}`);
		expect(body.data).toMatchObject({ packageName: PACKAGE, installedVersion: NEXT });

		await packageCard().getByText(`v${NEXT}`).waitFor({ timeout: 30000 });
		await expect(packageCard().getByRole('button', { name: 'Update' }).count()).resolves.toBe(0);
		await e2e.screenshot(page, 'community-install-5-updated');
		expect(JSON.parse(fs.readFileSync(path.join(installedDir(), 'package.json'), 'utf8')).version).toBe(NEXT);
		expect(proxy!.requests).toContainEqual(expect.objectContaining({ path: `/${PACKAGE}/-/${PACKAGE}-${NEXT}.tgz`, status: 200 }));

		// The updated package still runs the workflow.
		const { executionId } = await rest.runWorkflow(workflow.id, 'Start');
		await rest.waitForExecution(executionId, { timeoutMs: 90000 });
		expect((await rest.getExecutionRun(executionId)).status).toBe('success');
	});

	test('Uninstall: the package and its nodes are gone', async () => {
		await openCommunityNodesPage();
		await packageCard().locator('[data-test-id="action-toggle"]').click();
		await page.getByRole('menuitem', { name: 'Uninstall package' }).click();
		const dialog = page.getByRole('dialog').filter({ hasText: 'Uninstall node package' });
		await dialog.waitFor({ timeout: 30000 });
		const [response] = await Promise.all([
			page.waitForResponse((r) => new URL(r.url()).pathname === '/rest/community-packages' && r.request().method() === 'DELETE', { timeout: 120000 }),
			dialog.getByRole('button', { name: 'Confirm uninstall' }).click(),
		]);
		expect(response.status()).toBe(200);
		await packageCard().waitFor({ state: 'detached', timeout: 30000 });
		await e2e.screenshot(page, 'community-install-6-uninstalled');

		expect(fs.existsSync(installedDir())).toBe(false);
		expect(await nodeTypes()).not.toContain(NODE_TYPE);
		expect((await rest.call('GET', '/rest/community-packages')) as Json[]).toEqual([]);
	});
});
