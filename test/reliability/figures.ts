/**
 * Figures of the reliability suite. A suite records each figure with its target and
 * whether it was met; the test then asserts it, so a broken promise fails the run,
 * and figures-reporter.js prints every recorded figure as one table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Figure {
	/** e.g. "Generated bad input" */
	section: string;
	/** e.g. "requests sent for invalid input" */
	figure: string;
	value: number | string;
	/** e.g. "= 0", "= 100%", "info" */
	target: string;
	ok: boolean;
}

// LBA_RELIABILITY_ARTIFACTS: another run of these suites (npm run test:n8n1) keeps its figures apart.
export const FIGURES_DIR = path.resolve(__dirname, '../..', process.env.LBA_RELIABILITY_ARTIFACTS ?? 'artifacts/reliability', 'figures');

const recorded: Figure[] = [];

/** Records a figure and returns whether it met its target. */
export function figure(section: string, name: string, value: number | string, target: string, ok = true): boolean {
	recorded.push({ section, figure: name, value, target, ok });
	mkdirSync(FIGURES_DIR, { recursive: true });
	// One file per suite file, rewritten with all its figures so far; the reporter merges them.
	const file = path.join(FIGURES_DIR, `${path.basename(expect.getState().testPath ?? 'unknown')}.json`);
	writeFileSync(file, JSON.stringify(recorded, null, 2));
	return ok;
}

export function percent(part: number, whole: number): string {
	return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(part === whole ? 0 : 2)}%`;
}
