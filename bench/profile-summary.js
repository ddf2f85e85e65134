'use strict';
// Summarises a --cpu-prof file: self time by function and by package, and inclusive time
// of functions matching a pattern. Used to find where a contender spends its time:
//   node bench/profile-summary.js CPU.xxx.cpuprofile [pattern]
const fs = require('node:fs');

const [file, pattern] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);

const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) || 0) + (profile.timeDeltas[i] || 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (cf) => {
	const url = cf.url || '';
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
	return m ? m[1] : url.includes('/dist/nodes/LbaAds') ? 'LBA node' : url ? url.replace(/^.*\//, '') : '(native)';
};
const label = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;

const add = (map, key, us) => map.set(key, (map.get(key) || 0) + us);
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
