// The /_sandbox/ control API: received campaigns, recent requests and programmed faults.

import { createHash } from 'node:crypto';

import { Sandbox, call, expectSchema, rawRequest, sleep, startTestSandbox, validCampaign, validChannel } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

async function addFault(fault: Record<string, unknown>): Promise<string> {
  const reply = await call(sandbox, 'POST', '/_sandbox/faults', { json: fault });
  expect(reply.status).toBe(201);
  return reply.json.id;
}

async function campaigns() {
  return (await call(sandbox, 'GET', '/_sandbox/campaigns')).json.campaigns;
}

async function requests() {
  return (await call(sandbox, 'GET', '/_sandbox/requests')).json.requests;
}

function createCampaign(options: { undocumented?: boolean } = {}) {
  return call(sandbox, 'POST', '/lba/campaign', { json: validCampaign(), ...options });
}

describe('received campaigns', () => {
  test('are listed oldest first and DELETE forgets them', async () => {
    const first = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign({ name: 'first' }) });
    const second = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign({ name: 'second' }) });
    const listed = await campaigns();
    expect(listed.map((c: { campaignId: string }) => c.campaignId)).toEqual([first.json.campaignId, second.json.campaignId]);
    expect(listed[1].request.name).toBe('second');

    const deleted = await call(sandbox, 'DELETE', '/_sandbox/campaigns');
    expect(deleted.json).toEqual({ deleted: 2 });
    expect(await campaigns()).toEqual([]);
  });
});

