// Spec 5 and 7.2 (bearer tokens) and the client-credentials token endpoint.

import { Sandbox, call, rawRequest, expectDocumented, startTestSandbox, validCampaign } from './helpers';

const FAULT_72 = {
  fault: {
    faultstring: 'Invalid Access Token',
    detail: { errorcode: 'keymanagement.service.invalid_access_token' },
  },
};

function basic(id: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64');
}

async function tokenRequest(sandbox: Sandbox, headers: Record<string, string>, form: string) {
  const reply = await rawRequest(`${sandbox.url}/oauth/token`, 'POST', { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, form);
  expectDocumented('POST', '/oauth/token', reply);
  return reply;
}

describe('bearer token on API routes', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: ['first-token', 'second-token'] });
  });
  afterAll(() => sandbox.close());

  const routes: [string, string][] = [
    ['GET', '/io/products'],
    ['GET', '/io/location?latlng=-6.9175,107.6191'],
    ['POST', '/lba/campaign'],
  ];
  const badAuthorizations: [string, Record<string, string>][] = [
    ['missing', {}],
    ['another scheme', { Authorization: 'Basic Zmlyc3QtdG9rZW46eA==' }],
    ['Bearer without token', { Authorization: 'Bearer' }],
    ['Bearer with two words', { Authorization: 'Bearer first-token extra' }],
    ['token without scheme', { Authorization: 'first-token' }],
    ['unknown token', { Authorization: 'Bearer not-a-token' }],
    ['a prefix of a valid token', { Authorization: 'Bearer first-tok' }],
  ];

  for (const [method, route] of routes) {
    for (const [label, headers] of badAuthorizations) {
      test(`${method} ${route.split('?')[0]}: ${label} -> 401 with exactly the spec 7.2 body`, async () => {
        const reply = await call(sandbox, method, route, { token: null, headers, json: method === 'POST' ? validCampaign() : undefined });
        expect(reply.status).toBe(401);
        expect(reply.json).toEqual(FAULT_72);
      });
    }
  }

  test('a rejected campaign is not created', async () => {
    await call(sandbox, 'POST', '/lba/campaign', { token: 'wrong', json: validCampaign() });
    const list = await call(sandbox, 'GET', '/_sandbox/campaigns');
    expect(list.json.campaigns).toHaveLength(0);
  });

  test('every configured token is accepted, and the scheme name is case-insensitive', async () => {
    expect((await call(sandbox, 'GET', '/io/products', { token: 'first-token' })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/io/products', { token: 'second-token' })).status).toBe(200);
    const lower = await call(sandbox, 'GET', '/io/products', { token: null, headers: { Authorization: 'bearer second-token' } });
    expect(lower.status).toBe(200);
  });

  test('the result reports the tokens in use', () => {
    expect(sandbox.tokens).toEqual(['first-token', 'second-token']);
  });
});

