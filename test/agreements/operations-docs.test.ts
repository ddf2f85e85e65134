/**
 * Every operation the node registers has its section in docs/operations.md ("## Resource →
 * Operation") and in the README's Operations ("### Resource → Operation"), and a line in
 * CHANGELOG.md; no section names an operation that does not exist. The tools table of
 * docs/ai-agent-tool.md is written from the registry (scripts/tool-table.js): it must be current.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { RESOURCES } from '../../nodes/LbaAds/actions/resources';
import { expectAgreement, REPO } from './openapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PAGE, toolTable, withTable } = require('../../scripts/tool-table') as {
	PAGE: string;
	toolTable(resources: typeof RESOURCES): string;
	withTable(page: string, table: string): string;
};

/** Where an operation's line goes in CHANGELOG.md, under "## Unreleased". */
const CHANGELOG_HEADING = '### LBA Ads node';

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

	it("docs/ai-agent-tool.md's tools table is the registry's: each operation, its Tool Description, the fields the model fills", () => {
		const page = readFileSync(PAGE, 'utf8');
		const expected = withTable(page, toolTable(RESOURCES));
		expectAgreement(
			page === expected ? [] : ["docs/ai-agent-tool.md: the tools table is not the registry's"],
			'Run `npm run fixtures:update` (it rewrites the tools table of docs/ai-agent-tool.md) and review its diff.',
		);
	});

	it('CHANGELOG.md names each registered operation ("Resource → Operation")', () => {
		const changelog = readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8');
		// The heading the fix names is the CHANGELOG's own: the check fails if it is renamed.
		expect({ heading: CHANGELOG_HEADING, found: changelog.includes(`\n## Unreleased\n`) && changelog.includes(`\n${CHANGELOG_HEADING}\n`) }).toEqual({
			heading: CHANGELOG_HEADING,
			found: true,
		});
		expectAgreement(
			registered.filter((name) => !changelog.includes(name)).map((name) => `CHANGELOG.md: no line names ${name}`),
			`Add a line under "## Unreleased" → "${CHANGELOG_HEADING}" in CHANGELOG.md: "- **<Resource> → <Operation>** (\`METHOD /path\`): what it does for the user, in a sentence."`,
		);
	});
});
