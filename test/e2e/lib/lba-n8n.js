'use strict';
// The set-up the LBA e2e suites share: the sandbox on a free loopback port, a fresh n8n user
// folder with the packed package installed as a community package (a copy of the run's one install),
// the "LBA sandbox" credential (plus any others) pointed at the suite's sandbox, n8n started with an
// owner signed in, and the suite's workflows saved with their ids.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startSandbox } = require('../../../sandbox/server');
const { REPO_ROOT, n8nBin } = require('./env');
const { makeUserFolder, packPackage, installCommunityPackage } = require('./packages');
const { importCredentials, importWorkflow } = require('./cli');
const { startN8n, setupOwnerAndLogin, N8nRest } = require('./server');
const { sandboxCredential, SANDBOX_CREDENTIAL_ID } = require('./examples');

/** Where the template's "LBA sandbox" credential points until a suite points it at its own sandbox. */
const NO_SANDBOX_YET = sandboxCredential('http://127.0.0.1:9', 'set-by-each-suite');

/**
 * The LBA suites' template (test/e2e/global-setup.js, once per jest run): the migrated `.n8n` folder
 * with the packed package installed and the "LBA sandbox" credential imported, pointing nowhere. A
 * suite that starts n8n at once points it at its sandbox over REST (PATCH keeps its id): one n8n CLI
 * boot per run instead of one per suite (4 to 5 s of CPU and 8 to 13 s of set-up under load each).
 * @returns {Promise<string>} the template's `.n8n` folder
 */
async function makeLbaTemplate(template, nodesDir) {
	const folder = makeUserFolder('lba-e2e-lba-template-', { template });
	fs.cpSync(nodesDir, folder.nodesDir, { recursive: true });
	await importCredentials(folder, [NO_SANDBOX_YET]);
	fs.rmSync(path.join(folder.dir, 'inputs'), { recursive: true, force: true });
	return folder.n8nDir;
}

/**
 * The n8n the suites marked `shared` use (test/e2e/global-setup.js, once per jest run): the package
 * installed, the owner set up, no credential. An n8n start is about 13 s of CPU (12 s of it loading
 * n8n's modules); nine suites share this one instead of starting their own. Each still has its own
 * sandbox, credentials (saved over REST, their ids mapped in its workflows) and workflows (their
 * ids distinct across suites: saving one twice fails). A suite that stops, restarts or kills n8n,
 * reads its database or log, runs its CLI, or needs an n8n with no other credential of its type
 * (the editor would pick that one) keeps its own.
 * @returns {Promise<{ n8n: N8nInstance, folder: UserFolder, env: string }>} `env`: what a suite reads
 *   from LBA_E2E_SHARED_N8N
 */
async function startSharedN8n(nodesDir) {
	const folder = makeUserFolder('lba-e2e-shared-');
	fs.cpSync(nodesDir, folder.nodesDir, { recursive: true });
	const n8n = await startN8n(folder);
	try {
		await setupOwnerAndLogin(n8n);
	} catch (error) {
		await n8n.stop();
		throw error;
	}
	const { baseUrl, port, brokerPort, pid, logFile, startupMs } = n8n;
	return { n8n, folder, env: JSON.stringify({ baseUrl, port, brokerPort, pid, logFile, startupMs, dir: folder.dir, n8nDir: folder.n8nDir }) };
}

/** The shared n8n as a suite sees it: an N8nInstance that a suite cannot stop, and its folder, never removed by a suite. */
function sharedN8n() {
	const { baseUrl, port, brokerPort, pid, logFile, startupMs, dir, n8nDir } = JSON.parse(process.env.LBA_E2E_SHARED_N8N);
	const refuse = async () => {
		throw new Error('the shared n8n is started and stopped by test/e2e/global-setup.js: a suite that stops n8n needs its own (no `shared`)');
	};
	const n8n = { baseUrl, port, brokerPort, pid, userFolder: dir, logFile, startupMs, logs: () => fs.readFileSync(logFile, 'utf8'), exited: () => null, stop: refuse };
	return { n8n, userFolder: { dir, n8nDir, nodesDir: path.join(n8nDir, 'nodes'), cleanup: () => {} }, refuse };
}

