/**
 * The release pipeline: .github/workflows/release.yml publishes with npm provenance. GitHub itself
 * cannot run here, so this checks what can be: the workflow is valid for GitHub Actions
 * (action-validator, the schema GitHub's own editor uses), and it asks for what provenance needs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const WORKFLOW = path.join(ROOT, '.github/workflows/release.yml');

function validate(file: string) {
	const result = spawnSync(path.join(ROOT, 'node_modules/.bin/action-validator'), [file], { encoding: 'utf8' });
	return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('.github/workflows/release.yml', () => {
	it('is a valid GitHub Actions workflow, and the validator does catch a broken one', () => {
		expect(validate(WORKFLOW)).toMatchObject({ code: 0 });
		const broken = path.join(mkdtempSync(path.join(tmpdir(), 'lba-release-')), 'release.yml');
		writeFileSync(broken, readFileSync(WORKFLOW, 'utf8').replace('runs-on: ubuntu-24.04', 'runs_on: ubuntu-24.04'));
		expect(validate(broken).code).toBe(1);
	});

	it('runs on version tags, tests first, then publishes with provenance and the id-token it needs', () => {
		const workflow = parse(readFileSync(WORKFLOW, 'utf8'));
		expect(workflow.on.push.tags).toEqual(['v*.*.*']);
		expect(workflow.permissions).toEqual({ contents: 'read' });
		const { test, publish } = workflow.jobs;
		expect(test.steps.map((step: { run?: string }) => step.run ?? '').join('\n')).toContain('bash .ci/run');
		expect(publish.needs).toBe('test');
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(publish.steps.map((step: { run?: string }) => step.run ?? '')).toContain('npm publish --provenance --access public');
	});

	/** A clone of this checkout's last commit with a local bare remote, on a branch of its own. */
	function cloneForRelease() {
		const dir = mkdtempSync(path.join(tmpdir(), 'lba-release-'));
		const run = (cwd: string, command: string, args: string[]) => {
			const env = { ...process.env, GIT_AUTHOR_NAME: 'Release Test', GIT_AUTHOR_EMAIL: 'release@test', GIT_COMMITTER_NAME: 'Release Test', GIT_COMMITTER_EMAIL: 'release@test' };
			const result = spawnSync(command, args, { cwd, encoding: 'utf8', env });
			if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stdout}${result.stderr}`);
			return result.stdout;
		};
		run(dir, 'git', ['init', '-q', '--bare', 'remote.git']);
		run(dir, 'git', ['clone', '-q', ROOT, 'work']);
		const work = path.join(dir, 'work');
		// The clone as of the last commit; any uncommitted file of this checkout is not in it.
		run(work, 'git', ['remote', 'set-url', 'origin', path.join(dir, 'remote.git')]);
		run(work, 'git', ['checkout', '-q', '-b', 'release-test']);
		run(work, 'git', ['push', '-q', '-u', 'origin', 'release-test']);
		const remote = path.join(dir, 'remote.git');
		const version = () => JSON.parse(readFileSync(path.join(work, 'package.json'), 'utf8')).version as string;
		const released = (expected: string) => {
			expect(version()).toBe(expected);
			expect(JSON.parse(readFileSync(path.join(work, 'package-lock.json'), 'utf8')).version).toBe(expected);
			expect(readFileSync(path.join(work, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## ${expected.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`, 'm'));
			expect(run(remote, 'git', ['tag', '--list'])).toContain(`v${expected}`);
			expect(run(remote, 'git', ['log', '-1', '--format=%s', 'release-test'])).toBe(`Release ${expected}\n`);
		};
		return { work, run, version, released };
	}

	it('npm run release bumps the version, dates the changelog, commits, tags and pushes (to a local remote)', () => {
		const { work, run, version, released } = cloneForRelease();
		const [major, minor, patch] = version().split('.').map(Number);
		run(work, 'bash', ['scripts/release.sh', 'patch']);
		released(`${major}.${minor}.${patch + 1}`);
	});

	it("the first release is package.json's own version, given exactly; a version already tagged is refused", () => {
		const { work, run, version, released } = cloneForRelease();
		const first = version();
		run(work, 'bash', ['scripts/release.sh', first]);
		released(first);
		// A later change, then the same version by mistake.
		const changelog = path.join(work, 'CHANGELOG.md');
		writeFileSync(changelog, readFileSync(changelog, 'utf8').replace(/^## /m, '## Unreleased\n\n- A fix.\n\n## '));
		run(work, 'git', ['commit', '-qam', 'A fix']);
		expect(() => run(work, 'bash', ['scripts/release.sh', first])).toThrow(`release: v${first} is already released`);
		expect(version()).toBe(first);
		expect(run(work, 'git', ['status', '--porcelain'])).toBe('');
	});
});
