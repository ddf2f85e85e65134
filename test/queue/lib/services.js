'use strict';
// Private PostgreSQL and Redis instances on loopback for n8n's queue mode (no Docker here):
// Debian's binaries (scripts/install-queue-services.sh), each with its data in a temp folder.
const { execFileSync, execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');

const { freePort, realClockEnv } = require('../../e2e/lib/env');

const execFileP = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function postgresBin(name) {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
	for (const version of versions) {
		const bin = path.join(root, version, 'bin', name);
		if (fs.existsSync(bin)) return bin;
	}
	throw new Error(`PostgreSQL's ${name} not found under ${root}: run scripts/install-queue-services.sh`);
}

/** Runs a PostgreSQL binary as Debian's `postgres` user: PostgreSQL refuses to run as root. */
function asPostgres(name, args) {
	// maxBuffer: a query may return many executions' data (the burst test reads 400).
	return execFileP('runuser', ['-u', 'postgres', '--', postgresBin(name), ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/**
 * A fresh PostgreSQL cluster on 127.0.0.1 with a database `n8n` (trust auth, loopback only).
 * `env` is what n8n needs; `restart()` is a fast shutdown and start on the same port and data.
 */
async function startPostgres() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-queue-pg-'));
	fs.chmodSync(dir, 0o755);
	const data = path.join(dir, 'data');
	fs.mkdirSync(data);
	execFileSync('chown', ['-R', 'postgres:postgres', dir]);
	const port = await freePort();
	await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
	// fsync off: test data need not survive a power cut, and the tests run faster.
	const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
	const start = () => asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'postgres.log'), '-o', options, '-w', 'start']);
	const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
	await start();
	await asPostgres('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'CREATE DATABASE n8n']);
	return {
		port,
		dir,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
		},
		/** Runs one SQL statement in the n8n database; rows as tab-separated lines. */
		async sql(statement) {
			const { stdout } = await asPostgres('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'n8n', '-At', '-F', '\t', '-c', statement]);
			return stdout.trim() === '' ? [] : stdout.trim().split('\n').map((line) => line.split('\t'));
		},
		/** Runs a script of SQL statements of any size (from a file, not the command line). */
		async sqlScript(text) {
			const file = path.join(dir, `script-${process.pid}-${Date.now()}.sql`);
			fs.writeFileSync(file, text);
			fs.chmodSync(file, 0o644);
			try {
				await asPostgres('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'n8n', '-q', '-v', 'ON_ERROR_STOP=1', '-f', file]);
			} finally {
				fs.rmSync(file, { force: true });
			}
		},
		stop,
		start,
		async restart() {
			await stop();
			await start();
		},
		async close() {
			await stop().catch(() => undefined);
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/**
 * A Redis on 127.0.0.1 that keeps its data in an append-only file, as an n8n operator should run
 * it: then a Redis restart keeps the queued jobs. `stop()` shuts it down (saving), `start()`
 * brings it back on the same port and data.
 */
async function startRedis() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-queue-redis-'));
	const port = await freePort();
	const cli = (...args) => execFileP('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', env: realClockEnv() });
	const start = async () => {
		await execFileP('redis-server', [
			'--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'yes',
			'--appendfsync', 'everysec', '--daemonize', 'yes', '--pidfile', path.join(dir, 'redis.pid'), '--logfile', path.join(dir, 'redis.log'),
		], { env: realClockEnv() }); // Redis on the real clock: it hangs at start under libfaketime (LBA_CI_CLOCK)
		// Up to 30 s: a loaded machine (e2e beside it in CI) is slow to start a process.
		for (let tries = 0; tries < 300; tries++) {
			if ((await cli('ping').catch(() => ({ stdout: '' }))).stdout.trim() === 'PONG') return;
			await sleep(100);
		}
		throw new Error(`redis-server did not answer on port ${port}; see ${dir}/redis.log`);
	};
	const stop = () => cli('shutdown').catch(() => undefined);
	await start();
	return {
		port,
		dir,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		cli,
		start,
		stop,
		async close() {
			await stop();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = { startPostgres, startRedis };
