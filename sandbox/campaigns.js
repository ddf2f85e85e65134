'use strict';
// Received campaigns, optionally kept in an append-only journal file (--data-dir).
//
// Per request (POST /lba/campaign is the sandbox's busiest write) a campaign costs little: its
// request is kept as the JSON text it arrived in, not as the parsed object graph, so a store of
// many thousand campaigns holds flat strings the garbage collector need not walk; the request
// is parsed again, and the time formatted, only when someone lists the campaigns.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const JOURNAL_FILE = 'campaigns.jsonl';

// Random bytes for campaign IDs, drawn 4 KiB at a time: 8 bytes (16 hex digits) per ID.
const ID_POOL = Buffer.alloc(4096);
let idOffset = ID_POOL.length;

function randomHex16() {
  if (idOffset + 8 > ID_POOL.length) {
    crypto.randomFillSync(ID_POOL);
    idOffset = 0;
  }
  const hex = ID_POOL.toString('hex', idOffset, idOffset + 8).toUpperCase();
  idOffset += 8;
  return hex;
}

/** What list() shows of a kept campaign: { campaignId, channels, receivedAt (ISO), request }. */
function shown(kept) {
  return {
    campaignId: kept.campaignId,
    channels: kept.channels,
    receivedAt: typeof kept.receivedAt === 'number' ? new Date(kept.receivedAt).toISOString() : kept.receivedAt,
    request: kept.text !== undefined ? JSON.parse(kept.text) : kept.request,
  };
}

class CampaignStore {
  /** @param {string | undefined} dataDir */
  constructor(dataDir) {
    this.campaigns = [];
    this.byId = new Map(); // campaignId -> the kept campaign
    this.journalPath = dataDir ? path.join(path.resolve(dataDir), JOURNAL_FILE) : null;
    this.journal = null; // file handle, opened by open()
    this.writes = Promise.resolve(); // appends run one after another
  }

  /** Replays the journal (if any) and opens it for appending. */
  async open() {
    if (!this.journalPath) return;
    await fs.promises.mkdir(path.dirname(this.journalPath), { recursive: true });
    let text = '';
    try {
      text = await fs.promises.readFile(this.journalPath, 'utf8');
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue; // a line cut short by a crash mid-write
      }
      if (entry.type === 'reset') this.forget();
      else if (entry.type === 'campaign') this.remember(entry.campaign);
    }
    this.journal = await fs.promises.open(this.journalPath, 'a');
  }

  async close() {
    await this.writes;
    if (this.journal) await this.journal.close();
    this.journal = null;
  }

  list() {
    return this.campaigns.map(shown);
  }

  /** The campaign with this id as list() shows it, or undefined (for a path such as /lba/campaign/{campaignId}/…). */
  find(campaignId) {
    const kept = this.byId.get(campaignId);
    return kept && shown(kept);
  }

  /**
   * Creates a campaign from a validated request body; resolves once it is journalled.
   * `text` is the JSON text `request` was parsed from (kept instead of the object when given).
   */
  async create(request, text) {
    const campaignId = this.newId();
    const channels = new Array(request.channels.length);
    for (let index = 0; index < channels.length; index++) channels[index] = `${campaignId}-${index < 9 ? '0' : ''}${index + 1}`;
    const receivedAt = Date.now();
    this.remember(text !== undefined ? { campaignId, channels, receivedAt, text } : { campaignId, channels, receivedAt, request });
    // The journal line is the same as ever: the campaign as list() shows it.
    if (this.journal) await this.append({ type: 'campaign', campaign: { campaignId, channels, receivedAt: new Date(receivedAt).toISOString(), request } });
    return { campaignId, channels };
  }

  /** Forgets all campaigns; returns how many there were. */
  async reset() {
    const count = this.campaigns.length;
    this.forget();
    await this.append({ type: 'reset', at: new Date().toISOString() });
    return count;
  }

  newId() {
    let id;
    // From a pool of random bytes: randomBytes per ID would be a system call per campaign.
    do id = randomHex16();
    while (this.byId.has(id));
    return id;
  }

  remember(campaign) {
    this.campaigns.push(campaign);
    this.byId.set(campaign.campaignId, campaign);
  }

  forget() {
    this.campaigns = [];
    this.byId.clear();
  }

  append(entry) {
    if (!this.journal) return Promise.resolve();
    const line = JSON.stringify(entry) + '\n';
    const write = this.writes.then(() => this.journal.appendFile(line));
    this.writes = write.catch(() => {});
    return write;
  }
}

module.exports = { CampaignStore, JOURNAL_FILE };
