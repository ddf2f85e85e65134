// Jest config for the queue-mode suite (issue 13): real n8n 2.40.7 as main + workers with
// PostgreSQL and Redis on loopback. Only *.queue.test.ts.
//   npm run test:queue
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	setupFiles: ['<rootDir>/test/queue/setup-env.js', '<rootDir>/test/e2e/one-connection-per-request.js'],
	testTimeout: 10 * 60 * 1000,
	maxWorkers: 1,
};