describe('POST /oauth/token (beyond the spec)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clientId: 'my-client', clientSecret: 's3cr:et', tokenTtlSeconds: 1 });
  });
  afterAll(() => sandbox.close());
  // The sandbox runs in this process: its clock (Date only; timers and I/O stay real) stands still
  // until a test moves it, so a 1 s token cannot expire early on a loaded machine, nor need a real wait.
  beforeEach(() => {
    jest.useFakeTimers({ now: Date.now(), doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  });
  afterEach(() => jest.useRealTimers());

  test('Basic client credentials issue a working Bearer token that expires after expires_in', async () => {
    const reply = await tokenRequest(sandbox, { Authorization: basic('my-client', 's3cr:et') }, 'grant_type=client_credentials');
    expect(reply.status).toBe(200);
    expect(reply.json.token_type).toBe('Bearer');
    expect(reply.json.expires_in).toBe('1');
    expect(reply.json.api_product_list).toBe('[lba-ads-sandbox]');
    expect(reply.headers['cache-control']).toBe('no-store');
    const token = reply.json.access_token;
    expect((await call(sandbox, 'GET', '/io/products', { token })).status).toBe(200);

    jest.setSystemTime(Date.now() + 999);
    expect((await call(sandbox, 'GET', '/io/products', { token })).status).toBe(200);
    jest.setSystemTime(Date.now() + 1);
    const expired = await call(sandbox, 'GET', '/io/products', { token });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual(FAULT_72);
  });

  test('client_id and client_secret in the form body work too, and tokens differ', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'my-client', client_secret: 's3cr:et' });
    const first = await tokenRequest(sandbox, {}, form.toString());
    const second = await tokenRequest(sandbox, {}, form.toString());
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.json.access_token).not.toBe(second.json.access_token);
    expect((await call(sandbox, 'GET', '/io/products', { token: second.json.access_token })).status).toBe(200);
  });

  test('a wrong secret gets 401 invalid_client with WWW-Authenticate, however the client authenticated', async () => {
    const viaHeader = await tokenRequest(sandbox, { Authorization: basic('my-client', 'wrong') }, 'grant_type=client_credentials');
    expect(viaHeader.status).toBe(401);
    expect(viaHeader.json.ErrorCode).toBe('invalid_client');
    expect(viaHeader.headers['www-authenticate']).toMatch(/^Basic/);

    const viaBody = await tokenRequest(sandbox, {}, 'grant_type=client_credentials&client_id=my-client&client_secret=wrong');
    expect(viaBody.status).toBe(401);
    expect(viaBody.json.ErrorCode).toBe('invalid_client');
    expect(viaBody.headers['www-authenticate']).toMatch(/^Basic/); // RFC 9110: every 401 has it
  });

  test('no client credentials at all get 401 invalid_client', async () => {
    const reply = await tokenRequest(sandbox, {}, 'grant_type=client_credentials');
    expect(reply.status).toBe(401);
    expect(reply.json.ErrorCode).toBe('invalid_client');
  });

  test('another grant type gets 400 unsupported_grant_type; none gets invalid_request', async () => {
    const auth = { Authorization: basic('my-client', 's3cr:et') };
    const password = await tokenRequest(sandbox, auth, 'grant_type=password&username=a&password=b');
    expect(password.status).toBe(400);
    expect(password.json.ErrorCode).toBe('unsupported_grant_type');
    const none = await tokenRequest(sandbox, auth, '');
    expect(none.status).toBe(400);
    expect(none.json.ErrorCode).toBe('invalid_request');
  });

  test('a JSON body gets 400 invalid_request', async () => {
    const reply = await rawRequest(
      `${sandbox.url}/oauth/token`,
      'POST',
      { Authorization: basic('my-client', 's3cr:et'), 'Content-Type': 'application/json' },
      JSON.stringify({ grant_type: 'client_credentials' }),
    );
    expectDocumented('POST', '/oauth/token', reply);
    expect(reply.status).toBe(400);
    expect(reply.json.ErrorCode).toBe('invalid_request');
  });

  test('the client secret is redacted in the request journal', async () => {
    await tokenRequest(sandbox, {}, 'grant_type=client_credentials&client_id=my-client&client_secret=s3cr%3Aet');
    await tokenRequest(sandbox, { Authorization: basic('my-client', 's3cr:et') }, 'grant_type=client_credentials');
    const journal = await call(sandbox, 'GET', '/_sandbox/requests');
    const text = JSON.stringify(journal.json);
    expect(text).not.toContain('s3cr');
    expect(text).not.toContain(Buffer.from('my-client:s3cr:et').toString('base64'));
    const last = journal.json.requests.at(-1);
    expect(last.headers.authorization).toBe('Basic [redacted]');
  });
});

describe('start-up options', () => {
  test('rejects tokens that could never be sent in a Bearer header', async () => {
    await expect(startTestSandbox({ tokens: ['has space'] })).rejects.toThrow(/tokens/);
    await expect(startTestSandbox({ tokens: [] })).rejects.toThrow(/tokens/);
  });
});
