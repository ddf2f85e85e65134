#!/usr/bin/env node
'use strict';
// The closing line of `.ci/run`: the tests of every jest run it made, summed from each step's log.
//
//   node scripts/ci-summary.js --steps <steps.tsv> [--status <.ci/run's exit status>] [--planned <step>]...
//
// <steps.tsv> has one line per step that ran: `<name>\t<log file>\t<exit status>`. Each log's
// jest summary line ("Tests:       1 failed, 1 skipped, 1 todo, 67 passed, 70 total") gives that
// step's counts; a todo counts as skipped. Whatever failed without a failed test to show for it
// still counts, so that the closing line never says "0 failed" of a run that failed:
//   - a suite that could not run ("● Test suite failed to run": a syntax error, a throwing import or
//     hook) counts as 1 failed, as jest counts none of its tests;
//   - a step that exited non-zero with no failed test counted (lint, the scan, an install, jest
//     ending before its summary) counts as 1 failed;
//   - `.ci/run` stopped non-zero outside any step counts as 1 failed.
// It prints a line per step (and the planned steps that never ran), under a step's line the tests
// that failed in it (file and name, at most 20: a CI log cut in the middle still names them), then,
// alone on the last line, `N passed, N failed` (`, N skipped` when some were), and exits 1 when
// anything failed.
const fs = require('node:fs');
const { parseArgs } = require('node:util');

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const TESTS_LINE = /^\s*Tests:\s+((?:\d+ [a-z]+, )*\d+ total)\s*$/;
const SUITE_FAILED_TO_RUN = /^\s*● Test suite failed to run\s*$/;
const SUITE_RESULT = /^\s*(?:PASS|FAIL)\s+(\S+)/;
// A failure's heading, "  ● <describe> › <test>" (jest's "● Console" heads console output).
const FAILURE_HEADING = /^ {2}● (.+?)\s*$/;
const FAILED_SHOWN = 20;

/** The failed tests in `text` (one jest run's output), each `<file> › <name>` once, in order. */
function failedTests(text) {
	const failed = new Set();
	let file = '';
	for (const raw of text.split(/\r?\n/)) {
		const line = raw.replace(ANSI, '');
		const suite = SUITE_RESULT.exec(line);
		if (suite) file = suite[1];
		const heading = FAILURE_HEADING.exec(line);
		if (heading && heading[1] !== 'Console') failed.add(`${file} › ${heading[1]}`);
	}
	return [...failed];
}

/**
 * The counts of jest's last "Tests:" line in `text` (one jest run's output), or null when jest
 * printed none. `suitesFailedToRun` counts jest's "● Test suite failed to run" reports.
 */
function parseJestCounts(text) {
	let last = null;
	let suitesFailedToRun = 0;
	for (const raw of text.split(/\r?\n/)) {
		const line = raw.replace(ANSI, '');
		if (SUITE_FAILED_TO_RUN.test(line)) suitesFailedToRun++;
		const match = TESTS_LINE.exec(line);
		if (match) last = match[1];
	}
	if (last === null) return null;
	const counts = { passed: 0, failed: 0, skipped: 0, todo: 0, total: 0, suitesFailedToRun };
	for (const part of last.split(', ')) {
		const [number, word] = part.split(' ');
		if (word in counts) counts[word] += Number(number);
	}
	return counts;
}

/** `N passed, N failed`, with `, N skipped` when some were. */
function closingLine({ passed, failed, skipped }) {
	return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

/**
 * Sums the steps ({ name, log: text, exit: number }) of one `.ci/run`. `status` is `.ci/run`'s own
 * exit status; `planned` the steps it meant to run. Returns the lines to print (the closing line
 * last) and the exit code.
 */
function summarize(steps, { status = 0, planned = [] } = {}) {
	const totals = { passed: 0, failed: 0, skipped: 0 };
	const lines = [];
	for (const step of steps) {
		const counts = parseJestCounts(step.log);
		let passed = 0;
		let failed = 0;
		let skipped = 0;
		const notes = [];
		if (counts) {
			passed = counts.passed;
			skipped = counts.skipped + counts.todo;
			failed = counts.failed + counts.suitesFailedToRun;
			if (counts.suitesFailedToRun) {
				notes.push(`${counts.suitesFailedToRun} test suite${counts.suitesFailedToRun === 1 ? '' : 's'} failed to run, counted as 1 failed each`);
			}
			if (counts.passed + counts.failed + counts.skipped + counts.todo !== counts.total) {
				notes.push(`jest's counts do not add up to its total of ${counts.total}`);
			}
		}
		if (step.exit !== 0 && failed === 0) {
			failed = 1;
			notes.push(counts ? `exit ${step.exit} with no failed test: counted as 1 failed` : `exit ${step.exit} before jest printed its Tests line: counted as 1 failed`);
		}
		totals.passed += passed;
		totals.failed += failed;
		totals.skipped += skipped;
		const what = counts || failed ? closingLine({ passed, failed, skipped }) : 'no tests';
		lines.push(`== ${step.name}: ${what} (exit ${step.exit})${notes.length ? `; ${notes.join('; ')}` : ''}`);
		const names = failedTests(step.log);
		for (const name of names.slice(0, FAILED_SHOWN)) lines.push(`==   failed: ${name}`);
		if (names.length > FAILED_SHOWN) lines.push(`==   and ${names.length - FAILED_SHOWN} more failed tests: the step's log above names them`);
	}
	const ran = new Set(steps.map((step) => step.name));
	for (const name of planned) if (!ran.has(name)) lines.push(`== ${name}: not run (an earlier step failed)`);
	if (status !== 0 && !steps.some((step) => step.exit !== 0)) {
		totals.failed += 1;
		lines.push(`== .ci/run stopped with exit ${status} outside its steps: counted as 1 failed`);
	}
	lines.push(closingLine(totals));
	return { lines, totals, exitCode: totals.failed > 0 ? 1 : 0 };
}

/** The steps recorded in a steps file, each with its log's text (empty when the log is missing). */
function readSteps(file) {
	if (!fs.existsSync(file)) return [];
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const [name, log, exit] = line.split('\t');
			return { name, log: log && fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '', exit: Number(exit) };
		});
}

if (require.main === module) {
	const { values } = parseArgs({
		options: { steps: { type: 'string' }, status: { type: 'string', default: '0' }, planned: { type: 'string', multiple: true, default: [] } },
	});
	const { lines, exitCode } = summarize(readSteps(values.steps), { status: Number(values.status), planned: values.planned });
	process.stdout.write(`${lines.join('\n')}\n`);
	process.exitCode = exitCode;
}

module.exports = { parseJestCounts, failedTests, summarize, closingLine, readSteps };
