// POST /lba/campaign (spec 4.1, 2.1-2.4, 7.1): success, every G-400003 cause, and the
// GET method conflict.

import { Sandbox, call, startTestSandbox, validCampaign, validChannel } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

async function receivedCampaigns() {
  return (await call(sandbox, 'GET', '/_sandbox/campaigns')).json.campaigns;
}

function withoutKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

describe('valid campaigns', () => {
  test('are created and published: 200, campaignId, one channel id per channel, status Published', async () => {
    const body = validCampaign({
      channels: [validChannel(), validChannel({ telcoId: 'isat' }), validChannel({ telcoId: 'xl', locationId: 7 })],
    });
    const reply = await call(sandbox, 'POST', '/lba/campaign', { json: body });
    expect(reply.status).toBe(200);
    expect(reply.json.success).toBe(true);
    expect(reply.json.status).toBe('Published');
    expect(typeof reply.json.message).toBe('string');
    const id = reply.json.campaignId;
    expect(reply.json.channels).toEqual([`${id}-01`, `${id}-02`, `${id}-03`]);

    const received = await receivedCampaigns();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ campaignId: id, channels: reply.json.channels, request: body });
    expect(Date.parse(received[0].receivedAt)).not.toBeNaN();
  });

  test('each creation gets a new campaignId', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign() })).json.campaignId);
    expect(ids.size).toBe(5);
    expect((await receivedCampaigns()).map((c: { campaignId: string }) => c.campaignId)).toEqual([...ids]);
  });

  test('99 channels get ids -01 to -99', async () => {
    const channels = Array.from({ length: 99 }, () => validChannel());
    const reply = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign({ channels }) });
    expect(reply.status).toBe(200);
    expect(reply.json.channels).toHaveLength(99);
    expect(reply.json.channels[98]).toBe(`${reply.json.campaignId}-99`);
  });

  test.each([
    ['Z offset', '2026-12-01T01:00:00Z', '2026-12-02T01:00:00Z'],
    ['hour-only offset', '2026-12-01T08:00:00+07', '2026-12-02T08:00:00+07'],
    ['fractional seconds', '2026-12-01T08:00:00.250+07:00', '2026-12-01T08:00:00.500+07:00'],
    ['different offsets, end later in absolute time', '2026-12-01T08:00:00+07:00', '2026-12-01T01:30:00Z'],
    // Regression (reliability suite): years 0-99 were read as 1900-1999, so this start looked later.
    ['start in the year 0050, end in 1949', '0050-01-01T00:00:00+00:00', '1949-01-01T00:00:00+00:00'],
  ])('accepts dates with a %s', async (_label, startDate, endDate) => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign({ channels: [validChannel({ startDate, endDate })] }) });
    expect(reply.status).toBe(200);
  });

  test('accepts Content-Type with a charset parameter', async () => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', {
      body: JSON.stringify(validCampaign()),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(reply.status).toBe(200);
  });
});

