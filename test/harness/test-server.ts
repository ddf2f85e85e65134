/**
 * A throw-away HTTP server on an ephemeral loopback port that records every request,
 * for tests that need to see what n8n actually sent.
 *
 *   const server = await startTestServer((req, res) => { res.end('{}') });
 *   ... server.url ... server.requests[0].headers.authorization ...
 *   await server.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export type Handler = (
	req: RecordedRequest,
	res: http.ServerResponse,
) => void | Promise<void>;

export interface TestServer {
	url: string;
	requests: RecordedRequest[];
	close(): Promise<void>;
}

/** Replies with JSON: `send(res, 200, {...})`. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
	const requests: RecordedRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const recorded: RecordedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(recorded);
			Promise.resolve(handler(recorded, res)).catch((error: Error) => {
				if (!res.headersSent) sendJson(res, 500, { error: error.message });
			});
		});
	});
	// keep-alive sockets from n8n's HTTP agent would otherwise hold close() open
	server.keepAliveTimeout = 100;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((err) => (err ? reject(err) : resolve()));
			}),
	};
}
