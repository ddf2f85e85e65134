/**
 * Authenticated HTTP through n8n-core against a throw-away local server: the generic
 * Bearer credential, the OAuth2 client-credentials flow (token fetched by n8n-core's
 * client-oauth2 over HTTP), and the credential "Test" button.
 */
import type { ServerResponse } from 'node:http';

import { errorOf, loadPackageNodes, type Harness } from '../harness';
import { sendJson, startTestServer, type RecordedRequest, type TestServer } from '../harness/test-server';
import { FIXTURE_PACKAGE, probeWorkflow } from './helpers';

const CLIENT_ID = 'client-1';
const CLIENT_SECRET = 's3cret';
const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

/** A tiny API: /oauth/token issues tokens for the right client; /data and /whoami want one. */
class FakeApi {
	server!: TestServer;
	issued: string[] = [];
	valid = new Set<string>(['static-token']);
	tokenType = 'bearer';

	get requests() {
		return this.server.requests;
	}

	async start() {
		this.server = await startTestServer((req, res) => this.handle(req, res));
	}

	private handle(req: RecordedRequest, res: ServerResponse) {
		if (req.path === '/oauth/token') {
			const form = new URLSearchParams(req.body);
			const headerOk = req.headers.authorization === BASIC;
			const bodyOk = form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET;
			if (req.method !== 'POST' || form.get('grant_type') !== 'client_credentials') {
				return sendJson(res, 400, { error: 'unsupported_grant_type' });
			}
			if (!headerOk && !bodyOk) return sendJson(res, 401, { error: 'invalid_client' });
			const token = `tok-${this.issued.length + 1}`;
			this.issued.push(token);
			this.valid.add(token);
			return sendJson(res, 200, { access_token: token, token_type: this.tokenType, expires_in: 3600 });
		}
		const auth = req.headers.authorization ?? '';
		const token = auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
		if (!token || !this.valid.has(token)) {
			res.statusMessage = 'Unauthorized';
			return sendJson(res, 401, { message: 'bad token' });
		}
		return sendJson(res, 200, { path: req.path, token });
	}
}

let n8n: Harness;
let api: FakeApi;
beforeAll(async () => {
	n8n = await loadPackageNodes(FIXTURE_PACKAGE);
});
beforeEach(async () => {
	api = new FakeApi();
	await api.start();
});
afterEach(async () => {
	await api.server.close();
});

const oauth2Credential = (extra: Record<string, unknown> = {}) => ({
	harnessOAuth2Api: { baseUrl: api.server.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...extra },
});

describe('generic Bearer credential', () => {
	test('httpRequestWithAuthentication sends Authorization: Bearer <token>', async () => {
		const result = await n8n.runWorkflow(probeWorkflow({ action: 'request', path: '/data' }), {
			credentials: { harnessBearerApi: { baseUrl: api.server.url, accessToken: 'static-token' } },
		});
		expect(errorOf(result)).toBeUndefined();
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({ method: 'GET', path: '/data' });
		expect(api.requests[0].headers.authorization).toBe('Bearer static-token');
		expect(result.output('Probe')).toEqual([
			{ json: { path: '/data', token: 'static-token' }, pairedItem: { item: 0 } },
		]);
	});

	test('a 401 surfaces as NodeApiError carrying the HTTP code', async () => {
		const result = await n8n.runWorkflow(probeWorkflow({ action: 'request' }), {
			credentials: { harnessBearerApi: { baseUrl: api.server.url, accessToken: 'wrong' } },
		});
		expect(api.requests[0].headers.authorization).toBe('Bearer wrong');
		expect(errorOf(result)).toMatchObject({ name: 'NodeApiError', httpCode: '401', node: 'Probe' });
	});

	test('a node whose credential data is missing fails as in n8n', async () => {
		const result = await n8n.runWorkflow(probeWorkflow({ action: 'request' }), { credentials: {} });
		expect(api.requests).toHaveLength(0);
		expect(errorOf(result)?.message).toMatch(/does not exist for type "harnessBearerApi"/);
	});
});

