/**
 * Failure classes that cost money when wrong (issue 42, item 3). A connection reset after the
 * request was sent may come after the service created the campaign: its outcome is 'unknown', so
 * duplicate protection keeps the key. Read as 'refused', the key would be released and a run made
 * again would pay for the campaign twice.
 *
 * The error is n8n's own: a real axios error (the axios n8n-core uses) from a server that reads the
 * whole request and then drops the connection, wrapped in NodeApiError as n8n-core's
 * httpRequestWithAuthentication does, and given to the transport through that helper.
 */
import path from 'node:path';
import { NodeApiError, type IExecuteFunctions, type INode, type JsonObject } from 'n8n-workflow';

import { ApiRequestError, createTransport, failureOutcome } from '../../../nodes/shared/transport';
import { startTestServer, type Handler } from '../../harness/test-server';

const node: INode = { id: '1', name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const axios = require(require.resolve('axios', { paths: [path.dirname(require.resolve('n8n-core'))] })) as (config: object) => Promise<{ data: unknown }>;

/** A node context whose httpRequestWithAuthentication makes the request with n8n's axios and wraps its failure as n8n does. */
const ctx = {
	getNode: () => node,
	helpers: {
		async httpRequestWithAuthentication(_type: string, request: { method: string; url: string; body?: unknown; headers?: object; timeout?: number }) {
			try {
				return (await axios({ method: request.method, url: request.url, data: request.body, headers: request.headers, timeout: request.timeout })).data;
			} catch (error) {
				throw new NodeApiError(node, error as JsonObject);
			}
		},
	},
} as unknown as IExecuteFunctions;

/** The error a Create Campaign request gets from `baseUrl`. */
async function createCampaignError(baseUrl: string): Promise<ApiRequestError> {
	const transport = createTransport(ctx, 'lbaAdsApi', { baseUrl, accessToken: 'test-token-123' }, { timeoutMs: 5_000 });
	try {
		await transport.request({ method: 'POST', path: '/lba/campaign', body: { name: 'Weekend promo' }, itemIndex: 0, retry: false });
	} catch (error) {
		return error as ApiRequestError;
	}
	throw new Error('the request did not fail');
}

async function withServer<T>(handler: Handler, use: (url: string, requests: Array<{ body: string }>) => Promise<T>): Promise<T> {
	const server = await startTestServer(handler);
	try {
		return await use(server.url, server.requests);
	} finally {
		await server.close();
	}
}

describe('a connection reset after the request was sent', () => {
	it("is an unknown outcome (the campaign may have been created), never 'refused'", async () => {
		await withServer(
			// The whole request arrived; the connection drops before any answer.
			(_req, res) => {
				res.socket?.destroy();
			},
			async (url, requests) => {
				const error = await createCampaignError(url);
				expect(requests.map((request) => JSON.parse(request.body) as unknown)).toEqual([{ name: 'Weekend promo' }]);
				expect(error).toBeInstanceOf(ApiRequestError);
				// The reset itself, not another failure: the description names its network code.
				expect(error.description).toMatch(/^Network error ECONNRESET\./);
				expect(error.failureClass.outcome).toBe('unknown');
				expect(failureOutcome(error)).toBe('unknown');
			},
		);
	});

	it("control: a connection refused before anything was sent is 'refused' (the classes are told apart)", async () => {
		const url = await withServer(() => undefined, async (serverUrl) => serverUrl);
		const error = await createCampaignError(url);
		expect(error.description).toMatch(/^Network error ECONNREFUSED\./);
		expect(failureOutcome(error)).toBe('refused');
	});
});
