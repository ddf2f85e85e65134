#!/usr/bin/env node
'use strict';
// `npm run build`, unless neither its inputs nor dist/ have changed since the last build this
// script recorded. The test commands run it first, so CI's steps (npm test, test:n8n1,
// test:reliability, test:queue, test:e2e) build once instead of five times. The record holds
// a digest of the inputs and one of dist/: a changed source, a hand-edited or deleted file in
// dist/, or no record at all rebuild.
//
//   node scripts/build-if-changed.js
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const record = path.join(root, '.last-build.json');
// What `npm run build` reads: tsc's config and sources, gulp's icons, and the package's settings.
const INPUTS = ['package.json', 'tsconfig.json', 'gulpfile.js', 'nodes', 'credentials'];

/** One digest of every file under `entries` (paths and contents, in a fixed order). */
function digest(entries) {
	const hash = createHash('sha256');
	const walk = (relative) => {
		const full = path.join(root, relative);
		if (!fs.existsSync(full)) return hash.update(`missing ${relative}\n`);
		if (fs.statSync(full).isDirectory()) {
			for (const name of fs.readdirSync(full).sort()) walk(path.join(relative, name));
			return;
		}
		hash.update(`${relative}\n`).update(fs.readFileSync(full));
	};
	entries.forEach(walk);
	return hash.digest('hex');
}

// Two test commands started together (CI runs the queue suite beside `npm test`) must not build
// into the same dist/ at once: the second waits for the first, then finds dist/ up to date.
const lock = path.join(root, '.build-lock');
const isAlive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
};
function takeLock() {
	const started = Date.now();
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			return;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		let holder = 0;
		try {
			holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
		} catch {
			/* the holder has not written its pid yet */
		}
		// A lock whose process is gone was left by a build that was killed.
		if (holder && !isAlive(holder)) {
			fs.rmSync(lock, { recursive: true, force: true });
			continue;
		}
		if (Date.now() - started > 10 * 60_000) throw new Error(`[build] ${lock} held by process ${holder} for 10 minutes`);
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
	}
}

takeLock();
try {
	const previous = fs.existsSync(record) ? JSON.parse(fs.readFileSync(record, 'utf8')) : {};
	const inputs = digest(INPUTS);
	if (previous.inputs === inputs && previous.dist === digest(['dist'])) {
		console.error('[build] dist/ is up to date with the sources: not rebuilt');
	} else {
		execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
		fs.writeFileSync(record, `${JSON.stringify({ inputs, dist: digest(['dist']) }, null, 2)}\n`);
	}
} finally {
	fs.rmSync(lock, { recursive: true, force: true });
}
