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