describe('invalid or incomplete data -> 400 G-400003 naming the field', () => {
  const campaignFields = ['name', 'description', 'categoryId', 'channels'];
  const channelFields = ['sender', 'locationId', 'smsQty', 'message', 'startDate', 'endDate', 'telcoId'];

  const cases: [string, unknown, string][] = [
    ...campaignFields.map((f): [string, unknown, string] => [`missing ${f}`, withoutKey(validCampaign(), f), f]),
    ...channelFields.map((f): [string, unknown, string] => [
      `missing channels[0].${f}`,
      validCampaign({ channels: [withoutKey(validChannel(), f)] }),
      `channels[0].${f}`,
    ]),
    ['startDate equal to endDate', validCampaign({ channels: [validChannel({ endDate: '2026-12-01T08:00:00+07:00' })] }), 'channels[0].startDate'],
    [
      'startDate after endDate (second channel)',
      validCampaign({ channels: [validChannel(), validChannel({ startDate: '2026-12-31T08:00:00+07:00', endDate: '2026-12-01T08:00:00+07:00' })] }),
      'channels[1].startDate',
    ],
    [
      'startDate after endDate once offsets are applied',
      validCampaign({ channels: [validChannel({ startDate: '2026-12-01T08:00:00Z', endDate: '2026-12-01T10:00:00+07:00' })] }),
      'channels[0].startDate',
    ],
    ['startDate without a UTC offset', validCampaign({ channels: [validChannel({ startDate: '2026-12-01T08:00:00' })] }), 'channels[0].startDate'],
    ['endDate as a date only', validCampaign({ channels: [validChannel({ endDate: '2026-12-31' })] }), 'channels[0].endDate'],
    ['startDate not a date', validCampaign({ channels: [validChannel({ startDate: 'tomorrow' })] }), 'channels[0].startDate'],
    ['startDate an impossible date', validCampaign({ channels: [validChannel({ startDate: '2026-02-30T08:00:00+07:00' })] }), 'channels[0].startDate'],
    ['smsQty 0', validCampaign({ channels: [validChannel({ smsQty: 0 })] }), 'channels[0].smsQty'],
    ['smsQty negative', validCampaign({ channels: [validChannel({ smsQty: -5 })] }), 'channels[0].smsQty'],
    ['smsQty fractional', validCampaign({ channels: [validChannel({ smsQty: 1.5 })] }), 'channels[0].smsQty'],
    ['smsQty as text', validCampaign({ channels: [validChannel({ smsQty: '100' })] }), 'channels[0].smsQty'],
    ['empty channels', validCampaign({ channels: [] }), 'channels'],
    ['channels not a list', validCampaign({ channels: validChannel() }), 'channels'],
    ['100 channels', validCampaign({ channels: Array.from({ length: 100 }, () => validChannel()) }), 'channels'],
    ['unknown telcoId', validCampaign({ channels: [validChannel({ telcoId: 'smartfren' })] }), 'channels[0].telcoId'],
    ['telcoId in upper case', validCampaign({ channels: [validChannel({ telcoId: 'TSEL' })] }), 'channels[0].telcoId'],
    ['unknown categoryId 2', validCampaign({ categoryId: 2 }), 'categoryId'],
    ['unknown categoryId 27', validCampaign({ categoryId: 27 }), 'categoryId'],
    ['categoryId as text', validCampaign({ categoryId: '10' }), 'categoryId'],
    ['locationId as text (the 2017 sample)', validCampaign({ channels: [validChannel({ locationId: '161' })] }), 'channels[0].locationId'],
    ['locationId 0', validCampaign({ channels: [validChannel({ locationId: 0 })] }), 'channels[0].locationId'],
    ['blank name', validCampaign({ name: '   ' }), 'name'],
    ['empty description', validCampaign({ description: '' }), 'description'],
    ['message longer than one SMS', validCampaign({ channels: [validChannel({ message: 'x'.repeat(161) })] }), 'channels[0].message'],
    ['sender longer than 11 characters', validCampaign({ channels: [validChannel({ sender: 'ABCDEFGHIJKL' })] }), 'channels[0].sender'],
    ['an unknown campaign field', validCampaign({ campaignName: 'x' }), 'campaignName'],
    ['an unknown channel field', validCampaign({ channels: [validChannel({ location_id: 161 })] }), 'channels[0].location_id'],
    ['a JSON array', [validCampaign()], 'body'],
    ['JSON null', null, 'body'],
  ];

  test.each(cases)('%s', async (_label, body, field) => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(reply.json.success).toBe(false);
    expect(reply.json.error.code).toBe('G-400003');
    expect(reply.json.error.message).toMatch(/campaign/i);
    const fields = reply.json.error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain(field);
    expect(await receivedCampaigns()).toHaveLength(0);
  });

  test('reports every failed field at once, each with a message', async () => {
    const body = validCampaign({
      categoryId: 99,
      channels: [validChannel({ smsQty: 0 }), validChannel({ telcoId: 'foo', endDate: '2026-12-31' })],
    });
    const reply = await call(sandbox, 'POST', '/lba/campaign', { json: body });
    expect(reply.status).toBe(400);
    const details: { field: string; message: string }[] = reply.json.error.details;
    expect(details.map((d) => d.field).sort()).toEqual(['categoryId', 'channels[0].smsQty', 'channels[1].endDate', 'channels[1].telcoId']);
    for (const detail of details) expect(detail.message.length).toBeGreaterThan(0);
  });

  test.each([
    ['not JSON at all', 'application/json', 'name=Promo'],
    ['truncated JSON', 'application/json', '{"name": "Promo",'],
    ['an empty body', 'application/json', ''],
  ])('a body that is %s', async (_label, contentType, text) => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body: text, headers: { 'Content-Type': contentType } });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('G-400003');
    expect(reply.json.error.details[0].field).toBe('body');
  });

  test.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['form data', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['no Content-Type', {}],
  ])('a valid JSON body sent as %s is refused (400, not 415)', async (_label, headers) => {
    const reply = await call(sandbox, 'POST', '/lba/campaign', { body: JSON.stringify(validCampaign()), headers });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('G-400003');
    expect(reply.json.error.details[0].field).toBe('Content-Type');
    expect(await receivedCampaigns()).toHaveLength(0);
  });
});

describe('the method conflict of spec 4.1', () => {
  test('GET /lba/campaign -> 405 with Allow: POST and a JSON body, token or not', async () => {
    for (const token of [undefined, null]) {
      const reply = await call(sandbox, 'GET', '/lba/campaign', { token });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('POST');
      expect(reply.json.success).toBe(false);
    }
  });

  test('PUT /lba/campaign -> 405 with Allow: POST', async () => {
    const reply = await call(sandbox, 'PUT', '/lba/campaign', { json: validCampaign() });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
  });
});

describe('the campaign store', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { CampaignStore } = require('../../sandbox/campaigns');

  test("finds a campaign by its id (for a handler of /lba/campaign/{campaignId}/…), as the control API lists it", async () => {
    const store = new CampaignStore(undefined);
    const { campaignId, channels } = await store.create(validCampaign());
    expect(store.find(campaignId)).toEqual({ campaignId, channels, receivedAt: expect.any(String), request: validCampaign() });
    expect(store.find(campaignId)).toEqual(store.list()[0]);
    expect(store.find('3F9A1C0B7D2E4A65')).toBeUndefined();
    await store.reset();
    expect(store.find(campaignId)).toBeUndefined();
  });
});
