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
	// Two files at a time: most of the suite waits on real back-offs and timeouts (one at a time, it
	// was CI's tail by a minute). The one run that failed with two at a time (2026-11-27,
	// sandbox-abuse's 200 clients beside reruns) failed on reruns' 300 ms timeout in its judging run
	// and on the load's 10 s one: the judging run now has the node's default, the load 60 s.
	maxWorkers: 2,
	setupFilesAfterEnv: ['<rootDir>/test/reliability/loopback-only.ts'],
	reporters: ['default', '<rootDir>/test/reliability/figures-reporter.js'],
};
