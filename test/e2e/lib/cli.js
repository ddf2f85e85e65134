'use strict';
// The real n8n CLI against a temp N8N_USER_FOLDER: import credentials/workflows and
// `n8n execute --id <id> --rawOutput` with its JSON parsed.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { node24Env, n8nBin, freePort } = require('./env');

/**
 * Environment for any n8n process (CLI or server) on a user folder: SQLite, quiet,
 * nothing phoning home. `extra` wins.
 */
function n8nEnv(userFolder, extra = {}) {
	const dir = typeof userFolder === 'string' ? userFolder : userFolder.dir;
	return node24Env({
		N8N_USER_FOLDER: dir,
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
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
		...extra,
	});
}

/**
 * Run `n8n <args>` to completion.
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>} never rejects on exit code
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
					if (err.signal && !err.killed) return resolve({ code: err.signal, stdout, stderr });
					err.message = `n8n ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`;
					return reject(err);
				}
				resolve({ code: err ? err.code : 0, stdout, stderr });
			},
		);
	});
}

async function runN8nOk(userFolder, args, opts) {
	const res = await runN8n(userFolder, args, opts);
	if (res.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} exited ${res.code}\n--- stdout\n${res.stdout}\n--- stderr\n${res.stderr}`);
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
	const file = typeof workflow === 'string' ? workflow : writeInput(userFolder, `workflow-${Date.now()}.json`, workflow);
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

/**
 * `n8n execute --id <id> --rawOutput`, parsed. Resolves with
 * `{ ok, code, run, error, output(nodeName, runIndex=0), stdout, stderr }` where `run` is n8n's
 * IRun (`run.data.resultData.runData[node][i].data.main[0]` holds the items), `output()`
 * returns the json of a node's first output, and `error` is the execution error if any.
 */
async function executeWorkflow(userFolder, id, opts) {
	// n8n prints the run JSON through its logger at level info, so info must be on.
	const res = await runN8n(userFolder, ['execute', `--id=${id}`, '--rawOutput'], {
		...opts,
		env: { N8N_LOG_LEVEL: 'info', ...((opts && opts.env) || {}) },
	});
	let run = null;
	try {
		run = parseRawOutput(res.stdout);
	} catch (err) {
		if (res.code === 0) throw err;
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
	return { ok: res.code === 0 && !error, code: res.code, run, error, output, stdout: res.stdout, stderr: res.stderr };
}

module.exports = {
	n8nEnv,
	runN8n,
	runN8nOk,
	importCredentials,
	importWorkflow,
	executeWorkflow,
	parseRawOutput,
};
