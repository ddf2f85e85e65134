/**
 * The nodes as n8n loads them (dist/) describe themselves exactly as before the operations were
 * given files of their own (issue 22): test/fixtures/node-descriptions.json was written from the
 * build before that move (this test passed on it at commit 4c1b99c), then changed on purpose only
 * to add the two spending-limit options, Campaign Input (issue 23) and the limits' noDataExpression.
 * A change to what the panel shows changes that file on purpose.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const before = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/node-descriptions.json'), 'utf8'));
/* eslint-disable @typescript-eslint/no-require-imports */
const { LbaAds } = require(path.join(ROOT, 'dist/nodes/LbaAds/LbaAds.node.js'));
const { LbaAdsTrigger } = require(path.join(ROOT, 'dist/nodes/LbaAdsTrigger/LbaAdsTrigger.node.js'));
/* eslint-enable @typescript-eslint/no-require-imports */

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('the built node descriptions', () => {
	it('LBA Ads: identical, property by property, to the recorded description', () => {
		const now = asJson(new LbaAds().description);
		expect(now.properties.map((p: { name: string }) => p.name)).toEqual(before.lbaAds.properties.map((p: { name: string }) => p.name));
		expect(now).toEqual(before.lbaAds);
	});

	it('LBA Ads Trigger: identical', () => {
		expect(asJson(new LbaAdsTrigger().description)).toEqual(before.lbaAdsTrigger);
	});
});
