'use strict';
// The e2e suites' figures: a Markdown table of what a scenario measured, written to
// artifacts/e2e/<name>.md (LBA_E2E_ARTIFACTS moves it) and, with `print`, to the test log.
const fs = require('node:fs');
const path = require('node:path');

const { ARTIFACTS_DIR, ensureDir } = require('./env');

/** `columns`: [heading, row => cell] pairs; a cell's `|` is escaped so the table holds. */
function markdownTable(columns, rows) {
	const cell = (value) => String(value).replace(/\|/g, '\\|').replace(/\n/g, ' ');
	return [
		`| ${columns.map(([heading]) => heading).join(' | ')} |`,
		`|${columns.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${columns.map(([, value]) => cell(value(row))).join(' | ')} |`),
	].join('\n');
}

/** Writes `# title`, then `body`, to artifacts/e2e/<name>.md; prints it too when `print`. Returns the path. */
function writeReport(name, title, body, { print = false } = {}) {
	const text = `# ${title}\n\n${body}\n`;
	const file = path.join(ensureDir(path.join(ARTIFACTS_DIR, 'e2e')), `${name}.md`);
	fs.writeFileSync(file, text);
	if (print) console.log(text);
	return file;
}

module.exports = { markdownTable, writeReport };
