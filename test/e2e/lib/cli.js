'use strict';
// The real n8n CLI against a temp N8N_USER_FOLDER: import credentials/workflows and
// `n8n execute --id <id> --rawOutput`, judged by n8n's own record of the execution (its database).
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { node24Env, n8nBin, freePort } = require('./env');
const { anyHourOfDay } = require('./night');

/**
 * Environment for any n8n process (CLI or server) on a user folder: SQLite, quiet,
 * nothing phoning home. `extra` wins.
 */
function n8nEnv(userFolder, extra = {}) {
	const dir = typeof userFolder === 'string' ? userFolder : userFolder.dir;
	return node24Env({
		N8N_USER_FOLDER: dir,
		DB_TYPE: 'sqlite',
		// No GENERIC_TIMEZONE: n8n's own default zone (America/New_York), as a marketer's n8n has it
		// (issue 61). A suite that means another passes it in `extra`.
		TZ: 'UTC',
		N8N_LOG_LEVEL: 'warn',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		// No Python venv here; the JS task runner is enough (the Code node in JS still works).
		N8N_PYTHON_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Community packages are installed by us; n8n must not try to (re)install from a registry.
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		// A local SQLite file that misses n8n's 5 s database ping only means a loaded machine, and
		// n8n then answers every request "Database is not ready!" (server.js, isDatabaseNotReady):
		// 30 s here. PostgreSQL (the queue suite) keeps n8n's default: its outages are tested there.
		...((extra.DB_TYPE || 'sqlite') === 'sqlite' ? { DB_PING_TIMEOUT_MS: '30000' } : {}),
		...extra,
	});
}

/**
 * Run `n8n <args>` to completion.
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 *   never rejects on an exit code or a signal; rejects on a timeout (we killed it) or a spawn failure
 */
async function runN8n(userFolder, args, { env = {}, timeoutMs = 180000 } = {}) {
	// `n8n execute` starts a task-runner broker too (default port 5679): give every run its
	// own free port so parallel runs and a running n8n elsewhere do not collide.
	const brokerPort = String(await freePort());
	return new Promise((resolve, reject) => {
		execFile(
			n8nBin(),
			args,
			{
				env: n8nEnv(userFolder, {
					N8N_RUNNERS_BROKER_PORT: brokerPort,
					N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
					...env,
				}),
				cwd: typeof userFolder === 'string' ? userFolder : userFolder.dir,
				encoding: 'utf8',
				timeout: timeoutMs,
				maxBuffer: 64 * 1024 * 1024,
			},
			(err, stdout, stderr) => {
				if (err && typeof err.code !== 'number') {
					// `n8n execute` has twice (under load) ended by a signal after printing a failed run in
					// full; the output still tells what happened. A timeout (we killed it) stays an error.
					if (err.signal && !err.killed) return resolve({ code: null, signal: err.signal, stdout, stderr });
					err.message = `n8n ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`;
					return reject(err);
				}
				resolve({ code: err ? err.code : 0, signal: null, stdout, stderr });
			},
		);
	});
}

/** How the process ended: "exit code 1", "signal SIGSEGV". */
function howItEnded({ code, signal }) {
	return signal ? `signal ${signal} (no exit code)` : `exit code ${code}`;
}

/** The last `chars` characters of a stream, said as such. */
function tail(name, text, chars = 3000) {
	const body = text.length > chars ? `…${text.slice(-chars)}` : text;
	return `--- ${name} (${text.length > chars ? `last ${chars} of ${text.length} characters` : text.length ? 'all of it' : 'empty'})\n${body}`;
}

