import path from 'node:path';
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { ApiRequestError, describeFailure, parseRetryAfter, RETRY, retryDelayMs } from '../../../nodes/shared/transport';
import { readableSize } from '../../../nodes/shared/api/products';
import { N8N_MAJOR } from '../../harness';
import { sendJson, startTestServer } from '../../harness/test-server';

describe('retry policy (pure)', () => {
	it('retries 429 and 5xx and connection resets with growing, bounded delays', () => {
		for (const status of [429, 500, 502, 503, 504]) {
			const delays = [0, 1, 2, 3].map((attempt) => retryDelayMs({ status }, attempt));
			expect(delays.slice(0, RETRY.maxRetries).every((delay) => delay !== undefined && delay <= RETRY.maxDelayMs)).toBe(true);
			expect(delays[1]!).toBeGreaterThan(delays[0]!);
			expect(delays[RETRY.maxRetries]).toBeUndefined();
		}
		expect(retryDelayMs({ networkCode: 'ECONNRESET' }, 0)).toBe(RETRY.firstDelayMs);
	});

	it('does not retry client errors, 501 (never implemented) or unknown network codes', () => {
		for (const status of [400, 401, 404, 501]) expect(retryDelayMs({ status }, 0)).toBeUndefined();
		expect(retryDelayMs({ networkCode: 'ENOTFOUND' }, 0)).toBeUndefined();
	});

	it('honours Retry-After, but not beyond the cap', () => {
		expect(retryDelayMs({ status: 429, retryAfterMs: 2000 }, 0)).toBe(2000);
		expect(retryDelayMs({ status: 429, retryAfterMs: RETRY.maxRetryAfterMs + 1 }, 0)).toBeUndefined();
	});

	it('parses Retry-After as seconds or as an HTTP date', () => {
		const now = Date.UTC(2026, 10, 22, 12, 0, 0);
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
	});
});

/**
 * The errors the transport reads are n8n's own: a real axios error (from the axios n8n-core
 * itself uses) wrapped in NodeApiError exactly as n8n-core's httpRequestWithAuthentication
 * does (`throw new NodeApiError(this.getNode(), error)`). `npm test` runs this on n8n 2.x's
 * classes, `npm run test:n8n1` on 1.x's, where the wrapped error (and with it the response
 * headers) is dropped and only `httpCode` and `context.data` are left.
 */
describe('failures as n8n wraps them', () => {
	const node: INode = { id: '1', name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const axios = require(require.resolve('axios', { paths: [path.dirname(require.resolve('n8n-core'))] })) as (config: object) => Promise<unknown>;

	async function wrappedFailure(config: object): Promise<NodeApiError> {
		try {
			await axios(config);
		} catch (error) {
			return new NodeApiError(node, error as JsonObject);
		}
		throw new Error('the request did not fail');
	}

	it('a 429 keeps its status and body; its Retry-After survives only where n8n keeps the response (2.x)', async () => {
		const server = await startTestServer((_req, res) => {
			res.setHeader('Retry-After', '2');
			sendJson(res, 429, { error: { code: 'RATE', message: 'slow down' } });
		});
		try {
			const error = await wrappedFailure({ url: `${server.url}/io/products`, headers: { Authorization: 'Bearer s3cret-token' } });
			const failure = describeFailure(error);
			expect(failure).toMatchObject({ status: 429, body: { error: { code: 'RATE', message: 'slow down' } } });
			expect(failure.retryAfterMs).toBe(N8N_MAJOR >= 2 ? 2000 : undefined);
			if (N8N_MAJOR < 2) expect(error).toMatchObject({ cause: undefined, httpCode: '429' });
		} finally {
			await server.close();
		}
	});

	it('a refused connection keeps its network code, so it is retried and called unreachable', async () => {
		const server = await startTestServer((_req, res) => {
			res.end();
		});
		const url = `${server.url}/io/products`;
		await server.close();
		const failure = describeFailure(await wrappedFailure({ url }));
		expect(failure).toEqual({ networkCode: 'ECONNREFUSED' });
		expect(retryDelayMs(failure, 0)).toBe(RETRY.firstDelayMs);
	});
});

describe("what an operation adds to a failure's message", () => {
	const node: INode = { id: '1', name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} };

	it("follows a semicolon, without the service's own closing period before it", () => {
		const error = new ApiRequestError(node, {} as JsonObject, { message: 'The LBA service refused the OAuth2 client credentials: Unknown client or wrong secret.' });
		error.addClause('the campaign was not created');
		expect(error.message).toBe('The LBA service refused the OAuth2 client credentials: Unknown client or wrong secret; the campaign was not created');
		const plain = new ApiRequestError(node, {} as JsonObject, { message: 'The LBA service failed to answer POST /lba/campaign (HTTP 503)' });
		plain.addClause('the campaign was not created');
		expect(plain.message).toBe('The LBA service failed to answer POST /lba/campaign (HTTP 503); the campaign was not created');
	});
});

describe('readable quota sizes', () => {
	it('uses 1024-based units', () => {
		expect(readableSize(10 * 1024 ** 3)).toBe('10 GB');
		expect(readableSize(1536 * 1024 ** 2)).toBe('1.5 GB');
		expect(readableSize(500 * 1024 ** 2)).toBe('500 MB');
		expect(readableSize(0)).toBe('0 B');
		expect(readableSize(null)).toBeNull();
	});
});
