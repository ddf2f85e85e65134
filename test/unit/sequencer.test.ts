// test/sequencer.js: every jest run's longest files first. A renamed file would silently drop out of
// the list (and run last again on a fresh clone), so each entry must name a file that exists.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LongestFirst = require('../sequencer.js');

const ROOT = path.resolve(__dirname, '../..');
const LONGEST_FIRST: string[] = LongestFirst.LONGEST_FIRST;

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full) : [full];
	});
}

describe('test/sequencer.js', () => {
	const testFiles = filesUnder(path.join(ROOT, 'test')).filter((file) => file.endsWith('.test.ts'));

	it.each(LONGEST_FIRST)('%s names exactly one test file', (name) => {
		const matches = testFiles.filter((file) => file.endsWith(`/${name}`));
		expect(matches).toHaveLength(1);
		expect(existsSync(matches[0])).toBe(true);
	});

	it('puts the named files first, in the list order, and keeps the order jest gave the others', () => {
		const sequencer = new LongestFirst({ contexts: [], globalConfig: {} });
		const test = (file: string) => ({ path: path.join(ROOT, 'test', file), context: { config: { cache: false } }, duration: undefined });
		const given = [
			test('unit/zeta.test.ts'),
			test('nodes/LbaAds/duplicateProtection/sameCampaign.test.ts'),
			test('unit/alpha.test.ts'),
			test('nodes/LbaAds/duplicateProtection/simulation/simulation.test.ts'),
		];
		// jest's own order for files it has no timings of: by size, here all unknown (0), so the given order.
		jest.spyOn(Object.getPrototypeOf(LongestFirst.prototype), 'sort').mockImplementation((tests: unknown) => tests);
		const sorted = sequencer.sort(given).map((t: { path: string }) => path.relative(path.join(ROOT, 'test'), t.path));
		expect(sorted).toEqual([
			'nodes/LbaAds/duplicateProtection/simulation/simulation.test.ts',
			'nodes/LbaAds/duplicateProtection/sameCampaign.test.ts',
			'unit/zeta.test.ts',
			'unit/alpha.test.ts',
		]);
	});
});
