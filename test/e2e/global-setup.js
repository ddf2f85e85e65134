// Once per `npm run test:e2e`: the root set-up (the harness's user folder), then one n8n
// database migrated for all suites (lib/packages.js, makeN8nTemplate), removed in global-teardown.js.
const path = require('node:path');

const rootSetup = require('../global-setup');
const { makeN8nTemplate } = require('./lib/packages');

module.exports = async () => {
	await rootSetup();
	if (process.env.LBA_E2E_N8N_TEMPLATE) return;
	const started = Date.now();
	process.env.LBA_E2E_N8N_TEMPLATE = await makeN8nTemplate();
	process.env.LBA_E2E_OWNS_N8N_TEMPLATE = '1';
	console.log(`\n[e2e] n8n's database migrated once for every suite in ${((Date.now() - started) / 1000).toFixed(1)} s (${path.dirname(process.env.LBA_E2E_N8N_TEMPLATE)})`);
};
