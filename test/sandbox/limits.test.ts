// Limits and bad input: 413 over 1 MiB, 404, timeouts, malformed HTTP; JSON every time,
// and the server keeps running whatever it is sent.

import * as net from 'node:net';
import { Sandbox, call, expectSchema, rawRequest, startTestSandbox, validCampaign } from './helpers';

const MIB = 1024 * 1024;

// The default timeouts (10 s for headers, 30 s for the request): a big body read on a loaded
// machine never meets them, so it gets its 413 and not a 408. The timeout tests have their own.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

/** Writes raw bytes on a fresh connection and collects what comes back until the server closes. */
function rawExchange(data: string | Buffer, { endInput = false, timeoutMs = 5000, to = sandbox } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to.port, to.host);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${Buffer.concat(chunks).toString()}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is fine
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(data);
    if (endInput) socket.end();
  });
}

function parseRawResponse(text: string): { status: number; headers: string; body: unknown } {
  const [head, ...rest] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
}

/** A valid campaign padded with spaces to exactly `size` bytes of JSON. */
function campaignOfSize(size: number): string {
  const json = JSON.stringify(validCampaign());
  return json.slice(0, -1) + ' '.repeat(size - json.length) + '}';
}

describe('body size', () => {
  test('a campaign of exactly 1 MiB is accepted', async () => {
    const body = campaignOfSize(MIB);
    expect(Buffer.byteLength(body)).toBe(MIB);
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body, headers: { 'Content-Type': 'application/json' } });
    expect(reply.status).toBe(200);
  });

  test('one byte more -> 413 JSON, nothing created, the attempt recorded', async () => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body: campaignOfSize(MIB + 1), headers: { 'Content-Type': 'application/json' } });
    expect(reply.status).toBe(413);
    expect(reply.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await call(sandbox, 'GET', '/_sandbox/campaigns')).json.campaigns).toEqual([]);
    const [entry] = (await call(sandbox, 'GET', '/_sandbox/requests')).json.requests;
    expect(entry).toMatchObject({ path: '/lba/campaign', status: 413 });
  });

  test('an oversized chunked body (no Content-Length) -> 413', async () => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', {
      body: campaignOfSize(2 * MIB),
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    expect(reply.status).toBe(413);
  });

  test('a huge declared Content-Length -> 413 at once and the connection is closed', async () => {
    const text = await rawExchange(
      `POST /lba/campaign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * MIB}\r\n\r\n{"name":`,
    );
    const response = parseRawResponse(text);
    expect(response.status).toBe(413);
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
  });

  test('the oversize limit also guards the token endpoint', async () => {
    const reply = await call(sandbox, 'POST', '/oauth/token', {
      token: null,
      body: 'grant_type=client_credentials&pad=' + 'x'.repeat(MIB),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(reply.status).toBe(413);
  });
});

describe('unknown paths', () => {
  test.each(['/', '/lba', '/lba/campaign/extra', '/io/location/', '/IO/PRODUCTS', '/_sandbox/unknown', '/../etc/passwd'])(
    '%s -> 404 JSON',
    async (route) => {
      const reply = await call(sandbox, 'GET', route);
      expect(reply.status).toBe(404);
      expect(reply.json.error.code).toBe('NOT_FOUND');
    },
  );

  test('an unknown path needs no token to get its 404', async () => {
    expect((await call(sandbox, 'GET', '/nothing', { token: null })).status).toBe(404);
  });
});