describe('recent requests', () => {
  test('record method, path, query, headers (authorization redacted), body and status, oldest first', async () => {
    await call(sandbox, 'GET', '/io/location?latlng=-6.9175,107.6191&extra=a&extra=b');
    await call(sandbox, 'GET', '/io/products', { token: 'wrong' });
    await createCampaign();
    const list = await requests();
    expect(list.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/io/location', 200],
      ['/io/products', 401],
      ['/lba/campaign', 200],
    ]);
    expect(list[0].method).toBe('GET');
    expect(list[0].query).toEqual({ latlng: '-6.9175,107.6191', extra: ['a', 'b'] });
    expect(list[0].body).toBeNull();
    expect(list[1].headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(list)).not.toContain(sandbox.tokens[0]);
    // Which token was used, without the token: the same token gives the same fingerprint.
    expect(list[1].tokenFingerprint).toBe(createHash('sha256').update('wrong').digest('hex').slice(0, 12));
    expect(list[0].tokenFingerprint).toBe(list[2].tokenFingerprint);
    expect(list[0].tokenFingerprint).not.toBe(list[1].tokenFingerprint);
    expect(list[2].body).toEqual(validCampaign());
    for (const entry of list) expect(Date.parse(entry.at)).not.toBeNaN();
  });

  test('do not include control requests', async () => {
    await call(sandbox, 'GET', '/_sandbox/campaigns');
    await call(sandbox, 'GET', '/_sandbox/faults');
    expect(await requests()).toEqual([]);
  });

  test('keep only the last 1000', async () => {
    for (let i = 0; i < 1005; i++) await rawRequest(`${sandbox.url}/nowhere-${i}`, 'GET');
    const list = await requests();
    expect(list).toHaveLength(1000);
    expect(list[0].path).toBe('/nowhere-5');
    expect(list[999].path).toBe('/nowhere-1004');
  });

  test('a body that is not JSON is kept as text', async () => {
    await call(sandbox, 'POST', '/lba/campaign', { body: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expect((await requests())[0].body).toBe('hello');
  });
});

describe('faults', () => {
  test('when "before", a status and body replace the handling: nothing is created, the attempt is recorded', async () => {
    await addFault({ method: 'POST', path: '/lba/campaign', status: 503, body: { down: true } });
    const reply = await createCampaign({ undocumented: true });
    expect(reply.status).toBe(503);
    expect(reply.json).toEqual({ down: true });
    expect(await campaigns()).toEqual([]);
    const list = await requests();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ method: 'POST', path: '/lba/campaign', status: 503 });

    // Used up: the next request is handled normally.
    expect((await createCampaign()).status).toBe(200);
  });

  test('429 with Retry-After', async () => {
    await addFault({ path: '/io/products', status: 429, headers: { 'Retry-After': '2' } });
    const reply = await call(sandbox, 'GET', '/io/products', { undocumented: true });
    expect(reply.status).toBe(429);
    expect(reply.headers['retry-after']).toBe('2');
    // Without a body of its own the fault answers a SandboxError.
    expectSchema(reply.json, 'components', 'schemas', 'SandboxError');
    expect(reply.json.error.code).toBe('SANDBOX_FAULT');
  });

  test('when "after", the campaign IS created and journalled, then the status replaces the answer', async () => {
    await addFault({ method: 'POST', path: '/lba/campaign', when: 'after', status: 500 });
    const reply = await createCampaign({ undocumented: true });
    expect(reply.status).toBe(500);
    expect(await campaigns()).toHaveLength(1);
    expect((await requests())[0].status).toBe(500);
  });

  test('drop before: the connection is cut, nothing is created, status "dropped"', async () => {
    await addFault({ method: 'POST', path: '/lba/campaign', drop: true });
    await expect(createCampaign()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await campaigns()).toEqual([]);
    const list = await requests();
    expect(list).toHaveLength(1);
    expect(list[0].status).toBe('dropped');
  });

  test('drop after: the connection is cut but the campaign was created', async () => {
    await addFault({ method: 'POST', path: '/lba/campaign', drop: true, when: 'after' });
    await expect(createCampaign()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await campaigns()).toHaveLength(1);
    expect((await requests())[0].status).toBe('dropped');
  });

  test('latency only: the normal answer comes late, and only for one call', async () => {
    await addFault({ path: '/io/products', latencyMs: 300 });
    const started = Date.now();
    const reply = await call(sandbox, 'GET', '/io/products');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply.status).toBe(200);
    // The one call used the fault up (times 1), so none is left to delay the next.
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toEqual([]);
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
  });

  test('latency with a status delays the fault answer', async () => {
    await addFault({ path: '/io/products', latencyMs: 200, status: 502 });
    const started = Date.now();
    const reply = await call(sandbox, 'GET', '/io/products', { undocumented: true });
    expect(reply.status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test('times counts down, and only matching method and path are faulted', async () => {
    await addFault({ method: 'get', path: '/io/products', status: 503, times: 2 });
    expect((await call(sandbox, 'GET', '/io/location?latlng=0,0')).status).not.toBe(503);
    expect((await call(sandbox, 'POST', '/io/products')).status).toBe(405);
    expect((await call(sandbox, 'GET', '/io/products', { undocumented: true })).status).toBe(503);
    const pending = (await call(sandbox, 'GET', '/_sandbox/faults')).json.faults;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ method: 'GET', path: '/io/products', times: 1 });
    expect((await call(sandbox, 'GET', '/io/products', { undocumented: true })).status).toBe(503);
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toEqual([]);
  });

  test('faults are used oldest first; a fault without method or path matches any API request', async () => {
    const first = await addFault({ status: 502 });
    const second = await addFault({ status: 504 });
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults.map((f: { id: string }) => f.id)).toEqual([first, second]);
    expect((await call(sandbox, 'GET', '/nowhere', { undocumented: true })).status).toBe(502);
    expect((await call(sandbox, 'GET', '/io/products', { undocumented: true })).status).toBe(504);
  });

  test('control requests are never faulted', async () => {
    await addFault({ status: 500, times: 10 });
    expect((await call(sandbox, 'GET', '/_sandbox/campaigns')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults[0].times).toBe(10);
  });

  test('a fault with skip lets the first matching requests through, then faults the next `times`', async () => {
    await addFault({ path: '/io/products', status: 503, skip: 2, times: 1 });
    const seen = [];
    for (let attempt = 0; attempt < 4; attempt++) seen.push((await call(sandbox, 'GET', '/io/products', { undocumented: true })).status);
    expect(seen).toEqual([200, 200, 503, 200]);
  });

  test('a perRequest fault fails each distinct request its first `times` attempts, then lets it through', async () => {
    await addFault({ path: '/io/location', status: 503, times: 2, perRequest: true });
    const statuses = async (latlng: string) => {
      const seen = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        seen.push((await call(sandbox, 'GET', `/io/location?latlng=${latlng}`, { undocumented: true })).status);
      }
      return seen;
    };
    expect(await statuses('-6.9,107.6')).toEqual([503, 503, 200]);
    expect(await statuses('-7.25,112.75')).toEqual([503, 503, 200]);
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
    // It stays (for the next distinct request) until the faults are cleared.
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toHaveLength(1);
    expect((await call(sandbox, 'GET', '/io/location?latlng=1,1', { undocumented: true })).status).toBe(503);
  });

  test('a perRequest fault tells POST bodies apart', async () => {
    await addFault({ method: 'POST', path: '/lba/campaign', status: 502, perRequest: true });
    const first = { ...validCampaign(), name: 'first' };
    expect((await call(sandbox, 'POST', '/lba/campaign', { json: first, undocumented: true })).status).toBe(502);
    expect((await call(sandbox, 'POST', '/lba/campaign', { json: { ...first, name: 'second' }, undocumented: true })).status).toBe(502);
    expect((await call(sandbox, 'POST', '/lba/campaign', { json: first })).status).toBe(200);
    expect(await campaigns()).toHaveLength(1);
  });

  test('DELETE clears pending faults', async () => {
    await addFault({ status: 500 });
    await addFault({ drop: true });
    expect((await call(sandbox, 'DELETE', '/_sandbox/faults')).json).toEqual({ deleted: 2 });
    expect((await call(sandbox, 'GET', '/io/products')).status).toBe(200);
  });

  test.each([
    ['no effect', {}],
    ['an unknown field', { status: 500, colour: 'red' }],
    ['times 0', { status: 500, times: 0 }],
    ['a status out of range', { status: 99 }],
    ['an unknown "when"', { status: 500, when: 'during' }],
    ['a relative path', { status: 500, path: 'io/products' }],
    ['non-string headers', { status: 500, headers: { 'Retry-After': 2 } }],
  ])('an invalid fault (%s) -> 400 with details', async (_label, fault) => {
    const reply = await call(sandbox, 'POST', '/_sandbox/faults', { json: fault });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details.length).toBeGreaterThan(0);
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toEqual([]);
  });
});

