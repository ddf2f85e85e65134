/**
 * The deterministic simulation of duplicate protection (docs/simulation.md): many schedules, each
 * drawn from one seed, run the real lock and guard on a virtual clock against a model of n8n's
 * store, and every invariant is checked over each whole history.
 *
 *   SIM_SEED=<n>        replays one schedule and prints its trace
 *   SIM_SCHEDULES=<n>   how many (default 1,000: about 30 s on a loaded 2-core machine); SIM_FIRST_SEED where to start
 */
import { runSchedule, type ScheduleResult } from './runner';
import { SCALED } from './schedule';

const replay = process.env.SIM_SEED;
const schedules = Number(process.env.SIM_SCHEDULES ?? 1_000);
const firstSeed = Number(process.env.SIM_FIRST_SEED ?? 1);

describe('the simulation of duplicate protection', () => {
	if (replay !== undefined) {
		it(`replays seed ${replay}`, async () => {
			const result = await runSchedule(Number(replay), SCALED);
			console.log(`${result.trace()}\nviolations: ${JSON.stringify(result.violations)}\nassumptions broken: ${JSON.stringify(result.assumptionsBroken)}`);
			expect(result.violations).toEqual([]);
		});
		return;
	}

	it(`${schedules} schedules keep every invariant`, async () => {
		const started = Date.now();
		const totals = { ran: 0, processes: 0, statements: 0, faults: 0, events: 0, twoHolders: 0, apart: 0, breaks: 0 };
		const guardFindings = new Map<string, number[]>();
		const failures: ScheduleResult[] = [];
		const apart = new Map<string, number>();
		for (let seed = firstSeed; seed < firstSeed + schedules; seed++) {
			const result = await runSchedule(seed, SCALED);
			totals.ran++;
			totals.processes += result.processes;
			for (const finding of result.guardFindings) {
				const kind = finding.replace(/content:v2:\S+/, 'a campaign').replace(/run \d+/, 'a later run');
				guardFindings.set(kind, [...(guardFindings.get(kind) ?? []), seed]);
			}
			totals.statements += result.statements;
			totals.faults += result.faults;
			totals.events += result.events;
			totals.breaks += result.breaks;
			if (result.twoHolders) totals.twoHolders++;
			if (result.assumptionsBroken.length) {
				totals.apart++;
				for (const assumption of result.assumptionsBroken) apart.set(assumption, (apart.get(assumption) ?? 0) + 1);
			}
			if (result.violations.length) failures.push(result);
			if (failures.length >= 3) break;
		}
		const seconds = (Date.now() - started) / 1000;
		const per = (n: number) => (n / totals.ran).toFixed(1);
		console.log(
			[
				`${totals.ran} schedules in ${seconds.toFixed(1)} s (seeds ${firstSeed}–${firstSeed + schedules - 1}, scaled timings)`,
				`a schedule on average: ${per(totals.processes)} processes, ${per(totals.statements)} store statements, ${per(totals.faults)} faults, ${per(totals.events)} events`,
				`two holders: ${totals.twoHolders}; schedules that broke a stated assumption: ${totals.apart}; lock rows broken: ${totals.breaks}`,
				...[...apart].map(([assumption, count]) => `  ${count}× ${assumption}`),
				...[...guardFindings].map(([finding, seeds]) => `guard finding, ${seeds.length} schedules (e.g. SIM_SEED=${seeds[0]}): ${finding}`),
				...failures.map((failure) => `FAILED seed ${failure.seed} (replay: SIM_SEED=${failure.seed}): ${failure.violations.join('; ')}\n${failure.trace()}`),
			].join('\n'),
		);
		expect(failures.map((failure) => `seed ${failure.seed}: ${failure.violations.join('; ')}`)).toEqual([]);
		// A long run (npm run sim) takes as long as its schedules need.
	}, Math.max(60_000, schedules * 200));
});
