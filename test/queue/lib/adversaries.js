'use strict';
// Adversaries for duplicate protection in queue mode, each bounded in time and undone by stop(),
// and each counting only what it was seen to do (a round whose adversary did nothing proves nothing):
// - a busy host: cores + 1 processes that spin on the CPU (each under `timeout`, so none outlives
//   the test); their CPU time and the load average are recorded;
// - paused workers: SIGSTOP a random worker for 0.2 to 3 s, SIGCONT, again; a pause counts once
//   every process of the worker was seen stopped;
// - long pauses of the lock's holder: see longPauses();
// - a slow database: a TCP proxy on loopback between the workers and PostgreSQL that holds each
//   chunk for a random, heavy-tailed time (Pareto), keeping the order of each connection's bytes;
//   and a freezer that stops one busy connection for 25 s without dropping it.
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const { spawn } = require('node:child_process');

const { groupMembers } = require('./proc');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Sleeps `ms`, or less once `going()` turns false: stop() then ends the round, not the gap. */
async function sleepWhile(ms, going) {
	for (const until = Date.now() + ms; going() && Date.now() < until; ) await sleep(Math.min(100, until - Date.now()));
}
const between = (min, max) => min + Math.random() * (max - min);

/** Whether every process of group `group` is stopped (state T), looked at for up to `ms`. */
async function seenStopped(group, ms = 1_000) {
	for (const deadline = Date.now() + ms; ; ) {
		const members = groupMembers(group);
		if (members.length && members.every((member) => member.state === 'T' || member.state === 't')) return true;
		if (Date.now() > deadline) return false;
		await sleep(10);
	}
}

