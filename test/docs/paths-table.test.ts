/**
 * The maintainers' page's table "Every path, its outcome and its proof in real n8n" stays true:
 * each row's proof names a test that exists, by its file and words of its title (a row whose
 * test was renamed or removed fails here). `recomputed.e2e` and `queue-mode.queue` run the cases
 * of test/e2e/recomputed.cases.ts, so a title may be found there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs/duplicate-protection-design.md'), 'utf8');

function filesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? (entry.name === 'node_modules' ? [] : filesUnder(full)) : /\.test\.ts$/.test(entry.name) ? [full] : [];
	});
}
/** The titles of a file's tests and groups (`test(…)`, `it(…)`, `describe(…)`, and the cases of recomputed.cases.ts it runs). */
function titles(source: string): string[] {
	const own = [...source.matchAll(/\b(?:test|it|describe)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((match) => match[2]);
	return source.includes('recomputed.cases') ? [...own, ...SHARED_TITLES] : own;
}
const SHARED_TITLES = [...fs.readFileSync(path.join(ROOT, 'test/e2e/recomputed.cases.ts'), 'utf8').split('export const RECOMPUTED_CASES')[1].matchAll(/^\t\t(['"])(.*)\1,$/gm)].map((match) => match[2]);
const TESTS = new Map(filesUnder(path.join(ROOT, 'test')).map((file) => [path.basename(file).replace(/\.ts$/, ''), titles(fs.readFileSync(file, 'utf8'))]));

/** The table's rows: the path (first cell) and its proof (last cell). */
function rows(): Array<{ path: string; proof: string }> {
	const start = PAGE.indexOf('**Every path, its outcome and its proof in real n8n**');
	if (start < 0) throw new Error('docs/duplicate-protection-design.md has no table "Every path, its outcome and its proof in real n8n"');
	const table = PAGE.slice(start).split('\n\n')[1];
	return table
		.split('\n')
		.slice(2)
		.map((line) => line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim()))
		.map((cells) => ({ path: cells[0], proof: cells[cells.length - 1] }));
}

/** Each test a proof names: `file` › start of title (a file alone names the whole suite). */
function named(proof: string): Array<{ file: string; title?: string }> {
	return [...proof.matchAll(/`([\w.-]+)`(?: › ([^;`]+))?/g)].map((match) => ({ file: match[1], title: match[2]?.trim() }));
}

describe('the maintainers\' table of paths names tests that exist', () => {
	const table = rows();

	it('reads the table and the titles (the check itself)', () => {
		expect(table.length).toBeGreaterThan(30);
		expect(SHARED_TITLES.length).toBeGreaterThanOrEqual(8);
		expect(TESTS.get('queue-mode.queue.test')).toEqual(expect.arrayContaining(SHARED_TITLES));
		expect(named('`identity.test` › after a lock error; `marketer-paths.e2e` › 4.')).toEqual([
			{ file: 'identity.test', title: 'after a lock error' },
			{ file: 'marketer-paths.e2e', title: '4.' },
		]);
	});

	it("each row's proof is a test file, and each title named is in one of its tests' titles", () => {
		const wrong = table.flatMap(({ path: row, proof }) => {
			const tests = named(proof).filter(({ file }) => /\.(e2e|queue|test)$/.test(file));
			if (!tests.length) return [`"${row}": its proof names no test`];
			return tests.flatMap(({ file, title }) => {
				const fileTitles = TESTS.get(file.endsWith('.test') ? file : `${file}.test`);
				if (!fileTitles) return [`"${row}": no test file ${file}`];
				return !title || fileTitles.some((each) => each.includes(title)) ? [] : [`"${row}": ${file} has no test whose title has "${title}"`];
			});
		});
		expect(wrong).toEqual([]);
	});
});
