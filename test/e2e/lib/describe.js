'use strict';
// The switch that keeps the slow suites out of a plain `jest` run: `describe` when the suite's
// environment variable is '1' (test/e2e/setup-env.js sets LBA_E2E, test/queue/setup-env.js
// LBA_QUEUE), else `describe.skip`, so the suite is listed as skipped.

/** `describe` when `process.env[variable] === '1'`, else `describe.skip`. Jest only. */
function describeWhen(variable) {
	return process.env[variable] === '1' ? describe : describe.skip;
}

module.exports = {
	describeWhen,
	// Outside Jest (scripts/demo.js loads this library too) there is no `describe`.
	describeE2E: typeof describe === 'function' ? describeWhen('LBA_E2E') : undefined,
};
