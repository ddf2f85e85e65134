import { errorOf, N8N_MAJOR } from '../harness';
import { campaigns, createParameters, fault, requests, runNode, useSandbox } from '../nodes/LbaAds/setup';

const context = useSandbox({ tokenTtlSeconds: 3600 });

const productsOnce = { resource: 'product', operation: 'getMany', limit: 1 };

describe('LBA Ads API credential (access token)', () => {
	it('sends "Authorization: Bearer <token>" (the journal shows it redacted)', async () => {
		const result = await runNode(context, productsOnce);
		expect(errorOf(result)).toBeUndefined();
		const [sent] = await requests(context, { path: '/io/products' });
		expect(sent.headers.authorization).toMatch(/^Bearer /);
		expect(sent.headers.authorization).not.toContain(context.token);
	});

	it('the credential Test button tells a good token from a bad one and a wrong URL', async () => {
		const good = await context.n8n.testCredential('lbaAdsApi', { baseUrl: `${context.sandbox.url}/`, accessToken: context.token });
		expect(good.status).toBe('OK');
		const bad = await context.n8n.testCredential('lbaAdsApi', { baseUrl: context.sandbox.url, accessToken: 'wrong-token' });
		expect(bad.status).toBe('Error');
		const nowhere = await context.n8n.testCredential('lbaAdsApi', { baseUrl: 'http://127.0.0.1:9', accessToken: context.token });
		expect(nowhere.status).toBe('Error');
	});

	it('a refused token gives an error that says to check the credential', async () => {
		const result = await runNode(context, productsOnce, [{}], {
			credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: 'expired-or-wrong' } },
		});
		expect(errorOf(result)).toMatchObject({
			message: 'The LBA service refused the access token (HTTP 401): check the LBA Ads credential',
			httpCode: '401',
		});
		expect(errorOf(result)?.description).toMatch(/invalid/i);
	});

	it('an unreachable Base URL is a clear error after bounded retries', async () => {
		const result = await runNode(context, productsOnce, [{}], {
			credentials: { lbaAdsApi: { baseUrl: 'http://127.0.0.1:9', accessToken: context.token } },
		});
		expect(errorOf(result)).toMatchObject({
			message: 'Could not reach the LBA service for GET /io/products after 4 attempts',
			description: expect.stringMatching(/^Network error ECONNREFUSED\. Check the Base URL/),
		});
	});
});

describe('LBA Ads OAuth2 API credential (client credentials)', () => {
	const oauthNode = { node: { credentials: { lbaAdsOAuth2Api: { id: 'cred-2', name: 'LBA OAuth2' } } } };
	const oauth = () => ({
		lbaAdsOAuth2Api: {
			baseUrl: context.sandbox.url,
			clientId: context.sandbox.clientId,
			clientSecret: context.sandbox.clientSecret,
		},
	});

	it('n8n fetches a token from <Base URL>/oauth/token and uses it for the call', async () => {
		const result = await runNode(context, { ...productsOnce, authentication: 'oAuth2' }, [{}], {
			...oauthNode,
			credentials: oauth(),
		});
		expect(errorOf(result)).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const sent = await requests(context);
		expect(sent.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
			'POST /oauth/token 200',
			'GET /io/products 200',
		]);
		expect(sent[0].headers.authorization).toMatch(/^Basic /);
	});

	it('the OAuth2 credential Test button fetches a token and uses it', async () => {
		const good = await context.n8n.testCredential('lbaAdsOAuth2Api', oauth().lbaAdsOAuth2Api);
		expect(good.status).toBe('OK');
		const bad = await context.n8n.testCredential('lbaAdsOAuth2Api', { ...oauth().lbaAdsOAuth2Api, clientSecret: 'nope' });
		expect(bad.status).toBe('Error');
	});

	it('creates a campaign with OAuth2', async () => {
		const result = await runNode(context, { ...createParameters(), authentication: 'oAuth2' }, [{}], {
			...oauthNode,
			credentials: oauth(),
		});
		expect(errorOf(result)).toBeUndefined();
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('a wrong client secret fails with an error that names the credential, and nothing else is sent', async () => {
		const credentials = oauth();
		credentials.lbaAdsOAuth2Api.clientSecret = 'not-the-secret';
		const result = await runNode(context, { ...productsOnce, authentication: 'oAuth2' }, [{}], { ...oauthNode, credentials });
		// Regression (secrets suite): this read "Could not reach the LBA service… Network error EAUTH. Check the Base URL".
		// The sandbox answers as the real service: 401 {"ErrorCode": "invalid_client", "Error": "Unknown client or wrong secret."}.
		// n8n 1.x's NodeApiError keeps no body of the token answer, so there the reason cannot be read.
		expect(errorOf(result)?.message).toBe(
			N8N_MAJOR >= 2 ? 'The LBA service refused the OAuth2 client credentials: Unknown client or wrong secret.' : 'The LBA service refused the OAuth2 client credentials',
		);
		expect(errorOf(result)?.description).toMatch(/^Nothing was sent to GET \/io\/products\. Check the Client ID and Client Secret/);
		expect((await requests(context)).map((request) => request.path)).toEqual(['/oauth/token']);
	});

	it('a failing token URL is reported as such, not as the API failing', async () => {
		await fault(context, { path: '/oauth/token', status: 500, times: 10 });
		const result = await runNode(context, { ...createParameters(), authentication: 'oAuth2' }, [{}], { ...oauthNode, credentials: oauth() });
		// Regression (secrets suite): this read "The LBA service failed to answer POST /lba/campaign (HTTP 500)".
		// The first request of a Create run is the Location ID check's read (retried): the token fails there,
		// before any campaign. n8n 1.x's error keeps only the status, not which URL failed, so there the
		// read's failure is the check's ("could not be checked ... Nothing was sent").
		expect(errorOf(result)?.message).toMatch(
			N8N_MAJOR >= 2
				? /^Could not get an OAuth2 access token from the LBA service \(HTTP 500\).*; the campaign was not created/
				: /^Item 1 › Location ID: could not be checked, as GET \/lba\/locations failed .*Nothing was sent\.$/,
		);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});
});

describe('the access token never leaks', () => {
	const secret = 'tok-SECRET-5e1f';

	it.each([
		['401', async () => undefined, secret],
		['400 G-400003', async () => fault(context, { path: '/lba/campaign', status: 400, body: { success: false, error: { code: 'G-400003', message: 'bad' } } }), undefined],
		['503', async () => fault(context, { path: '/lba/campaign', status: 503, body: { message: 'down' } }), undefined],
		['dropped connection', async () => fault(context, { path: '/lba/campaign', drop: true }), undefined],
	])('not in outputs or errors after %s (with and without continueOnFail)', async (_name, arrange, tokenToUse) => {
		// The sandbox accepts `secret` as a token unless the case is about a refused token.
		const token = tokenToUse ?? context.token;
		for (const onError of ['stopWorkflow', 'continueRegularOutput'] as const) {
			await arrange();
			const result = await runNode(context, createParameters(), [{}], {
				node: { onError },
				credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: token } },
			});
			const everything = JSON.stringify({ run: result.run, error: result.error, stack: result.error?.stack, items: result.items });
			expect(everything.length).toBeGreaterThan(100);
			expect(everything).not.toContain(token);
			if (onError === 'continueRegularOutput') expect(result.items[0].json.error).toEqual(expect.any(String));
			else expect(result.error).toBeDefined();
		}
	});
});