describe('timeouts and malformed HTTP', () => {
  const HEADERS_TIMEOUT_MS = 300;
  let timed: Sandbox;
  beforeAll(async () => {
    timed = await startTestSandbox({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: 600 });
  });
  afterAll(() => timed.close());

  test('headers not finished in time -> 408 JSON and the connection is closed', async () => {
    const started = Date.now();
    // rawExchange resolves only when the server closes: the client never gives up first.
    const response = parseRawResponse(await rawExchange('GET /io/products HTTP/1.1\r\nHost: x\r\n', { to: timed }));
    expect(response.status).toBe(408);
    expect(response.headers).toContain('content-type: application/json');
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
    expect((response.body as { error: { code: string } }).error.code).toBe('REQUEST_TIMEOUT');
    // Not before the configured headers timeout: the answer is that timeout's.
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 10);
  });

  test('a body not finished in time -> 408 JSON, nothing created', async () => {
    const response = parseRawResponse(
      await rawExchange('POST /lba/campaign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":', { to: timed }),
    );
    expect(response.status).toBe(408);
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
    expect((await call(timed, 'GET', '/_sandbox/campaigns')).json.campaigns).toEqual([]);
  });

  test('garbage instead of HTTP -> 400 JSON', async () => {
    const response = parseRawResponse(await rawExchange('HELLO THERE\r\n\r\n'));
    expect(response.status).toBe(400);
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
  });

  test('headers over the size limit -> 431 JSON', async () => {
    const response = parseRawResponse(await rawExchange(`GET /io/products HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70000)}\r\n\r\n`));
    expect(response.status).toBe(431);
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
  });
});

