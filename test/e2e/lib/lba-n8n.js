'use strict';
// The set-up most LBA e2e suites share: the sandbox on a free loopback port, a fresh n8n user
// folder with the packed package installed as a community package, the "LBA sandbox" credential
// (plus any others) and the suite's workflows imported, then n8n started with an owner signed in.
const { startSandbox } = require('../../../sandbox/server');
const { REPO_ROOT } = require('./env');
const { makeUserFolder, packPackage, installCommunityPackage } = require('./packages');
const { importCredentials, importWorkflow } = require('./cli');
const { startN8n, setupOwnerAndLogin } = require('./server');
const { sandboxCredential } = require('./examples');

/**
 * @param {string} name  user folder prefix, e.g. 'dry-run'
 * @param {{ workflows?: object[], credentials?: (sandboxUrl: string) => object[] }} [opts]
 */
async function startLbaN8n(name, opts = {}) {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	const userFolder = makeUserFolder(`lba-e2e-${name}-`);
	await installCommunityPackage(userFolder, await packPackage(REPO_ROOT, userFolder.dir));
	await importCredentials(userFolder, [sandboxCredential(sandbox.url, sandbox.tokens[0]), ...(opts.credentials ? opts.credentials(sandbox.url) : [])]);
	if (opts.workflows && opts.workflows.length) await importWorkflow(userFolder, opts.workflows);
	const setup = { sandbox, userFolder, n8n: undefined, rest: undefined };
	setup.start = async () => {
		setup.n8n = await startN8n(userFolder);
		setup.rest = await setupOwnerAndLogin(setup.n8n);
	};
	/** Stops n8n, the sandbox, and removes the user folder (kept with LBA_E2E_KEEP=1). */
	setup.close = async () => {
		if (setup.n8n) await setup.n8n.stop();
		await sandbox.close();
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept N8N_USER_FOLDER ${userFolder.dir}`);
		else userFolder.cleanup();
	};
	await setup.start();
	return setup;
}

module.exports = { startLbaN8n };
