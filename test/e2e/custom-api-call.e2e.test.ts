// "Custom API Call": n8n 2.40.7 adds the resource __CUSTOM_API_CALL__ to every node whose
// credential authenticates (ours does). Picking it used to fail with 'Could not get parameter
// "operation"'. In real n8n, with the packed package, it now says what to use instead.
import * as e2e from './lib';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');

const describeE2E = process.env.LBA_E2E === '1' ? describe : describe.skip;

describeE2E(`Custom API Call in real n8n ${e2e.n8nVersion()}`, () => {
	let sandbox: { url: string; tokens: string[]; close(): Promise<void> };
	let userFolder: e2e.UserFolder;

	beforeAll(async () => {
		e2e.n8nBin();
		sandbox = await startSandbox({ port: 0, quiet: true });
		userFolder = e2e.makeUserFolder('lba-e2e-custom-call-');
		await e2e.installCommunityPackage(userFolder, await e2e.packPackage(e2e.REPO_ROOT, userFolder.dir));
		await e2e.importCredentials(userFolder, [e2e.sandboxCredential(sandbox.url, sandbox.tokens[0])]);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await sandbox?.close();
		userFolder?.cleanup();
	});

	test('n8n offers it, and running it gives a clear message and sends nothing', async () => {
		const n8n = await e2e.startN8n(userFolder);
		try {
			const rest = await e2e.setupOwnerAndLogin(n8n);
			const types = (await rest.request('GET', '/types/nodes.json')).body as Array<{ name: string; properties: any[] }>;
			const resource = types.find((type) => type.name === 'n8n-nodes-lba-ads.lbaAds')!.properties.find((p) => p.name === 'resource');
			expect(resource.options.map((o: any) => o.value)).toContain('__CUSTOM_API_CALL__');
		} finally {
			await n8n.stop();
		}

		await e2e.importWorkflow(userFolder, {
			id: 'lbaCustomApiCall',
			name: 'Custom API Call',
			nodes: [
				{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'lba',
					name: 'LBA Ads',
					type: 'n8n-nodes-lba-ads.lbaAds',
					typeVersion: 1,
					position: [220, 0],
					parameters: { resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' },
					credentials: { lbaAdsApi: { id: e2e.SANDBOX_CREDENTIAL_ID, name: e2e.SANDBOX_CREDENTIAL_NAME } },
				},
			],
			connections: { Start: { main: [[{ node: 'LBA Ads', type: 'main', index: 0 }]] } },
		});
		const res = await e2e.executeWorkflow(userFolder, 'lbaCustomApiCall');
		expect(res.ok).toBe(false);
		expect(res.error?.message).toBe('Custom API Call is not available in the LBA Ads node: use the HTTP Request node with the LBA Ads credential');
		const journal = await (await fetch(`${sandbox.url}/_sandbox/requests`)).json();
		expect(journal.requests).toHaveLength(0);
	});
});