async function runN8nOk(userFolder, args, opts) {
	const res = await runN8n(userFolder, args, opts);
	if (res.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} ended with ${howItEnded(res)}\n${tail('stdout', res.stdout)}\n${tail('stderr', res.stderr)}`);
	}
	return res;
}

function writeInput(userFolder, name, data) {
	const dir = path.join(typeof userFolder === 'string' ? userFolder : userFolder.dir, 'inputs');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/**
 * `n8n import:credentials --input=<file>`. `credentials` is an array of
 * `{ id, name, type, data: {...plain fields} }` (plain `data` objects are encrypted by n8n
 * with the user folder's key), or a path to such a JSON file.
 */
async function importCredentials(userFolder, credentials) {
	const file = typeof credentials === 'string' ? credentials : writeInput(userFolder, `credentials-${Date.now()}.json`, credentials);
	return runN8nOk(userFolder, ['import:credentials', `--input=${file}`]);
}

/**
 * `n8n import:workflow --input=<file>`. `workflow` is a workflow object (it needs an `id`
 * to be executed with --id later), an array of them, or a path to a JSON file.
 */
async function importWorkflow(userFolder, workflow) {
	// A file (an example) is imported as a user imports it, but for night.js's option.
	const data = anyHourOfDay(typeof workflow === 'string' ? JSON.parse(fs.readFileSync(workflow, 'utf8')) : workflow);
	const file = writeInput(userFolder, `workflow-${Date.now()}.json`, data);
	return runN8nOk(userFolder, ['import:workflow', `--input=${file}`]);
}

/** Parse the JSON document printed by `n8n execute --rawOutput` (ignores any log lines around it). */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start] !== '{') continue;
		for (let end = lines.length; end > start; end--) {
			if (lines[end - 1] !== '}') continue;
			try {
				return JSON.parse(lines.slice(start, end).join('\n'));
			} catch {
				// keep looking
			}
		}
	}
	throw new Error(`no JSON document in n8n output:\n${stdout}`);
}

// n8n's own record of executions: the user folder's SQLite database, read by a child process on the
// Node that runs n8n, with n8n's own sqlite3 (built for that Node) and flatted (execution data is
// stored flatted-encoded). argv: modules folder, database, then `last` (the newest execution's id,
// 0 when none) or `since <afterId> <workflowId>` (that workflow's executions after that id, with data).
const READ_RECORDS = `
const [modules, file, what, afterId, workflowId] = process.argv.slice(1);
const sqlite3 = require(modules + '/sqlite3');
const flatted = require(modules + '/flatted');
const fail = (error) => { process.stderr.write(String((error && error.stack) || error)); process.exit(1); };
const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => { if (error) fail(error); });
const answer = (value) => { process.stdout.write(JSON.stringify(value)); db.close(); };
if (what === 'last') {
	db.get('SELECT MAX(id) AS id FROM execution_entity', (error, row) => (error ? fail(error) : answer(Number((row && row.id) || 0))));
} else {
	db.all(
		'SELECT e.id, e.workflowId, e.status, e.finished, e.mode, e.startedAt, e.stoppedAt, d.data FROM execution_entity e' +
			' LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.id > ? AND e.workflowId = ? ORDER BY e.id',
		[Number(afterId), workflowId],
		(error, rows) => {
			if (error) return fail(error);
			answer(rows.map(({ data, ...row }) => {
				let decoded = null;
				try { decoded = data ? flatted.parse(data) : null; } catch { /* not decodable: null */ }
				return { ...row, id: Number(row.id), finished: Boolean(row.finished), data: decoded };
			}));
		},
	);
}
`;

async function readRecords(userFolder, args) {
	const dir = typeof userFolder === 'string' ? userFolder : userFolder.dir;
	const database = path.join(dir, '.n8n', 'database.sqlite');
	if (!fs.existsSync(database)) return null;
	const modules = path.resolve(path.dirname(n8nBin()), '..');
	return await new Promise((resolve, reject) => {
		execFile(
			'node',
			['-e', READ_RECORDS, modules, database, ...args],
			{ env: n8nEnv(userFolder), encoding: 'utf8', timeout: 60000, maxBuffer: 256 * 1024 * 1024 },
			(err, stdout, stderr) => {
				if (err) return reject(new Error(`could not read n8n's executions from ${database}: ${err.message}\n${stderr}`));
				resolve(JSON.parse(stdout));
			},
		);
	});
}

/** The id of the newest execution n8n recorded in this user folder (0 when none, or no database yet). */
async function lastExecutionId(userFolder) {
	return (await readRecords(userFolder, ['last'])) || 0;
}

/**
 * n8n's record of workflow `workflowId`'s executions with an id above `afterId`, oldest first:
 * `{ id, workflowId, status, finished, mode, startedAt, stoppedAt, data }`, `data` the decoded
 * IRunExecutionData (null when n8n kept none).
 */
async function executionRecords(userFolder, workflowId, afterId = 0) {
	return (await readRecords(userFolder, ['since', String(afterId), workflowId])) || [];
}

