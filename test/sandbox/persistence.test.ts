// --data-dir: the append-only campaign journal survives restarts and is written before
// the 200 is sent.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { call, startTestSandbox, validCampaign } from './helpers';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-sandbox-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function journalText(): string {
  return fs.readFileSync(path.join(dataDir, 'campaigns.jsonl'), 'utf8');
}

test('campaigns survive a restart, with their ids and request bodies', async () => {
  const first = await startTestSandbox({ dataDir });
  const a = await call(first, 'POST', '/lba/campaign', { json: validCampaign({ name: 'a' }) });
  const b = await call(first, 'POST', '/lba/campaign', { json: validCampaign({ name: 'b' }) });
  const before = (await call(first, 'GET', '/_sandbox/campaigns')).json.campaigns;
  await first.close();

  const second = await startTestSandbox({ dataDir });
  try {
    const after = (await call(second, 'GET', '/_sandbox/campaigns')).json.campaigns;
    expect(after).toEqual(before);
    expect(after.map((c: { campaignId: string }) => c.campaignId)).toEqual([a.json.campaignId, b.json.campaignId]);
    // New campaigns go on after the old ones.
    const c = await call(second, 'POST', '/lba/campaign', { json: validCampaign({ name: 'c' }) });
    const all = (await call(second, 'GET', '/_sandbox/campaigns')).json.campaigns;
    expect(all.map((x: { campaignId: string }) => x.campaignId)).toEqual([a.json.campaignId, b.json.campaignId, c.json.campaignId]);
  } finally {
    await second.close();
  }
});

test('the journal line is on disk when the 200 arrives', async () => {
  const sandbox = await startTestSandbox({ dataDir });
  try {
    for (let i = 0; i < 5; i++) {
      const reply = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign({ name: `n${i}` }) });
      expect(reply.status).toBe(200);
      expect(journalText()).toContain(reply.json.campaignId);
    }
  } finally {
    await sandbox.close();
  }
});

test('a reset is appended, not a rewrite, and holds across a restart', async () => {
  const first = await startTestSandbox({ dataDir });
  await call(first, 'POST', '/lba/campaign', { json: validCampaign() });
  const sizeBefore = journalText().length;
  await call(first, 'DELETE', '/_sandbox/campaigns');
  const after = journalText();
  expect(after.length).toBeGreaterThan(sizeBefore);
  await call(first, 'POST', '/lba/campaign', { json: validCampaign({ name: 'kept' }) });
  await first.close();

  const second = await startTestSandbox({ dataDir });
  try {
    const campaigns = (await call(second, 'GET', '/_sandbox/campaigns')).json.campaigns;
    expect(campaigns.map((c: { request: { name: string } }) => c.request.name)).toEqual(['kept']);
  } finally {
    await second.close();
  }
});

test('a line cut short by a crash is skipped; the rest is loaded', async () => {
  const first = await startTestSandbox({ dataDir });
  const kept = await call(first, 'POST', '/lba/campaign', { json: validCampaign() });
  await first.close();
  fs.appendFileSync(path.join(dataDir, 'campaigns.jsonl'), '{"type":"campaign","campaign":{"campaignId":"TORN');

  const second = await startTestSandbox({ dataDir });
  try {
    const campaigns = (await call(second, 'GET', '/_sandbox/campaigns')).json.campaigns;
    expect(campaigns.map((c: { campaignId: string }) => c.campaignId)).toEqual([kept.json.campaignId]);
  } finally {
    await second.close();
  }
});

test('a campaign whose answer was replaced by an "after" fault is journalled too', async () => {
  const sandbox = await startTestSandbox({ dataDir });
  try {
    await call(sandbox, 'POST', '/_sandbox/faults', { json: { path: '/lba/campaign', when: 'after', status: 502 } });
    const reply = await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign(), undocumented: true });
    expect(reply.status).toBe(502);
    const [campaign] = (await call(sandbox, 'GET', '/_sandbox/campaigns')).json.campaigns;
    expect(journalText()).toContain(campaign.campaignId);
  } finally {
    await sandbox.close();
  }
});

test('without a data dir nothing is written and a restart starts empty', async () => {
  const first = await startTestSandbox();
  await call(first, 'POST', '/lba/campaign', { json: validCampaign() });
  await first.close();
  const second = await startTestSandbox();
  try {
    expect((await call(second, 'GET', '/_sandbox/campaigns')).json.campaigns).toEqual([]);
  } finally {
    await second.close();
  }
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

test('a data dir that does not exist yet is created', async () => {
  const nested = path.join(dataDir, 'deeper', 'still');
  const sandbox = await startTestSandbox({ dataDir: nested });
  try {
    await call(sandbox, 'POST', '/lba/campaign', { json: validCampaign() });
  } finally {
    await sandbox.close();
  }
  expect(fs.existsSync(path.join(nested, 'campaigns.jsonl'))).toBe(true);
});
