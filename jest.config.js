/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The real-n8n end-to-end tests, the reliability suite and the queue-mode suite take minutes;
  // `npm run test:e2e`, `npm run test:reliability` and `npm run test:queue` run them. *.n8n1.test.ts only make
  // sense on n8n 1.x's engine: `npm run test:n8n1` runs them.
  testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$', '\\.reliability\\.test\\.ts$', '\\.queue\\.test\\.ts$', '\\.n8n1\\.test\\.ts$'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
  },
  testTimeout: 60000,
  // One worker per core (jest's default leaves one for itself, which idles): on CI's 2 cores the
  // files that wait on retries and timers overlap.
  maxWorkers: '100%',
  // The longest files first (a fresh clone's jest has no timings and orders by size): test/sequencer.js.
  testSequencer: '<rootDir>/test/sequencer.js',
  // Each file's shown texts: every instruction in them is in the catalogue (issue 60).
  setupFilesAfterEnv: ['<rootDir>/test/shown-check.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
};
