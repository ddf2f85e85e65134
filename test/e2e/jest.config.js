// Jest config for the slow end-to-end tests (real n8n + Chromium): only *.e2e.test.ts.
//   bash scripts/with-node24.sh jest -c test/e2e/jest.config.js
// The root jest.config.js (unit run) ignores *.e2e.test.ts; the suites also stay
// describe.skip unless LBA_E2E=1, which setup-env.js sets for this config.
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'], // the root config ignores *.e2e.test.ts
	setupFiles: ['<rootDir>/test/e2e/setup-env.js', '<rootDir>/test/e2e/one-connection-per-request.js'],
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.js',
	testTimeout: 10 * 60 * 1000,
	// Four suites at once, each with its own sandbox, ports and user folder, and most on the run's
	// shared n8n (lib/lba-n8n.js): a suite spends most of its time waiting on n8n (about a third of a
	// core measured under load; with three, CI's e2e step used 1.3 of its 2 cores), so on CI's 2
	// cores four of them overlap (docs/development.md, "CI's time").
	maxWorkers: 4,
	// The longest suites first: test/sequencer.js (from the root config).
};
