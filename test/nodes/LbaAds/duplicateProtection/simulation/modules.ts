/**
 * One copy of duplicate protection's modules per simulated n8n process, running unchanged: the
 * TypeScript source is transpiled once, and each process gets fresh module instances (so the
 * lock's in-process queue and deadline watcher are its own) whose `Date.now`, `Math.random` and
 * n8n-workflow's `sleep` are the process's, on the virtual clock. Modules outside
 * duplicateProtection/ (n8n-workflow, the transport) are shared, as they keep no state the lock uses.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compileFunction } from 'node:vm';

import * as n8nWorkflow from 'n8n-workflow';
import * as ts from 'typescript';

export const PROTECTION_DIR = resolve(__dirname, '../../../../../nodes/LbaAds/duplicateProtection');

type ModuleFactory = (
	exports: object,
	require: (name: string) => unknown,
	module: { exports: object },
	__filename: string,
	__dirname: string,
	Date: unknown,
	Math: unknown,
) => void;

const compiled = new Map<string, ModuleFactory>();

function factory(file: string): ModuleFactory {
	let made = compiled.get(file);
	if (!made) {
		const source = readFileSync(file, 'utf8');
		const { outputText } = ts.transpileModule(source, {
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
			fileName: file,
		});
		made = compileFunction(outputText, ['exports', 'require', 'module', '__filename', '__dirname', 'Date', 'Math'], { filename: file }) as unknown as ModuleFactory;
		compiled.set(file, made);
	}
	return made;
}

export interface ProcessGlobals {
	now(): number;
	random(): number;
	sleep(ms: number): Promise<void>;
}

/** What a test may change in how one process's copy is loaded: wrap a module's exports. */
export type Wrap = (file: string, exports: Record<string, unknown>) => Record<string, unknown>;

/** Loads `entry` (a file of duplicateProtection/) and its local imports as fresh instances for one process. */
export function loadForProcess<T>(entry: string, globals: ProcessGlobals, wrap: Wrap = (_, exports) => exports): T {
	const RealDate = Date;
	const ProcessDate = class extends RealDate {
		static now() {
			return globals.now();
		}
	};
	const processMath = Object.create(Math, { random: { value: () => globals.random() } });
	const workflow = Object.create(n8nWorkflow, { sleep: { value: (ms: number) => globals.sleep(ms) } });
	const instances = new Map<string, Record<string, unknown>>();

	const load = (file: string): Record<string, unknown> => {
		const cached = instances.get(file);
		if (cached) return cached;
		const module = { exports: {} as Record<string, unknown> };
		instances.set(file, module.exports);
		factory(file)(module.exports, (name) => requireFrom(file, name), module, file, dirname(file), ProcessDate, processMath);
		const wrapped = wrap(file, module.exports);
		instances.set(file, wrapped);
		return wrapped;
	};
	const requireFrom = (from: string, name: string): unknown => {
		if (name === 'n8n-workflow') return workflow;
		if (name.startsWith('.')) {
			const target = resolve(dirname(from), name);
			if (dirname(target) === PROTECTION_DIR || target.startsWith(PROTECTION_DIR + '/')) return load(`${target}.ts`);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			return require(target);
		}
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require(name);
	};
	return load(join(PROTECTION_DIR, entry)) as T;
}
