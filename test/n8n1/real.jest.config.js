// Jest config for npm run test:n8n1-real: real n8n 1.x (test/n8n1/real-n8n.e2e.test.ts).
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/n8n1'],
	testMatch: ['**/*.e2e.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'], // the root config ignores *.e2e.test.ts
	testTimeout: 10 * 60 * 1000,
	maxWorkers: 1,
};
