/**
 * n8n-workflow checks every regular expression a node's parameters declare (a resource locator's
 * "By ID" pattern, for instance) in a `node:vm` script stopped after 250 ms of wall-clock time
 * (its safe-regex.ts), before the workflow starts. On a loaded 2-core CI machine a jest worker can
 * be descheduled for longer than that, and a trivial pattern then fails with "Regular expression
 * execution timed out" (seen in `npm test` at load 10). The harness keeps n8n's engine, a `vm`
 * script with a timeout, with a margin such a machine holds: 10 s. A pattern that really runs away
 * still fails; the patterns' shapes are the node's own and are tested as such.
 */
import vm from 'node:vm';

import { setSafeRegexEngine } from 'n8n-workflow';

type Engine = Parameters<typeof setSafeRegexEngine>[0];

const TIMEOUT_MS = 10_000;

function harnessRegexEngine(): Engine {
	const context: Record<string, unknown> = {};
	const vmContext = vm.createContext(context);
	const script = (body: string) => new vm.Script(`result = ${body}`);
	const scripts = {
		exec: script('new RegExp(pattern, flags).exec(input)'),
		test: script('new RegExp(pattern, flags).test(input)'),
		replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: script('input.split(new RegExp(pattern, flags))'),
	};
	const run = (name: keyof typeof scripts, values: Record<string, unknown>) => {
		Object.assign(context, { flags: '', replacement: '', result: undefined }, values);
		try {
			scripts[name].runInContext(vmContext, { timeout: TIMEOUT_MS });
		} catch (error) {
			if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error('Regular expression execution timed out');
			throw error;
		}
		return context.result as never;
	};
	const withGlobal = (flags?: string) => (flags?.includes('g') ? flags : `${flags ?? ''}g`);
	return {
		exec: (pattern, input, flags) => run('exec', { pattern, input, flags: flags ?? '' }),
		test: (pattern, input, flags) => run('test', { pattern, input, flags: flags ?? '' }),
		replace: (pattern, input, flags, replacement) => run('replace', { pattern, input, flags: flags ?? '', replacement }),
		matchAll: (pattern, input, flags) => run('matchAll', { pattern, input, flags: withGlobal(flags) }),
		split: (pattern, input, flags) => run('split', { pattern, input, flags: flags ?? '' }),
	} as Engine;
}

setSafeRegexEngine(harnessRegexEngine());
