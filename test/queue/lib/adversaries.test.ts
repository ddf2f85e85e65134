// The slow-database adversary must delay bytes, never reorder them: a reordered PostgreSQL stream
// leaves n8n's database client waiting for ever, which once passed for a stalled lock.
import * as net from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startDelayProxy } = require('./adversaries');

async function echoServer(): Promise<net.Server> {
	const server = net.createServer((socket) => socket.pipe(socket));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return server;
}

test('the delay proxy delays every chunk yet keeps the bytes of a connection in order', async () => {
	const echo = await echoServer();
	const proxy = await startDelayProxy((echo.address() as net.AddressInfo).port, { scaleMs: 1, shape: 1.1, capMs: 40 });
	await proxy.adversary.start();
	const client = net.connect(proxy.port, '127.0.0.1');
	client.setNoDelay(true);
	let received = Buffer.alloc(0);
	client.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
	try {
		const sent: Buffer[] = [];
		for (let i = 0; i < 600; i++) {
			const part = Buffer.from(`${i},`);
			sent.push(part);
			client.write(part);
			// Small gaps make many chunks with different delays, the case where timers could reorder them.
			await new Promise((resolve) => (i % 3 === 0 ? setTimeout(resolve, 1) : setImmediate(resolve)));
		}
		const expected = Buffer.concat(sent);
		for (const deadline = Date.now() + 20_000; received.length < expected.length && Date.now() < deadline; ) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(proxy.state.chunks).toBeGreaterThan(100);
		expect(proxy.state.longest).toBeGreaterThan(1);
		expect(received.toString()).toBe(expected.toString());
	} finally {
		client.destroy();
		await proxy.close();
		echo.close();
	}
});

// A pause counts only once every process of the worker was seen stopped: a signal that reached
// nothing (a worker gone, a wrong pid) must not pass for an adversary that acted.
test('paused workers: a pause counts when the worker was seen stopped, never when the signal reached nothing', async () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { pausedWorkers } = require('./adversaries');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { spawn } = require('node:child_process');
	const sleeper = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
	try {
		const live = pausedWorkers(() => [{ pid: sleeper.pid, exited: () => false }], { minMs: 50, maxMs: 50, gapMinMs: 0, gapMaxMs: 10 });
		await live.start();
		await new Promise((resolve) => setTimeout(resolve, 400));
		await live.stop();
		expect(live.state.pauses).toBeGreaterThan(0);
		expect(live.state.signalsNotSeen).toBe(0);

		const gone = pausedWorkers(() => [{ pid: 2 ** 22 + 12_345, exited: () => false }], { minMs: 10, maxMs: 10, gapMinMs: 0, gapMaxMs: 10 });
		await gone.start();
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		await gone.stop();
		expect(gone.state.signalsNotSeen).toBeGreaterThan(0);
		expect(gone.state.pauses).toBe(0);
	} finally {
		sleeper.kill('SIGKILL');
	}
});
