/**
 * `.ci/run`'s closing line (scripts/ci-summary.js): the tests of every jest run summed from each
 * step's log. The logs in test/fixtures/ci-summary/ are real jest 29 output (a failed, skipped and
 * todo test; a suite that failed to run; no tests found; colours on; a run of this repository).
 * Then `.ci/run` itself, with a stand-in `npm` that prints those logs: the line comes last, also
 * when a step fails, and the exit status says whether anything failed.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseJestCounts, failedTests, summarize } = require('../../scripts/ci-summary');

const ROOT = path.resolve(__dirname, '../..');
const sample = (name: string) => readFileSync(path.join(ROOT, 'test/fixtures/ci-summary', `${name}.log`), 'utf8');
const CLOSING_LINE = /^\d+ passed, \d+ failed(, \d+ skipped)?$/;

describe("jest's Tests line", () => {
	it('reads failed, skipped, todo and passed, with or without colours', () => {
		const counts = { passed: 2, failed: 1, skipped: 1, todo: 1, total: 5, suitesFailedToRun: 0 };
		expect(parseJestCounts(sample('mixed'))).toEqual(counts);
		expect(parseJestCounts(sample('mixed-color'))).toEqual(counts);
		expect(parseJestCounts(sample('passing'))).toEqual({ passed: 2, failed: 0, skipped: 1, todo: 0, total: 3, suitesFailedToRun: 0 });
		expect(parseJestCounts(sample('repo'))).toMatchObject({ passed: 10, failed: 0, total: 10 });
	});

	it('counts the suites that failed to run, whose tests jest does not count', () => {
		expect(parseJestCounts(sample('broken'))).toMatchObject({ passed: 1, failed: 0, total: 1, suitesFailedToRun: 1 });
	});

	it('is none when jest printed none (no tests found, or it never ran)', () => {
		expect(parseJestCounts(sample('empty'))).toBeNull();
		expect(parseJestCounts('npm error Lifecycle script `lint` failed with error: 1')).toBeNull();
	});

	it('takes the last one, and only a whole jest summary line', () => {
		const text = `console.log\n    Tests: 3 of them\nTests:       9 failed, 9 total\n${sample('passing')}`;
		expect(parseJestCounts(text)).toMatchObject({ passed: 2, failed: 0, skipped: 1 });
	});
});

describe('the failed tests named', () => {
	it('each failed test once, with its file; not the passing ones, not console output', () => {
		expect(failedTests(sample('mixed'))).toEqual(['./a.test.js › fails']);
		expect(failedTests(sample('mixed-color'))).toEqual(['./a.test.js › fails']);
		expect(failedTests(sample('broken'))).toEqual(['./b.test.js › Test suite failed to run']);
		expect(failedTests(sample('passing'))).toEqual([]);
		const repeated = `${sample('mixed')}\nSummary of all failing tests\n${sample('mixed')}\nPASS ./c.test.js\n  ● Console\n\n    console.log\n      hello\n`;
		expect(failedTests(repeated)).toEqual(['./a.test.js › fails']);
	});

	it("under the step's line, at most 20, before the closing line", () => {
		const many = Array.from({ length: 25 }, (_, n) => `FAIL ./t${n}.test.js\n  ● group › case ${n}\n\n    boom\n`).join('\n');
		const { lines } = summarize([{ name: 'npm run test:e2e', log: `${many}\nTests:       25 failed, 25 total\n`, exit: 1 }]);
		expect(lines[0]).toBe('== npm run test:e2e: 0 passed, 25 failed (exit 1)');
		expect(lines.slice(1, 3)).toEqual(['==   failed: ./t0.test.js › group › case 0', '==   failed: ./t1.test.js › group › case 1']);
		expect(lines[20]).toBe('==   failed: ./t19.test.js › group › case 19');
		expect(lines[21]).toBe("==   and 5 more failed tests: the step's log above names them");
		expect(lines.at(-1)).toBe('0 passed, 25 failed');
	});
});

describe('the sum over the steps', () => {
	const step = (name: string, log: string, exit = 0) => ({ name, log, exit });

	it('sums every step, a todo as skipped, and says skipped only when some were', () => {
		const green = summarize([step('npm ci', 'added 1339 packages'), step('npm test', sample('passing')), step('npm run test:n8n1', sample('repo'))]);
		expect(green.lines.at(-1)).toBe('12 passed, 0 failed, 1 skipped');
		expect(green.exitCode).toBe(0);
		expect(green.lines[0]).toBe('== npm ci: no tests (exit 0)');
		expect(summarize([step('npm test', sample('repo'))]).lines.at(-1)).toBe('10 passed, 0 failed');
		const red = summarize([step('npm test', sample('mixed'), 1), step('npm run test:e2e', sample('repo'))]);
		expect(red.lines.at(-1)).toBe('12 passed, 1 failed, 2 skipped');
		expect(red.exitCode).toBe(1);
	});

	it('a suite that failed to run counts as failed: never "0 failed" of a red jest run', () => {
		const { lines, exitCode } = summarize([step('npm run test:queue', sample('broken'), 1)]);
		expect(lines.at(-1)).toBe('1 passed, 1 failed');
		expect(lines[0]).toContain('1 test suite failed to run');
		expect(exitCode).toBe(1);
	});

	it('a step that failed before jest printed its Tests line counts as 1 failed, and the steps after it as not run', () => {
		const { lines, exitCode } = summarize([step('npm ci', 'ok'), step('npm test', 'eslint: 3 problems\nnpm error code 1', 1)], {
			status: 1,
			planned: ['npm ci', 'npm test', 'npm run test:e2e'],
		});
		expect(lines).toEqual([
			'== npm ci: no tests (exit 0)',
			'== npm test: 0 passed, 1 failed (exit 1); exit 1 before jest printed its Tests line: counted as 1 failed',
			'== npm run test:e2e: not run (an earlier step failed)',
			'0 passed, 1 failed',
		]);
		expect(exitCode).toBe(1);
		// No tests found is a failure too (jest exits 1).
		expect(summarize([step('npm run test:e2e', sample('empty'), 1)]).lines.at(-1)).toBe('0 passed, 1 failed');
	});

	it('a step that exited non-zero with every test passed counts as 1 failed (a hook, a leak, a teardown)', () => {
		const { lines, exitCode } = summarize([step('npm run test:reliability', sample('passing'), 1)]);
		expect(lines.at(-1)).toBe('2 passed, 1 failed, 1 skipped');
		expect(exitCode).toBe(1);
	});

	it('.ci/run stopped outside its steps counts as 1 failed', () => {
		const { lines, exitCode } = summarize([step('npm ci', 'ok')], { status: 2 });
		expect(lines.at(-1)).toBe('0 passed, 1 failed');
		expect(exitCode).toBe(1);
	});
});

/** Whether process `pid` still runs (a zombie, ended but not yet reaped, does not). */
function isRunning(pid: number): boolean {
	try {
		return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
	} catch {
		return false;
	}
}

