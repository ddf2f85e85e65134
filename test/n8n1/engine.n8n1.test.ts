/**
 * Guards npm run test:n8n1: the other suites in that run only mean something if the engine
 * they drive really is n8n 1.x. Runs only there (the root jest config skips *.n8n1.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const pinned = JSON.parse(readFileSync(path.join(__dirname, 'engine', 'package.json'), 'utf8')) as {
	dependencies: Record<string, string>;
};

function loadedVersion(name: string): string {
	// Resolved through jest's module mapping, exactly as the harness's imports are.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(`${name}/package.json`) as { version: string }).version;
}

describe('the engine under test in npm run test:n8n1', () => {
	it.each(['n8n-core', 'n8n-workflow'])('%s is the 1.x release pinned in test/n8n1/engine/package.json', (name) => {
		expect(pinned.dependencies[name]).toMatch(/^1\./);
		expect(loadedVersion(name)).toBe(pinned.dependencies[name]);
	});

	it('n8n-core runs on the n8n-workflow it was released with', () => {
		const core = path.dirname(require.resolve('n8n-core/package.json'));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const wanted = (require(path.join(core, 'package.json')) as { dependencies: Record<string, string> }).dependencies['n8n-workflow'];
		expect(loadedVersion('n8n-workflow')).toBe(wanted);
	});
});
