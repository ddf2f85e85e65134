// Jest config for npm run test:n8n1-real: the e2e settings, for real n8n 1.x
// (test/n8n1/real-n8n.e2e.test.ts) instead of the 2.x suites in test/e2e.
const e2e = require('../e2e/jest.config.js');
const base = require('../../jest.config.js');

// The root's global set-up, not e2e's: e2e's migrates a database template with n8n 2.x.
module.exports = { ...e2e, roots: ['<rootDir>/test/n8n1'], globalSetup: base.globalSetup, globalTeardown: base.globalTeardown };
