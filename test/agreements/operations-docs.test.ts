/**
 * Every operation the node registers has its section in docs/operations.md ("## Resource →
 * Operation") and in the README's Operations ("### Resource → Operation"), and its row in the
 * tools table of docs/ai-agent-tool.md naming each field the model fills (its `$fromAI` keys),
 * and a line in CHANGELOG.md; no section or row names an operation that does not exist.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { RESOURCES } from '../../nodes/LbaAds/actions/resources';
import { expectAgreement, REPO } from './openapi';

const registered = RESOURCES.flatMap((resource) => resource.operations.map((module) => `${resource.name} → ${module.option.name}`));

/** "Campaign → Create" from headings of the given level, e.g. "## Campaign → Create (`POST /lba/campaign`)". */
function operationHeadings(markdown: string, level: string): string[] {
	const heading = new RegExp(`^${level} (\\S[^→\\n]*?) → (.+?)(?: \\(.*\\))?$`, 'gm');
	return [...markdown.matchAll(heading)].map((match) => `${match[1]} → ${match[2]}`);
}

function compare(file: string, documented: string[]): string[] {
	return [
		...registered.filter((name) => !documented.includes(name)).map((name) => `${file}: no section for ${name}`),
		...documented.filter((name) => !registered.includes(name)).map((name) => `${file}: a section for ${name}, which the node does not register`),
	];
}

describe('the operations in the docs', () => {
	it('docs/operations.md has a "## Resource → Operation" section for each registered operation', () => {
		const markdown = readFileSync(path.join(REPO, 'docs/operations.md'), 'utf8');
		expectAgreement(
			[
				...compare('docs/operations.md', operationHeadings(markdown, '##')),
				...registered.filter((name) => !markdown.includes(`- [${name}](#`)).map((name) => `docs/operations.md: no line "- [${name}](#…)" in the list at the top`),
			],
			'Add (or rename) the section "## <Resource> → <Operation> (`METHOD /path`)" in docs/operations.md, with its fields, and its line in the list at the top, ' +
				'"- [<Resource> → <Operation>](#<anchor>)". The anchor is GitHub\'s: the heading in lower case, without punctuation other than - and _ ' +
				'(backticks, slashes, braces, arrows and parentheses go), spaces as -: "## Campaign → Create (`POST /lba/campaign`)" is #campaign--create-post-lbacampaign ' +
				'(test/docs/links.test.ts checks it).',
		);
	});

	it('the README\'s Operations has a "### Resource → Operation" entry for each registered operation', () => {
		const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
		const start = readme.indexOf('\n## Operations\n');
		const end = readme.indexOf('\n## ', start + 1);
		expect(start).toBeGreaterThan(0);
		expectAgreement(
			compare('README.md', operationHeadings(readme.slice(start, end), '###')),
			'Add (or rename) "### <Resource> → <Operation>" under "## Operations" in README.md: two or three lines for users, linking docs/operations.md.',
		);
	});

	it('docs/ai-agent-tool.md has a tools-table row for each registered operation, naming every field the model fills', () => {
		const markdown = readFileSync(path.join(REPO, 'docs/ai-agent-tool.md'), 'utf8');
		const rows = new Map([...markdown.matchAll(/^\| (\S[^|→]*? → [^|]+?) \|.*\| ([^|]*) \|$/gm)].map((match) => [match[1], match[2]]));
		const problems = compare('docs/ai-agent-tool.md', [...rows.keys()]);
		for (const resource of RESOURCES) {
			for (const module of resource.operations) {
				const name = `${resource.name} → ${module.option.name}`;
				const keys = module.description
					.filter((property) => property.displayOptions?.show?.['@tool']?.[0] === true)
					.flatMap((property) => [...String(property.default).matchAll(/\$fromAI\('([^']+)'/g)].map((match) => match[1]));
				for (const key of keys) if (rows.has(name) && !rows.get(name)!.includes(`\`${key}\``)) problems.push(`docs/ai-agent-tool.md: the ${name} row does not name \`${key}\``);
			}
		}
		expectAgreement(
			problems,
			'Add (or fix) the row "| <Resource> → <Operation> | "<its Tool Description, start>" | <each $fromAI key in backticks, or none> |" in the tools table of docs/ai-agent-tool.md.',
		);
	});

	it('CHANGELOG.md names each registered operation ("Resource → Operation")', () => {
		const changelog = readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8');
		expectAgreement(
			registered.filter((name) => !changelog.includes(name)).map((name) => `CHANGELOG.md: no line names ${name}`),
			'Add a line under "## Unreleased" → "### Added" in CHANGELOG.md: "- **<Resource> → <Operation>**: what it does for the user, in a sentence."',
		);
	});
});
