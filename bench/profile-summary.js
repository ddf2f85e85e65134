'use strict';
// Summarises a --cpu-prof file: self time by function and by package, and inclusive time
// of functions matching a pattern. Used to find where a contender spends its time:
//   node bench/profile-summary.js CPU.xxx.cpuprofile [pattern]
//   node bench/profile-summary.js CPU.xxx.cpuprofile --groups=lba
// --groups=lba: the LBA node's share by function group (expressions, validation, duplicate
// protection store, HTTP, ...), over the samples from the first to the last one with the
// LBA node's code on the stack (so n8n start-up and output printing are left out). Each
// sample counts once, for the first group in list order that matches any frame of its stack
// (e.g. getNodeParameter under our prepare() counts as expressions, not as our node).
const fs = require('node:fs');

const args = process.argv.slice(2);
const groupsFlag = (args.find((a) => a.startsWith('--groups=')) || '').slice('--groups='.length);
const [file, pattern] = args.filter((a) => !a.startsWith('--'));
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);

const where = (cf) => {
	const url = cf.url || '';
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
	return m ? m[1] : url.includes('/dist/nodes/LbaAds') ? 'LBA node' : url ? url.replace(/^.*\//, '') : '(native)';
};
const label = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
const add = (map, key, us) => map.set(key, (map.get(key) || 0) + us);

// Function groups for --groups=lba, first match in this order wins. Tested against "function url".
const LBA_GROUPS = [
	['GC', /^\(garbage collector\) /],
	['idle (waiting for answers)', /^\(idle\) /],
	['duplicate protection: n8n store (processed-items, SQLite)', /(checkProcessedAndRecord|getProcessedDataCount|processed-data|ProcessedData|DataDeduplication|deduplication|typeorm|sqlite3|@n8n\/db)/i],
	['HTTP (n8n request helper, axios, sockets)', /(httpRequestWithAuthentication|requestWithAuthentication|proxyRequestToAxios|\/axios\/|follow-redirects|node:_http_|node:net |node:https|node:tls|writev|stream_base_commons|node:zlib)/],
	['expressions and parameters (n8n)', /(getNodeParameter|resolveParameter|resolveSimpleParameterValue|getParameterValue|Expression|expression|tournament|esprima|recast|@n8n\/tournament|WorkflowDataProxy|workflow-data-proxy|extend|augmentObject)/],
	['validation and request shaping (our node)', /\/dist\/nodes\/LbaAds\/(actions\/campaign|helpers|shared)|\/dist\/nodes\/shared\/(campaign|validation|schema)/i],
	['duplicate protection: our key and guard', /\/dist\/nodes\/LbaAds\/duplicateProtection/],
	['our node: engine and transport', /\/dist\/nodes\//],
	['n8n engine (other)', /(n8n-core|n8n-workflow|\/n8n\/dist)/],
];

function groupSummary(groups) {
	const isOurs = (n) => /\/dist\/nodes\/LbaAds\//.test(byId.get(n).callFrame.url || '');
	const onStack = (id) => {
		for (let n = id; n !== undefined; n = parent.get(n)) if (isOurs(n)) return true;
		return false;
	};
	const first = profile.samples.findIndex(onStack);
	let last = -1;
	for (let i = profile.samples.length - 1; i >= 0 && last < 0; i--) if (onStack(profile.samples[i])) last = i;
	if (first < 0) return 'no sample of the LBA node in this profile';
	const totals = new Map();
	let total = 0;
	for (let i = first; i <= last; i++) {
		const us = profile.timeDeltas[i] || 0;
		total += us;
		const stack = [];
		for (let n = profile.samples[i]; n !== undefined; n = parent.get(n)) {
			const cf = byId.get(n).callFrame;
			stack.push(`${cf.functionName || '(anonymous)'} ${cf.url || ''}`);
		}
		const hit = groups.find(([, re]) => stack.some((text) => re.test(text)));
		add(totals, hit ? hit[0] : 'other', us);
	}
	const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]);
	return [
		`LBA node window: ${(total / 1000).toFixed(0)} ms sampled (samples ${first}..${last})`,
		'',
		'| Group | ms | share |',
		'| --- | ---: | ---: |',
		...rows.map(([g, us]) => `| ${g} | ${(us / 1000).toFixed(0)} | ${((us / total) * 100).toFixed(1)}% |`),
	].join('\n');
}

if (groupsFlag) {
	if (groupsFlag !== 'lba') throw new Error(`unknown --groups=${groupsFlag} (known: lba)`);
	console.log(groupSummary(LBA_GROUPS));
	process.exit(0);
}

const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) || 0) + (profile.timeDeltas[i] || 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const byFn = new Map();
const byPkg = new Map();
for (const [id, us] of selfUs) {
	const cf = byId.get(id).callFrame;
	add(byFn, label(cf), us);
	add(byPkg, where(cf), us);
}
const top = (map, n) =>
	[...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, n)
		.map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
		.join('\n');
console.log(`total sampled ${(total / 1000).toFixed(0)} ms\n\nself time by package:\n${top(byPkg, 20)}\n\nself time by function:\n${top(byFn, 40)}`);

if (pattern) {
	// Inclusive time: a sample counts once for each distinct matching function on its stack.
	const re = new RegExp(pattern);
	const incl = new Map();
	profile.samples.forEach((id, i) => {
		const seen = new Set();
		for (let n = id; n !== undefined; n = parent.get(n)) {
			const l = label(byId.get(n).callFrame);
			if (re.test(l) && !seen.has(l)) {
				seen.add(l);
				add(incl, l, profile.timeDeltas[i] || 0);
			}
		}
	});
	console.log(`\ninclusive time of functions matching /${pattern}/:\n${top(incl, 40)}`);
}
