/**
 * The e2e REST client (lib/server.js, N8nRest.request) against n8n's "Database is not ready!":
 * n8n 2.40.7 answers it from a middleware placed before every route while its last database ping
 * has failed (abstract-server.js), which a loaded machine can cause with nothing wrong. CI once
 * failed a whole suite on it at owner setup (load 7 to 9). No route ran, so the client sends the
 * request again; any other 503 is an answer and comes back at once.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { N8nRest } = require('./server');

const NOT_READY = JSON.stringify({ code: 503, message: 'Database is not ready!' });

/** A loopback server that answers `replies` in turn (the last one ever after), and counts requests. */
async function serve(replies: Array<[number, string]>) {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			seen.push(`${req.method} ${req.url} ${body}`);
			const [status, text] = replies[Math.min(seen.length, replies.length) - 1];
			res.writeHead(status, { 'content-type': 'application/json' }).end(text);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('N8nRest against n8n\'s "Database is not ready!"', () => {
	it('sends the same request again until n8n answers, and returns that answer', async () => {
		const server = await serve([
			[503, NOT_READY],
			[503, NOT_READY],
			[200, JSON.stringify({ data: { id: 'owner' } })],
		]);
		try {
			const rest = new N8nRest(server.url);
			const res = await rest.request('POST', '/rest/owner/setup', { email: 'a@b.c' });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ data: { id: 'owner' } });
			expect(server.seen).toEqual(Array(3).fill('POST /rest/owner/setup {"email":"a@b.c"}'));
		} finally {
			await server.close();
		}
	});

	it('any other 503 is an answer: returned at once, sent once', async () => {
		const server = await serve([[503, JSON.stringify({ code: 503, message: 'The LBA service is down' })]]);
		try {
			const res = await new N8nRest(server.url).request('GET', '/rest/executions/1');
			expect(res.status).toBe(503);
			expect(server.seen).toHaveLength(1);
		} finally {
			await server.close();
		}
	});
});
