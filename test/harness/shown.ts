/**
 * Every text a run showed a person or a model (errors' messages and descriptions, hints, held
 * items' reasons and howToResend), kept for the suite's check that each instruction in them is in
 * the catalogue (issue 60: test/shown-check.ts, test/docs/instructionFinder.ts). Its own module, so
 * that the check loads no n8n into the many test files that run no workflow (about 1 s of CPU each).
 */
export const SHOWN: Array<{ where: string; text: string }> = [];
