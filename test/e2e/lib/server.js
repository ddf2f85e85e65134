'use strict';
// `n8n start` on random free ports, /healthz wait, owner setup + login through n8n's
// internal REST API (the one the editor uses), and a cookie-keeping REST client.
//
// Endpoints (n8n 2.40.7, read from packages/cli sources and checked live):
//   GET  /healthz                        -> {"status":"ok"} (no auth)
//   GET  /healthz/readiness              -> 200 once the database is connected and migrated and start-up done, else 503
//   POST /rest/owner/setup               {email, firstName, lastName, password} (skipAuth; sets cookie n8n-auth)
//   POST /rest/login                     {emailOrLdapLoginId, password} (sets cookie n8n-auth)
//   GET  /rest/login                     current user (auth)
//   POST /rest/credentials/test          {credentials: {id, name, type, data}} -> {status: 'OK'|'Error', message}
//                                        (id required: a saved credential's id, whose stored data is merged
//                                        under `data`; or '' to test unsaved data, owner/admin only)
//   POST /rest/workflows/:id/run         {triggerToStartFrom: {name}} -> {executionId} (editor's "Execute workflow")
//   GET  /rest/credentials/:id?includeData=true  credential with data, secrets redacted (auth)
//   GET  /rest/executions/:id            execution; `data` is flatted-encoded (auth)
//   GET  /types/nodes.json               node descriptions incl. community ones and their iconUrl
// All responses are wrapped as {data: ...}. The auth cookie's JWT binds a `browser-id`
// header when one is sent at login; this client sends the same one on every request.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { n8nBin, freePort } = require('./env');

/** n8n's own copy of `flatted` (execution data is stored flatted-encoded). */
function flattedParse(text) {
	const nodeModules = path.resolve(path.dirname(n8nBin()), '..');
	return require(path.join(nodeModules, 'flatted')).parse(text);
}
const { n8nEnv } = require('./cli');
const { anyHourOfDay } = require('./night');