describe('OAuth2 client credentials (credential extends oAuth2Api)', () => {
	const oauthWorkflow = (items?: Array<Record<string, unknown>>) =>
		probeWorkflow({ authentication: 'oAuth2', action: 'request', path: '/data' }, {}, items);

	test('n8n-core fetches the token over HTTP (Basic client auth), then sends it as Bearer', async () => {
		const result = await n8n.runWorkflow(oauthWorkflow([{ n: 1 }, { n: 2 }]), {
			credentials: oauth2Credential(),
		});
		expect(errorOf(result)).toBeUndefined();
		const [tokenRequest, ...calls] = api.requests;
		expect(tokenRequest).toMatchObject({ method: 'POST', path: '/oauth/token' });
		expect(tokenRequest.headers.authorization).toBe(BASIC);
		expect(tokenRequest.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
		expect(new URLSearchParams(tokenRequest.body).get('grant_type')).toBe('client_credentials');
		// the token is saved on the credential and reused for the second item
		expect(calls.map((r) => [r.path, r.headers.authorization])).toEqual([
			['/data', 'Bearer tok-1'],
			['/data', 'Bearer tok-1'],
		]);
		expect(api.issued).toEqual(['tok-1']);
		expect(result.credentials.harnessOAuth2Api.oauthTokenData).toMatchObject({ access_token: 'tok-1' });
		expect(result.credentialUpdates.map((u) => u.type)).toEqual(['harnessOAuth2Api']);
	});

	test("authentication 'body' sends client id and secret in the form body instead", async () => {
		// (a stored value wins over the type's hidden default, as in n8n 2.40's credentials helper)
		const result = await n8n.runWorkflow(oauthWorkflow(), {
			credentials: oauth2Credential({ authentication: 'body' }),
		});
		expect(errorOf(result)).toBeUndefined();
		const token = api.requests[0];
		expect(token.headers.authorization).toBeUndefined();
		expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
			grant_type: 'client_credentials',
			client_id: CLIENT_ID,
			client_secret: CLIENT_SECRET,
		});
		expect(api.requests[1].headers.authorization).toBe('Bearer tok-1');
	});

	test('a stored token the API rejects (401) is replaced by a fresh one and the call retried', async () => {
		const result = await n8n.runWorkflow(oauthWorkflow(), {
			credentials: oauth2Credential({ oauthTokenData: { access_token: 'expired', token_type: 'bearer' } }),
		});
		expect(errorOf(result)).toBeUndefined();
		expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
			`GET /data Bearer expired`,
			`POST /oauth/token ${BASIC}`,
			`GET /data Bearer tok-1`,
		]);
		expect(result.credentials.harnessOAuth2Api.oauthTokenData).toMatchObject({ access_token: 'tok-1' });
	});

	test('a wrong client secret fails the run with the token error', async () => {
		const result = await n8n.runWorkflow(oauthWorkflow(), {
			credentials: oauth2Credential({ clientSecret: 'nope' }),
		});
		expect(api.requests.map((r) => r.path)).toEqual(['/oauth/token']);
		expect(errorOf(result)?.message).toMatch(/invalid_client|OAuth2|access token/i);
		expect(JSON.stringify(errorOf(result))).not.toContain('nope');
	});

	test("token_type other than 'bearer' (e.g. Apigee's BearerToken) is NOT sent as a header unless the node forces tokenType 'Bearer'", async () => {
		api.tokenType = 'BearerToken';
		const plain = await n8n.runWorkflow(oauthWorkflow(), { credentials: oauth2Credential() });
		// client-oauth2 signs a header only for token_type 'bearer'; otherwise it puts the
		// token into the query string. The API answers 401, n8n fetches a new token and
		// retries once, then the run fails.
		expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
			`POST /oauth/token ${BASIC}`,
			'GET /data?access_token=tok-1 undefined',
			`POST /oauth/token ${BASIC}`,
			// sic: client-oauth2's re-sign strips the old `?access_token=` with a regex that
			// eats only one character of the old token (/[?&]access_token=[^&#]/)
			'GET /dataok-1?access_token=tok-2 undefined',
		]);
		expect(errorOf(plain)?.httpCode).toBe('401');

		api.requests.length = 0;
		const forced = await n8n.runWorkflow(
			probeWorkflow({ authentication: 'oAuth2', action: 'request', path: '/data', forceBearer: true }),
			{ credentials: oauth2Credential() },
		);
		expect(errorOf(forced)).toBeUndefined();
		expect(api.requests[1]).toMatchObject({ path: '/data' });
		expect(api.requests[1].headers.authorization).toBe('Bearer tok-3');
	});
});

