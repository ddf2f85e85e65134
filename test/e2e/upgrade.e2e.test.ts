// An upgrade of the package between two runs of the same campaigns, in a real n8n 2.40.7: an
// earlier build (PREVIOUS_VERSION below, built from git) creates six campaigns, the package is
// replaced by this build (as n8n's community-package update does: same user folder, same
// database, n8n restarted), and the same workflow run again sends nothing: the history is kept
// and this build finds the earlier build's keys. The shape every later release is tested with:
// set PREVIOUS_VERSION to the last release's tag.
//
// 1.0.0 is the first release: no user holds keys of an earlier build, so until 1.0.1 this suite
// runs only when asked (LBA_UPGRADE_FROM=<commit or tag>, e.g. 2479134, the last build before the
// first release: 125 s here). From the second release on, .ci/run sets it to the last release's tag.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as e2e from './lib';

/** The earlier build (a commit or tag); unset, the suite is skipped (see the header). */
const PREVIOUS_VERSION = process.env.LBA_UPGRADE_FROM ?? '';
const LBA = 'Create campaigns';

type Json = Record<string, any>;

const WORKFLOW = e2e.campaignWorkflow('upgradeKeys', 'Duplicate protection across an upgrade', e2e.namedItems('upgrade'), {
	lbaParameters: e2e.createCampaignParameters({ campaignDescription: 'Upgrade e2e', options: { concurrency: 2 } }),
});

/** The previous version's package, built from git beside this checkout with this checkout's dev tools. */
function buildPreviousVersion(dir: string): string {
	const source = path.join(dir, 'previous');
	fs.mkdirSync(source, { recursive: true });
	const archive = execFileSync('git', ['archive', '--format=tar', PREVIOUS_VERSION], { cwd: e2e.REPO_ROOT, maxBuffer: 256 * 1024 * 1024 });
	execFileSync('tar', ['-x', '-C', source], { input: archive });
	fs.symlinkSync(path.join(e2e.REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'));
	execFileSync('node', [path.join(e2e.REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: source, stdio: 'inherit' });
	execFileSync('node', [path.join(e2e.REPO_ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'build:icons'], { cwd: source, stdio: 'ignore' });
	return source;
}

(PREVIOUS_VERSION ? e2e.describeE2E : describe.skip)(`an upgrade of the package in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('upgrade', { workflows: [WORKFLOW], start: false });
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
	});

	async function run() {
		const { executionId } = await setup!.rest!.runWorkflow(WORKFLOW.id, 'Start');
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

	test('an earlier build creates 6 campaigns; after the upgrade the same run sends 0, by the same keys', async () => {
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
		expect(outputs.map((item: Json) => ({ skipped: item.skipped, earlierOutcome: item.earlierOutcome, reason: item.reason }))).toEqual(
			Array(6).fill({ skipped: true, earlierOutcome: 'created', reason: 'Created in an earlier run; not sent again' }),
		);
		expect(outputs.map((item: Json) => item.idempotencyKey)).toEqual(keysBefore);
		expect(await journal()).toHaveLength(6);
		console.log(`Upgrade from ${PREVIOUS_VERSION} in real n8n ${e2e.n8nVersion()}: 6 campaigns before, 0 sent after (sandbox journal: ${(await journal()).length})`);
	}, 10 * 60 * 1000);
});
