/**
 * ARCHITECTURE.md's tree stays true: every path it names exists, and every folder of nodes/ and
 * sandbox/ is named in it (operation files are not listed one by one: their resource folder is).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { expectAgreement } from '../agreements/openapi';

const ROOT = path.resolve(__dirname, '../..');

/** The paths the tree names: a line's first word, under the folders of the lines above it with less indent. */
export function treePaths(markdown: string): string[] {
	const start = markdown.indexOf('```\n', markdown.indexOf('## The tree')) + 4;
	const block = markdown.slice(start, markdown.indexOf('```', start));
	const folders: string[] = [];
	return block
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => {
			const depth = (line.length - line.trimStart().length) / 2;
			const name = line.trim().split(/\s+/)[0];
			folders.length = depth;
			const full = [...folders, name].join('');
			if (name.endsWith('/')) folders[depth] = name;
			return full;
		});
}

function folders(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
		.flatMap((entry) => [`${dir}/${entry.name}/`, ...folders(`${dir}/${entry.name}`)]);
}

describe("ARCHITECTURE.md's tree", () => {
	const named = treePaths(readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

	it('reads nested lines as paths (the check itself)', () => {
		expect(treePaths('## The tree\n\n```\na/    x\n  b/\n    c.ts  y\n  d.ts\ne.ts\n```\n')).toEqual(['a/', 'a/b/', 'a/b/c.ts', 'a/d.ts', 'e.ts']);
		expect(named).toEqual(expect.arrayContaining(['nodes/LbaAds/actions/router.ts', 'sandbox/openapi.yaml']));
	});

	it('names only paths that exist', () => {
		const missing = named.filter((name) => !existsSync(path.join(ROOT, name)));
		expectAgreement(missing.map((name) => `ARCHITECTURE.md names ${name}, which does not exist`), 'Rename or remove these lines of the tree in ARCHITECTURE.md ("## The tree").');
	});

	it('names every folder of nodes/ and sandbox/', () => {
		const unnamed = [...folders('nodes'), ...folders('sandbox')].filter((folder) => !named.some((name) => name.startsWith(folder)));
		expectAgreement(unnamed.map((folder) => `ARCHITECTURE.md does not name ${folder}`), 'Add a line for each to the tree in ARCHITECTURE.md ("## The tree"): the folder and what it holds.');
	});
});

/** The section of ARCHITECTURE.md a newcomer follows to add an operation. */
function endpointGuide(markdown: string): string {
	const start = markdown.indexOf('### An operation that calls a new endpoint');
	return markdown.slice(start, markdown.indexOf('### Other changes', start));
}

/** Where a path the guide writes may be: from the root, or from nodes/LbaAds/, nodes/LbaAds/actions/ or test/. */
function resolveNamed(file: string): string | undefined {
	return ['', 'nodes/LbaAds/', 'nodes/LbaAds/actions/', 'test/', 'test/nodes/LbaAds/', 'test/nodes/LbaAds/actions/']
		.map((prefix) => path.join(ROOT, prefix, file))
		.find((candidate) => existsSync(candidate));
}

/**
 * Code spans naming a file ("`sandbox/router.js`"; not one marked "(new)", a file the newcomer
 * writes), and "`name` in `file`" pairs (a call's arguments left out).
 */
export function guideNames(guide: string): { files: string[]; pairs: Array<{ name: string; file: string }> } {
	const files = [...guide.matchAll(/`([\w./-]+\.(?:ts|js|yaml|json|md))`(?! \(new\))/g)].map((match) => match[1]);
	const pairs = [...guide.matchAll(/`([A-Za-z_$][\w$]*(?:\.[\w$]+)*)(?:\([^`]*\))?`\s+in\s+`([\w./-]+\.(?:ts|js|yaml|json|md))`/g)].map((match) => ({ name: match[1], file: match[2] }));
	// "`a`, `b` and `c`, all in `file`": the names back to the ":" or unclosed "(" that opens the list.
	for (const match of guide.matchAll(/all\s+in\s+`([\w./-]+\.(?:ts|js|yaml|json|md))`/g)) {
		let depth = 0;
		let start = match.index!;
		while (start > 0) {
			const char = guide[start - 1];
			if (char === ')') depth++;
			else if (char === '(' && depth-- === 0) break;
			else if (char === ':' && depth === 0) break;
			start--;
		}
		for (const name of guide.slice(start, match.index).matchAll(/`([A-Za-z_$][\w$]*(?:\.[\w$]+)*)(?:\([^`]*\))?`/g)) pairs.push({ name: name[1], file: match[1] });
	}
	return { files, pairs };
}

