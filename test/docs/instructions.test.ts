/**
 * Issue 60, "every instruction in one catalogue": each sentence the product shows that tells a
 * person or a model what to do is in nodes/shared/instructions.ts, by id, with the test in real n8n
 * (test/e2e) that follows it to the letter; docs/instructions.md is generated from it. Checked here:
 * the panel's texts (every description, hint, notice and tool description of both nodes and both
 * credentials), the user page, and each catalogue entry's journey and use. What runs show (errors,
 * hints, held items' advice) is checked after every test file that runs the node: test/shown-check.ts.
 * `npm run docs:instructions` writes docs/instructions.md again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { INSTRUCTIONS } from '../../nodes/shared/instructions';
import { LbaAdsApi } from '../../credentials/LbaAdsApi.credentials';
import { LbaAdsOAuth2Api } from '../../credentials/LbaAdsOAuth2Api.credentials';
import { instructionsNotCatalogued, NOT_INSTRUCTIONS } from './instructionFinder';

const ROOT = path.resolve(__dirname, '../..');
const DOC = path.join(ROOT, 'docs/instructions.md');

function filesUnder(dir: string, extension: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full, extension) : entry.name.endsWith(extension) ? [full] : [];
	});
}

type Entry = { say: string | ((...parts: string[]) => string); withoutJourney?: string; page?: true };
const ENTRIES = Object.entries(INSTRUCTIONS as Record<string, Entry>);

/**
 * Each instruction's journeys: the tests in test/e2e that call `e2e.follows('<id>')`, as "file › title"
 * (a test's title, or a case's in a module such as recomputed.cases.ts, which recomputed.e2e runs).
 */
