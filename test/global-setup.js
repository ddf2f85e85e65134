// One throw-away N8N_USER_FOLDER for the whole jest run (workers inherit the environment),
// removed in global-teardown.js: jest workers can be killed before a per-process 'exit' hook runs.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

module.exports = async () => {
  if (process.env.N8N_USER_FOLDER) return;
  process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'lba-harness-n8n-'));
  process.env.LBA_HARNESS_OWNS_USER_FOLDER = '1';
};
