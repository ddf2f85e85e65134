/**
 * What the panel shows: the built nodes (dist/, as n8n loads them) describe themselves exactly as
 * test/fixtures/node-descriptions.json records. Any change to a field, an option, a default or a
 * description fails here until the fixture is rewritten on purpose with `npm run fixtures:update`,
 * so the change shows up as a diff of that file in review.
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

/** Fails with the command that rewrites the fixture when a built description differs from it. */
function expectRecorded(node: string, now: unknown, recorded: unknown): void {
	try {
		expect(now).toEqual(recorded);
	} catch (error) {
		throw new Error(
			`${node}'s description differs from test/fixtures/node-descriptions.json. If the change to the panel is meant, ` +
				`run \`npm run fixtures:update\` and review the fixture's diff.\n\n${(error as Error).message}`,
		);
	}
}

describe('the built node descriptions', () => {
	it('LBA Ads: identical, property by property, to the recorded description', () => {
		const now = asJson(new LbaAds().description);
		const names = (description: { properties: Array<{ name: string }> }) => description.properties.map((p) => p.name);
		expectRecorded('LBA Ads (its list of properties)', names(now), names(before.lbaAds));
		expectRecorded('LBA Ads', now, before.lbaAds);
	});

	it('LBA Ads Trigger: identical', () => {
		expectRecorded('LBA Ads Trigger', asJson(new LbaAdsTrigger().description), before.lbaAdsTrigger);
	});
});
