#!/usr/bin/env node
'use strict';
// The report of `npm run test:compat -- <version>` (scripts/test-compat.sh): reads jest's --json
// output, prints one line per suite with the n8n version, writes artifacts/compat/n8n-<version>.md
// and puts that version's row in the table of docs/compatibility.md and of the README's "Supported
// n8n versions" (one row per version, newest first; a file without the table's markers is left alone,
// except docs/compatibility.md, which gets them).
// Exit code: 0 when every suite passed, 1 otherwise (or when n8n did not install: --note).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const DOC = path.join(ROOT, 'docs', 'compatibility.md');
const README = path.join(ROOT, 'README.md');
const START = '<!-- compat-table:start (written by scripts/compat-report.js) -->';
const END = '<!-- compat-table:end -->';

const { values: args } = parseArgs({
	options: {
		version: { type: 'string' },
		json: { type: 'string', default: '' },
		note: { type: 'string', default: '' },
		seconds: { type: 'string', default: '' },
		suites: { type: 'string' },
		doc: { type: 'string', multiple: true, default: [DOC, README] },
	},
});
const version = args.version;
const suites = args.suites
	.split('\n')
	.filter(Boolean)
	.map((line) => {
		const [label, file] = line.split('|');
		return { label, file, name: path.basename(file).replace(/\.test\.ts$/, '') };
	});

/** Per suite: status ('passed' | 'failed' | 'skipped' | 'not run'), test counts, seconds. */
function results() {
	let report = null;
	if (args.json && fs.existsSync(args.json)) report = JSON.parse(fs.readFileSync(args.json, 'utf8'));
	return suites.map((suite) => {
		const r = report?.testResults.find((t) => path.resolve(t.name) === path.resolve(ROOT, suite.file));
		if (!r) return { ...suite, status: 'not run', passed: 0, total: 0, seconds: 0 };
		const count = (s) => r.assertionResults.filter((a) => a.status === s).length;
		const passed = count('passed');
		const failed = count('failed') + (r.status === 'failed' && count('failed') === 0 ? 1 : 0);
		const total = r.assertionResults.length;
		const status = failed > 0 || r.status === 'failed' ? 'failed' : passed === 0 ? 'skipped' : 'passed';
		const seconds = Math.round(((r.endTime ?? 0) - (r.startTime ?? 0)) / 1000);
		const firstFailure = r.assertionResults.find((a) => a.status === 'failed');
		return { ...suite, status, passed, total, seconds, failure: firstFailure?.fullName ?? (status === 'failed' ? r.message.split('\n').find(Boolean) : undefined) };
	});
}

const rows = args.note ? [] : results();
const ok = !args.note && rows.every((r) => r.status === 'passed');
const date = new Date().toISOString().slice(0, 10);
const node = process.env.LBA_COMPAT_NODE || 'Node 24';
const cell = (r) =>
	r.status === 'passed'
		? `✅ ${r.passed}/${r.total} (${r.seconds} s)`
		: r.status === 'failed'
			? `❌ ${r.passed}/${r.total}`
			: r.status === 'skipped'
				? '⚪ skipped'
				: '— not run';
// "n8n X cannot be installed: it needs @n8n/agents@0.26.2, which the registry (...) does not have."
const missing = /it needs (\S+), which the registry/.exec(args.note)?.[1];
const why = missing ? `needs ${missing}, not in the registry` : args.note.replace(/^.* cannot be installed: /, '').replace(/\.$/, '');
const verdict = args.note ? `not installable: ${why}` : ok ? 'supported' : 'failing';

// 1. One line per suite (stdout).
const say = (line) => process.stdout.write(`[test:compat] ${line}\n`);
if (args.note) {
	say(`n8n ${version}: not installable, no suite run (${why})`);
} else {
	for (const r of rows) {
		say(`n8n ${version} | ${r.label.padEnd(36)} | ${r.status.padEnd(7)} | ${r.passed}/${r.total} tests | ${r.seconds} s${r.failure ? ` | first failure: ${r.failure}` : ''}`);
	}
	say(`n8n ${version}: ${ok ? 'all suites passed' : 'SOME SUITES FAILED'} (${args.seconds} s in all, ${os.cpus().length} CPUs)`);
}

// 2. artifacts/compat/n8n-<version>.md
const table = (header, body) => [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((c) => `| ${c.join(' | ')} |`)].join('\n');
const mdDir = path.join(ROOT, 'artifacts', 'compat');
fs.mkdirSync(mdDir, { recursive: true });
const md = args.note
	? `# n8n ${version}: compatibility run (${date})\n\nNot installable: ${args.note}\n`
	: `# n8n ${version}: compatibility run (${date}, ${node}, ${args.seconds} s)\n\n${table(
			['Suite', 'File', 'Result', 'Tests', 'Time'],
			rows.map((r) => [r.label, `\`${r.file}\``, r.status, `${r.passed}/${r.total}`, `${r.seconds} s`]),
		)}\n\nResult: **${verdict}**. Artifacts: \`artifacts/compat/n8n-${version}/\`.\n`;
fs.writeFileSync(path.join(mdDir, `n8n-${version}.md`), md);
say(`written artifacts/compat/n8n-${version}.md`);

// 3. The tables: this version's row (replacing an older run of it), newest version first.
const header = ['n8n', 'Run on', 'Result', ...suites.map((s) => s.label)];
const row = [`**${version}**`, date, verdict, ...suites.map((s) => (args.note ? '—' : cell(rows.find((r) => r.file === s.file))))];
const versionOf = (line) => (line.match(/^\| \*\*([^*]+)\*\* \|/) || [])[1];
const semver = (v) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
const newer = (a, b) => {
	const [x, y] = [semver(a), semver(b)];
	for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return (y[i] ?? -1) > (x[i] ?? -1) ? 1 : -1;
	return 0;
};
for (const file of args.doc) {
	let doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# n8n compatibility\n\n${START}\n${END}\n`;
	if (!doc.includes(START) || !doc.includes(END)) {
		if (file !== DOC) continue;
		doc = `${doc.trimEnd()}\n\n${START}\n${END}\n`;
	}
	const [before, rest] = doc.split(START);
	const [inside, after] = rest.split(END);
	const kept = inside
		.split('\n')
		.filter((line) => versionOf(line) && versionOf(line) !== version)
		.map((line) => line.slice(2, -2).split(' | '));
	const all = [...kept, row].sort((a, b) => newer(versionOf(`| ${a[0]} |`), versionOf(`| ${b[0]} |`)));
	fs.writeFileSync(file, `${before}${START}\n${table(header, all)}\n${END}${after}`);
	say(`updated ${path.relative(ROOT, file)} (${all.length} version${all.length === 1 ? '' : 's'})`);
}
process.exit(ok ? 0 : 1);
