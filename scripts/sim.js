#!/usr/bin/env node
/**
 * The simulation of duplicate protection outside Jest (about 2.5 times faster), on several cores.
 *
 *   node scripts/sim.js --schedules 10000 [--first-seed 1] [--workers 2] [--timings scaled|production] [--json]
 *   node scripts/sim.js --question residual --timings production --schedules 1000
 *                                          only the residual race: a row left behind, 2–8 takers
 *   node scripts/sim.js --seed 858          replays one schedule and prints its trace
 *
 * It runs the TypeScript of test/nodes/LbaAds/duplicateProtection/simulation/ (transpiled as it
 * loads, no build). Exit code 1 when a schedule broke an invariant. See docs/simulation.md.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const source = fs.readFileSync(filename, 'utf8');
	const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
	module._compile(ts.transpileModule(source, { compilerOptions: options, fileName: filename }).outputText, filename);
};
const SIMULATION = path.join(__dirname, '../test/nodes/LbaAds/duplicateProtection/simulation');

function option(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : process.argv[index + 1];
}

async function main() {
	const { runBatch, mergeSummaries, describeSummary } = require(`${SIMULATION}/batch.ts`);
	const timings = option('timings', 'scaled');
	const question = option('question', 'random');
	const seed = option('seed', process.env.SIM_SEED);
	if (seed !== undefined) {
		const { runSchedule } = require(`${SIMULATION}/runner.ts`);
		const { PRODUCTION, SCALED } = require(`${SIMULATION}/schedule.ts`);
		const result = await runSchedule(Number(seed), timings === 'production' ? PRODUCTION : SCALED);
		console.log(`${result.trace()}\nviolations: ${JSON.stringify(result.violations)}\nassumptions broken: ${JSON.stringify(result.assumptionsBroken)}\nguard findings: ${JSON.stringify(result.guardFindings)}`);
		process.exitCode = result.violations.length ? 1 : 0;
		return;
	}
	const schedules = Number(option('schedules', 10_000));
	const firstSeed = Number(option('first-seed', 1));
	const workers = Math.max(1, Number(option('workers', 2)));
	const started = Date.now();
	const size = Math.ceil(schedules / workers);
	const parts = await Promise.all(
		Array.from({ length: workers }, (_, n) => {
			const from = firstSeed + n * size;
			const count = Math.max(0, Math.min(size, firstSeed + schedules - from));
			return new Promise((resolve, reject) => {
				const worker = new Worker(__filename, { workerData: { from, count, timings, question } });
				worker.once('message', resolve);
				worker.once('error', reject);
			});
		}),
	);
	const summary = mergeSummaries(parts);
	const text = describeSummary(summary, (Date.now() - started) / 1000, `${firstSeed}–${firstSeed + schedules - 1}`, question === 'random' ? timings : `${timings}, ${question} question`);
	console.log(option('json') !== undefined || process.argv.includes('--json') ? JSON.stringify({ ...summary, seconds: (Date.now() - started) / 1000, text }) : text);
	process.exitCode = summary.failures.length ? 1 : 0;
}

if (isMainThread) {
	main().catch((error) => {
		console.error(error);
		process.exitCode = 2;
	});
} else {
	const { runBatch } = require(`${SIMULATION}/batch.ts`);
	const { from, count, timings, question } = workerData;
	runBatch(from, count, timings, question).then((summary) => parentPort.postMessage(summary));
}
