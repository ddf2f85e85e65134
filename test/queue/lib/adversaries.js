'use strict';
// Adversaries for duplicate protection in queue mode, each bounded in time and undone by stop():
// - a busy host: processes that spin on the CPU (each under `timeout`, so none outlives the test);
// - paused workers: SIGSTOP a random worker for 0.2 to 3 s, SIGCONT, again;
// - a slow database: a TCP proxy on loopback between the workers and PostgreSQL that holds each
//   chunk for a random, heavy-tailed time (Pareto), keeping the order of each connection's bytes.
const net = require('node:net');
const { spawn } = require('node:child_process');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min, max) => min + Math.random() * (max - min);

/** `count` processes spinning on the CPU for at most `maxSeconds`. */
function busyHost({ count = 3, maxSeconds = 1800 } = {}) {
	let spinners = [];
	return {
		name: `CPU saturated (${count} busy processes on ${require('node:os').cpus().length} cores)`,
		async start() {
			// Each in a process group of its own, so that stop() ends the spinning shell, not only `timeout`.
			spinners = Array.from({ length: count }, () => spawn('timeout', [String(maxSeconds), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore', detached: true }));
		},
		async stop() {
			for (const spinner of spinners) {
				try {
					process.kill(-spinner.pid, 'SIGKILL');
				} catch {
					// already ended by its timeout
				}
			}
			spinners = [];
		},
	};
}

/** Pauses a random worker of `workers()` for 0.2 to 3 s, then resumes it, until stopped; counts pauses. */
function pausedWorkers(workers, { minMs = 200, maxMs = 3000, gapMinMs = 0, gapMaxMs = 1000 } = {}) {
	let running = false;
	let loop;
	const state = { pauses: 0, pausedMs: 0 };
	return {
		name: `workers paused at random (SIGSTOP ${minMs / 1000}-${maxMs / 1000} s, then SIGCONT)`,
		state,
		async start() {
			running = true;
			loop = (async () => {
				while (running) {
					await sleep(between(gapMinMs, gapMaxMs));
					const live = workers().filter((worker) => worker && !worker.exited());
					if (!running || !live.length) continue;
					const victim = live[Math.floor(Math.random() * live.length)];
					const pauseMs = between(minMs, maxMs);
					const signal = (name) => {
						try {
							process.kill(-victim.pid, name);
						} catch {
							// the worker exited meanwhile (it is being stopped)
						}
					};
					try {
						signal('SIGSTOP');
						await sleep(pauseMs);
					} finally {
						signal('SIGCONT');
					}
					state.pauses++;
					state.pausedMs += pauseMs;
				}
			})();
		},
		async stop() {
			running = false;
			await loop;
		},
	};
}

/**
 * A TCP proxy to `targetPort` on loopback. While `slow` is on, every chunk in either direction is
 * delayed by a Pareto time (scale `scaleMs`, shape `shape`, at most `capMs`), in order per direction.
 */
async function startDelayProxy(targetPort, { scaleMs = 2, shape = 1.2, capMs = 2000 } = {}) {
	const state = { slow: false, chunks: 0, delayedMs: 0, longest: 0, over100ms: 0 };
	const delay = () => {
		if (!state.slow) return 0;
		const ms = Math.min(capMs, scaleMs / Math.pow(1 - Math.random(), 1 / shape));
		state.chunks++;
		state.delayedMs += ms;
		state.longest = Math.max(state.longest, ms);
		if (ms > 100) state.over100ms++;
		return ms;
	};
	/**
	 * Writes chunks to `to` strictly in arrival order, each no sooner than its own delay after it
	 * arrived. One pump per direction: two timers due at the same millisecond may fire in either
	 * order, which would reorder the bytes and leave PostgreSQL's client waiting for ever.
	 */
	const relay = (from, to, link) => {
		const queue = [];
		let pumping = false;
		let ended = false;
		const pump = async () => {
			if (pumping) return;
			pumping = true;
			while (queue.length) {
				const { due, chunk } = queue.shift();
				const wait = due - Date.now();
				if (wait > 0) await sleep(wait);
				if (!to.destroyed) to.write(chunk);
			}
			pumping = false;
			if (ended && !to.destroyed) to.end();
		};
		from.on('data', (chunk) => {
			// A frozen connection holds every chunk until it thaws: no drop, then everything in order.
			queue.push({ due: Math.max(Date.now() + delay(), link.frozenUntil), chunk });
			void pump();
		});
		from.on('end', () => {
			ended = true;
			if (!pumping) to.end();
		});
		from.on('error', () => to.destroy());
	};
	const sockets = new Set();
	/** Each client connection and its upstream: what a freeze stops. */
	const links = new Set();
	const server = net.createServer((client) => {
		const upstream = net.connect(targetPort, '127.0.0.1');
		const link = { frozenUntil: 0 };
		links.add(link);
		sockets.add(client).add(upstream);
		for (const socket of [client, upstream]) socket.on('close', () => (sockets.delete(socket), links.delete(link)));
		relay(client, upstream, link);
		relay(upstream, client, link);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		state,
		adversary: {
			name: `PostgreSQL slowed for the workers (loopback proxy, Pareto delay per chunk: scale ${scaleMs} ms, shape ${shape}, at most ${capMs / 1000} s)`,
			state,
			async start() {
				state.slow = true;
			},
			async stop() {
				state.slow = false;
			},
		},
		/**
		 * An adversary that freezes one connection (chosen at random among the open ones) for `freezeMs`
		 * at random moments, `gapMinMs` to `gapMaxMs` apart: a connection that stalls without dropping,
		 * whose statements land late. It counts a freeze only when there was a connection to freeze.
		 */
		freezer({ freezeMs = 25_000, gapMinMs = 2_000, gapMaxMs = 15_000 } = {}) {
			const frozen = { freezes: 0, frozenMs: 0 };
			let running = false;
			let loop;
			return {
				name: `one PostgreSQL connection of the workers frozen for ${freezeMs / 1000} s (no drop) at random moments`,
				state: frozen,
				async start() {
					running = true;
					loop = (async () => {
						while (running) {
							await sleep(gapMinMs + Math.random() * (gapMaxMs - gapMinMs));
							const open = [...links].filter((link) => link.frozenUntil < Date.now());
							if (!running || !open.length) continue;
							open[Math.floor(Math.random() * open.length)].frozenUntil = Date.now() + freezeMs;
							frozen.freezes++;
							frozen.frozenMs += freezeMs;
						}
					})();
				},
				async stop() {
					running = false;
					await loop;
				},
			};
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

module.exports = { busyHost, pausedWorkers, startDelayProxy };
