'use strict';
// Child processes the bench talks to: the sandbox, Prism and the bare node:http server.
// Each runs in its own process so the load generator (or n8n) never shares its event loop.
const path = require('node:path');
const { spawn } = require('node:child_process');

const { installPinned } = require('../test/e2e/lib/env');

const REPO = path.resolve(__dirname, '..');

/** Spawns a server and resolves with its URL once `pattern` shows up on its stdout. */
function spawnServer(args, pattern, { timeoutMs = 60000 } = {}) {
	const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
	let text = '';
	const ready = new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in ${timeoutMs} ms: ${text}`)), timeoutMs);
		const onData = (chunk) => {
			text += chunk;
			const match = pattern.exec(text);
			if (match) {
				clearTimeout(timer);
				resolve(match[1]);
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', (chunk) => (text += chunk));
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`${args[0]} exited ${code}: ${text}`));
		});
	});
	return ready.then((url) => {
		// Keep draining its output (Prism logs per request) but keep nothing.
		child.stdout.removeAllListeners('data');
		child.stderr.removeAllListeners('data');
		child.stdout.resume();
		child.stderr.resume();
		return {
			url,
			pid: child.pid,
			stop: () =>
				new Promise((resolve) => {
					if (child.exitCode !== null) return resolve();
					child.once('exit', () => resolve());
					child.kill('SIGTERM');
				}),
		};
	});
}

function startSandbox({ token, productsScale = 1 }) {
	const args = [path.join(REPO, 'sandbox', 'server.js'), '--port', '0', '--quiet', '--token', token, '--products-scale', String(productsScale)];
	return spawnServer(args, /listening on (http\S+)/);
}

/** Prism's install folder: bench/prism/package.json's pin, installed once into the cache outside the clone. */
function prismFolder() {
	return installPinned({ LBA_N8N_MANIFEST: 'bench/prism/package.json', LBA_N8N_PACKAGE: '@stoplight/prism-cli', LBA_N8N_NODE: 'system' });
}

/**
 * Prism as its docs show it (`prism mock openapi.yaml`), static examples, default logging
 * (info: one log line per request, as a user would see it).
 */
function startPrism(port) {
	const bin = path.join(prismFolder(), 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
	return spawnServer([bin, 'mock', path.join(REPO, 'sandbox', 'openapi.yaml'), '-h', '127.0.0.1', '-p', String(port)], /Prism is listening on (http\S+)/);
}

function startBare(bodiesFile) {
	return spawnServer([path.join(__dirname, 'bare-server.js'), bodiesFile], /bare listening on (http\S+)/);
}

module.exports = { startSandbox, startPrism, startBare, REPO };
