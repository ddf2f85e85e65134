/**
 * The verdict on an `n8n execute` (lib/cli.js, judgeExecution): n8n's record of the execution
 * decides, not the CLI's exit code, and a failure says the record, how the CLI ended (exit code,
 * signal) and the tail of its stderr. CI once failed with "execute failed: null" after a run
 * whose record said success: `n8n execute` had exited non-zero, and nothing said how.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { judgeExecution } = require('./cli');

const record = (status: string) => ({ id: 7, status, mode: 'cli', finished: status === 'success', startedAt: '2020-11-26 10:00:00.000', stoppedAt: '2020-11-26 10:00:02.000' });
const ended = (code: number | null, signal: string | null, stderr = '', stdout = '{ "status": "success" }') => ({ code, signal, stderr, stdout });

describe("an n8n execute judged by n8n's record of the execution", () => {
	it('a run recorded as success is a success, whatever the CLI exited with; the disagreement is said', () => {
		expect(judgeExecution('wf1', record('success'), ended(0, null), null).ok).toBe(true);
		const { ok, failure } = judgeExecution('wf1', record('success'), ended(1, null, 'Error: SQLITE_BUSY: database is locked\n'), null);
		expect(ok).toBe(true);
		expect(failure).toContain('succeeded by n8n\'s record: execution 7 of workflow wf1, status "success"');
		expect(failure).toContain('the CLI ended with exit code 1');
		expect(failure).toContain('SQLITE_BUSY: database is locked');
		expect(judgeExecution('wf1', record('success'), ended(null, 'SIGSEGV'), null).ok).toBe(true);
	});

	it('a run recorded as an error fails, even when the CLI exited 0, and says the error', () => {
		const { ok, failure } = judgeExecution('wf1', record('error'), ended(0, null), { message: 'boom [line 1]', description: null, node: { name: 'Code' } });
		expect(ok).toBe(false);
		expect(failure).toContain('failed by n8n\'s record: execution 7 of workflow wf1, status "error"');
		expect(failure).toContain('execution error: {"message":"boom [line 1]","description":null,"node":"Code"}');
	});

	it('no record (the CLI refused the workflow, or died before n8n recorded it) fails, with the exit code or signal and the stderr tail', () => {
		const stderr = `${'x'.repeat(5000)}\nFATAL: the task runner broker could not listen on 5679`;
		const { ok, failure } = judgeExecution('wf2', null, ended(null, 'SIGABRT', stderr, ''), null);
		expect(ok).toBe(false);
		expect(failure).toContain("n8n's record: no execution of workflow wf2 recorded by this run");
		expect(failure).toContain('the CLI ended with signal SIGABRT (no exit code)');
		expect(failure).toContain(`--- stderr (last 3000 of ${stderr.length} characters)`);
		expect(failure).toContain('FATAL: the task runner broker could not listen on 5679');
		expect(failure).toContain('--- stdout (empty)');
		expect(judgeExecution('wf2', null, ended(0, null), null).ok).toBe(false);
	});
});