describe('robustness', () => {
  test('odd requests get JSON answers and the server keeps working', async () => {
    const odd: [string, string, Record<string, string>, string | Buffer | undefined][] = [
      ['POST', '/lba/campaign', { 'Content-Type': 'application/json' }, Buffer.from([0xff, 0xfe, 0x00, 0x7b])],
      ['POST', '/lba/campaign', { 'Content-Type': 'application/json' }, '{"name": "\u0000\ud800"}'],
      ['POST', '/lba/campaign', { 'Content-Type': 'application/json' }, '9'.repeat(5000)],
      ['POST', '/lba/campaign', { 'Content-Type': 'application/json' }, JSON.stringify({ __proto__: { x: 1 }, constructor: 1 })],
      ['POST', '/lba/campaign', { 'Content-Type': 'application/json' }, '['.repeat(100000)],
      ['GET', '/io/location?latlng=%E0%A4%A', {}, undefined],
      ['GET', '/io/location?latlng=' + '1'.repeat(5000) + ',1', {}, undefined],
      ['GET', '/io/location?latlng=NaN,NaN', {}, undefined],
      ['GET', '/io/location?latlng=Infinity,0', {}, undefined],
      ['DELETE', '/io/products', {}, undefined],
      ['PATCH', '/_sandbox/faults', {}, undefined],
      ['POST', '/_sandbox/faults', { 'Content-Type': 'application/json' }, '{"status": 500, "times": 1e400}'],
      ['GET', '/%%%', {}, undefined],
    ];
    for (const [method, route, headers, body] of odd) {
      const reply = await rawRequest(sandbox.url + route, method, { Authorization: `Bearer ${sandbox.tokens[0]}`, ...headers }, body);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(reply.json).toBeDefined();
    }
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
  });

  test('a client that disconnects mid-body does not disturb the server', async () => {
    const socket = net.connect(sandbox.port, sandbox.host);
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write('POST /lba/campaign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
    socket.destroy();
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
  });
});

// Regressions found by the reliability suite (test/reliability/sandbox-abuse.reliability.test.ts).
describe('HTTP edge cases answered in JSON', () => {
  const H = `Host: x\r\nAuthorization: Bearer lba-sandbox-token\r\nConnection: close\r\n`;

  test.each([
    ['no Host on HTTP/1.1', 400, 'BAD_REQUEST', `GET /io/products HTTP/1.1\r\nConnection: close\r\n\r\n`],
    ['two Host headers', 400, 'BAD_REQUEST', `GET /io/products HTTP/1.1\r\n${H}Host: y\r\n\r\n`],
    ['an unknown Expect', 417, 'EXPECTATION_FAILED', `GET /io/products HTTP/1.1\r\n${H}Expect: tea\r\n\r\n`],
    ['HTTP/2.0 in the request line', 505, 'HTTP_VERSION_NOT_SUPPORTED', `GET /io/products HTTP/2.0\r\n${H}\r\n`],
    ['an HTTP/0.9 request line', 505, 'HTTP_VERSION_NOT_SUPPORTED', 'GET /io/products\r\n\r\n'],
    ['CONNECT to an API path', 405, 'METHOD_NOT_ALLOWED', `CONNECT /io/products HTTP/1.1\r\n${H}\r\n`],
    ['CONNECT to a host', 404, 'NOT_FOUND', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ])('%s -> %i %s JSON, then the connection is closed', async (_name, status, code, request) => {
    const response = parseRawResponse(await rawExchange(request));
    expect(response.status).toBe(status);
    expect(response.headers).toContain('content-type: application/json');
    expectSchema(response.body, 'components', 'schemas', 'SandboxError');
    expect((response.body as { error: { code: string } }).error.code).toBe(code);
  });

  test('HTTP/1.0 needs no Host', async () => {
    expect(parseRawResponse(await rawExchange('GET /io/products HTTP/1.0\r\nAuthorization: Bearer lba-sandbox-token\r\n\r\n')).status).toBe(200);
  });

  test('an absolute-form target routes by its path', async () => {
    expect(parseRawResponse(await rawExchange(`GET http://x/io/products HTTP/1.1\r\n${H}\r\n`)).status).toBe(200);
  });

  test('percent-encoded letters route like the letters; an encoded "/" does not', async () => {
    const route = (target: string) => rawRequest({ host: sandbox.host, port: sandbox.port, path: target }, 'GET', { Authorization: `Bearer ${sandbox.tokens[0]}` });
    expect((await route('/io/%70r%6Fducts')).status).toBe(200);
    expect((await route('/io%2Fproducts')).status).toBe(404);
    expect((await route('/io/./products')).status).toBe(404);
  });

  test('HEAD is GET without the body; Allow lists HEAD where GET is served', async () => {
    const head = await rawRequest(`${sandbox.url}/io/products`, 'HEAD', { Authorization: `Bearer ${sandbox.tokens[0]}` });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    expect(head.text).toBe('');
    expect((await call(sandbox, 'PUT', '/io/products')).headers.allow).toBe('GET, HEAD');
    expect((await call(sandbox, 'HEAD', '/lba/campaign', { undocumented: true })).headers.allow).toBe('POST');
  });

  test('a body streamed past the drain limit still gets its 413', async () => {
    const text = await rawExchange(
      Buffer.concat([
        Buffer.from('POST /lba/campaign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'),
        ...Array.from({ length: 160 }, () => Buffer.from(`10000\r\n${' '.repeat(65536)}\r\n`)),
      ]),
    );
    expect(parseRawResponse(text).status).toBe(413);
  });
});

describe('bodies the sandbox used to accept or choke on', () => {
  test('invalid UTF-8 in a campaign -> 400 G-400003 (field body), nothing created', async () => {
    const json = JSON.stringify(validCampaign());
    const body = Buffer.concat([Buffer.from(json.slice(0, 10)), Buffer.from([0xff]), Buffer.from(json.slice(10))]);
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body, headers: { 'Content-Type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details).toEqual([{ field: 'body', message: 'is not valid UTF-8' }]);
    expect((await call(sandbox, 'GET', '/_sandbox/campaigns')).json.campaigns).toEqual([]);
  });

  test('a request body nested too deeply to serialise is listed as a note, not a 500', async () => {
    await call(sandbox, 'POST', '/lba/campaign', { body: '['.repeat(30000) + ']'.repeat(30000), headers: { 'Content-Type': 'application/json' } });
    const reply = await call(sandbox, 'GET', '/_sandbox/requests');
    expect(reply.status).toBe(200);
    expect(reply.json.requests[0].body).toBe('[JSON nested too deeply to list]');
  });

  test.each([
    ['a header value with CR LF', { headers: { 'X-A': 'a\r\nb' } }],
    ['a header name with a space', { headers: { 'Bad Name': 'x' } }],
    ['a Content-Length header', { headers: { 'content-length': '5' } }],
    ['a Content-Type header', { headers: { 'Content-Type': 'text/html' } }],
  ])('a fault with %s is refused (its answer could not be sent)', async (_name, extra) => {
    const reply = await call(sandbox, 'POST', '/_sandbox/faults', { json: { path: '/io/products', status: 503, ...extra } });
    expect(reply.status).toBe(400);
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
  });

  test('a fault body nested too deeply to serialise is refused', async () => {
    const body = `{"path":"/io/products","status":503,"body":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const reply = await call(sandbox, 'POST', '/_sandbox/faults', { body, headers: { 'Content-Type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toEqual([]);
  });
});
