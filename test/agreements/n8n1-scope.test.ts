/**
 * test:n8n1 leaves out the files of test/n8n1/engine-free.js (they prove nothing new on 1.x's
 * engine). Each must exist and run no engine: a file that starts using the node tests' set-up,
 * n8n-core or a workflow run belongs on 1.x again.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const engineFree = require('../n8n1/engine-free.js') as string[];
const RUNS_AN_ENGINE = /from '[./]*\/setup'|from 'n8n-core'|require\('n8n-core'\)|\b(runNode|runWorkflow|loadPackageNodes|useSandbox)\(/;

describe('test:n8n1 leaves out only files that run no engine', () => {
	it.each(engineFree)('%s', (file) => {
		const where = path.join(ROOT, file);
		expect({ file, exists: existsSync(where) }).toEqual({ file, exists: true });
		const match = readFileSync(where, 'utf8').match(RUNS_AN_ENGINE);
		// If this fails: the file now runs n8n's engine; take it out of test/n8n1/engine-free.js.
		expect({ file, runsAnEngine: match?.[0] ?? null }).toEqual({ file, runsAnEngine: null });
	});
});
