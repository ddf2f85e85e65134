/**
 * The supported n8n range is a claim: it must name exactly the versions the tests install, so
 * bumping a pinned n8n without moving the claim (or the README) fails here. n8n-versions.json is
 * the one place for those versions: lowest (npm run test:n8n1-real), ci (test:e2e, test:queue,
 * the demo, the bench) and highest (npm run test:compat -- <version>, docs/compatibility.md);
 * the manifests scripts/install-n8n.sh installs from must agree with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const manifest = (file: string) =>
	JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
		engines?: Record<string, string>;
		peerDependencies?: Record<string, string>;
		dependencies?: Record<string, string>;
		devDependencies?: Record<string, string>;
	};

const pkg = manifest('package.json');
const [lowest, highest] = (pkg.engines?.n8n ?? '').split(' - ');
const versions = JSON.parse(readFileSync(path.join(ROOT, 'n8n-versions.json'), 'utf8')) as {
	lowest: string;
	ci: string;
	highest: string;
	overrides: Record<string, string>;
};
const realN8n1 = manifest('test/n8n1/real/package.json').dependencies!.n8n;
const ciManifest = manifest('test/e2e/n8n/package.json') as ReturnType<typeof manifest> & { overrides?: Record<string, string> };
const realN8n2 = ciManifest.dependencies!.n8n;
const compatDoc = readFileSync(path.join(ROOT, 'docs', 'compatibility.md'), 'utf8');
const newer = (a: string, b: string) => {
	const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
	return false;
};
const engine1 = manifest('test/n8n1/engine/package.json').dependencies!;
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
// From the section's heading to the next heading of the same level.
const supportedStart = readme.indexOf('\n## Supported n8n versions\n');
const supportedEnd = readme.indexOf('\n## ', supportedStart + 1);
const supportedSection = supportedStart === -1 ? '' : readme.slice(supportedStart, supportedEnd === -1 ? undefined : supportedEnd);

describe('the supported n8n range', () => {
	it('is "lowest - highest" in engines.n8n, from a 1.x to a 2.x', () => {
		expect(pkg.engines?.n8n).toMatch(/^\d+\.\d+\.\d+ - \d+\.\d+\.\d+$/);
		expect(lowest).toMatch(/^1\./);
		expect(highest).toMatch(/^2\./);
	});

	it('comes from n8n-versions.json, the one place for the n8n versions we test', () => {
		expect(pkg.engines?.n8n).toBe(`${versions.lowest} - ${versions.highest}`);
		expect(versions.ci).toMatch(/^2\./);
		expect(versions.highest === versions.ci || newer(versions.highest, versions.ci)).toBe(true);
	});

	it('ends where the real-n8n tests install: 1.x in test:n8n1-real, CI\'s 2.x in test:e2e', () => {
		expect(lowest).toBe(realN8n1);
		expect(versions.lowest).toBe(realN8n1);
		// scripts/install-n8n.sh installs the ci version from this manifest (its cache key), and
		// any other version (LBA_N8N_VERSION) from a generated one with the same overrides.
		expect(versions.ci).toBe(realN8n2);
		expect(ciManifest.overrides).toEqual(versions.overrides);
	});

	it('has its highest end proven by a compatibility run (npm run test:compat, docs/compatibility.md)', () => {
		const row = compatDoc.split('\n').find((line) => line.startsWith(`| **${highest}** |`));
		expect(row).toBeDefined();
		expect(row!.split(' | ')[2]).toBe('supported');
		// "supported" only where every suite passed: each suite's cell is a pass (not an empty list of cells).
		const suites = row!.replace(/ \|$/, '').split(' | ').slice(3);
		expect(suites.length).toBeGreaterThanOrEqual(7);
		expect(suites.filter((cell) => !cell.startsWith('✅'))).toEqual([]);
	});

	it("shows the compatibility runs' table in the README's Supported n8n versions, as in docs/compatibility.md", () => {
		const table = (text: string) => text.slice(text.indexOf('<!-- compat-table:start'), text.indexOf('<!-- compat-table:end'));
		expect(table(compatDoc)).toContain(`| **${highest}** |`);
		expect(table(supportedSection)).toBe(table(compatDoc));
	});

	it('has its engine tests on n8n-core 1.x and 2.x', () => {
		expect(engine1['n8n-core']).toMatch(/^1\./);
		expect(engine1['n8n-workflow']).toMatch(/^1\./);
		expect(pkg.devDependencies?.['n8n-core']).toMatch(/^2\./);
		expect(pkg.devDependencies?.['n8n-workflow']).toMatch(/^2\./);
	});

	it('is stated in the README with every version tested', () => {
		expect(supportedSection).toContain(`**n8n ${lowest} to ${highest}**`);
		for (const version of [
			realN8n1,
			realN8n2,
			highest,
			'npm run test:compat',
			`n8n-core ${engine1['n8n-core']}`,
			`n8n-workflow ${engine1['n8n-workflow']}`,
			`n8n-core ${pkg.devDependencies?.['n8n-core']}`,
			`n8n-workflow ${pkg.devDependencies?.['n8n-workflow']}`,
		]) {
			expect(supportedSection).toContain(version);
		}
	});

	it('leaves peerDependencies as n8n\'s scanner wants them', () => {
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});
});