describe('.ci/run with a stand-in npm', () => {
	// Above the stand-in run's own hang guard (ciRun), for a loaded machine.
	jest.setTimeout(150_000);
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'lba-ci-run-'));
		mkdirSync(path.join(dir, 'bin'));
		mkdirSync(path.join(dir, 'npm'));
		// Starts a process in a session of its own when npm/<its arguments>.daemon exists (its pid
		// written there), sleeps npm/<its arguments>.sleep seconds, uses npm/<its arguments>.cpu
		// seconds of CPU, prints npm/<its arguments>.out and exits with npm/<its arguments>.exit (0
		// when missing).
		writeFileSync(
			path.join(dir, 'bin', 'npm'),
			`#!/usr/bin/env bash\nkey=$(printf '%s' "$*" | tr -c 'A-Za-z0-9.-' '_')\n[ ! -f "${dir}/npm/$key.daemon" ] || { setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >"${dir}/npm/$key.daemon"; }\n[ ! -f "${dir}/npm/$key.sleep" ] || sleep "$(cat "${dir}/npm/$key.sleep")"\n[ ! -f "${dir}/npm/$key.cpu" ] || "${process.execPath}" -e "const t = process.cpuUsage(); while (process.cpuUsage(t).user < $(cat "${dir}/npm/$key.cpu") * 1e6);"\n[ ! -f "${dir}/npm/$key.out" ] || cat "${dir}/npm/$key.out"\nexit "$(cat "${dir}/npm/$key.exit" 2>/dev/null || echo 0)"\n`,
		);
		chmodSync(path.join(dir, 'bin', 'npm'), 0o755);
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	function npmPrints(args: string, log: string, exit = 0) {
		const key = args.replace(/[^A-Za-z0-9.-]/g, '_');
		writeFileSync(path.join(dir, 'npm', `${key}.out`), log);
		writeFileSync(path.join(dir, 'npm', `${key}.exit`), String(exit));
	}
	function ciRun() {
		const run = spawnSync('bash', [path.join(ROOT, '.ci/run')], {
			env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, LBA_CI_LOGS: path.join(dir, 'logs') },
			encoding: 'utf8',
			// A hang guard (a stand-in run takes a second or two idle): wide, for a loaded machine.
			timeout: 120_000,
		});
		const lines = run.stdout.trimEnd().split('\n');
		return { status: run.status, lines, last: lines.at(-1), out: run.stdout + run.stderr };
	}

	it('every step green: the sum of the five jest runs, last, and exit 0', () => {
		npmPrints('test', sample('passing'));
		for (const suite of ['test:n8n1', 'test:reliability', 'test:queue', 'test:e2e']) npmPrints(`run ${suite}`, sample('repo'));
		const run = ciRun();
		expect(run.last).toBe('42 passed, 0 failed, 1 skipped');
		expect(run.last).toMatch(CLOSING_LINE);
		expect(run.status).toBe(0);
	});

	it('a failed test in one of the background suites: every other suite is still waited for and counted, the line comes, exit 1', () => {
		npmPrints('test', sample('passing'));
		npmPrints('run test:n8n1', sample('repo'));
		npmPrints('run test:reliability', sample('mixed'), 1);
		npmPrints('run test:queue', sample('repo'));
		npmPrints('run test:e2e', sample('repo'));
		writeFileSync(path.join(dir, 'npm', 'run_test_e2e.sleep'), '2'); // ends after the failed one
		writeFileSync(path.join(dir, 'npm', 'run_test_e2e.cpu'), '1.2');
		const run = ciRun();
		expect(run.last).toBe('34 passed, 1 failed, 3 skipped');
		expect(run.out).toContain('== npm run test:reliability FAILED (exit 1)');
		// Each background suite's wall time, the CPU time its processes used, and when it began and ended.
		expect(run.out).toMatch(/^== npm run test:e2e passed in \d+ s, [1-9] s of CPU \(began at \d+ s, ended at \d+ s\)$/m);
		expect(run.out).toContain('== npm run test:e2e: 10 passed, 0 failed (exit 0)');
		expect(run.out).toContain('== npm run test:queue: 10 passed, 0 failed (exit 0)');
		expect(run.status).toBe(1);
	});

	it('npm test failing while the queue suite runs: it is stopped and named as not run, as are the suites that never began, exit 1', () => {
		npmPrints('test', sample('mixed'), 1);
		npmPrints('run test:queue', sample('repo'));
		writeFileSync(path.join(dir, 'npm', 'run_test_queue.sleep'), '100');
		// A process that left the suite's process group, as n8n, PostgreSQL and Redis do.
		writeFileSync(path.join(dir, 'npm', 'run_test_queue.daemon'), '');
		const started = Date.now();
		const run = ciRun();
		expect(Date.now() - started).toBeLessThan(60_000); // stopped, not waited for (100 s)
		const daemon = Number(readFileSync(path.join(dir, 'npm', 'run_test_queue.daemon'), 'utf8'));
		expect(daemon).toBeGreaterThan(1);
		expect(isRunning(daemon)).toBe(false);
		expect(run.last).toBe('2 passed, 1 failed, 2 skipped');
		for (const suite of ['queue', 'n8n1', 'reliability', 'e2e']) expect(run.out).toContain(`== npm run test:${suite}: not run (an earlier step failed)`);
		expect(run.status).toBe(1);
	});

	it('npm test failing after the queue suite ended: the queue suite is counted, exit 1', () => {
		npmPrints('test', sample('mixed'), 1);
		writeFileSync(path.join(dir, 'npm', 'test.sleep'), '2');
		npmPrints('run test:queue', sample('repo'));
		const run = ciRun();
		expect(run.last).toBe('12 passed, 1 failed, 2 skipped');
		expect(run.out).toContain('== npm run test:queue: 10 passed, 0 failed (exit 0)');
		expect(run.status).toBe(1);
	});

	it('npm test failing at lint, before jest: counted as 1 failed, exit non-zero', () => {
		npmPrints('test', '/repo/nodes/x.ts\n  1:1  error  no-console\n✖ 1 problem\n', 1);
		const run = ciRun();
		expect(run.last).toBe('0 passed, 1 failed');
		expect(run.out).toContain('== npm test FAILED (exit 1) after');
		expect(run.status).not.toBe(0);
	});
});
