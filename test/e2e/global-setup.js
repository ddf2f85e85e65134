// Once per jest run of this config (a single suite's run too): the root set-up (the harness's user
// folder), then one n8n database migrated for all suites (lib/packages.js, makeN8nTemplate) and the
// package packed and installed once (makePackageNodes), then the LBA suites' template from both
// (lib/lba-n8n.js, makeLbaTemplate) and, beside it, the n8n the `shared` suites use (startSharedN8n),
// all stopped and removed in global-teardown.js.
const path = require('node:path');

const rootSetup = require('../global-setup');
const { REPO_ROOT } = require('./lib/env');
const { makeN8nTemplate, makePackageNodes } = require('./lib/packages');
const { makeLbaTemplate, startSharedN8n } = require('./lib/lba-n8n');

const timed = async (make) => {
	const started = Date.now();
	const made = await make();
	return { made, seconds: ((Date.now() - started) / 1000).toFixed(1) };
};

module.exports = async () => {
	await rootSetup();
	// At once: the migration waits on an n8n command, the package on npm.
	const [template, nodes] = await Promise.all([
		process.env.LBA_E2E_N8N_TEMPLATE ? undefined : timed(makeN8nTemplate),
		process.env.LBA_E2E_PACKAGE_NODES ? undefined : timed(() => makePackageNodes(REPO_ROOT)),
	]);
	if (template) {
		process.env.LBA_E2E_N8N_TEMPLATE = template.made;
		process.env.LBA_E2E_OWNS_N8N_TEMPLATE = '1';
		console.log(`\n[e2e] n8n's migrated database (migrated once per n8n version, kept in the cache) ready for every suite in ${template.seconds} s (${path.dirname(template.made)})`);
	}
	if (nodes) {
		process.env.LBA_E2E_PACKAGE_NODES = nodes.made;
		process.env.LBA_E2E_OWNS_PACKAGE_NODES = '1';
		console.log(`[e2e] the package packed and installed once for every suite in ${nodes.seconds} s (${path.dirname(nodes.made)})`);
	}
	// At once: both wait on n8n (its CLI, its start). If one fails, the shared n8n is not left running.
	const made = await Promise.allSettled([
		!process.env.LBA_E2E_LBA_TEMPLATE &&
			timed(() => makeLbaTemplate(process.env.LBA_E2E_N8N_TEMPLATE, process.env.LBA_E2E_PACKAGE_NODES)).then((lba) => {
				process.env.LBA_E2E_LBA_TEMPLATE = lba.made;
				process.env.LBA_E2E_OWNS_LBA_TEMPLATE = '1';
				console.log(`[e2e] the LBA suites' template (package and "LBA sandbox" credential) made in ${lba.seconds} s (${path.dirname(lba.made)})`);
			}),
		!process.env.LBA_E2E_SHARED_N8N &&
			timed(() => startSharedN8n(process.env.LBA_E2E_PACKAGE_NODES)).then((shared) => {
				// Read by global-teardown.js, which runs in this process.
				globalThis.lbaSharedN8n = shared.made;
				process.env.LBA_E2E_SHARED_N8N = shared.made.env;
				console.log(`[e2e] the shared n8n started in ${shared.seconds} s (${shared.made.n8n.baseUrl}, ${shared.made.folder.dir})`);
			}),
	]);
	const failed = made.find((each) => each.status === 'rejected');
	if (failed) {
		await globalThis.lbaSharedN8n?.n8n.stop();
		throw failed.reason;
	}
};
