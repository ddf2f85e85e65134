#!/usr/bin/env node
'use strict';
// `npm run screenshots`: the docs' pictures of the Create panel, taken again from the real editor.
// Runs test/e2e/first-campaign.e2e.test.ts (a marketer's first campaign in n8n 2.40.7, in Chromium)
// with LBA_SCREENSHOTS=1, which makes it copy five of its screenshots over docs/images/
// (location-from-list, node-panel-channels, duplicate-protection-options, dry-run-output,
// rerun-skipped). Without the variable (CI) the test writes to artifacts/ only.
//
//   npm run screenshots      # then look at each picture and `git diff --stat docs/images`
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const run = (command, args, env = {}) => execFileSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

try {
	run('bash', ['scripts/install-chromium.sh']);
	run('bash', ['-c', 'bash scripts/install-n8n.sh >/dev/null']);
	run('node', ['scripts/build-if-changed.js']);
	run('bash', ['scripts/with-node24.sh', 'jest', '-c', 'test/e2e/jest.config.js', 'test/e2e/first-campaign.e2e.test.ts'], { LBA_SCREENSHOTS: '1' });
} catch (error) {
	process.exit(typeof error.status === 'number' ? error.status : 1);
}
