// "Custom API Call": n8n 2.40.7 adds the resource __CUSTOM_API_CALL__ to every node whose
// credential authenticates (ours does). Picking it used to fail with 'Could not get parameter
// "operation"'. In real n8n, with the packed package, it now says what to use instead.
import * as e2e from './lib';

e2e.describeE2E(`Custom API Call in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let sandbox: e2e.LbaN8n['sandbox'];
	let userFolder: e2e.UserFolder;

	beforeAll(async () => {
		// n8n is started inside the test, then stopped before the workflow runs with `n8n execute`.
		setup = await e2e.startLbaN8n('custom-call', { start: false });
		({ sandbox, userFolder } = setup);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	test('n8n offers it, and running it gives a clear message and sends nothing', async () => {
		await setup!.start();
		try {
			const rest = setup!.rest;
			const types = (await rest.request('GET', '/types/nodes.json')).body as Array<{ name: string; properties: any[] }>;
			const resource = types.find((type) => type.name === 'n8n-nodes-lba-ads.lbaAds')!.properties.find((p) => p.name === 'resource');
			expect(resource.options.map((o: any) => o.value)).toContain('__CUSTOM_API_CALL__');
		} finally {
			await setup!.n8n!.stop();
		}

		await e2e.importWorkflow(
			userFolder,
			e2e.workflow(
				'lbaCustomApiCall',
				'Custom API Call',
				[e2e.manualTrigger('start'), e2e.lbaNode('lba', 'LBA Ads', { resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' })],
				e2e.chain('Start', 'LBA Ads'),
			),
		);
		const res = await e2e.executeWorkflow(userFolder, 'lbaCustomApiCall');
		expect(res.ok).toBe(false);
		expect(res.error?.message).toBe('Custom API Call is not available in the LBA Ads node: use the HTTP Request node with the LBA Ads credential');
		const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: unknown[] };
		expect(journal.requests).toHaveLength(0);
	});
});
