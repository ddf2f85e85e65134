/**
 * After each test file, every text its runs showed (harness/shown.ts `SHOWN`, filled by harness/run-workflow.ts) is checked:
 * each instruction in it must be in the catalogue, nodes/shared/instructions.ts (issue 60). A new
 * sentence that tells a person or a model what to do, written anywhere else, fails the file that
 * shows it, with its place and the fix.
 */
import { SHOWN } from './harness/shown';

afterAll(() => {
	if (!SHOWN.length) return;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { instructionsNotCatalogued } = require('./docs/instructionFinder') as typeof import('./docs/instructionFinder');
	const seen = new Set<string>();
	const missing: string[] = [];
	for (const { where, text } of SHOWN.splice(0)) {
		if (seen.has(text)) continue;
		seen.add(text);
		for (const clause of instructionsNotCatalogued(text)) missing.push(`${where}: "${clause}"`);
	}
	const fix = 'add each to nodes/shared/instructions.ts with its journey (or, if it tells nobody what to do, to NOT_INSTRUCTIONS in test/docs/instructionFinder.ts with why)';
	expect([...new Set(missing)].map((line) => `${line}: ${fix}`)).toEqual([]);
});
