/**
 * A batch of schedules, seed after seed, summed up: what the test and `npm run sim` print.
 */
import { runPlan } from './runner';
import { drawPlan, drawResidualPlan, PRODUCTION, SCALED } from './schedule';

export interface BatchSummary {
	ran: number;
	processes: number;
	statements: number;
	faults: number;
	events: number;
	twoHolders: number;
	/** Schedules that broke a stated assumption, and how many broke each. */
	apart: number;
	assumptions: Record<string, number>;
	breaks: number;
	liveRowsBroken: number;
	guardFindings: Record<string, number[]>;
	failures: Array<{ seed: number; violations: string[]; trace: string }>;
}

export function emptySummary(): BatchSummary {
	return { ran: 0, processes: 0, statements: 0, faults: 0, events: 0, twoHolders: 0, apart: 0, assumptions: {}, breaks: 0, liveRowsBroken: 0, guardFindings: {}, failures: [] };
}

/** `residual`: only the residual race's question (drawResidualPlan); `random`: every adversary. */
export type Question = 'random' | 'residual';

export async function runBatch(firstSeed: number, count: number, timings: 'scaled' | 'production', question: Question = 'random', stopAfterFailures = 3): Promise<BatchSummary> {
	const summary = emptySummary();
	const draw = question === 'residual' ? drawResidualPlan : drawPlan;
	for (let seed = firstSeed; seed < firstSeed + count && summary.failures.length < stopAfterFailures; seed++) {
		const result = await runPlan(draw(seed, timings === 'production' ? PRODUCTION : SCALED));
		summary.ran++;
		summary.processes += result.processes;
		summary.statements += result.statements;
		summary.faults += result.faults;
		summary.events += result.events;
		summary.breaks += result.breaks;
		if (result.liveRowBroken) summary.liveRowsBroken++;
		if (result.twoHolders) summary.twoHolders++;
		if (result.assumptionsBroken.length) summary.apart++;
		for (const assumption of result.assumptionsBroken) summary.assumptions[assumption] = (summary.assumptions[assumption] ?? 0) + 1;
		for (const finding of result.guardFindings) {
			const kind = finding.replace(/(content|retry):v\d:[^ ),]+/g, 'a key').replace(/run \d+/g, 'a later run');
			(summary.guardFindings[kind] ??= []).push(seed);
		}
		if (result.violations.length) summary.failures.push({ seed, violations: result.violations, trace: result.trace() });
	}
	return summary;
}

export function mergeSummaries(parts: BatchSummary[]): BatchSummary {
	const total = emptySummary();
	for (const part of parts) {
		for (const key of ['ran', 'processes', 'statements', 'faults', 'events', 'twoHolders', 'apart', 'breaks', 'liveRowsBroken'] as const) total[key] += part[key];
		for (const [assumption, count] of Object.entries(part.assumptions)) total.assumptions[assumption] = (total.assumptions[assumption] ?? 0) + count;
		for (const [finding, seeds] of Object.entries(part.guardFindings)) total.guardFindings[finding] = [...(total.guardFindings[finding] ?? []), ...seeds];
		total.failures.push(...part.failures);
	}
	return total;
}

export function describeSummary(summary: BatchSummary, seconds: number, seeds: string, timings: string): string {
	const per = (n: number) => (n / Math.max(1, summary.ran)).toFixed(1);
	return [
		`${summary.ran} schedules in ${seconds.toFixed(1)} s (seeds ${seeds}, ${timings} timings)`,
		`a schedule on average: ${per(summary.processes)} processes, ${per(summary.statements)} store statements, ${per(summary.faults)} faults, ${per(summary.events)} events`,
		`two holders: ${summary.twoHolders}; schedules that broke a stated assumption: ${summary.apart}; lock rows broken: ${summary.breaks}; a live holder's row broken: ${summary.liveRowsBroken}`,
		...Object.entries(summary.assumptions).map(([assumption, count]) => `  ${count}× ${assumption}`),
		...Object.entries(summary.guardFindings).map(([finding, seeds]) => `guard finding, ${seeds.length} schedules (e.g. SIM_SEED=${seeds[0]}): ${finding}`),
		...summary.failures.map((failure) => `FAILED seed ${failure.seed} (replay: SIM_SEED=${failure.seed}): ${failure.violations.join('; ')}\n${failure.trace}`),
	].join('\n');
}
