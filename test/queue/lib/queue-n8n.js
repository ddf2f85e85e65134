'use strict';
// n8n 2.40.7 in queue mode, as an operator runs it: PostgreSQL, Redis, one main (editor, API,
// webhooks) and N workers (`n8n worker`), all with the same encryption key.
//
// The package: installed once into one `nodes` folder that every process's user folder links
// to as `.n8n/nodes`, like a shared volume or a custom image. Each process keeps its own user
// folder otherwise: workers sharing one would share an event log, and a restarting worker then
// marks its sibling's running executions as crashed.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../../sandbox/server');
const { REPO_ROOT } = require('../../e2e/lib/env');
const { makeUserFolder, packPackage, installCommunityPackage } = require('../../e2e/lib/packages');
const { runN8nOk } = require('../../e2e/lib/cli');
const { anyHourOfDay } = require('../../e2e/lib/night');
const { startN8n, setupOwnerAndLogin } = require('../../e2e/lib/server');
const { sandboxCredential } = require('../../e2e/lib/examples');
const { startPostgres, startRedis } = require('./services');

/**
 * @param {string} name  temp folder prefix
 * @param {{ workers?: number, concurrency?: number, workflows?: object[],
 *           credentials?: (sandboxUrl: string) => object[], sandbox?: object, env?: object,
 *           workerEnv?: (services: { postgres: object, redis: object }) => Promise<object> }} [opts]
 *   `sandbox`: options for the sandbox (e.g. { tokenTtlSeconds: 5 }); `env`: extra n8n settings for every process;
 *   `workerEnv`: settings for the workers only, made once the services run (e.g. a proxy's port for the database).
 */
async function startQueueN8n(name, opts = {}) {
	const { workers: workerCount = 2, concurrency = 5 } = opts;
	const sandbox = await startSandbox({ port: 0, quiet: true, ...(opts.sandbox || {}) });
	const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
	const shared = makeUserFolder(`lba-queue-${name}-`);
	// LBA_PACKAGE_DIR: another built copy of the package (an older commit, a mutated build), to show
	// that the suites fail on it; by default the repository's own build.
	await installCommunityPackage(shared, await packPackage(process.env.LBA_PACKAGE_DIR || REPO_ROOT, shared.dir));
	const env = {
		...postgres.env,
		...redis.env,
		EXECUTIONS_MODE: 'queue',
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_LOG_LEVEL: 'info',
		...(opts.env || {}),
	};
	const processFolder = (role) => {
		const dir = path.join(shared.dir, role);
		fs.mkdirSync(path.join(dir, '.n8n'), { recursive: true });
		fs.symlinkSync(shared.nodesDir, path.join(dir, '.n8n', 'nodes'));
		return dir;
	};

	const mainDir = processFolder('main');
	const input = (file, data) => {
		const target = path.join(mainDir, file);
		fs.writeFileSync(target, JSON.stringify(data));
		return target;
	};
	const credentials = [sandboxCredential(sandbox.url, sandbox.tokens[0]), ...(opts.credentials ? opts.credentials(sandbox.url) : [])];
	await runN8nOk(mainDir, ['import:credentials', `--input=${input('credentials.json', credentials)}`], { env });
	if (opts.workflows && opts.workflows.length) {
		await runN8nOk(mainDir, ['import:workflow', `--input=${input('workflows.json', anyHourOfDay(opts.workflows))}`], { env });
	}

	const workerEnv = { ...env, ...(opts.workerEnv ? await opts.workerEnv({ postgres, redis }) : {}) };
	const setup = { sandbox, postgres, redis, env, main: undefined, rest: undefined, workers: [] };
	setup.startMain = async () => {
		setup.main = await startN8n(mainDir, { env });
		setup.rest = await setupOwnerAndLogin(setup.main);
		return setup.main;
	};
	await setup.startMain();

	/** Starts worker number `index` (1-based) with host name lba-worker-<index>, its id in n8n's logs. */
	setup.startWorker = async (index, { concurrency: workerConcurrency = concurrency } = {}) => {
		const dir = path.join(shared.dir, `worker-${index}`);
		if (!fs.existsSync(dir)) processFolder(`worker-${index}`);
		const worker = await startN8n(dir, { env: workerEnv, worker: { concurrency: workerConcurrency }, hostname: `lba-worker-${index}` });
		worker.name = `lba-worker-${index}`;
		setup.workers[index - 1] = worker;
		return worker;
	};
	await Promise.all(Array.from({ length: workerCount }, (_, i) => setup.startWorker(i + 1)));

	/** The worker that ran an execution, from the workers' own logs ("Worker started execution N"). */
	setup.workerOf = (executionId) => {
		const started = new RegExp(`Worker started execution ${executionId} \\(`);
		const ran = setup.workers.filter((worker) => worker && started.test(worker.logs()));
		return ran.length === 1 ? ran[0].name : ran.length === 0 ? undefined : ran.map((w) => w.name).join('+');
	};

	/**
	 * Starts again, as an orchestrator would, every process that has exited; returns for each
	 * "<name>: <its last error line>".
	 */
	setup.restartExited = async () => {
		const lastError = (instance) => (instance.logs().split('\n').filter((line) => /error|exit/i.test(line)).pop() || '').trim();
		const restarted = [];
		if (setup.main.exited()) {
			restarted.push(`main: ${lastError(setup.main)}`);
			await setup.startMain();
		}
		for (const [index, worker] of setup.workers.entries()) {
			if (worker && worker.exited()) {
				restarted.push(`${worker.name}: ${lastError(worker)}`);
				await setup.startWorker(index + 1);
			}
		}
		return restarted;
	};

	setup.stop = async () => {
		await Promise.all(setup.workers.filter(Boolean).map((worker) => worker.stop()));
		if (setup.main) await setup.main.stop();
	};
	setup.close = async () => {
		await setup.stop();
		await Promise.all([postgres.close(), redis.close(), sandbox.close()]);
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept ${shared.dir}`);
		else shared.cleanup();
	};
	return setup;
}

/**
 * A copy of a workflow whose trigger (manual or schedule) is a Webhook node at POST /webhook/<path>
 * that answers with the last node's items: a production execution, which queue mode gives to a worker.
 */
function asWebhookWorkflow(workflow, { id, webhookPath }) {
	const trigger = workflow.nodes.find((node) => /\.(manualTrigger|scheduleTrigger)$/.test(node.type));
	if (!trigger) throw new Error(`workflow ${workflow.name} has no manual or schedule trigger`);
	const webhook = {
		id: trigger.id,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: trigger.position,
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
	const rename = (name) => (name === trigger.name ? webhook.name : name);
	const connections = {};
	for (const [from, outputs] of Object.entries(workflow.connections)) {
		connections[rename(from)] = JSON.parse(JSON.stringify(outputs), (key, value) => (key === 'node' ? rename(value) : value));
	}
	return {
		...workflow,
		id,
		name: `${workflow.name} (webhook)`,
		nodes: workflow.nodes.map((node) => (node === trigger ? webhook : node)),
		connections,
	};
}

module.exports = { startQueueN8n, asWebhookWorkflow };
