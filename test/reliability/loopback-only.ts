/**
 * The reliability suite runs on loopback only. Every TCP connection the test process opens
 * (n8n's HTTP client included) is checked: one to anything but 127.0.0.0/8 or ::1 is refused
 * and counted, and figures-reporter.js fails the run if any was attempted. The counts are
 * written after each test file, so the reporter can print them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

interface Counts {
	loopback: number;
	refused: string[];
}

// Kept on the net module, which all test files share: jest gives each file its own `process` object.
const KEY = Symbol.for('lba.reliability.loopbackOnly');
const sharedState = net as unknown as Record<symbol, Counts | undefined>;

function isLoopback(host: string | undefined): boolean {
	if (host === undefined || host === '' || host === 'localhost') return true;
	const bare = host.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
	return bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

function install(): Counts {
	const counts: Counts = { loopback: 0, refused: [] };
	const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
	net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
		const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0]; // node passes [options, cb] internally
		const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as { path?: string; port?: unknown; host?: string };
		// A Unix socket has a path and no port; an HTTP request's options carry its URL path too.
		const unixSocket = typeof first === 'string' || (options.path !== undefined && options.port === undefined);
		if (!unixSocket) {
			if (!isLoopback(typeof options.host === 'string' ? options.host : undefined)) {
				counts.refused.push(String(options.host));
				throw new Error(`reliability suite: connection to ${String(options.host)} refused (loopback only)`);
			}
			counts.loopback++;
		}
		return connect.apply(this, args);
	} as typeof net.Socket.prototype.connect;
	return counts;
}

const counts = (sharedState[KEY] ??= install());

afterAll(() => {
	const dir = path.resolve(__dirname, '../..', process.env.LBA_RELIABILITY_ARTIFACTS ?? 'artifacts/reliability', 'connections');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(counts));
});
