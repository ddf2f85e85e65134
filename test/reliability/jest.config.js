// Jest config for the reliability suite (issue 6): generated bad input, injected faults,
// secrets and sandbox abuse. Loopback only, bounded in time and requests.
//   npm run test:reliability
// Each suite records its figures (test/reliability/figures.ts); figures-reporter.js prints
// them as one table at the end and writes artifacts/reliability/figures.{json,md}.
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/reliability'],
	testMatch: ['**/*.reliability.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	// A guard against a hang, not a speed check: CI runs this suite beside e2e on 2 cores, where one
	// test of generated bad input once took over 5 minutes (a loaded machine, load average 23).
	testTimeout: 10 * 60 * 1000,
	// Two files at a time: the suite mostly waits on real back-offs and timeouts, and CI runs it
	// beside e2e, where one file at a time made it the run's tail (docs/development.md, fifth round).
	// Its pass/fail figures are counts; its load figures (sandbox abuse) are marked info.
	maxWorkers: 2,
	setupFilesAfterEnv: ['<rootDir>/test/reliability/loopback-only.ts'],
	reporters: ['default', '<rootDir>/test/reliability/figures-reporter.js'],
};
