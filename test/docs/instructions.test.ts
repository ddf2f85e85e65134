/**
 * Issue 51, "every instruction is a journey": every sentence the product gives that tells a person
 * (or a model) what to do, in the node's texts and on the user page, is listed in
 * docs/instructions.md with the test in real n8n (test/e2e) that follows it to the letter and
 * counts campaigns. A new instruction without a row, a row whose journey names no such test, or a
 * row whose text is gone from the product fails here.
 *
 * An instruction is found as a sentence that starts with an imperative verb, or has one after a
 * leading clause ("If it is missing, copy…", "To send …, use…", "For …, give…", "In a moment,
 * Retry…"), in every string of nodes/ and credentials/ (template parts shown as "…") and in
 * docs/duplicate-protection.md. A sentence that reads like one but is not (a field's description,
 * a statement) is listed in the page's second table, with why.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** Verbs a sentence that tells what to do starts with. */
const VERBS =
	"Run|Retry|Paste|Set|Wait|Look|Turn|Give|Pick|Empty|Use|Do not|Don't|Check|Open|Send|Keep|Copy|Remove|Fix|Save|Choose|Put|Add|Make|Try|Ask|Write|Change|Lower|Raise|Split|Resend|Forget|Type|Pass|Leave|Start";
/** Openings of a step that the verb follows later: "Then use…", "Only if it is missing:", "If it is there, do nothing." */
const OPENINGS = 'Only if|Once|Then|If it is|If the service|To send';
const IMPERATIVE = new RegExp(`^(${VERBS}|${OPENINGS})\\b`);
/** A clause before the imperative: "If it is missing, copy…", "In a moment, Retry…", "Otherwise, run…". */
const LEADING_CLAUSE = /^(?:If|When|To|For|In|Otherwise|Before|After|Unless|Until)\b[^,;:.]*,\s+/;
/** The imperative after such a clause (in lower case there). */
const VERB_AFTER_CLAUSE = new RegExp(`^(${VERBS})\\b`, 'i');
const isInstruction = (sentence: string) => IMPERATIVE.test(sentence) || (LEADING_CLAUSE.test(sentence) && VERB_AFTER_CLAUSE.test(sentence.replace(LEADING_CLAUSE, '')));

function filesUnder(dir: string, extension: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full, extension) : entry.name.endsWith(extension) ? [full] : [];
	});
}

const normalise = (text: string) => text.replace(/\\'/g, "'").replace(/\s+/g, ' ').trim();

function sentences(text: string): string[] {
	return text
		.split(/(?<=[.;:!?])\s+|\n|…\s+|\|/)
		.map((sentence) => normalise(sentence.replace(/^[\s…*-]+|^\d+\.\s+/g, '')))
		.filter((sentence) => isInstruction(sentence) && sentence.length > 12 && sentence.includes(' '));
}

/** Every instruction-like sentence of the node's strings, with its file. */
function fromSources(): Array<{ where: string; text: string }> {
	const files = [...filesUnder(path.join(ROOT, 'nodes'), '.ts'), ...filesUnder(path.join(ROOT, 'credentials'), '.ts')];
	return files.flatMap((file) => {
		const source = fs
			.readFileSync(file, 'utf8')
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/^\s*\/\/.*$/gm, '');
		const strings = [...source.matchAll(/'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`((?:\\.|[^`\\])*)`/g)].map((match) =>
			(match[1] ?? match[2] ?? match[3]).replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '…'),
		);
		return strings.flatMap(sentences).map((text) => ({ where: path.relative(ROOT, file), text }));
	});
}

/** The user page's instruction-like sentences (code blocks and pictures left out). */
function fromUserPage(): Array<{ where: string; text: string }> {
	const page = fs
		.readFileSync(path.join(ROOT, 'docs/duplicate-protection.md'), 'utf8')
		.replace(/```[\s\S]*?```/g, '')
		.replace(/!\[[^\]]*\]\([^)]*\)/g, '')
		.replace(/\*\*/g, '')
		.replace(/^\s*(\d+\.|-)\s+/gm, '\n')
		.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
	return sentences(page).map((text) => ({ where: 'docs/duplicate-protection.md', text }));
}

interface Row {
	text: string;
	cells: string[];
}

