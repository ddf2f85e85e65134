'use strict';
// npm run bench [-- --only=p1,p2,p3,p4,p5] [--rounds=N] [--quick]
// Runs P3 (sandbox HTTP), P1 (node throughput in real n8n), P2 (memory in real n8n) and P4
// (queue-mode throughput, 1 vs 2 workers),
// prints a table, writes bench/results/latest.json and bench/results/latest.svg.
// Every figure is a ratio of contenders measured in the same run, per round, then the
// median with min–max over rounds.
// Order: contenders take turns going first (rotated order). A part is balanced when its rounds
// are a multiple of its contenders (every contender in every position equally often); by default
// each part runs the smallest such multiple of at least 3 rounds (P1 Create Campaign: 7). A run
// with --rounds=N that does not complete the rotation says so loudly, on stderr, under the table
// and in the results file ("order").
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { runP3 } = require('./p3');
const { runP4 } = require('./p4');
const { runP5, P5_CONTENDERS } = require('./p5');
const { runP6 } = require('./p6');
const { startSandbox } = require('./processes');
const n8n = require('./n8n');
const e2e = require('../test/e2e/lib');
const { renderSvg } = require('./plot');

const { values: flags } = parseArgs({
	options: {
		only: { type: 'string', default: 'p1,p2,p3,p4,p5,p6' },
		rounds: { type: 'string' }, // default: per part, a full rotation of its contenders (see above)
		quick: { type: 'boolean', default: false }, // tiny sizes, to check the bench itself works
		p1: { type: 'string', default: 'geocode,campaign' }, // P1 scenarios to run
		// One more n8n execution after P1's rounds, under --cpu-prof: Create Campaign by our node
		// (Campaign Input = JSON) alone, summarised by function group (profile-summary.js --groups=lba).
		profile: { type: 'boolean', default: false },
	},
});
const only = new Set(flags.only.split(',').map((s) => s.trim().toLowerCase()));
const quick = flags.quick;
if (flags.rounds !== undefined && !(Number.isInteger(Number(flags.rounds)) && Number(flags.rounds) > 0)) throw new Error(`--rounds must be a positive integer, got ${flags.rounds}`);

// Rounds of a part with `contenders` contenders, and whether its order is balanced. Every part's
// contenders go first in turn, so only a multiple of the contenders gives each the same positions.
const order = {};
function roundsFor(part, contenders) {
	const rounds = flags.rounds !== undefined ? Number(flags.rounds) : contenders * Math.ceil(3 / contenders);
	const balanced = rounds % contenders === 0;
	order[part] = { contenders, rounds, balanced };
	if (!balanced) log(`!!! UNBALANCED ORDER: ${part} runs ${rounds} rounds of ${contenders} contenders, so some contenders go first (or last) more often than others. Use --rounds=${contenders} (or a multiple), or leave --rounds out, for figures to publish.`);
	return rounds;
}
const unbalancedNote = () =>
	Object.entries(order)
		.filter(([, o]) => !o.balanced)
		.map(([part, o]) => `!!! UNBALANCED ORDER: ${part}: ${o.rounds} rounds of ${o.contenders} contenders (the rotation is not complete; do not publish these figures).`)
		.join('\n');

const started = Date.now();
const log = (line) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), samples: xs });

const P1_SCENARIOS = [
	{ key: 'geocode', label: 'Reverse Geocode', kind: 'geocode', items: quick ? 500 : 10000 },
	{ key: 'campaign', label: 'Create Campaign (3 channels)', kind: 'campaign', items: quick ? 100 : 1000 },
].filter((scenario) => flags.p1.split(',').map((s) => s.trim()).includes(scenario.key));
const P2_PRODUCTS = quick ? 1000 : 100000;
const CATALOGUE_SIZE = 14; // sandbox/products.js CATALOGUE length; checked against the output below

