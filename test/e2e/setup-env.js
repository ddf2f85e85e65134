// Loaded by test/e2e/jest.config.js only: turns the e2e suites on (they are
// `describe.skip` elsewhere, so a plain `jest` unit run does not start n8n).
process.env.LBA_E2E = process.env.LBA_E2E || '1';
