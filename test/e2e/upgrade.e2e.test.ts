// An upgrade of the package between two runs of the same campaigns, in a real n8n 2.40.7: the
// previous version (PREVIOUS_VERSION below, built from git) creates six campaigns, the package
// is replaced by this build (as n8n's community-package update does: same user folder, same
// database, n8n restarted), and the same workflow run again sends nothing: the keys that
// version recorded hold back its campaigns in this one.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as e2e from './lib';

/**
 * The release to upgrade from (a git tag). None yet: 0.1.0 was never published, so no user holds
 * its keys, and the first release has no predecessor. Set it to the first release's tag when the
 * next one is made; the test then runs.
 */
const PREVIOUS_VERSION: string | undefined = undefined;
const LBA = 'Create campaigns';
const TRIGGER = 'Start';

type Json = Record<string, any>;

const items = Array.from({ length: 6 }, (_, index) => ({ name: `upgrade-${index + 1}` }));
const WORKFLOW = {
	id: 'upgradeKeys',
	name: 'Duplicate protection across an upgrade',
	nodes: [
		{ id: 'up-start', name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'up-code',
			name: 'Campaigns to send',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
		},
		{
			id: 'up-lba',
			name: LBA,
			type: 'n8n-nodes-lba-ads.lbaAds',
			typeVersion: 1,
			position: [440, 0],
			parameters: {
				resource: 'campaign',
				operation: 'create',
				name: '={{ $json.name }}',
				campaignDescription: 'Upgrade e2e',
				categoryId: 10,
				channelsInput: 'fields',
				channels: {
					channel: [
						{ sender: 'LBADEMO', locationId: 161, smsQty: 100, message: 'Promo!', startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-02T21:00:00+07:00', telcoId: 'tsel' },
					],
				},
				options: { concurrency: 2 },
			},
			credentials: { lbaAdsApi: { id: e2e.SANDBOX_CREDENTIAL_ID, name: e2e.SANDBOX_CREDENTIAL_NAME } },
		},
	],
	connections: {
		[TRIGGER]: { main: [[{ node: 'Campaigns to send', type: 'main', index: 0 }]] },
		'Campaigns to send': { main: [[{ node: LBA, type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

/** The previous version's package, built from git beside this checkout with this checkout's dev tools. */
function buildPreviousVersion(dir: string): string {
	const source = path.join(dir, 'previous');
	fs.mkdirSync(source, { recursive: true });
	const archive = execFileSync('git', ['archive', '--format=tar', PREVIOUS_VERSION!], { cwd: e2e.REPO_ROOT, maxBuffer: 256 * 1024 * 1024 });
	execFileSync('tar', ['-x', '-C', source], { input: archive });
	fs.symlinkSync(path.join(e2e.REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'));
	execFileSync('node', [path.join(e2e.REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: source, stdio: 'inherit' });
	execFileSync('node', [path.join(e2e.REPO_ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'build:icons'], { cwd: source, stdio: 'ignore' });
	return source;
}

(PREVIOUS_VERSION === undefined ? describe.skip : e2e.describeE2E)(`an upgrade of the package in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('upgrade', { workflows: [WORKFLOW], start: false });
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	async function run() {
		const { executionId } = await setup!.rest!.runWorkflow(WORKFLOW.id, TRIGGER);
		await setup!.rest!.waitForExecution(executionId, { timeoutMs: 120_000 });
		return await setup!.rest!.getExecutionRun(executionId);
	}
	async function journal(): Promise<Array<{ request: { name: string } }>> {
		const { campaigns } = (await (await fetch(`${setup!.sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: Array<{ request: { name: string } }> };
		return campaigns.filter((campaign) => String(campaign.request.name).startsWith('upgrade-'));
	}
	async function install(packageDir: string, name: string) {
		const packed = await e2e.packPackage(packageDir, path.join(setup!.userFolder.dir, name));
		fs.rmSync(path.join(setup!.userFolder.nodesDir, 'node_modules', 'n8n-nodes-lba-ads'), { recursive: true, force: true });
		await e2e.installCommunityPackage(setup!.userFolder, packed);
	}

	test('the previous version creates 6 campaigns; after the upgrade the same run sends 0', async () => {
		await install(buildPreviousVersion(setup!.userFolder.dir), 'previous-package');
		await setup!.start();
		const before = await run();
		expect(before.status).toBe('success');
		const keysBefore = before.output(LBA).map((item: Json) => item.idempotencyKey);
		expect(keysBefore.every((key: string) => /^content:v2:[0-9a-f]{64}$/.test(key))).toBe(true);
		expect(await journal()).toHaveLength(6);

		await setup!.n8n!.stop();
		await install(e2e.REPO_ROOT, 'this-package');
		await setup!.start();
		const after = await run();
		expect(after.status).toBe('success');
		const outputs = after.output(LBA);
		expect(outputs.map((item: Json) => item.earlierOutcome)).toEqual(Array(6).fill('created'));
		expect(outputs[0].reason).toBe('Created in an earlier run; not sent again');
		expect(outputs.every((item: Json) => /^content:v2:[0-9a-f]{64}$/.test(item.idempotencyKey))).toBe(true);
		expect(await journal()).toHaveLength(6);

		// And the run after that, by this version's own keys.
		const again = await run();
		expect(again.output(LBA).map((item: Json) => item.reason)).toEqual(Array(6).fill('Created in an earlier run; not sent again'));
		expect(await journal()).toHaveLength(6);
		console.log(`Upgrade from ${PREVIOUS_VERSION} in real n8n ${e2e.n8nVersion()}: 6 campaigns before, 0 sent by the two runs after (sandbox journal: ${(await journal()).length})`);
	}, 10 * 60 * 1000);
});