/** Whether a source file defines or imports `name`: a function, class, variable, method, property or an imported name (a mere use does not count). */
export function defines(source: string, name: string): boolean {
	const n = name.replace(/\$/g, '\\$');
	return [
		new RegExp(`(?:function\\*?|class|const|let|var)\\s+${n}\\b`),
		new RegExp(`^\\s*(?:async\\s+)?(?:static\\s+)?${n}\\s*\\([^)]*\\)\\s*(?::[^{]+)?\\{`, 'm'),
		new RegExp(`^\\s*${n}\\s*:`, 'm'),
		new RegExp(`(?:const|import)\\s*\\{[^}]*\\b${n}\\b[^}]*\\}`),
	].some((pattern) => pattern.test(source));
}

describe('ARCHITECTURE.md\'s "An operation that calls a new endpoint"', () => {
	const guide = endpointGuide(readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

	it('reads file names and "`name` in `file`" pairs (the check itself)', () => {
		expect(guideNames('copy `a/b.ts`; `get` in\n `sandbox/locations.js` and `x.y(1)` in `c.js`; `<name>.ts`, `d.ts` (new); with: `u`, `v` (a `w` (x)), all in `e.ts`')).toEqual({
			files: ['a/b.ts', 'sandbox/locations.js', 'c.js', 'e.ts'],
			pairs: [
				{ name: 'get', file: 'sandbox/locations.js' },
				{ name: 'x.y', file: 'c.js' },
				{ name: 'u', file: 'e.ts' },
				{ name: 'v', file: 'e.ts' },
				{ name: 'w', file: 'e.ts' },
			],
		});
		expect(guide).toContain('Location → Get');
		// A name only used is not defined: campaigns.js calls `this.campaigns.map(…)` but defines `find`.
		const campaigns = readFileSync(path.join(ROOT, 'sandbox/campaigns.js'), 'utf8');
		expect([defines(campaigns, 'find'), defines(campaigns, 'map'), defines(campaigns, 'findByName')]).toEqual([true, false, false]);
		expect(defines('const { a, resourceNotFoundReply } = require("x");', 'resourceNotFoundReply')).toBe(true);
	});

	it('names only files that exist, and only code that is in the file it names', () => {
		const { files, pairs } = guideNames(guide);
		expect(pairs.length).toBeGreaterThan(5);
		const problems = [
			...files.filter((file) => !resolveNamed(file)).map((file) => `ARCHITECTURE.md's endpoint guide names ${file}, which does not exist`),
			...pairs
				.filter(({ file }) => resolveNamed(file))
				.filter(({ name, file }) => !defines(readFileSync(resolveNamed(file)!, 'utf8'), name.split('.').pop()!))
				.map(({ name, file }) => `ARCHITECTURE.md's endpoint guide says \`${name}\` is in ${file}, which has no ${name.split('.').pop()}`),
		];
		expectAgreement(
			problems,
			'Make the guide point at code that exists (a newcomer copies what it names): rename the name or the file, or write "`name` in `file`" only for code that is there; ' +
				'a file the newcomer writes is marked "(new)" after its name, as `location/get.operation.ts` (new).',
		);
	});

	it('its running example (Location → Get) is still one a newcomer would be adding: no such operation, and the files it marks (new) do not exist', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { RESOURCES } = require('../../nodes/LbaAds/actions/resources') as typeof import('../../nodes/LbaAds/actions/resources');
		const example = /The running example is \*\*(\w+) → (\w[\w ]*?)\*\*/.exec(guide);
		expect(example).not.toBeNull();
		const [, resource, operation] = example!;
		const inCode = RESOURCES.some((each) => each.name === resource && each.operations.some((module) => module.option.name === operation));
		const written = [...guide.matchAll(/`([\w/.-]+)` \(new\)/g)].map(([, file]) => file).filter((file) => resolveNamed(file));
		expectAgreement(
			[...(inCode ? [`${resource} → ${operation} is in the code now`] : []), ...written.map((file) => `${file}, marked (new), exists`)],
			'The guide\'s running example must be an operation nobody has added: pick another one (an endpoint of the service the node does not call yet) and rewrite the steps\' example names.',
		);
	});
});
