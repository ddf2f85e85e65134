// The engine-harness tests again, on n8n 1.x's engine (issue 14): the workflow tests, the
// harness's self-tests and the reliability suite's injected faults and secrets, with
// n8n-core / n8n-workflow (and the luxon, zod and DI container they share with the package)
// taken from the 1.x install in LBA_N8N1_ENGINE instead of the root's 2.x devDependencies.
// The package under test (dist/) is the same build: only the engine changes.
//   npm run test:n8n1   (installs the engine pinned in test/n8n1/engine/package.json, then runs this)
const path = require('node:path');
const base = require('../../jest.config.js');
const reliability = require('../reliability/jest.config.js');
const engineFree = require('./engine-free.js');

const engine = process.env.LBA_N8N1_ENGINE;
if (!engine) throw new Error('LBA_N8N1_ENGINE is not set: run `npm run test:n8n1`, which installs n8n 1.x and sets it.');
const from1x = (name) => path.join(engine, 'node_modules', name);

// Every module that must be n8n 1.x's own copy, so that the package, the harness and the
// engine share one instance (an instanceof or a DI container across two copies would fail).
const ENGINE_MODULES = ['n8n-core', 'n8n-workflow', '@n8n/di', '@n8n/backend-common', 'luxon', 'zod'];
const moduleNameMapper = {};
for (const name of ENGINE_MODULES) {
	const escaped = name.replace(/[/]/g, '\\/');
	moduleNameMapper[`^${escaped}$`] = from1x(name);
	// Only package.json by path: other subpaths (zod/v4) need the package's `exports` resolution.
	moduleNameMapper[`^${escaped}/package\\.json$`] = path.join(from1x(name), 'package.json');
}

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test'],
	testMatch: [
		'<rootDir>/test/n8n1/**/*.n8n1.test.ts',
		'<rootDir>/test/nodes/**/*.test.ts',
		'<rootDir>/test/credentials/**/*.test.ts',
		// Not auth.test.ts: it pins n8n 2.x's own wording and requests (the credential Test's
		// messages, the OAuth2 form fields), which 1.x words differently.
		'<rootDir>/test/harness-selftest/engine.test.ts',
		'<rootDir>/test/reliability/faults.reliability.test.ts',
		'<rootDir>/test/reliability/secrets.reliability.test.ts',
	],
	// The rule: a file runs here only if 1.x could change what it proves, i.e. it runs the engine
	// (the harness) or code of n8n-workflow, n8n-core, luxon or zod whose behaviour is a version's
	// own (n8n's HTTP errors, NodeHelpers, dates, schemas). So not the simulation of duplicate
	// protection (the lock and the guard on a model of n8n's store, up to a minute), nor the files
	// of engine-free.js.
	testPathIgnorePatterns: ['/node_modules/', '/duplicateProtection/simulation/', ...engineFree.map((file) => `<rootDir>/${file.replace(/\./g, '\\.')}$`)],
	moduleNameMapper,
	testTimeout: reliability.testTimeout,
	// Two files at a time (the reliability suite runs one): none of these loads the machine on purpose,
	// and one at a time made this suite CI's tail (docs/development.md, fifth round).
	maxWorkers: 2,
	setupFilesAfterEnv: reliability.setupFilesAfterEnv,
	reporters: reliability.reporters,
	// On n8n-core 1.x the faults suite leaves something open after it finishes (that file only,
	// found by running the files one at a time; the cause is not known yet), and jest would then
	// wait forever instead of exiting: CI must end.
	forceExit: true,
};
