/**
 * HTTP/1.1 over a bare socket, for what a well-behaved client cannot send: malformed
 * requests, pipelining, bodies streamed past the limit, headers sent a byte at a time.
 */
import * as net from 'node:net';
import { Answer } from './oracle';

export interface Exchange {
	/** Final (non-1xx) responses, in order. */
	answers: Answer[];
	/** Bytes after the last complete response (a response cut short, or not HTTP). */
	rest: Buffer;
	/** The server closed the connection (rather than the exchange ending on our timeout). */
	closedByServer: boolean;
	ms: number;
}

/**
 * Parses consecutive HTTP/1.1 responses (Content-Length or chunked bodies; 1xx skipped).
 * `headRequests` marks which responses answer HEAD (no body whatever the headers say).
 */
export function parseResponses(data: Buffer, headRequests: boolean[] = []): { answers: Answer[]; rest: Buffer } {
	const answers: Answer[] = [];
	let offset = 0;
	for (;;) {
		const end = data.indexOf('\r\n\r\n', offset);
		if (end < 0) break;
		const lines = data.subarray(offset, end).toString('latin1').split('\r\n');
		const status = /^HTTP\/1\.[01] (\d{3}) /.exec(lines[0]);
		if (!status) break;
		const headers: Record<string, string> = {};
		for (const line of lines.slice(1)) {
			const colon = line.indexOf(':');
			headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
		}
		let bodyStart = end + 4;
		let body: Buffer = Buffer.alloc(0);
		const code = Number(status[1]);
		if (code >= 200 && !headRequests[answers.length]) {
			if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
				const chunks: Buffer[] = [];
				for (;;) {
					const lineEnd = data.indexOf('\r\n', bodyStart);
					if (lineEnd < 0) return { answers, rest: data.subarray(offset) };
					const size = parseInt(data.subarray(bodyStart, lineEnd).toString('latin1'), 16);
					if (Number.isNaN(size) || data.length < lineEnd + 2 + size + 2) return { answers, rest: data.subarray(offset) };
					chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
					bodyStart = lineEnd + 2 + size + 2;
					if (size === 0) break;
				}
				body = Buffer.concat(chunks);
			} else {
				const length = Number(headers['content-length'] ?? 0);
				if (data.length < bodyStart + length) break;
				body = data.subarray(bodyStart, bodyStart + length);
				bodyStart += length;
			}
		}
		offset = bodyStart;
		if (code >= 200) answers.push({ status: code, headers, body });
	}
	return { answers, rest: data.subarray(offset) };
}

export interface ExchangeOptions {
	/** Stop once this many responses have arrived (else wait for the server to close). */
	responses?: number;
	timeoutMs?: number;
	headRequests?: boolean[];
	/** Pieces written one after another, `gapMs` apart (slow clients). */
	gapMs?: number;
}

/** Writes `pieces` on a fresh connection and collects the answers. Never rejects. */
export function exchange(port: number, pieces: (string | Buffer)[], options: ExchangeOptions = {}): Promise<Exchange> {
	const { responses, timeoutMs = 5000, headRequests = [], gapMs = 0 } = options;
	return new Promise((resolve) => {
		const started = Date.now();
		const socket = net.connect(port, '127.0.0.1');
		const chunks: Buffer[] = [];
		let done = false;
		let timer: NodeJS.Timeout | undefined;
		const finish = (closedByServer: boolean) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			clearTimeout(limit);
			socket.destroy();
			resolve({ ...parseResponses(Buffer.concat(chunks), headRequests), closedByServer, ms: Date.now() - started });
		};
		const limit = setTimeout(() => finish(false), timeoutMs);
		socket.on('data', (chunk: Buffer) => {
			chunks.push(chunk);
			if (responses !== undefined && parseResponses(Buffer.concat(chunks), headRequests).answers.length >= responses) finish(false);
		});
		// A reset after (or instead of) the answer is judged by what arrived; 'close' follows.
		socket.on('error', () => {});
		socket.on('close', () => finish(true));
		let next = 0;
		const writeNext = () => {
			// Once the server answers, the rest of an over-long body is not sent.
			if (done || next >= pieces.length || (next > 1 && chunks.length > 0)) return;
			socket.write(pieces[next++], () => {
				if (gapMs > 0) timer = setTimeout(writeNext, gapMs);
				else writeNext();
			});
		};
		socket.on('connect', writeNext);
	});
}

/** A request in chunked transfer coding, cut into pieces of `chunkSize` bytes. */
export function chunked(head: string, body: Buffer, chunkSize: number): Buffer {
	const parts: Buffer[] = [Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n`)];
	for (let i = 0; i < body.length; i += chunkSize) {
		const piece = body.subarray(i, i + chunkSize);
		parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
	}
	parts.push(Buffer.from('0\r\n\r\n'));
	return Buffer.concat(parts);
}
