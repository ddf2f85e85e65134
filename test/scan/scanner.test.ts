/**
 * n8n's verification scanner (@n8n/scan-community-package) on this package, through
 * scripts/scan.mjs (the scanner is ESM; Jest here is CommonJS, so it runs as its own process).
 * This is how `npm test` runs it (once), and it checks that the scanner can fail at all.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function scan(dir?: string) {
	// Without Jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base reads file names differently in its own test mode.
	const env = { ...process.env };
	delete env.NODE_ENV;
	const result = spawnSync('bash', ['scripts/with-node24.sh', 'node', 'scripts/scan.mjs', ...(dir ? [dir] : [])], { cwd: ROOT, encoding: 'utf8', env });
	return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("n8n's community package scanner", () => {
	it('passes this package: the source with the full rule set, and the packed tarball', () => {
		const { code, out } = scan();
		expect(out).toContain('PASS source');
		expect(out).toContain('PASS tarball');
		expect(code).toBe(0);
	}, 120_000);

	it('fails a package with a finding, and names it', () => {
		const { code, out } = scan(path.join(ROOT, 'test/fixtures/scan-finding-package'));
		expect(code).toBe(1);
		expect(out).toMatch(/FAIL (source|tarball): ESLint violations found/);
		expect(out).toContain('no-console');
	}, 120_000);
});
