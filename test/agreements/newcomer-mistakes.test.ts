/**
 * Mistakes a newcomer made adding an operation by ARCHITECTURE.md's "Where to add what" that passed
 * every other check (issue 58): a docs/operations.md section with no fields, a tool description
 * that says nothing of what the tool returns, a read sent without retries. Each check names the
 * fix. (A sandbox handler answering the same for every id is test/agreements/ids-in-paths.test.ts's.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { RESOURCES } from '../../nodes/LbaAds/actions/resources';
import { REPO } from './openapi';

/** The sections of docs/operations.md by their heading ("Location → Get (`GET /lba/locations/{id}`)"): their text. */
export function sections(markdown: string): Map<string, string> {
	const found = new Map<string, string>();
	const parts = markdown.split(/^## /m).slice(1);
	for (const part of parts) {
		const [heading, ...body] = part.split('\n');
		found.set(heading.trim(), body.join('\n').trim());
	}
	return found;
}

/** Why an operation's section is not yet documentation (or undefined): a placeholder, or no field nor sentence. */
export function sectionProblem(text: string): string | undefined {
	if (/\b(TODO|TBD|FIXME)\b/.test(text)) return 'it holds a placeholder (TODO)';
	const words = text.replace(/[|`*-]/g, ' ').split(/\s+/).filter(Boolean).length;
	if (words < 15) return `it has ${words} words: say what the operation sends and returns, and list its fields in a table (| Field | … |) as the other sections do`;
	return undefined;
}

/** Why a tool description cannot guide a model (or undefined): it must say what the call gives back. */
export function toolDescriptionProblem(text: string): string | undefined {
	const words = text.split(/\s+/).filter(Boolean).length;
	if (words < 12) return `it has ${words} words: say what the call does, what it returns (the values the model gets), what it costs and when not to call it`;
	// A tool that must never be called says so instead (Forget Sent's).
	if (!/\b(return|returns|gives|lists|finds|outputs|answers|fails)\b|\bDo not call it\b/i.test(text)) return 'it never says what the call gives back: name the values the model gets';
	return undefined;
}

/** A GET request written with `retry: false` in a source text: a read the transport would not retry. */
export function readsWithoutRetry(source: string): string[] {
	const calls: string[] = [];
	for (let start = source.indexOf('request({'); start >= 0; start = source.indexOf('request({', start + 1)) {
		// The call's object, to its closing brace (nested braces counted).
		let depth = 0;
		let end = start + 'request('.length;
		for (; end < source.length; end++) {
			if (source[end] === '{') depth++;
			else if (source[end] === '}' && --depth === 0) break;
		}
		calls.push(source.slice(start, end + 1));
	}
	return calls.filter((call) => /method:\s*'GET'/.test(call) && !/retry:\s*true/.test(call)).map((call) => call.replace(/\s+/g, ' '));
}

function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
	);
}

describe("a newcomer's mistakes that passed every other check (issue 58)", () => {
	it('the checks themselves: a TODO section, a one-word tool description, a read with retry: false', () => {
		expect(sectionProblem('TODO.')).toMatch(/placeholder/);
		expect(sectionProblem('Gets one.')).toMatch(/has 2 words/);
		expect(sectionProblem('Sends `GET /lba/locations/{locationId}` and returns the location with its name, province and Location ID.\n\n| Field | What |\n|---|---|\n| Location | By ID or From List |')).toBeUndefined();
		expect(toolDescriptionProblem('x')).toMatch(/has 1 words/);
		expect(toolDescriptionProblem('Gets one location from the service for the user who asked for it today')).toMatch(/never says what the call gives back/);
		expect(readsWithoutRetry("transport.request({ method: 'GET', path: `/lba/locations/${id}`, itemIndex, retry: false })")).toHaveLength(1);
		expect(readsWithoutRetry("transport.request({ method: 'GET', path: '/io/products', itemIndex, retry: true })")).toEqual([]);
		expect(readsWithoutRetry("transport.request({ method: 'POST', path: '/lba/campaign', body, itemIndex, retry: false })")).toEqual([]);
	});

	it("every operation's section in docs/operations.md says what it does and lists its fields (no TODO)", () => {
		const docs = sections(readFileSync(path.join(REPO, 'docs/operations.md'), 'utf8'));
		const problems = RESOURCES.flatMap((resource) =>
			resource.operations.flatMap((module) => {
				const name = `${resource.name} → ${module.option.name}`;
				const heading = [...docs.keys()].find((each) => each === name || each.startsWith(`${name} (`));
				const problem = heading === undefined ? undefined : sectionProblem(docs.get(heading)!);
				return problem ? [`docs/operations.md "## ${heading}": ${problem}`] : [];
			}),
		);
		expect(problems).toEqual([]);
	});

	it("every operation's tool description says what the call returns", () => {
		const problems = RESOURCES.flatMap((resource) =>
			resource.operations.flatMap((module) => {
				const text = String(module.description.find((property) => property.name === 'toolDescription')?.default ?? '');
				const problem = toolDescriptionProblem(text);
				return problem ? [`${resource.name} → ${module.option.name}: its toolDescription (toolDescription(…) in its operation file): ${problem}`] : [];
			}),
		);
		expect(problems).toEqual([]);
	});

	it('every read is sent with retry: true (a GET is safe to retry; only a campaign is sent once)', () => {
		const found = ['nodes/LbaAds', 'nodes/shared', 'nodes/LbaAdsTrigger'].flatMap((dir) =>
			sourceFiles(dir).flatMap((file) => readsWithoutRetry(readFileSync(path.join(REPO, file), 'utf8')).map((call) => `${file}: ${call} (write retry: true)`)),
		);
		expect(found).toEqual([]);
	});
});
