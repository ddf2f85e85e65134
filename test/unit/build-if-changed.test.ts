/**
 * scripts/build-if-changed.js in a stand-in repository whose `npm run build` counts its runs:
 * two test commands started at once build once (CI starts the queue suite beside `npm test`), and
 * a lock left by a killed build does not hold the next one up.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
let repo: string;

beforeEach(() => {
	repo = mkdtempSync(path.join(tmpdir(), 'lba-build-if-changed-'));
	mkdirSync(path.join(repo, 'scripts'));
	cpSync(path.join(ROOT, 'scripts/build-if-changed.js'), path.join(repo, 'scripts/build-if-changed.js'));
	mkdirSync(path.join(repo, 'nodes'));
	writeFileSync(path.join(repo, 'nodes/a.ts'), 'export const a = 1;\n');
	// The build takes a second and appends a line per run to builds.log.
	const build = "require('fs').appendFileSync('builds.log', 'built\\n'); require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/a.js', ''); setTimeout(() => {}, 1000)";
	writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { build: `node -e "${build}"` } }));
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

const run = () =>
	new Promise<number | null>((resolve) => {
		const child = spawn(process.execPath, ['scripts/build-if-changed.js'], { cwd: repo, stdio: 'ignore' });
		child.on('exit', resolve);
	});
const builds = () => readFileSync(path.join(repo, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;

it('two started at once build once; both succeed and the lock is gone', async () => {
	expect(await Promise.all([run(), run()])).toEqual([0, 0]);
	expect(builds()).toBe(1);
	expect(() => readFileSync(path.join(repo, '.build-lock/pid'))).toThrow();
	writeFileSync(path.join(repo, 'nodes/a.ts'), 'export const a = 2;\n');
	expect(await run()).toBe(0);
	expect(builds()).toBe(2);
});

it('a lock left by a process that is gone is taken over', async () => {
	mkdirSync(path.join(repo, '.build-lock'));
	// A pid no process has: above the kernel's largest.
	writeFileSync(path.join(repo, '.build-lock/pid'), String(2 ** 22 + 1));
	expect(await run()).toBe(0);
	expect(builds()).toBe(1);
});