function journeys(): Map<string, string[]> {
	const found = new Map<string, string[]>();
	const files = fs.readdirSync(path.join(ROOT, 'test/e2e')).filter((name) => name.endsWith('.ts'));
	for (const file of files) {
		const source = fs.readFileSync(path.join(ROOT, 'test/e2e', file), 'utf8');
		const titles = [...source.matchAll(/\btest\(\s*(['"`])((?:\\.|(?!\1).)*)\1|\[\s*(['"`])((?:\\.|(?!\3).)*)\3,\s*async/g)].map((match) => ({
			at: match.index!,
			title: (match[2] ?? match[4]).replace(/\\(['"`])/g, '$1'),
		}));
		const runner = file.endsWith('.cases.ts') ? file.replace('.cases.ts', '.e2e.test.ts') : file;
		for (const call of source.matchAll(/\be2e\.follows\(([^)]*)\)/g)) {
			const test = titles.filter(({ at }) => at < call.index!).pop();
			for (const id of [...call[1].matchAll(/'(\w+)'/g)].map((match) => match[1])) {
				found.set(id, [...(found.get(id) ?? []), test ? `${runner} › ${test.title}` : `${runner} › (outside a test)`]);
			}
		}
	}
	return found;
}
const JOURNEYS = journeys();
/** A template shown with its parts as "…". */
const shown = (say: Entry['say']) => (typeof say === 'string' ? say : say(...Array.from({ length: say.length }, () => '…')));
const cell = (text: string) => `\`${text.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;

/** docs/instructions.md, from the catalogue. */
function rendered(): string {
	const withJourney = ENTRIES.filter(([id]) => JOURNEYS.has(id));
	const without = ENTRIES.filter(([id]) => !JOURNEYS.has(id));
	return [
		'# Every instruction, and the journey that follows it',
		'',
		'Generated from [`nodes/shared/instructions.ts`](../nodes/shared/instructions.ts) by `npm run docs:instructions`: do not edit by hand.',
		'',
		"Every sentence the product shows that tells a marketer (or an AI model) what to do is written once, in that catalogue, by id; the nodes' errors, hints, notices, descriptions, held items' advice and the tools' descriptions take it from there, and [the user page](duplicate-protection.md) quotes the ones marked *page* word for word. Each names the tests in real n8n that follow it to the letter and count campaigns per name in the sandbox's journal: a test says so by calling \`e2e.follows('<id>')\`. `test/docs/instructions.test.ts` checks the panel's texts and the user page, and `test/shown-check.ts` every text a node test's run shows: an instruction that is not in the catalogue fails (found by an English grammar, compromise's imperative, in every clause, after a colon or a semicolon too).",
		'',
		'## Instructions and their journeys',
		'',
		'| Id | Instruction | Journeys in real n8n (`e2e.follows`) |',
		'|---|---|---|',
		...withJourney.map(([id, entry]) => `| ${id}${entry.page ? ' (page)' : ''} | ${cell(shown(entry.say))} | ${JOURNEYS.get(id)!.map((journey) => `\`${journey.split(' › ')[0]}\` › ${journey.split(' › ').slice(1).join(' › ').replace(/\|/g, '\\|')}`).join('<br>')} |`),
		'',
		'## Instructions without a journey in real n8n yet',
		'',
		'Each says why; none sends a campaign by itself.',
		'',
		'| Id | Instruction | Why not yet |',
		'|---|---|---|',
		...without.map(([id, entry]) => `| ${id}${entry.page ? ' (page)' : ''} | ${cell(shown(entry.say))} | ${entry.withoutJourney} |`),
		'',
		'## Sentences that are not instructions',
		'',
		'The grammar reads them as instructions, but they name something or say what it does (`NOT_INSTRUCTIONS` in `test/docs/instructionFinder.ts`).',
		'',
		'| Sentence | Why |',
		'|---|---|',
		...NOT_INSTRUCTIONS.map(({ text, why }) => `| ${cell(text)} | ${why} |`),
		'',
	].join('\n');
}

/** Every text of a parameter list a person or a model reads in the panel. */
function panelTexts(properties: INodeProperties[], where: string): Array<{ where: string; text: string }> {
	const texts: Array<{ where: string; text: string }> = [];
	const walk = (list: unknown[], at: string) => {
		for (const property of list as Array<INodeProperties & { values?: unknown[] }>) {
			const here = `${at} › ${property.displayName ?? property.name}`;
			if (property.type === 'notice') texts.push({ where: `${here} (notice)`, text: property.displayName });
			// An option's description (Operation, Mode, Forget) says, in n8n's imperative style, what choosing it does.
			const isOption = 'value' in property;
			for (const field of ['description', 'hint'] as const) {
				if (typeof property[field] === 'string' && !(isOption && field === 'description')) texts.push({ where: `${here} (${field})`, text: property[field] });
			}
			if (property.name === 'toolDescription' && typeof property.default === 'string') texts.push({ where: `${here} (tool)`, text: property.default });
			for (const nested of [property.options, property.values]) if (Array.isArray(nested)) walk(nested, here);
		}
	};
	walk(properties, where);
	return texts;
}

const NODES = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/node-descriptions.json'), 'utf8')) as Record<string, { description: string; properties: INodeProperties[] }>;
const PAGE = fs
	.readFileSync(path.join(ROOT, 'docs/duplicate-protection.md'), 'utf8')
	.replace(/```[\s\S]*?```/g, '')
	.replace(/!\[[^\]]*\]\([^)]*\)/g, '')
	.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
	.replace(/\*\*|`/g, '')
	.replace(/\s+/g, ' ');
const SOURCES = [...filesUnder(path.join(ROOT, 'nodes'), '.ts'), ...filesUnder(path.join(ROOT, 'credentials'), '.ts')]
	.filter((file) => !file.endsWith(path.join('shared', 'instructions.ts')))
	.map((file) => fs.readFileSync(file, 'utf8'))
	.join('\n');

describe('every instruction the product gives is in the catalogue (nodes/shared/instructions.ts)', () => {
	it('docs/instructions.md is generated from it (npm run docs:instructions)', () => {
		if (process.env.UPDATE_INSTRUCTIONS_DOC) fs.writeFileSync(DOC, rendered());
		expect(fs.readFileSync(DOC, 'utf8')).toBe(rendered());
	});

	it("the panel's texts: each instruction in a description, hint, notice or tool description is catalogued", () => {
		const texts = [
			...Object.entries(NODES).flatMap(([name, node]) => [{ where: name, text: node.description }, ...panelTexts(node.properties, name)]),
			...[new LbaAdsApi(), new LbaAdsOAuth2Api()].flatMap((credential) => panelTexts(credential.properties, credential.name)),
		];
		expect(texts.length).toBeGreaterThan(60);
		const missing = texts.flatMap(({ where, text }) => instructionsNotCatalogued(text).map((clause) => `${where}: "${clause}"`));
		expect(missing).toEqual([]);
	});

	it('the user page: each instruction on it is catalogued, and each page entry is on it word for word', () => {
		expect(instructionsNotCatalogued(PAGE)).toEqual([]);
		const absent = ENTRIES.filter(([, entry]) => entry.page && !PAGE.includes(shown(entry.say).trim())).map(([id]) => id);
		expect(absent).toEqual([]);
	});

	it("each entry is the product's: the nodes' code uses it (SAY.<id>), or the user page shows it", () => {
		const unused = ENTRIES.filter(([id, entry]) => !entry.page && !new RegExp(`\\bSAY\\.${id}\\b`).test(SOURCES)).map(([id]) => id);
		expect(unused).toEqual([]);
	});

	it('each e2e.follows names a catalogued instruction, inside a test', () => {
		const wrong = [...JOURNEYS].flatMap(([id, tests]) => [
			...(id in INSTRUCTIONS ? [] : [`${id}: not in nodes/shared/instructions.ts (${tests.join('; ')})`]),
			...tests.filter((test) => test.endsWith('(outside a test)')).map((test) => `${id}: ${test}`),
		]);
		expect(wrong).toEqual([]);
		expect(JOURNEYS.size).toBeGreaterThan(50);
	});

	it('an instruction without a journey says why, and there are few of them', () => {
		const without = ENTRIES.filter(([id]) => !JOURNEYS.has(id));
		expect(without.filter(([, entry]) => (entry.withoutJourney ?? '').length < 40).map(([id]) => id)).toEqual([]);
		expect(without.length).toBeLessThanOrEqual(10);
	});
});
