/**
 * Every operation the node registers has its section in docs/operations.md ("## Resource →
 * Operation") and a line in CHANGELOG.md; no section (nor a README entry "### Resource →
 * Operation") names an operation that does not exist. What is written from the registry must be
 * current: the tools table of docs/ai-agent-tool.md (scripts/tool-table.js) and the operation
 * lists of docs/operations.md and README.md (scripts/operation-lists.js).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { RESOURCES } from '../../nodes/LbaAds/actions/resources';
import { expectAgreement, REPO } from './openapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { expectedPages } = require('../../scripts/operation-lists') as { expectedPages(resources: typeof RESOURCES): Record<string, string> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PAGE, toolTable, withTable } = require('../../scripts/tool-table') as {
	PAGE: string;
	toolTable(resources: typeof RESOURCES): string;
	withTable(page: string, table: string): string;
};

/** Where an operation's line goes in CHANGELOG.md, under "## Unreleased". */
const CHANGELOG_HEADING = '### LBA Ads node';

const registered = RESOURCES.flatMap((resource) => resource.operations.map((module) => `${resource.name} → ${module.option.name}`));

/**
 * The operations with no line of their own under "## Unreleased" → "### LBA Ads node": a line
 * naming it in bold, `**Product → Get**`, the closing `**` right after its name, so
 * "**Product → Get Many**" does not count for Product → Get.
 */
export function missingChangelogLines(changelog: string, names: string[]): string[] {
	const unreleased = changelog.indexOf('\n## Unreleased\n');
	const start = unreleased < 0 ? -1 : changelog.indexOf(`\n${CHANGELOG_HEADING}\n`, unreleased);
	const end = start < 0 ? -1 : changelog.slice(start + 1).search(/\n##+ /);
	const section = start < 0 ? '' : changelog.slice(start, end < 0 ? undefined : start + 1 + end);
	const lines = section.split('\n').filter((line) => line.startsWith('- '));
	return names.filter((name) => !lines.some((line) => line.includes(`**${name}**`)));
}

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
			compare('docs/operations.md', operationHeadings(markdown, '##')),
			'Add (or rename) the section "## <Resource> → <Operation> (`METHOD /path`)" in docs/operations.md, with its fields (a table, as the sections around it), ' +
				'then run `npm run fixtures:update`: it writes the operation lists of docs/operations.md and README.md, linking the section.',
		);
	});

	it("the operation lists of docs/operations.md and README.md are the registry's, linking each operation's section", () => {
		const stale = Object.entries(expectedPages(RESOURCES))
			.filter(([file, text]) => readFileSync(file, 'utf8') !== text)
			.map(([file]) => `${path.relative(REPO, file)}: the operation list (between its "operation list" comments) is not the registry's`);
		expectAgreement(stale, 'Run `npm run fixtures:update` (it rewrites both lists from the registry) and review its diff; do not edit the lists by hand.');
	});

	it('the README\'s "### Resource → Operation" entries, which are optional, name registered operations', () => {
		const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
		const start = readme.indexOf('\n## Operations\n');
		const end = readme.indexOf('\n## ', start + 1);
		expect(start).toBeGreaterThan(0);
		const documented = operationHeadings(readme.slice(start, end), '###');
		expectAgreement(
			documented.filter((name) => !registered.includes(name)).map((name) => `README.md: an entry for ${name}, which the node does not register`),
			'Rename or remove the "### <Resource> → <Operation>" entry under "## Operations" in README.md (the generated list above the entries names every operation).',
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

	it('CHANGELOG.md has a line for each registered operation ("- **Resource → Operation**" under "### LBA Ads node")', () => {
		const changelog = readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8');
		// The heading the fix names is the CHANGELOG's own: the check fails if it is renamed.
		expect({ heading: CHANGELOG_HEADING, found: changelog.includes(`\n## Unreleased\n`) && changelog.includes(`\n${CHANGELOG_HEADING}\n`) }).toEqual({
			heading: CHANGELOG_HEADING,
			found: true,
		});
		expectAgreement(
			missingChangelogLines(changelog, registered).map((name) => `CHANGELOG.md: no line names **${name}** under "## Unreleased" → "${CHANGELOG_HEADING}"`),
			`Add a line under "## Unreleased" → "${CHANGELOG_HEADING}" in CHANGELOG.md: "- **<Resource> → <Operation>** (\`METHOD /path\`): what it does for the user, in a sentence."`,
		);
	});

	it('an operation whose name only starts another\'s line has no line (the check itself)', () => {
		const changelog = `# Changelog\n\n## Unreleased\n\n${CHANGELOG_HEADING}\n\n- **Product → Get Many** (\`GET /io/products\`): data packages.\n- Outputs: Product → Get on name.\n\n### LBA Ads Trigger\n\n- **Product → Get**: in the wrong section.\n`;
		expect(missingChangelogLines(changelog, ['Product → Get Many', 'Product → Get'])).toEqual(['Product → Get']);
		expect(missingChangelogLines(changelog.replace('- Outputs', '- **Product → Get** (`GET /io/products/{uuid}`): one data package. Outputs'), ['Product → Get'])).toEqual([]);
	});
});