const DEFAULT_OWNER = {
	email: 'owner@e2e.example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Passw0rd-Owner',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Start `n8n start` on 127.0.0.1 with `port` or a random free port (and a random task-runner broker
 * port, so parallel instances do not collide). Resolves once GET /healthz answers 200 and
 * the REST API is up. Logs go to `<userFolder>/n8n.log` (also `instance.logs()`).
 * @returns {Promise<N8nInstance>}
 */
async function startN8n(userFolder, options = {}) {
	// A port picked free can be taken by another suite's process before n8n binds it (suites run
	// three at a time): n8n then exits at start, "port … is already in use". New ports, up to 3 tries.
	for (let attempt = 1; ; attempt++) {
		try {
			return await startN8nOnce(userFolder, options);
		} catch (error) {
			if (attempt >= 3 || !/n8n exited early[\s\S]*is already in use/.test(String(error.message))) throw error;
		}
	}
}

async function startN8nOnce(userFolder, { env = {}, timeoutMs = 180000, port: wantedPort, worker, hostname } = {}) {
	const dir = typeof userFolder === 'string' ? userFolder : userFolder.dir;
	const port = wantedPort || (await freePort());
	const brokerPort = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const logFile = path.join(dir, 'n8n.log');
	const log = fs.createWriteStream(logFile, { flags: 'a' });
	const childEnv = n8nEnv(dir, {
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		WEBHOOK_URL: `${baseUrl}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_LOG_LEVEL: 'info',
		...env,
	});
	const started = Date.now();
	// `worker: { concurrency }` starts `n8n worker` instead (queue mode), whose only HTTP server is
	// its health check, put on `port`. `hostname` runs it in its own UTS namespace with that host
	// name, which n8n reports as the worker's id.
	const args = worker ? ['worker', `--concurrency=${worker.concurrency || 10}`] : ['start'];
	if (worker) Object.assign(childEnv, { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) });
	const [file, argv] = hostname
		? ['unshare', ['--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', hostname, n8nBin(), ...args]]
		: [n8nBin(), args];
	const child = spawn(file, argv, {
		cwd: dir,
		env: childEnv,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true, // own process group: stop() can signal n8n and its task runner together
	});
	let output = '';
	const collect = (chunk) => {
		output += chunk;
		if (output.length > 2_000_000) output = output.slice(-1_000_000);
		log.write(chunk);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			log.end();
			resolve(exited);
		});
	});

	const instance = {
		baseUrl,
		port,
		brokerPort,
		pid: child.pid,
		userFolder: dir,
		logFile,
		logs: () => output,
		/** `{ code, signal }` once the process has exited, else null. */
		exited: () => exited,
		/** Stop n8n (SIGTERM to its process group, SIGKILL after graceMs). */
		async stop(graceMs = 20000) {
			if (exited) return exited;
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				/* already gone */
			}
			const timer = setTimeout(() => {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {
					/* already gone */
				}
			}, graceMs);
			const res = await exitPromise;
			clearTimeout(timer);
			return res;
		},
	};

	// Wait for /healthz and /healthz/readiness, then for the REST API (settings) to answer.
	while (true) {
		if (exited) {
			throw new Error(`n8n exited early (${JSON.stringify(exited)}); log ${logFile}:\n${output.slice(-4000)}`);
		}
		if (Date.now() - started > timeoutMs) {
			await instance.stop(2000);
			throw new Error(`n8n did not become healthy within ${timeoutMs} ms; log ${logFile}:\n${output.slice(-4000)}`);
		}
		try {
			if (worker) {
				if ((await fetch(`${baseUrl}/healthz/readiness`)).ok) break;
				throw new Error('worker not ready');
			}
			const health = await fetch(`${baseUrl}/healthz`);
			// n8n's own notion of ready: database connected and migrated, start-up done (503 until
			// then; an n8n without the endpoint answers 404).
			const readiness = health.ok ? await fetch(`${baseUrl}/healthz/readiness`) : health;
			if (readiness.ok || readiness.status === 404) {
				const settings = await fetch(`${baseUrl}/rest/settings`);
				// /healthz and /rest/settings answer ~2 s before the rest: until then other routes
				// (workflow runs, /types/nodes.json) answer 200 "n8n is starting up. Please wait".
				const probe = settings.ok ? await (await fetch(`${baseUrl}/types/nodes.json`)).text() : 'n8n is starting up';
				if (!probe.startsWith('n8n is starting up')) break;
			}
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	instance.startupMs = Date.now() - started;
	return instance;
}

/**
 * n8n's answer while its last database ping failed: a middleware placed before every route answers
 * 503 "Database is not ready!" (abstract-server.js in n8n 2.40.7; test/e2e/README.md, "Things n8n
 * 2.40.7 does that the tests rely on"). A loaded machine can cause it with nothing wrong.
 */
function isDatabaseNotReady(res) {
	return res.status === 503 && res.body && typeof res.body === 'object' && res.body.message === 'Database is not ready!';
}

/**
 * A small REST client for n8n's internal API that keeps the `n8n-auth` cookie and sends a
 * constant `browser-id` header (the JWT is bound to it).
 */
class N8nRest {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookies = new Map();
		this.browserId = crypto.randomUUID();
	}

	get cookieHeader() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
	}

	/** Cookies in the shape Playwright's `context.addCookies` wants. */
	playwrightCookies() {
		const { hostname } = new URL(this.baseUrl);
		return [...this.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }));
	}

	/**
	 * @returns {Promise<{ status: number, body: any, headers: Headers }>} body is the parsed
	 * JSON (n8n's `{data}` wrapper kept) or text.
	 */
	async request(method, urlPath, body, options = {}) {
		// n8n's "Database is not ready!" comes before any route ran (isDatabaseNotReady): the request
		// did nothing, so it is sent again, for up to 60 s.
		const started = Date.now();
		while (true) {
			const res = await this.requestOnce(method, urlPath, body, options);
			if (!isDatabaseNotReady(res) || Date.now() - started > 60000) return res;
			await sleep(500);
		}
	}

	async requestOnce(method, urlPath, body, { headers = {} } = {}) {
		const res = await fetch(this.baseUrl + urlPath, {
			method,
			headers: {
				accept: 'application/json',
				// A connection per request: a kept-alive socket that n8n closed (its 5 s keep-alive) while
				// this process was stalled on a loaded machine failed calls with "other side closed" (load 23).
				connection: 'close',
				'browser-id': this.browserId,
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
				...headers,
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		for (const c of res.headers.getSetCookie()) {
			const [pair] = c.split(';');
			const eq = pair.indexOf('=');
			const name = pair.slice(0, eq).trim();
			const value = pair.slice(eq + 1).trim();
			if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		const text = await res.text();
		let parsed = text;
		try {
			parsed = text ? JSON.parse(text) : null;
		} catch {
			/* not JSON */
		}
		return { status: res.status, body: parsed, headers: res.headers };
	}

	/** Like request() but throws unless 2xx; returns the unwrapped `data`. */
	async call(method, urlPath, body, opts) {
		// A workflow saved over REST (the editor's Save): see night.js.
		if (/^\/rest\/workflows(\/[^/]+)?$/.test(urlPath) && (method === 'POST' || method === 'PATCH')) body = anyHourOfDay(body);
		const res = await this.request(method, urlPath, body, opts);
		if (res.status < 200 || res.status >= 300) {
			throw new Error(`${method} ${urlPath} -> ${res.status}: ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`);
		}
		return res.body && typeof res.body === 'object' && 'data' in res.body ? res.body.data : res.body;
	}

	/** POST /rest/owner/setup (first start only). Keeps the cookie it sets. */
	setupOwner(owner = DEFAULT_OWNER) {
		return this.call('POST', '/rest/owner/setup', {
			email: owner.email,
			firstName: owner.firstName,
			lastName: owner.lastName,
			password: owner.password,
		});
	}

	/** POST /rest/login. Keeps the `n8n-auth` cookie. */
	login(email = DEFAULT_OWNER.email, password = DEFAULT_OWNER.password) {
		return this.call('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/** GET /rest/login: the logged-in user (throws when not logged in). */
	currentUser() {
		return this.call('GET', '/rest/login');
	}

	/**
	 * POST /rest/credentials/test -> `{ status: 'OK' | 'Error', message }` (the editor's "Test"/
	 * "Retry" in the credential modal). `credentials.id` is a saved credential's id (its stored
	 * data is merged under `data`), or '' (default here) to test unsaved data.
	 */
	testCredential(credentials) {
		return this.call('POST', '/rest/credentials/test', { credentials: { id: '', ...credentials } });
	}

	/**
	 * What the credential modal does for a saved credential: GET /rest/credentials/:id?includeData=true
	 * (secrets come back redacted) and POST that back to /rest/credentials/test, where n8n
	 * restores the redacted values from the stored credential.
	 */
	async testSavedCredential(id) {
		const cred = await this.call('GET', `/rest/credentials/${id}?includeData=true`);
		return this.testCredential({ id: cred.id, name: cred.name, type: cred.type, data: cred.data || {} });
	}

	getWorkflow(id) {
		return this.call('GET', `/rest/workflows/${id}`);
	}

	getExecution(id) {
		return this.call('GET', `/rest/executions/${id}`);
	}

	/**
	 * The editor's Publish (activate): POST /rest/workflows/:id/activate with the saved versionId,
	 * then, on n8n 2.x, until the publication is applied. 2.40.7 answers once the publication is
	 * queued (an outbox row); main applies it a moment later, and until then an Execute Workflow
	 * node runs the sub-workflow's previous published version (`getPublishedWorkflowData`): a parent
	 * run at once after a re-publish ran the old child once in queue mode.
	 */
	async activateWorkflow(id) {
		const { versionId } = await this.getWorkflow(id);
		const activated = await this.call('POST', `/rest/workflows/${id}/activate`, { versionId });
		// A hang guard, not a speed check: at a load average of 12 to 16 in CI, once, main had not applied a
		// publication after 30 s (recomputed.e2e, 2026-12-07); nothing else failed.
		for (const deadline = Date.now() + 120_000; ; ) {
			const status = await this.request('GET', `/rest/workflows/${id}/publication-status`);
			if (status.status === 404 || (status.status < 300 && (status.body.data ?? status.body).status !== 'in_progress')) return activated;
			if (status.status >= 300) throw new Error(`GET /rest/workflows/${id}/publication-status -> ${status.status}`);
			if (Date.now() > deadline) throw new Error(`workflow ${id}: its publication still in progress after 120 s`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	/** A workflow's executions, oldest first (GET /rest/executions filtered by workflowId). */
	async listExecutions(workflowId) {
		const list = await this.call('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
		return [...(list.results ?? list)].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * POST /rest/workflows/:id/run with `{ workflowData, triggerToStartFrom: { name } }`: what the
	 * editor's "Execute workflow" button sends (2.40 loads the saved workflow itself; 1.x runs `workflowData`).
	 * `triggerName` defaults to the workflow's first trigger node. Returns `{ executionId }`.
	 */
	async runWorkflow(id, triggerName) {
		const workflowData = await this.getWorkflow(id);
		if (!triggerName) {
			const trigger = workflowData.nodes.find((n) => /trigger$/i.test(n.type)) || workflowData.nodes.find((n) => /\.start$/.test(n.type));
			if (!trigger) throw new Error(`workflow ${id} has no trigger node`);
			triggerName = trigger.name;
		}
		// The saved workflow goes along, as the editor sends it: n8n 1.x runs it, 2.x loads it again itself.
		const started = await this.call('POST', `/rest/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: triggerName } });
		if (!started || !started.executionId) throw new Error(`POST /rest/workflows/${id}/run answered without an executionId: ${JSON.stringify(started).slice(0, 300)}`);
		return started;
	}

	/**
	 * GET /rest/executions/:id with its `data` decoded (n8n stores it in `flatted` format).
	 * Resolves `{ status, mode, run, output(nodeName, runIndex=0) }` like cli.executeWorkflow.
	 */
	async getExecutionRun(executionId) {
		const exec = await this.getExecution(executionId);
		const data = typeof exec.data === 'string' ? flattedParse(exec.data) : exec.data;
		const runData = (data && data.resultData && data.resultData.runData) || {};
		return {
			status: exec.status,
			mode: exec.mode,
			finished: exec.finished,
			error: (data && data.resultData && data.resultData.error) || null,
			run: data,
			output(nodeName, runIndex = 0) {
				const nodeRuns = runData[nodeName];
				if (!nodeRuns || !nodeRuns[runIndex]) {
					throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(runData).join(', ')}`);
				}
				const main = (nodeRuns[runIndex].data && nodeRuns[runIndex].data.main) || [];
				return (main[0] || []).map((item) => item.json);
			},
		};
	}

	/** Poll GET /rest/executions/:id until it is finished (status not new/running/waiting). */
	async waitForExecution(executionId, { timeoutMs = 60000 } = {}) {
		const start = Date.now();
		while (true) {
			const exec = await this.getExecution(executionId);
			if (exec && !['new', 'running', 'waiting'].includes(exec.status)) return exec;
			if (Date.now() - start > timeoutMs) throw new Error(`execution ${executionId} still ${exec && exec.status}`);
			await sleep(300);
		}
	}
}

/**
 * Owner setup (skipped if this user folder already has an owner, e.g. a restarted demo) +
 * login; returns a logged-in N8nRest (`rest.ownerCreated` tells which). Owner setup already
 * issues the cookie; we log in again anyway so /rest/login is always exercised.
 */
async function setupOwnerAndLogin(instance, owner = DEFAULT_OWNER) {
	const rest = new N8nRest(instance.baseUrl);
	const body = { email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password };
	let res = await rest.request('POST', '/rest/owner/setup', body);
	// Seen once in CI: n8n answered "Cannot POST /rest/owner/setup" (404) just after start-up,
	// before its REST routes were mounted. Give it a few more seconds.
	for (let attempt = 0; res.status === 404 && attempt < 20; attempt++) {
		await sleep(500);
		res = await rest.request('POST', '/rest/owner/setup', body);
	}
	const alreadySetUp = res.status === 400 && /already setup/i.test(JSON.stringify(res.body));
	if (res.status !== 200 && !alreadySetUp) {
		throw new Error(`POST /rest/owner/setup -> ${res.status}: ${JSON.stringify(res.body)}`);
	}
	rest.ownerCreated = !alreadySetUp;
	rest.cookies.clear();
	await rest.login(owner.email, owner.password);
	return rest;
}

module.exports = { startN8n, N8nRest, setupOwnerAndLogin, DEFAULT_OWNER };