describe('POST /_sandbox/reset', () => {
  test('clears campaigns, requests and faults', async () => {
    await createCampaign();
    await addFault({ status: 500, path: '/io/products' });
    expect((await call(sandbox, 'POST', '/_sandbox/reset')).json).toEqual({ reset: true });
    expect(await campaigns()).toEqual([]);
    expect(await requests()).toEqual([]);
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).json.faults).toEqual([]);
  });
});

describe('close()', () => {
  test('ends a request that is waiting on a long fault latency without hanging', async () => {
    const other = await startTestSandbox();
    await call(other, 'POST', '/_sandbox/faults', { json: { latencyMs: 600000 } });
    const pending = call(other, 'GET', '/io/products', { undocumented: true }).catch((error) => error);
    // The fault is gone once the request has taken it, i.e. is waiting on its latency.
    while ((await call(other, 'GET', '/_sandbox/faults')).json.faults.length > 0) await sleep(10);
    // Were close() to wait for the latency, jest's test timeout (60 s) would end this test.
    await other.close();
    expect(String(await pending)).toMatch(/socket hang up|ECONNRESET/);
  });
});

describe('the product catalogue', () => {
  const NEW = {
    uuid: '6f1c2b9e-8d1a-4f7e-9a51-2c3d4e5f6a7b',
    name: 'Promo Kilat 8 GB',
    description: 'Kuota utama 8 GB. Masa aktif 7 hari.',
    details: { data: { mainQuota: '8589934592', nightQuota: '0', appsQuota: '0' } },
    price: { amount: 12000, currency: 'IDR' },
  };
  async function catalogue() {
    const reply = await call(sandbox, 'GET', '/io/products');
    expectSchema(reply.json, 'components', 'schemas', 'ProductList');
    return reply.json.results as Array<{ uuid: string; name: string; price: { amount: number } }>;
  }

  test('adds, changes in place and removes products; reset restores the built-in list', async () => {
    const before = await catalogue();
    const [first, second] = before;
    const changed = { ...NEW, uuid: first.uuid, name: first.name, price: { amount: 1000, currency: 'IDR' } };
    const reply = await call(sandbox, 'POST', '/_sandbox/products', { json: { upsert: [NEW, changed], remove: [second.uuid] } });
    expect(reply.json).toEqual({ totalResults: before.length });
    const after = await catalogue();
    expect(after.map((product) => product.uuid)).toEqual([first.uuid, ...before.slice(2).map((product) => product.uuid), NEW.uuid]);
    expect(after[0].price.amount).toBe(1000);

    expect((await call(sandbox, 'DELETE', '/_sandbox/products')).json).toEqual({ totalResults: before.length });
    expect(await catalogue()).toEqual(before);
    await call(sandbox, 'POST', '/_sandbox/products', { json: { remove: [first.uuid] } });
    await call(sandbox, 'POST', '/_sandbox/reset');
    expect(await catalogue()).toEqual(before);
  });

  test('a bad change is refused with the fields named', async () => {
    const reply = await call(sandbox, 'POST', '/_sandbox/products', { json: { upsert: [{ ...NEW, price: { amount: -1, currency: 'IDR' } }] } });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.json.error.details)).toContain('price');
    expect((await call(sandbox, 'POST', '/_sandbox/products', { json: {} })).status).toBe(400);
  });
});

test('the campaign journal names the place each channel targets (GET /lba/locations), or null', async () => {
  const campaign = validCampaign({ channels: [validChannel({ locationId: 3273 }), validChannel({ locationId: 161, telcoId: 'xl' })] });
  expect((await call(sandbox, 'POST', '/lba/campaign', { json: campaign })).status).toBe(200);
  const [received] = await campaigns();
  expect(received.targets).toEqual([{ locationId: 3273, place: 'Kota Bandung' }, { locationId: 161, place: null }]);
});
