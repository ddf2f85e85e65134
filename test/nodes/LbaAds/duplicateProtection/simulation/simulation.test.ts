/**
 * The deterministic simulation of duplicate protection (docs/simulation.md): many schedules, each
 * drawn from one seed, run the real lock and guard on a virtual clock against a model of n8n's
 * store, and every invariant is checked over each whole history. The schedules run in
 * scripts/sim.js (outside Jest, about 2.5 times faster, on two cores).
 *
 *   SIM_SEED=<n>        replays one schedule here and prints its trace
 *   SIM_SCHEDULES=<n>   how many (default 10,000); SIM_FIRST_SEED where to start
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

import type { BatchSummary } from './batch';
import { runSchedule } from './runner';
import { SCALED } from './schedule';

const replay = process.env.SIM_SEED;
const schedules = Number(process.env.SIM_SCHEDULES ?? 10_000);
const firstSeed = Number(process.env.SIM_FIRST_SEED ?? 1);
const SCRIPT = resolve(__dirname, '../../../../../scripts/sim.js');

describe('the simulation of duplicate protection', () => {
	if (replay !== undefined) {
		it(`replays seed ${replay}`, async () => {
			const result = await runSchedule(Number(replay), SCALED);
			console.log(`${result.trace()}\nviolations: ${JSON.stringify(result.violations)}\nassumptions broken: ${JSON.stringify(result.assumptionsBroken)}`);
			expect(result.violations).toEqual([]);
		});
		return;
	}

	it(`${schedules} schedules keep every invariant`, () => {
		let output: string;
		try {
			output = execFileSync(process.execPath, [SCRIPT, '--schedules', String(schedules), '--first-seed', String(firstSeed), '--workers', '2', '--json'], {
				encoding: 'utf8',
				maxBuffer: 256 * 1024 * 1024,
			});
		} catch (error) {
			// Exit code 1: a schedule broke an invariant; the summary says which.
			output = String((error as { stdout?: string }).stdout ?? '');
			if (!output.trim()) throw error;
		}
		const summary = JSON.parse(output) as BatchSummary & { text: string };
		console.log(summary.text);
		expect(summary.ran).toBe(schedules);
		expect(summary.failures.map((failure) => `seed ${failure.seed}: ${failure.violations.join('; ')}`)).toEqual([]);
		// As many schedules as asked take the time they take (a loaded machine is slower).
	}, Math.max(600_000, schedules * 100));
});