/** `count` (default: one more than the cores) processes spinning on the CPU for at most `maxSeconds`. */
function busyHost({ count = os.cpus().length + 1, maxSeconds = 1800 } = {}) {
	let spinners = [];
	let startedAt = 0;
	const state = { spinners: count, cores: os.cpus().length, spinnerCpuSeconds: 0, seconds: 0, loadAverage1mAtStop: 0 };
	return {
		name: `CPU saturated (${count} busy processes on ${os.cpus().length} cores)`,
		state,
		async start() {
			startedAt = Date.now();
			// Each in a process group of its own, so that stop() ends the spinning shell, not only `timeout`.
			spinners = Array.from({ length: count }, () => spawn('timeout', [String(maxSeconds), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore', detached: true }));
		},
		async stop() {
			state.seconds = (Date.now() - startedAt) / 1000;
			state.loadAverage1mAtStop = Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
			state.spinnerCpuSeconds = spinners.flatMap((spinner) => groupMembers(spinner.pid)).reduce((sum, member) => sum + member.cpuSeconds, 0);
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

/** Pauses a random worker of `workers()` for 0.2 to 3 s, then resumes it, until stopped; counts the pauses seen. */
function pausedWorkers(workers, { minMs = 200, maxMs = 3000, gapMinMs = 0, gapMaxMs = 1000 } = {}) {
	let running = false;
	let loop;
	const state = { pauses: 0, pausedMs: 0, signalsNotSeen: 0 };
	return {
		name: `workers paused at random (SIGSTOP ${minMs / 1000}-${maxMs / 1000} s, then SIGCONT)`,
		state,
		async start() {
			running = true;
			loop = (async () => {
				while (running) {
					await sleepWhile(between(gapMinMs, gapMaxMs), () => running);
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
					let stopped = false;
					try {
						signal('SIGSTOP');
						stopped = await seenStopped(victim.pid);
						await sleep(pauseMs);
					} finally {
						signal('SIGCONT');
					}
					if (stopped) {
						state.pauses++;
						state.pausedMs += pauseMs;
					} else state.signalsNotSeen++;
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
 * Long pauses of the lock's holder: when the workflow's lock row is there, stops every worker,
 * resumes one at random and watches the row for `probeMs`. A row that stays while that worker runs
 * is held by a stopped one: it stays stopped for `pauseMs` (longer than the lease, 30 to 45 s), so
 * the running worker's waiting executions suspect the holder and break its row; a row re-created
 * while its holder is stopped is counted as a break seen. Otherwise the running worker held it
 * (a miss): all resume and it tries again. `lockRow()` answers the row's creation time, or ''.
 * As the workers stop it fires a pair of its own (`start(firePair)`): a stopped worker takes no
 * new job, so that pair waits for the lock on the running worker, which then must break the row.
 */
function longPauses(workers, lockRow, { pauseMs = 60_000, probeMs = 3_000, holderPauses = 1, maxTries = 30 } = {}) {
	let running = false;
	let loop;
	const state = { holderPauses: 0, breaksSeen: 0, misses: 0, pausedMs: 0 };
	const signal = (group, name) => {
		try {
			process.kill(-group, name);
		} catch {
			// the worker exited meanwhile (it is being stopped)
		}
	};
	return {
		name: `the lock's holder stopped for ${pauseMs / 1000} s (SIGSTOP while the other worker runs)`,
		state,
		async start(firePair = () => undefined) {
			running = true;
			loop = (async () => {
				for (let tries = 0; running && state.holderPauses < holderPauses && tries < maxTries; ) {
					await sleep(200);
					const live = workers().filter((worker) => worker && !worker.exited());
					if (live.length < 2 || !(await lockRow())) continue;
					tries++;
					const stoppedAt = Date.now();
					for (const worker of live) signal(worker.pid, 'SIGSTOP');
					const allStopped = (await Promise.all(live.map((worker) => seenStopped(worker.pid)))).every(Boolean);
					const row = allStopped ? await lockRow() : '';
					if (!row) {
						for (const worker of live) signal(worker.pid, 'SIGCONT');
						continue;
					}
					firePair();
					const [runner, ...held] = [...live].sort(() => Math.random() - 0.5);
					signal(runner.pid, 'SIGCONT');
					await sleep(probeMs);
					if ((await lockRow()) !== row) {
						for (const worker of held) signal(worker.pid, 'SIGCONT');
						state.misses++;
						continue;
					}
					state.holderPauses++;
					let broken = false;
					while (Date.now() - stoppedAt < pauseMs) {
						await sleep(500);
						if (!broken && (await lockRow()) !== row) broken = true;
					}
					for (const worker of held) signal(worker.pid, 'SIGCONT');
					state.pausedMs += Date.now() - stoppedAt;
					if (broken) state.breaksSeen++;
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
	const state = { slow: false, chunks: 0, delayedMs: 0, longest: 0, over100ms: 0, heldWhileFrozen: 0 };
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
			link.lastData = Date.now();
			if (link.frozenUntil > link.lastData) state.heldWhileFrozen++;
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
		const link = { frozenUntil: 0, lastData: 0 };
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
		 * An adversary that freezes one connection for `freezeMs` at random moments, `gapMinMs` to
		 * `gapMaxMs` apart, the first at once: a connection that stalls without dropping, whose
		 * statements land late. It freezes the connection that carried data last (one in use), and
		 * counts a freeze only when there was one; `heldWhileFrozen` counts the chunks it held.
		 */
		freezer({ freezeMs = 25_000, gapMinMs = 2_000, gapMaxMs = 15_000 } = {}) {
			const frozen = { freezes: 0, frozenMs: 0, get heldChunks() {
				return state.heldWhileFrozen;
			} };
			let running = false;
			let loop;
			return {
				name: `one busy PostgreSQL connection of the workers frozen for ${freezeMs / 1000} s (no drop) at random moments`,
				state: frozen,
				async start() {
					running = true;
					loop = (async () => {
						for (let gap = 200; running; gap = gapMinMs + Math.random() * (gapMaxMs - gapMinMs)) {
							await sleepWhile(gap, () => running);
							const open = [...links].filter((link) => link.frozenUntil < Date.now() && Date.now() - link.lastData < 1_000);
							if (!running || !open.length) continue;
							open.sort((a, b) => b.lastData - a.lastData)[0].frozenUntil = Date.now() + freezeMs;
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

module.exports = { busyHost, pausedWorkers, longPauses, startDelayProxy };
