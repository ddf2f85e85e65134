#!/usr/bin/env node
'use strict';
// Writes test/fixtures/node-descriptions.json from the built nodes (dist/), in the form
// test/nodes/LbaAds/description.test.ts compares, and the tools table of docs/ai-agent-tool.md
// (scripts/tool-table.js), and the operation lists of docs/operations.md and the README
// (scripts/operation-lists.js): `npm run fixtures:update` (builds first).
// Review the diff: it is everything the panel and the model see differently.

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/node-descriptions.json');
const { LbaAds } = require(path.join(ROOT, 'dist/nodes/LbaAds/LbaAds.node.js'));
const { LbaAdsTrigger } = require(path.join(ROOT, 'dist/nodes/LbaAdsTrigger/LbaAdsTrigger.node.js'));

const descriptions = { lbaAds: new LbaAds().description, lbaAdsTrigger: new LbaAdsTrigger().description };
fs.writeFileSync(FIXTURE, `${JSON.stringify(descriptions, null, 1)}\n`);
const { RESOURCES } = require(path.join(ROOT, 'dist/nodes/LbaAds/actions/resources.js'));
require('./tool-table').writeToolTable(RESOURCES);
require('./operation-lists').writeOperationLists(RESOURCES);
console.log(`Wrote ${path.relative(ROOT, FIXTURE)}; check the diffs (git diff ${path.relative(ROOT, FIXTURE)} docs/ai-agent-tool.md docs/operations.md README.md).`);
