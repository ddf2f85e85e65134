const fs = require('node:fs');
const path = require('node:path');

const rootTeardown = require('../global-teardown');

module.exports = async () => {
	await rootTeardown();
	const shared = globalThis.lbaSharedN8n;
	if (shared) {
		await shared.n8n.stop();
		if (process.env.LBA_E2E_KEEP === '1') console.log(`kept the shared n8n's N8N_USER_FOLDER ${shared.folder.dir}`);
		else shared.folder.cleanup();
	}
	if (process.env.LBA_E2E_OWNS_N8N_TEMPLATE === '1') fs.rmSync(path.dirname(process.env.LBA_E2E_N8N_TEMPLATE), { recursive: true, force: true });
	if (process.env.LBA_E2E_OWNS_LBA_TEMPLATE === '1') fs.rmSync(path.dirname(process.env.LBA_E2E_LBA_TEMPLATE), { recursive: true, force: true });
	if (process.env.LBA_E2E_OWNS_PACKAGE_NODES === '1') fs.rmSync(path.dirname(process.env.LBA_E2E_PACKAGE_NODES), { recursive: true, force: true });
};