/**
 * @param {string} name  user folder prefix, e.g. 'dry-run' (the folder is `lba-e2e-<name>-XXXXXX`)
 * @param {{
 *   workflows?: object[],
 *   credentials?: (sandboxUrl: string) => object[],
 *   start?: boolean,
 *   publish?: string[],
 * }} [opts]
 *   `credentials`: more credentials to import beside "LBA sandbox" (given the sandbox's URL).
 *   `start: false` leaves n8n stopped (`n8n` and `rest` undefined), for suites that run
 *   `n8n execute` or import more workflows first; they call `setup.start()` themselves.
 *   `publish`: ids of `workflows` published (activated) once saved, with n8n running.
 *   `env`: more of n8n's environment (a settableClock's, say); not with `shared`.
 *   `shared`: the run's shared n8n (startSharedN8n) instead of one of the suite's own, when
 *   global-setup.js started one; its "LBA sandbox" credential is saved over REST with an id of its
 *   own (`setup.credentialId(SANDBOX_CREDENTIAL_ID)`), and its published workflows unpublished on close.
 */
async function startLbaN8n(name, opts = {}) {
	if (opts.start === false && opts.publish) throw new Error('startLbaN8n: `publish` needs n8n started (not `start: false`)');
	if (opts.shared && opts.start === false) throw new Error('startLbaN8n: `shared` needs n8n started (not `start: false`)');
	if (opts.shared && opts.env) throw new Error('startLbaN8n: `env` needs an n8n of the suite\'s own (not `shared`)');
	if (opts.shared && process.env.LBA_E2E_SHARED_N8N) return await joinSharedN8n(name, opts);
	n8nBin(); // installs n8n when missing (minutes, once), before anything is started
	const sandbox = await startSandbox({ port: 0, quiet: true });
	const lbaTemplate = process.env.LBA_E2E_LBA_TEMPLATE;
	const userFolder = makeUserFolder(`lba-e2e-${name}-`, lbaTemplate ? { template: lbaTemplate } : {});
	const setup = { sandbox, userFolder, n8n: undefined, rest: undefined };
	// The id each of `opts.credentials` was saved with, by the id the suite gave it.
	const credentialIds = new Map();
	/** The id n8n saved the suite's credential `id` with (the same, when imported with the CLI). */
	setup.credentialId = (id) => credentialIds.get(id) || id;
	/** Starts n8n (again, after `setup.n8n.stop()`) and signs the owner in. */
	setup.start = async () => {
		setup.n8n = await startN8n(userFolder, { env: opts.env });
		setup.rest = await setupOwnerAndLogin(setup.n8n);
	};
	/** Stops n8n, the sandbox, and removes the user folder (kept with LBA_E2E_KEEP=1). */
	setup.close = async () => {
		if (setup.n8n) await setup.n8n.stop();
		await sandbox.close();
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept N8N_USER_FOLDER ${userFolder.dir}`);
		else userFolder.cleanup();
	};
	const seconds = [];
	let lap = Date.now();
	const timed = (label) => {
		seconds.push(`${label} ${((Date.now() - lap) / 1000).toFixed(1)} s`);
		lap = Date.now();
	};
	try {
		// The run's one packed and installed copy (global-setup.js), else packed and installed here.
		if (lbaTemplate) timed('package (in the template)');
		else {
			if (process.env.LBA_E2E_PACKAGE_NODES) fs.cpSync(process.env.LBA_E2E_PACKAGE_NODES, userFolder.nodesDir, { recursive: true });
			else await installCommunityPackage(userFolder, await packPackage(REPO_ROOT, userFolder.dir));
			timed('package');
		}
		const credential = sandboxCredential(sandbox.url, sandbox.tokens[0]);
		const others = opts.credentials ? opts.credentials(sandbox.url) : [];
		// Imported with the CLI when n8n must find them before it starts, or when no template holds
		// "LBA sandbox"; otherwise saved over REST once n8n runs (below), one n8n CLI boot less (4 to
		// 8 s of CPU, 7 to 27 s of set-up under load).
		const setOverRest = Boolean(lbaTemplate) && opts.start !== false;
		if (!setOverRest) {
			await importCredentials(userFolder, [credential, ...others]);
			timed('credentials');
		}
		const workflows = opts.workflows || [];
		if (opts.start === false) {
			if (workflows.length) await importWorkflow(userFolder, workflows);
			timed('workflows');
		} else {
			await setup.start();
			timed('n8n start');
			if (setOverRest) {
				const { name: credentialName, type, data } = credential;
				const saved = await setup.rest.call('PATCH', `/rest/credentials/${SANDBOX_CREDENTIAL_ID}`, { name: credentialName, type, data });
				if (saved.id !== SANDBOX_CREDENTIAL_ID) throw new Error(`n8n updated credential ${saved.id}, not ${SANDBOX_CREDENTIAL_ID}`);
				await createCredentials(setup.rest, others, credentialIds);
				timed(others.length ? 'credentials' : 'credential');
			}
			await createWorkflows(setup.rest, workflows.map((workflow) => withCredentialIds(workflow, credentialIds)));
			timed('workflows');
			for (const id of opts.publish || []) await setup.rest.activateWorkflow(id);
			if (opts.publish) timed('published');
		}
		// Each suite's set-up cost, for docs/development.md's "CI's time".
		console.log(`[e2e] ${name} set-up: ${seconds.join(', ')} (load ${os.loadavg()[0].toFixed(1)})`);
	} catch (error) {
		// The suite never gets `setup` to close: do not leave the sandbox or n8n running.
		await setup.close().catch(() => {});
		throw error;
	}
	return setup;
}

/** startLbaN8n on the shared n8n: the suite's sandbox, credentials and workflows, none of n8n's start. */
async function joinSharedN8n(name, opts) {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	const { n8n, userFolder, refuse } = sharedN8n();
	const setup = { sandbox, userFolder, n8n, rest: new N8nRest(n8n.baseUrl), start: refuse };
	const credentialIds = new Map();
	setup.credentialId = (id) => credentialIds.get(id) || id;
	const published = [];
	setup.close = async () => {
		// Its triggers would go on calling a sandbox that is gone.
		for (const id of published) await setup.rest.call('POST', `/rest/workflows/${id}/deactivate`, {}).catch(() => {});
		await sandbox.close();
	};
	const started = Date.now();
	try {
		await setup.rest.login();
		const credential = sandboxCredential(sandbox.url, sandbox.tokens[0]);
		const others = opts.credentials ? opts.credentials(sandbox.url) : [];
		await createCredentials(setup.rest, [credential, ...others], credentialIds);
		await createWorkflows(setup.rest, (opts.workflows || []).map((workflow) => withCredentialIds(workflow, credentialIds)));
		for (const id of opts.publish || []) {
			await setup.rest.activateWorkflow(id);
			published.push(id);
		}
		console.log(`[e2e] ${name} set-up on the shared n8n: ${((Date.now() - started) / 1000).toFixed(1)} s (load ${os.loadavg()[0].toFixed(1)})`);
	} catch (error) {
		await setup.close().catch(() => {});
		throw error;
	}
	return setup;
}

/**
 * Credentials saved through the running n8n (POST /rest/credentials). n8n's REST API gives each an id
 * of its own (CreateCredentialDto takes none): `ids` maps the suite's id to n8n's, and the suite's
 * workflows are saved pointing at n8n's (withCredentialIds).
 */
async function createCredentials(rest, credentials, ids) {
	for (const { id, name, type, data } of credentials) {
		const created = await rest.call('POST', '/rest/credentials', { name, type, data });
		ids.set(id, created.id);
	}
}

/**
 * The suite's workflows saved through the running n8n (POST /rest/workflows), with their own ids, which
 * the suites use: n8n 2.40.7's CreateWorkflowDto takes an `id` and refuses one that exists. One n8n CLI
 * boot less than `n8n import:workflow` (5 to 7 s under load); suites that run `n8n execute` before
 * starting n8n (`start: false`) still import with the CLI.
 */
async function createWorkflows(rest, workflows) {
	for (const workflow of workflows) {
		const created = await rest.call('POST', '/rest/workflows', workflow);
		if (workflow.id && created.id !== workflow.id) throw new Error(`n8n saved workflow ${workflow.id} as ${created.id}`);
	}
}

/** `workflow` with its nodes' credentials pointing at the ids in `ids` (old id -> new id). */
function withCredentialIds(workflow, ids) {
	if (!ids.size) return workflow;
	const nodes = (workflow.nodes || []).map((node) => {
		if (!node.credentials) return node;
		const credentials = {};
		for (const [type, ref] of Object.entries(node.credentials)) credentials[type] = ref && ids.has(ref.id) ? { ...ref, id: ids.get(ref.id) } : ref;
		return { ...node, credentials };
	});
	return { ...workflow, nodes };
}

module.exports = { startLbaN8n, makeLbaTemplate, startSharedN8n };
