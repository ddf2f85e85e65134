'use strict';
// Received campaigns, optionally kept in an append-only journal file (--data-dir).

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const JOURNAL_FILE = 'campaigns.jsonl';

class CampaignStore {
  /** @param {string | undefined} dataDir */
  constructor(dataDir) {
    this.campaigns = [];
    this.ids = new Set();
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
    return this.campaigns;
  }

  /** Creates a campaign from a validated request body; resolves once it is journalled. */
  async create(request) {
    const campaignId = this.newId();
    const campaign = {
      campaignId,
      channels: request.channels.map((_, index) => `${campaignId}-${String(index + 1).padStart(2, '0')}`),
      receivedAt: new Date().toISOString(),
      request,
    };
    this.remember(campaign);
    await this.append({ type: 'campaign', campaign });
    return campaign;
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
    // randomUUID draws from a cached entropy pool; randomBytes is a system call per id.
    do id = crypto.randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
    while (this.ids.has(id));
    return id;
  }

  remember(campaign) {
    this.campaigns.push(campaign);
    this.ids.add(campaign.campaignId);
  }

  forget() {
    this.campaigns = [];
    this.ids.clear();
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
