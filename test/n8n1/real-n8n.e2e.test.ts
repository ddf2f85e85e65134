/**
 * Real n8n 1.x (issue 14): the failures n8n 1.123.81 used to report as "Could not reach the LBA
 * service", with nothing retried, now give the same messages and retries as on 2.x. The packed
 * package is installed as a community package, the workflow is imported, and `n8n execute` runs
 * it against the sandbox with injected faults.
 *   npm run test:n8n1-real   (installs the n8n pinned in test/n8n1/real/package.json, minutes)
 * Runs only with LBA_N8N_BIN set (the script sets it) to that n8n 1.x.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as e2e from '../e2e/lib';
import { RETRY } from '../../nodes/shared/transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server') as {
	startSandbox(options: object): Promise<{ url: string; tokens: string[]; close(): Promise<void> }>;
};

const n8nBin = process.env.LBA_N8N_BIN;
const describeReal = n8nBin ? describe : describe.skip;

const GOOD = { id: 'n8n1GoodCred0001', name: 'LBA sandbox' };
const WRONG = { id: 'n8n1WrongCred001', name: 'LBA wrong token' };

function productsWorkflow(id: string, credential: { id: string; name: string }) {
	return {
		id,
		name: `n8n 1.x: ${id}`,
		active: false,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'lba',
				name: 'LBA',
				type: 'n8n-nodes-lba-ads.lbaAds',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'product', operation: 'getMany', returnAll: false, limit: 1, simplify: true },
				credentials: { lbaAdsApi: credential },
			},
		],
		connections: { Start: { main: [[{ node: 'LBA', type: 'main', index: 0 }]] } },
		settings: {},
	};
}

describeReal('the LBA Ads node in real n8n 1.x: statuses, retries and messages', () => {
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	let userFolder: e2e.UserFolder;

	const control = async (method: string, what: string, body?: object) => {
		const res = await fetch(`${sandbox.url}/_sandbox/${what}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body && JSON.stringify(body),
		});
		return res.json() as Promise<unknown>;
	};
	const productRequests = async () =>
		((await control('GET', 'requests')) as { requests: Array<{ path: string; at: string }> }).requests.filter((r) => r.path === '/io/products');

	async function run(workflowId: string) {
		const started = Date.now();
		const result = await e2e.executeWorkflow(userFolder, workflowId);
		return { ...result, ms: Date.now() - started, message: result.error?.message as string | undefined };
	}

	beforeAll(async () => {
		const version = execFileSync(n8nBin!, ['--version'], { encoding: 'utf8', env: e2e.n8nEnv(e2e.makeUserFolder('lba-n8n1-version-')) }).trim();
		expect(version).toMatch(/^1\./);
		sandbox = await startSandbox({ port: 0, quiet: true });
		userFolder = e2e.makeUserFolder('lba-n8n1-real-');
		await e2e.installCommunityPackage(userFolder, await e2e.packPackage(path.resolve(__dirname, '../..'), userFolder.dir));
		await e2e.importCredentials(userFolder, [
			{ ...GOOD, type: 'lbaAdsApi', data: { baseUrl: sandbox.url, accessToken: sandbox.tokens[0] } },
			{ ...WRONG, type: 'lbaAdsApi', data: { baseUrl: sandbox.url, accessToken: 'not-the-token' } },
		]);
		await e2e.importWorkflow(userFolder, [productsWorkflow('n8n1Products0001', GOOD), productsWorkflow('n8n1WrongToken01', WRONG)]);
	});

	afterAll(async () => {
		await sandbox?.close();
		userFolder?.cleanup();
	});

	beforeEach(async () => {
		await control('POST', 'reset');
	});

	it('ships the n8n-core and n8n-workflow that npm run test:n8n1 runs the workflow tests on', () => {
		const modules = path.dirname(path.dirname(n8nBin!)); // <install>/node_modules/.bin/n8n
		const version = (name: string) => (JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as { version: string }).version;
		const pinned = (JSON.parse(readFileSync(path.join(__dirname, 'engine', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
		expect({ 'n8n-core': version('n8n-core'), 'n8n-workflow': version('n8n-workflow') }).toEqual(pinned);
	});

	it('runs without faults (the baseline)', async () => {
		const result = await run('n8n1Products0001');
		expect(result.error).toBeNull();
		expect(result.output('LBA')).toHaveLength(1);
	});

	it('a 401 says the token was refused, and the token appears nowhere in the output', async () => {
		const result = await run('n8n1WrongToken01');
		expect(result.message).toBe('The LBA service refused the access token (HTTP 401): check the LBA Ads credential');
		// n8n sends a request again once after a 401 (its preAuthentication path); the node does not retry it.
		expect(await productRequests()).toHaveLength(2);
		expect(result.stdout + result.stderr).not.toContain('not-the-token');
	});

	it('a 503 twice is retried and succeeds', async () => {
		await control('POST', 'faults', { path: '/io/products', status: 503, times: 2 });
		const result = await run('n8n1Products0001');
		expect(result.error).toBeNull();
		expect(result.output('LBA')).toHaveLength(1);
		expect(await productRequests()).toHaveLength(3);
	});

	it('a 503 that persists gives up after the bounded retries with the status in the message', async () => {
		await control('POST', 'faults', { path: '/io/products', status: 503, times: 10 });
		const result = await run('n8n1Products0001');
		expect(result.message).toBe(`The LBA service failed to answer GET /io/products (HTTP 503) after ${RETRY.maxRetries + 1} attempts`);
		expect(await productRequests()).toHaveLength(RETRY.maxRetries + 1);
	});

	it('a 429 with Retry-After is retried (on the back-off: n8n 1.x hides the header) and succeeds', async () => {
		await control('POST', 'faults', { path: '/io/products', status: 429, headers: { 'Retry-After': '1' }, times: 2 });
		const result = await run('n8n1Products0001');
		expect(result.error).toBeNull();
		const sent = await productRequests();
		expect(sent).toHaveLength(3);
		const gaps = sent.slice(1).map((request, i) => Date.parse(request.at) - Date.parse(sent[i].at));
		// The waits between attempts, as the journal saw them: at least the back-off's 0.5 s and 1 s.
		expect(gaps[0]).toBeGreaterThanOrEqual(RETRY.firstDelayMs);
		expect(gaps[1]).toBeGreaterThanOrEqual(RETRY.firstDelayMs * 2);
		console.log(`[n8n1-real] 429 + Retry-After: 1, twice: waits between attempts ${gaps.join(' ms, ')} ms`);
	});

	it('a 429 that persists says the service is rate limiting', async () => {
		await control('POST', 'faults', { path: '/io/products', status: 429, headers: { 'Retry-After': '1' }, times: 10 });
		const result = await run('n8n1Products0001');
		expect(result.message).toBe(`The LBA service is rate limiting requests (HTTP 429) after ${RETRY.maxRetries + 1} attempts`);
	});
});