describe('a service that echoes the token back in its error', () => {
	it.each([
		['campaign', createParameters(), '/lba/campaign', 502],
		['products', productsOnce, '/io/products', 400],
	])('%s: the echoed token is redacted from message, description and error item', async (_name, parameters, path, status) => {
		const echo = { success: false, error: { code: 'ECHO', message: `Bad request: Authorization: Bearer ${context.token} (token ${context.token})` } };
		await fault(context, { path, status, body: echo, times: 10 });
		const result = await runNode(context, parameters, [{}], { node: { onError: 'continueRegularOutput' } });
		const everything = JSON.stringify({ run: result.run, items: result.items });
		expect(result.items[0].json.error).toEqual(expect.any(String));
		expect(everything).toContain('[redacted]');
		expect(everything).not.toContain(context.token);
	});

	it('geocoding: a non-OK status whose error_message echoes the token', async () => {
		await fault(context, { path: '/io/location', status: 200, body: { status: 'REQUEST_DENIED', error_message: `Token ${context.token} is not allowed`, results: [] } });
		const result = await runNode(context, { resource: 'location', operation: 'reverseGeocode', latitude: -6.2, longitude: 106.8 }, [{}], { node: { onError: 'continueRegularOutput' } });
		expect(result.items[0].json).toMatchObject({ error: 'The LBA service could not geocode -6.2,106.8: REQUEST_DENIED', description: 'Token [redacted] is not allowed' });
		expect(JSON.stringify(result.run)).not.toContain(context.token);
	});
});

describe('OAuth2 against a service that answers token_type "BearerToken" (Apigee)', () => {
	const apigee = useSandbox({ tokenType: 'BearerToken' });

	it('still sends "Authorization: Bearer <token>", never the token in the URL', async () => {
		const result = await runNode(apigee, { ...productsOnce, authentication: 'oAuth2' }, [{}], {
			node: { credentials: { lbaAdsOAuth2Api: { id: 'cred-2', name: 'LBA OAuth2' } } },
			credentials: {
				lbaAdsOAuth2Api: { baseUrl: apigee.sandbox.url, clientId: apigee.sandbox.clientId, clientSecret: apigee.sandbox.clientSecret },
			},
		});
		expect(errorOf(result)).toBeUndefined();
		const [tokenRequest, call] = await requests(apigee);
		expect(tokenRequest.path).toBe('/oauth/token');
		expect(call.headers.authorization).toBe('Bearer [redacted]');
		expect(call.query).toEqual({});
	});

	// Regression (secrets suite): the Test button goes through n8n's own request code, which put a
	// non-"bearer" token in the query string until the credential's preAuthentication fixed its type.
	// n8n-core 1.x never calls a credential's preAuthentication on the OAuth2 path (2.x does, via
	// runPreAuthentication), so on 1.x the Test button still sends a "BearerToken" in the query.
	(N8N_MAJOR >= 2 ? it : it.skip)('the credential Test button also sends the header, never ?access_token=', async () => {
		const tested = await apigee.n8n.testCredential('lbaAdsOAuth2Api', {
			baseUrl: apigee.sandbox.url,
			clientId: apigee.sandbox.clientId,
			clientSecret: apigee.sandbox.clientSecret,
		});
		expect(tested.status).toBe('OK');
		const calls = await requests(apigee, { path: '/io/products' });
		expect(calls.map((call) => [call.headers.authorization, call.query])).toEqual([['Bearer [redacted]', {}]]);
	});
});