describe('testCredential (the credential dialog’s Test button)', () => {
	test('Bearer: OK for a good token, with the test request built from expressions', async () => {
		const result = await n8n.testCredential('harnessBearerApi', {
			baseUrl: api.server.url,
			accessToken: 'static-token',
		});
		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({ method: 'GET', path: '/whoami' });
		expect(api.requests[0].headers.authorization).toBe('Bearer static-token');
	});

	test('Bearer: Error with the status text for a bad token', async () => {
		const result = await n8n.testCredential('harnessBearerApi', {
			baseUrl: api.server.url,
			accessToken: 'wrong',
		});
		expect(result).toMatchObject({ status: 'Error', message: 'Unauthorized' });
		expect(api.requests[0].headers.authorization).toBe('Bearer wrong');
	});

	test('Bearer: Error with the network error code when nothing listens', async () => {
		const url = api.server.url;
		await api.server.close();
		const result = await n8n.testCredential('harnessBearerApi', { baseUrl: url, accessToken: 'x' });
		expect(result).toMatchObject({ status: 'Error', message: 'ECONNREFUSED' });
		api = new FakeApi();
		await api.start(); // for afterEach
	});

	test('OAuth2: the test fetches a token, then calls the test URL with it', async () => {
		const result = await n8n.testCredential('harnessOAuth2Api', oauth2Credential().harnessOAuth2Api);
		expect(result).toMatchObject({ status: 'OK' });
		expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
			`POST /oauth/token ${BASIC}`,
			`GET /whoami Bearer tok-1`,
		]);
		expect(result.credentials.harnessOAuth2Api.oauthTokenData).toMatchObject({ access_token: 'tok-1' });
	});

	test('OAuth2: Error for a wrong client secret', async () => {
		const result = await n8n.testCredential('harnessOAuth2Api', {
			...oauth2Credential().harnessOAuth2Api,
			clientSecret: 'nope',
		});
		expect(result).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(/^Failed to acquire OAuth2 access token: Client authentication failed/),
		});
		expect(result.message).not.toContain('nope');
		expect(api.requests.map((r) => r.path)).toEqual(['/oauth/token']);
	});
});

describe('testCredential without a `test` request (n8n’s fallbacks)', () => {
	test('an OAuth2 type used by a node only checks for a stored access token', async () => {
		const own = await loadPackageNodes(FIXTURE_PACKAGE); // a fresh instance we may change
		delete own.credentialTypes.types.harnessOAuth2Api.test;
		const data = oauth2Credential().harnessOAuth2Api;
		expect(await own.testCredential('harnessOAuth2Api', data)).toMatchObject({
			status: 'Error',
			message: 'This OAuth2 credential was not connected to an account.',
		});
		expect(
			await own.testCredential('harnessOAuth2Api', { ...data, oauthTokenData: { access_token: 'x' } }),
		).toMatchObject({ status: 'OK', message: 'Connection Successful!' });
		expect(api.requests).toHaveLength(0); // no HTTP at all
		expect(n8n.credentialTypes.types.harnessOAuth2Api.test).toBeDefined();
	});

	test('a type no node uses and without a test has no testing function', async () => {
		expect(await n8n.testCredential('oAuth2Api', {})).toMatchObject({
			status: 'Error',
			message: 'No testing function found for this credential.',
		});
	});
});