async function runN8nParts(results) {
	const folder = await n8n.prepareN8n(log);
	const scale = Math.ceil(P2_PRODUCTS / CATALOGUE_SIZE);
	const sandbox = await startSandbox({ token: n8n.TOKEN, productsScale: scale });
	try {
		await n8n.importCredentials(folder, sandbox.url);
		const { LBA, LBA_JSON, LBA_CAMPAIGN_JSON, HTTP, DEDUP_HTTP, FLOOR, HTTP_FLOOR } = n8n.names;
		const rotations = (list) => list.map((_, i) => [...list.slice(i), ...list.slice(0, i)]);
		// Import everything once: import:workflow costs seconds per call. One workflow per round:
		// duplicate protection (ours, and Remove Duplicates) keeps sent
		// campaigns per workflow, so a workflow run twice would skip its campaigns the second time.
		const workflows = [];
		const p1Rounds = {};
		for (const scenario of P1_SCENARIOS) {
			const orders = rotations(n8n.contendersOf(scenario));
			const rounds = only.has('p1') ? roundsFor(`P1 ${scenario.key}`, orders.length) : 0;
			p1Rounds[scenario.key] = rounds;
			for (let round = 0; round < rounds; round++) {
				workflows.push(n8n.throughputWorkflow(`bench${scenario.key}${round}`, scenario, orders[round % orders.length], sandbox.url));
			}
		}
		const campaignScenario = P1_SCENARIOS.find((scenario) => scenario.kind === 'campaign');
		if (flags.profile && campaignScenario) {
			workflows.push(n8n.throughputWorkflow('benchcampaignprofile', campaignScenario, [LBA_CAMPAIGN_JSON], sandbox.url, { warmUp: false }));
		}
		workflows.push(n8n.memoryWorkflow('benchmemorylba', 'lba', sandbox.url), n8n.memoryWorkflow('benchmemoryhttp', 'http', sandbox.url));
		log(`importing ${workflows.length} workflows...`);
		await e2e.importWorkflow(folder, workflows);

		if (only.has('p1')) {
			results.p1 = {};
			for (const scenario of P1_SCENARIOS) {
				const contenders = n8n.contendersOf(scenario);
				const rounds = p1Rounds[scenario.key];
				const ms = Object.fromEntries(contenders.map((name) => [name, []]));
				const positions = Object.fromEntries(contenders.map((name) => [name, []])); // where each ran, per round (0 = first)
				const ratios = { lbaVsHttp: [], lbaVsFloor: [], lbaVsHttpFloor: [], lbaJsonVsDedup: [], lbaVsDedup: [], lbaJsonVsHttp: [], campaignJsonVsDedup: [], campaignJsonVsHttp: [] };
				for (let round = 0; round < rounds; round++) {
					const { runData, wallMs } = await n8n.execute(folder, `bench${scenario.key}${round}`);
					const got = {};
					for (const name of contenders) {
						// A contender's time is the sum of its nodes' own times (Remove Duplicates + HTTP Request).
						const runs = n8n.chainOf(name).map((nodeName) => n8n.nodeRun(runData, nodeName));
						got[name] = { ms: runs.reduce((sum, run) => sum + run.ms, 0), startTime: runs[0].startTime, items: runs[runs.length - 1].items };
						if (got[name].items.length !== scenario.items) throw new Error(`${scenario.key}: ${name} returned ${got[name].items.length} items, expected ${scenario.items}`);
					}
					if (scenario.kind === 'geocode' && !got[LBA].items.every((item) => item.json.found === true)) throw new Error('geocode: some points not found');
					if (scenario.kind === 'geocode' && !got[HTTP_FLOOR].items.every((item) => item.json.status === 'OK')) throw new Error('geocode: HTTP floor got answers other than OK');
					if (scenario.kind === 'campaign') {
						// A skipped (duplicate) campaign sends nothing: the time would not be a send's time.
						for (const name of [LBA, LBA_JSON, LBA_CAMPAIGN_JSON]) {
							if (!got[name].items.every((item) => typeof item.json.campaignId === 'string' && !item.json.skipped)) throw new Error(`campaign: ${name} did not create every campaign`);
						}
						for (const name of [HTTP, DEDUP_HTTP, HTTP_FLOOR]) {
							if (!got[name].items.every((item) => typeof item.json.campaignId === 'string')) throw new Error(`campaign: ${name} did not create every campaign`);
						}
					}
					for (const name of contenders) ms[name].push(got[name].ms);
					// items/s ratio = inverse time ratio (same item count)
					ratios.lbaVsHttp.push(got[HTTP].ms / got[LBA].ms);
					ratios.lbaVsFloor.push(got[LBA].ms / got[FLOOR].ms);
					ratios.lbaVsHttpFloor.push(got[LBA].ms / got[HTTP_FLOOR].ms);
					if (scenario.kind === 'campaign') {
						ratios.lbaJsonVsDedup.push(got[DEDUP_HTTP].ms / got[LBA_JSON].ms);
						ratios.lbaVsDedup.push(got[DEDUP_HTTP].ms / got[LBA].ms);
						ratios.lbaJsonVsHttp.push(got[HTTP].ms / got[LBA_JSON].ms);
						ratios.campaignJsonVsDedup.push(got[DEDUP_HTTP].ms / got[LBA_CAMPAIGN_JSON].ms);
						ratios.campaignJsonVsHttp.push(got[HTTP].ms / got[LBA_CAMPAIGN_JSON].ms);
					}
					const ran = contenders.slice().sort((a, b) => got[a].startTime - got[b].startTime);
					ran.forEach((name, position) => positions[name].push(position));
					log(`P1 ${scenario.key} round ${round + 1}/${rounds} (order ${ran.join(' > ')}): ${contenders.map((name) => `${name} ${got[name].ms} ms`).join(', ')} (n8n process ${(wallMs / 1000).toFixed(1)} s)`);
				}
				const perSec = (xs) => summary(xs.map((x) => (scenario.items * 1000) / x));
				// The order effect: each time relative to its contender's median, pooled by the position it
				// ran in. With a full rotation every contender contributes once per position per cycle.
				const byPosition = contenders.map((_, position) => {
					const relative = contenders.flatMap((name) => ms[name].flatMap((x, round) => (positions[name][round] === position ? [x / median(ms[name])] : [])));
					return { position: position + 1, samples: relative.length, relativeTime: relative.length ? median(relative) : null };
				});
				log(`P1 ${scenario.key} order effect (time / the contender's median, by position run in): ${byPosition.map((p) => `${p.position}: ${p.relativeTime === null ? '-' : p.relativeTime.toFixed(2)}`).join(', ')}`);
				results.p1[scenario.key] = {
					label: scenario.label,
					items: scenario.items,
					rounds,
					balancedOrder: order[`P1 ${scenario.key}`].balanced,
					positions,
					byPosition,
					lbaItemsPerSec: perSec(ms[LBA]),
					httpItemsPerSec: perSec(ms[HTTP]),
					floorItemsPerSec: perSec(ms[FLOOR]),
					httpFloorItemsPerSec: perSec(ms[HTTP_FLOOR]),
					lbaMs: summary(ms[LBA]),
					httpMs: summary(ms[HTTP]),
					floorMs: summary(ms[FLOOR]),
					httpFloorMs: summary(ms[HTTP_FLOOR]),
					speedupVsHttp: summary(ratios.lbaVsHttp),
					timeVsFloor: summary(ratios.lbaVsFloor),
					timeVsHttpFloor: summary(ratios.lbaVsHttpFloor),
					...(scenario.kind === 'campaign'
						? {
								lbaJsonItemsPerSec: perSec(ms[LBA_JSON]),
								dedupHttpItemsPerSec: perSec(ms[DEDUP_HTTP]),
								lbaJsonMs: summary(ms[LBA_JSON]),
								dedupHttpMs: summary(ms[DEDUP_HTTP]),
								lbaJsonVsDedupHttp: summary(ratios.lbaJsonVsDedup),
								lbaVsDedupHttp: summary(ratios.lbaVsDedup),
								lbaJsonVsHttp: summary(ratios.lbaJsonVsHttp),
								campaignJsonItemsPerSec: perSec(ms[LBA_CAMPAIGN_JSON]),
								campaignJsonMs: summary(ms[LBA_CAMPAIGN_JSON]),
								campaignJsonVsDedupHttp: summary(ratios.campaignJsonVsDedup),
								campaignJsonVsHttp: summary(ratios.campaignJsonVsHttp),
							}
						: {}),
				};
			}
		}

		if (only.has('p1') && flags.profile && campaignScenario) {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-bench-prof-'));
			const { runData } = await n8n.execute(folder, 'benchcampaignprofile', { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
			const lbaJson = n8n.nodeRun(runData, LBA_CAMPAIGN_JSON);
			const file = path.join(dir, fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile')));
			const { execFileSync } = require('node:child_process');
			const text = execFileSync(process.execPath, [path.join(__dirname, 'profile-summary.js'), file, '--groups=lba'], { encoding: 'utf8' });
			results.p1Profile = { contender: LBA_CAMPAIGN_JSON, items: campaignScenario.items, nodeMs: lbaJson.ms, file, summary: text.trim() };
			log(`P1 profile (${LBA_CAMPAIGN_JSON}, ${campaignScenario.items} items, ${lbaJson.ms} ms under --cpu-prof; ${file}):\n${text}`);
		}

		if (only.has('p2')) {
			const rounds = roundsFor('P2', 2);
			const per = { lba: [], http: [], ratio: [], lbaHeap: [], httpHeap: [], heapRatio: [], lbaMs: [], httpMs: [] };
			let products = 0;
			for (let round = 0; round < rounds; round++) {
				const pair = round % 2 === 0 ? ['lba', 'http'] : ['http', 'lba'];
				const got = {};
				for (const who of pair) {
					// --expose-gc lets the probe start from a collected heap and measure what stays live.
					const { runData } = await n8n.execute(folder, who === 'lba' ? 'benchmemorylba' : 'benchmemoryhttp', { NODE_OPTIONS: '--expose-gc' });
					const probe = n8n.nodeRun(runData, 'Probe end').items[0].json;
					const ms = who === 'lba' ? n8n.nodeRun(runData, LBA).ms : n8n.nodeRun(runData, HTTP).ms + n8n.nodeRun(runData, n8n.names.SPLIT).ms;
					products = probe.inputItems;
					got[who] = { ...probe, ms };
					log(`P2 round ${round + 1}/${rounds} ${who}: ${probe.inputItems} items, peak RSS +${mb(probe.peakRssDeltaBytes)} MB, live heap +${mb(probe.retainedHeapDeltaBytes)} MB, ${ms} ms`);
				}
				if (got.lba.inputItems !== got.http.inputItems) throw new Error(`P2: LBA gave ${got.lba.inputItems} items, HTTP + Split Out ${got.http.inputItems}`);
				per.lba.push(got.lba.peakRssDeltaBytes);
				per.http.push(got.http.peakRssDeltaBytes);
				per.ratio.push(got.lba.peakRssDeltaBytes / got.http.peakRssDeltaBytes);
				per.lbaHeap.push(got.lba.retainedHeapDeltaBytes);
				per.httpHeap.push(got.http.retainedHeapDeltaBytes);
				per.heapRatio.push(got.lba.retainedHeapDeltaBytes / got.http.retainedHeapDeltaBytes);
				per.lbaMs.push(got.lba.ms);
				per.httpMs.push(got.http.ms);
			}
			results.p2 = {
				products,
				lbaPeakRssDeltaBytes: summary(per.lba),
				httpPeakRssDeltaBytes: summary(per.http),
				peakRssRatio: summary(per.ratio),
				lbaLiveHeapDeltaBytes: summary(per.lbaHeap),
				httpLiveHeapDeltaBytes: summary(per.httpHeap),
				liveHeapRatio: summary(per.heapRatio),
				lbaMs: summary(per.lbaMs),
				httpMs: summary(per.httpMs),
			};
		}
	} finally {
		await sandbox.stop();
		folder.cleanup();
	}
}

const mb = (bytes) => (bytes / 1048576).toFixed(1);
const fx = (s, digits = 2) => `${s.median.toFixed(digits)}× (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
const num = (s, f = (x) => Math.round(x).toLocaleString('en-US')) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;

function p3Summary(raw) {
	const out = {};
	for (const { key, label } of raw.endpoints) {
		const s = raw.samples[key];
		const rps = (name) => s[name].map((x) => x.rps);
		out[key] = {
			label,
			sandboxRps: summary(rps('sandbox')),
			prismRps: summary(rps('prism')),
			bareRps: summary(rps('bare')),
			sandboxP99Ms: summary(s.sandbox.map((x) => x.p99)),
			prismP99Ms: summary(s.prism.map((x) => x.p99)),
			bareP99Ms: summary(s.bare.map((x) => x.p99)),
			// Same round, same endpoint: these are the figures the targets are about.
			vsPrism: summary(s.sandbox.map((x, i) => x.rps / s.prism[i].rps)),
			vsBare: summary(s.sandbox.map((x, i) => x.rps / s.bare[i].rps)),
		};
	}
	return { endpoints: out, seconds: raw.seconds, connections: raw.connections, rounds: raw.rounds };
}

function table(results) {
	const rows = [['Figure', 'Ours', 'Peer / limit', 'Ratio, median (min–max)', 'Target']];
	if (results.p1) {
		for (const s of Object.values(results.p1)) {
			rows.push([`P1 ${s.label}, ${s.items.toLocaleString('en-US')} items: items/s vs HTTP Request`, num(s.lbaItemsPerSec), num(s.httpItemsPerSec), fx(s.speedupVsHttp), '≥ 1.5×']);
			if (s.lbaJsonVsDedupHttp) {
				// The peers with the same once-only guarantee: Remove Duplicates (history per node) before the HTTP Request.
				if (s.campaignJsonVsDedupHttp) {
					rows.push([`P1 ${s.label}: items/s, LBA (Campaign Input = JSON, one expression) vs Remove Duplicates + HTTP Request`, num(s.campaignJsonItemsPerSec), num(s.dedupHttpItemsPerSec), fx(s.campaignJsonVsDedupHttp), '≥ 1.0×']);
					rows.push([`P1 ${s.label}: items/s, LBA (Campaign Input = JSON) vs HTTP Request`, num(s.campaignJsonItemsPerSec), num(s.httpItemsPerSec), fx(s.campaignJsonVsHttp), '']);
				}
				rows.push([`P1 ${s.label}: items/s, LBA (Channels Input = JSON, 3 expressions) vs Remove Duplicates + HTTP Request`, num(s.lbaJsonItemsPerSec), num(s.dedupHttpItemsPerSec), fx(s.lbaJsonVsDedupHttp), '']);
				rows.push([`P1 ${s.label}: items/s, LBA (channel fields) vs Remove Duplicates + HTTP Request`, num(s.lbaItemsPerSec), num(s.dedupHttpItemsPerSec), fx(s.lbaVsDedupHttp), '']);
				rows.push([`P1 ${s.label}: items/s, LBA (Channels Input = JSON) vs HTTP Request`, num(s.lbaJsonItemsPerSec), num(s.httpItemsPerSec), fx(s.lbaJsonVsHttp), '']);
			}
			rows.push([`P1 ${s.label}: time vs engine floor`, `${num(s.lbaMs)} ms`, `${num(s.floorMs)} ms`, fx(s.timeVsFloor), '≤ 1.2×']);
			rows.push([`P1 ${s.label}: time vs HTTP floor`, `${num(s.lbaMs)} ms`, `${num(s.httpFloorMs)} ms`, fx(s.timeVsHttpFloor), '']);
		}
	}
	if (results.p2) {
		const s = results.p2;
		const m = (x) => `${mb(x)} MB`;
		rows.push([`P2 List Products, ${s.products.toLocaleString('en-US')} items: peak RSS growth vs HTTP Request + Split Out`, num(s.lbaPeakRssDeltaBytes, m), num(s.httpPeakRssDeltaBytes, m), fx(s.peakRssRatio), '≤ 1.0×']);
		rows.push([`P2 same: live heap after the run`, num(s.lbaLiveHeapDeltaBytes, m), num(s.httpLiveHeapDeltaBytes, m), fx(s.liveHeapRatio), '≤ 1.0×']);
	}
	if (results.p4) {
		const s = results.p4;
		const label = `P4 queue mode, ${s.calls} webhook calls (geocode + campaign), ${s.callers} callers, worker concurrency ${s.concurrency}`;
		rows.push([`${label}: executions/s, 2 workers vs 1`, num(s.twoWorkersPerSec, (x) => x.toFixed(1)), num(s.oneWorkerPerSec, (x) => x.toFixed(1)), fx(s.speedup), '> 1× (2 cores)']);
		rows.push(['P4 CPU per execution (ms): main / workers; PostgreSQL + Redis', num(s.mainCpuMs, (x) => x.toFixed(1)), `${num(s.workerCpuMs, (x) => x.toFixed(1))}; ${num(s.storesCpuMs, (x) => x.toFixed(1))}`, '', '']);
	}
	if (results.p5) {
		const s = results.p5;
		for (const [db, r] of Object.entries(s.results)) {
			const base = r.ms.h0;
			for (const key of s.contenders.filter((k) => k !== 'h0')) {
				const label = key === 'off' ? 'protection Off' : `history of ${Number(key.slice(1)).toLocaleString('en-US')} campaigns`;
				rows.push([`P5 ${db}: one wave of ${s.wave} campaigns, ${label} vs an empty history`, `${num(summary(r.ms[key]))} ms`, `${num(summary(base))} ms`, fx(summary(r.ms[key].map((ms, i) => ms / base[i]))), '']);
			}
		}
	}
	if (results.p6) {
		const s = results.p6;
		rows.push([`P6 a Retry recognizing ${s.campaigns.toLocaleString('en-US')} campaigns of one shape ($now dates moved 90 s): numbering time vs the first run's`, `${num(s.retryMs)} ms`, `${num(s.firstMs)} ms`, fx(s.ratio), '≤ 2×']);
		rows.push([`P6 records kept in the execution context, bytes per campaign`, num(s.bytesPerCampaign, (x) => x.toFixed(0)), '', '', '≤ 400']);
	}
	if (results.p3) {
		for (const s of Object.values(results.p3.endpoints)) {
			rows.push([`P3 ${s.label}: req/s vs Prism`, num(s.sandboxRps), num(s.prismRps), fx(s.vsPrism, 1), '≥ 10×']);
			rows.push([`P3 ${s.label}: req/s vs bare node:http`, num(s.sandboxRps), num(s.bareRps), fx(s.vsBare), '≥ 0.7×']);
			rows.push([`P3 ${s.label}: p99 ms (sandbox / Prism / bare)`, num(s.sandboxP99Ms), `${num(s.prismP99Ms)} / ${num(s.bareP99Ms)}`, '', '']);
		}
	}
	return rows;
}

function markdown(rows) {
	const line = (cells) => `| ${cells.join(' | ')} |`;
	return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
	const results = {
		date: new Date().toISOString(),
		machine: {
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0] && os.cpus()[0].model,
			memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
			node: process.version,
			n8n: e2e.n8nVersion(),
		},
		rounds: flags.rounds !== undefined ? Number(flags.rounds) : 'full rotation per part',
		order, // per part: contenders, rounds, balanced (filled in as the parts run)
		loadAverage: { start: os.loadavg() }, // 1, 5 and 15 minutes; the bench shares the machine with whatever else runs
		quick,
		method: {
			p1: 'One n8n execution per round holds all contenders (our node, HTTP Request, engine floor, HTTP floor; for Create Campaign also our node with Channels Input = JSON (name, description and channels: 3 expressions per item), with Campaign Input = JSON (the whole campaign: 1 expression per item, as the HTTP Request\'s body) and Remove Duplicates v2 (previous executions, Value Is New, scope Node: our node refuses a Workflow-scope Remove Duplicates beside it) before an HTTP Request, timed as the sum of both nodes) as branches of the same input node; each figure is the node\'s own executionTime from runData (excludes n8n start-up, input generation and output printing). Branch order rotates per round. Ratios are computed per round, then median (min–max). The HTTP floor reads the same parameters as the engine floor and makes one bare httpRequestWithAuthentication call per item with the lbaAdsApi credential, 8 in flight (our default Max Concurrent Requests).',
			p2: 'One n8n execution per contender per round, alternating who goes first. A probe node of the bench package runs a full GC and resets the kernel peak-RSS mark (/proc/self/clear_refs) before the contender path and reads VmHWM and the post-GC heap after it: peak RSS growth and live heap growth caused by the path.',
			p4: 'Queue mode (main + workers, PostgreSQL, Redis, all on this machine): N webhook calls, each a production execution that reverse-geocodes and creates a campaign, sent by 16 callers at a time; executions/s with 1 worker (the second stopped) and with 2, same main, database and queue, order alternating per round. CPU per execution from /proc (utime+stime of each n8n process group) around each phase.',
			p5: 'Duplicate protection as its history grows, on SQLite and PostgreSQL: one Create Campaign run of 32 new campaigns (one wave) per contender per round, in rotated order; contenders are the same node with 0, 1,000 and 10,000 campaigns recorded beforehand (written into processed_data as n8n stores them) and with protection Off. Figures are the node\'s own executionTime; ratios per round to the empty history, then median (min–max).',
			p6: 'In one process, no n8n: the built node\'s retryKeysOf numbers 10,000 campaigns of one shape (a minute grid of $now dates, the node\'s own fields reading the clock, each from its own input item) as a first run does, they are recorded as the node records them (before each request, and with the campaign id once created), then the same campaigns with their dates moved 90 s are numbered again from a copy of the saved context, as a Retry does (every one must get its first key). Time of the Retry\'s numbering over the first run\'s, per round, then median (min–max); the context\'s JSON size over the campaigns.',
			p3: 'autocannon (10 connections, keep-alive) against each server in its own process; 1 s warm-up each, then per round every endpoint against every contender in rotated order. Ratios per round, then median (min–max).',
		},
	};
	if (only.has('p3')) {
		log('P3: sandbox vs Prism vs bare node:http...');
		results.p3 = p3Summary(await runP3({ rounds: roundsFor('P3', 3), seconds: quick ? 1 : 4, connections: 10, log }));
	}
	if (only.has('p1') || only.has('p2')) await runN8nParts(results);
	if (only.has('p4')) {
		const raw = await runP4({ rounds: roundsFor('P4', 2), calls: quick ? 20 : 200, callers: 16, concurrency: 10, log });
		results.p4 = {
			calls: raw.calls,
			callers: raw.callers,
			concurrency: raw.concurrency,
			oneWorkerPerSec: summary(raw.per.one),
			twoWorkersPerSec: summary(raw.per.two),
			speedup: summary(raw.per.ratio),
			mainCpuMs: summary(raw.per.mainCpu),
			workerCpuMs: summary(raw.per.workerCpu),
			storesCpuMs: summary(raw.per.storesCpu),
		};
	}

	if (only.has('p5')) {
		const sandbox = await startSandbox({ token: n8n.TOKEN });
		try {
			results.p5 = await runP5({ rounds: roundsFor('P5', P5_CONTENDERS), log, sandboxUrl: sandbox.url });
		} finally {
			await sandbox.stop();
		}
	}

	if (only.has('p6')) {
		log('P6: a Retry recognizing 10,000 campaigns...');
		const raw = await runP6({ rounds: roundsFor('P6', 1), quick, log }); // one order: a Retry needs its first run's records
		results.p6 = { campaigns: raw.campaigns, firstMs: summary(raw.per.firstMs), retryMs: summary(raw.per.retryMs), ratio: summary(raw.per.ratio), bytesPerCampaign: summary(raw.per.bytesPerCampaign) };
	}

	results.loadAverage.end = os.loadavg();
	const rows = table(results);
	results.table = rows;
	const text = markdown(rows);
	if (results.p1Profile) process.stdout.write(`\nWhere LBA Ads (Campaign Input = JSON) spends its time, ${results.p1Profile.items} campaigns under --cpu-prof:\n${results.p1Profile.summary}\n`);
	const rounds = Object.entries(order).map(([part, o]) => `${part} ${o.rounds}`).join(', ');
	const note = unbalancedNote();
	process.stdout.write(`\n${text}\n\nMachine: ${results.machine.cpus} × ${results.machine.cpuModel}, ${results.machine.memoryGiB} GiB; rounds: ${rounds}; load average ${results.loadAverage.start[0].toFixed(2)} at the start, ${results.loadAverage.end[0].toFixed(2)} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
	if (note) process.stdout.write(`\n${note}\n`);
	const dir = path.join(__dirname, 'results');
	fs.mkdirSync(dir, { recursive: true });
	// A run of some parts only must not replace the full results: it gets its own file name.
	const someScenarios = only.has('p1') && P1_SCENARIOS.length < 2 ? `-${P1_SCENARIOS.map((scenario) => scenario.key).join('-')}` : '';
	const name = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].every((part) => only.has(part)) && !quick && !someScenarios ? 'latest' : `latest-${[...only].sort().join('-')}${someScenarios}${quick ? '-quick' : ''}`;
	fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
	fs.writeFileSync(path.join(dir, `${name}.svg`), renderSvg(results));
	log(`wrote ${path.relative(process.cwd(), path.join(dir, `${name}.json`))} and ${name}.svg`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