/**
 * The verdict on one `n8n execute` of workflow `id`: n8n's record of the execution (`record`, its
 * row, or null when n8n recorded none) decides; `res` is how the CLI ended (`code`, `signal`,
 * `stdout`, `stderr`), `error` the execution error it printed. `failure` says all of it.
 */
function judgeExecution(id, record, res, error) {
	const ok = Boolean(record && record.status === 'success');
	const said = record
		? `n8n's record: execution ${record.id} of workflow ${id}, status "${record.status}" (mode ${record.mode}, ${record.startedAt} to ${record.stoppedAt})`
		: `n8n's record: no execution of workflow ${id} recorded by this run`;
	const failure = [
		`n8n execute --id=${id}: ${ok ? 'succeeded' : 'failed'} by ${said}; the CLI ended with ${howItEnded(res)}`,
		`execution error: ${error ? JSON.stringify({ message: error.message, description: error.description, node: error.node && error.node.name }) : 'none'}`,
		tail('stderr', res.stderr),
		tail('stdout', res.stdout, 2000),
	].join('\n');
	return { ok, failure };
}

/**
 * `n8n execute --id <id> --rawOutput`, judged by **n8n's own record of the execution** (its row in
 * the database: `status`), not by the CLI's exit code: `n8n execute` has exited non-zero after a
 * run its record says succeeded. Resolves with `{ ok, record, code, signal, run, error, output(),
 * failure, stdout, stderr }`:
 * - `ok`: n8n recorded the execution with status `success`;
 * - `record`: that execution's row (`{ id, status, mode, finished, startedAt, stoppedAt }`), null
 *   when n8n recorded none;
 * - `code`, `signal`: how the CLI ended;
 * - `run`: n8n's IRun as the CLI printed it (else built from the record's data):
 *   `run.data.resultData.runData[node][i].data.main[0]` holds the items; `output()` returns the json
 *   of a node's first output; `error` is the execution error if any;
 * - `failure`: everything needed to tell why it is not ok (or why the CLI and the record disagree):
 *   the record, the exit code and signal, the execution error, the tails of stderr and stdout.
 *   Throw it: `if (!res.ok) throw new Error(res.failure)`.
 * When the record says success but the CLI did not exit 0, the run counts as a success and that
 * is said on the test's output (console.warn), with the same details.
 */
async function executeWorkflow(userFolder, id, opts) {
	const before = await lastExecutionId(userFolder);
	// n8n prints the run JSON through its logger at level info, so info must be on.
	const res = await runN8n(userFolder, ['execute', `--id=${id}`, '--rawOutput'], {
		...opts,
		env: { N8N_LOG_LEVEL: 'info', ...((opts && opts.env) || {}) },
	});
	// The execution this CLI made: the newest of this workflow since (one, unless something else ran it too).
	const records = await executionRecords(userFolder, id, before);
	const latest = records.filter((r) => r.mode === 'cli').pop() || records.pop() || null;
	const record = latest && { id: latest.id, status: latest.status, mode: latest.mode, finished: latest.finished, startedAt: latest.startedAt, stoppedAt: latest.stoppedAt };
	let run = null;
	try {
		run = parseRawOutput(res.stdout);
	} catch {
		// The CLI printed no run (it printed an error, or ended first): the record's data stands in.
		if (latest && latest.data) run = { data: latest.data, mode: latest.mode, status: latest.status };
	}
	const error = (run && run.data && run.data.resultData && run.data.resultData.error) || null;
	const output = (nodeName, runIndex = 0) => {
		const runData = run && run.data && run.data.resultData && run.data.resultData.runData;
		const nodeRuns = runData && runData[nodeName];
		if (!nodeRuns || !nodeRuns[runIndex]) {
			throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(runData || {}).join(', ')}`);
		}
		const main = (nodeRuns[runIndex].data && nodeRuns[runIndex].data.main) || [];
		return (main[0] || []).map((item) => item.json);
	};
	const { ok, failure } = judgeExecution(id, record, res, error);
	if (ok && res.code !== 0) console.warn(`n8n's record and its CLI disagree; the record counts.\n${failure}`);
	return { ok, record, code: res.code, signal: res.signal, run, error, output, failure, stdout: res.stdout, stderr: res.stderr };
}

module.exports = {
	n8nEnv,
	runN8n,
	runN8nOk,
	importCredentials,
	importWorkflow,
	executeWorkflow,
	executionRecords,
	judgeExecution,
	lastExecutionId,
	parseRawOutput,
};