/** A table of docs/instructions.md under `heading`: its first cell (the text, in backticks) and the others. */
function table(heading: string): Row[] {
	const page = fs.readFileSync(path.join(ROOT, 'docs/instructions.md'), 'utf8');
	const start = page.indexOf(`\n## ${heading}\n`);
	if (start < 0) throw new Error(`docs/instructions.md has no section "## ${heading}"`);
	const section = page.slice(start + 1).split(/\n## /)[0];
	return section
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.map((line) => {
			const cells = line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
			return { text: normalise(cells[0].replace(/^`|`$/g, '')), cells: cells.slice(1) };
		});
}

const INSTRUCTIONS = table('Instructions and their journeys');
const NOT_INSTRUCTIONS = table('Sentences that are not instructions');
/** Instructions with the reason they have no journey yet (none can send a campaign by itself). */
const WITHOUT_JOURNEY = table('Instructions without a journey in real n8n yet');
/** Each e2e file's text, with the modules of test/e2e it imports (a suite's cases may live in one: recomputed.cases.ts). */
const E2E_SOURCES = new Map(
	filesUnder(path.join(ROOT, 'test/e2e'), '.e2e.test.ts').map((file) => {
		const source = fs.readFileSync(file, 'utf8');
		const modules = [...source.matchAll(/from '\.\/([\w.-]+)'/g)].map((match) => path.join(path.dirname(file), `${match[1]}.ts`)).filter((module) => fs.existsSync(module));
		return [path.basename(file), [source, ...modules.map((module) => fs.readFileSync(module, 'utf8'))].join('\n')];
	}),
);
const PRODUCT_TEXT = normalise(
	[...filesUnder(path.join(ROOT, 'nodes'), '.ts'), ...filesUnder(path.join(ROOT, 'credentials'), '.ts'), path.join(ROOT, 'docs/duplicate-protection.md')]
		.map((file) => fs.readFileSync(file, 'utf8').replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '…').replace(/\*\*/g, ''))
		.join('\n'),
);

describe('every instruction the product gives is a journey in real n8n (docs/instructions.md)', () => {
	const found = [...fromSources(), ...fromUserPage()];

	it('finds the instructions it is about (the extraction is not empty, and sees the advice of a held item)', () => {
		expect(found.length).toBeGreaterThan(30);
		expect(found.map(({ text }) => text)).toContain('Wait a few minutes, then look for it in LBA Ads.');
	});

	it('each instruction has a row, or is listed as not one', () => {
		const listed = [...INSTRUCTIONS, ...WITHOUT_JOURNEY, ...NOT_INSTRUCTIONS].map(({ text }) => text);
		const missing = found.filter(({ text }) => !listed.some((row) => text.startsWith(row) || row.startsWith(text)));
		expect(missing.map(({ where, text }) => `${where}: "${text}" (add a row to docs/instructions.md with its journey in test/e2e)`)).toEqual([]);
	});

	it("each row's journey is a test in test/e2e, named by its file and the start of its title", () => {
		const wrong = INSTRUCTIONS.flatMap(({ text, cells }) => {
			const journey = /`([\w.-]+\.e2e\.test\.ts)` › (.+)$/.exec(cells[1] ?? '');
			if (!journey) return [`"${text}": no journey (a test in test/e2e that follows it and counts campaigns)`];
			const source = E2E_SOURCES.get(journey[1]);
			const title = journey[2].replace(/…$/, '').trim();
			if (!source) return [`"${text}": no file test/e2e/${journey[1]}`];
			if (!source.includes(title)) return [`"${text}": ${journey[1]} has no test titled "${title}…"`];
			return [];
		});
		expect(wrong).toEqual([]);
	});

	it('an instruction without a journey says why, and there are few of them', () => {
		expect(WITHOUT_JOURNEY.filter(({ cells }) => (cells[1] ?? '').length < 20).map(({ text }) => text)).toEqual([]);
		expect(WITHOUT_JOURNEY.length).toBeLessThanOrEqual(2);
	});

	it("each row's text is still the product's (a row outlives no instruction)", () => {
		const gone = [...INSTRUCTIONS, ...WITHOUT_JOURNEY, ...NOT_INSTRUCTIONS].filter(({ text }) => !PRODUCT_TEXT.includes(text)).map(({ text }) => text);
		expect(gone).toEqual([]);
	});
});
