/**
 * Test harness: runs workflow JSON through n8n's real execution engine.
 *
 * n8n-core 2.x `WorkflowExecute` executes the workflow with node packages loaded from
 * their package.json `n8n` section by n8n-core's own loader, an in-memory credentials
 * helper that behaves like n8n's (generic `authenticate`, OAuth2 token fetch/storage),
 * and real HTTP (n8n's OutboundHttp/axios). n8n-core needs Node 24: run tests with
 * `npm test` or `bash scripts/with-node24.sh jest <path>`.
 *
 * Usage (the package must be built first: `npm run build`, the n8n section points at dist/):
 *
 *   import { loadPackageNodes, manualTrigger, chain } from '../harness';
 *
 *   const n8n = await loadPackageNodes();            // default: this repository's package
 *   const { output, error } = await n8n.runWorkflow(
 *     {
 *       nodes: [
 *         manualTrigger(),
 *         { id: '2', name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [200, 0],
 *           parameters: { resource: 'product', operation: 'getMany', returnAll: true },
 *           credentials: { lbaAdsApi: { id: '1', name: 'LBA' } } },
 *       ],
 *       connections: chain('Start', 'LBA'),
 *       settings: { timezone: 'Asia/Jakarta' },      // optional; else options.timezone
 *     },
 *     { credentials: { lbaAdsApi: { baseUrl: sandbox.url, accessToken: 't0k3n' } } },
 *   );
 *   expect(error).toBeUndefined();
 *   expect(output('LBA')).toHaveLength(3);           // items of main output 0
 *
 *   // A node error (without continueOnFail) stops the run: `error` is the NodeApiError /
 *   // NodeOperationError, with `.message`, `.description`, `.node`, and `run.status`
 *   // is 'error'. Use `errorOf(result)` for a plain {message, description, ...} view.
 *
 *   const test = await n8n.testCredential('lbaAdsApi', { baseUrl: sandbox.url, accessToken: 'bad' });
 *   expect(test).toMatchObject({ status: 'Error' });  // as n8n's credential "Test" button
 *
 * - Node types are named as in an n8n instance: `<package name>.<node name>`; the
 *   harness adds `n8n-nodes-base.manualTrigger` and `n8n-nodes-base.noOp`, plus the
 *   `oAuth2Api` credential type that OAuth2 credentials extend.
 * - Credential data is given per credential type; nodes reference credentials as in
 *   exported workflows (`credentials: { <type>: { id, name } }`). OAuth2 tokens that
 *   n8n fetches are saved back into the run's store (`result.credentials`).
 * - Test items: pin them on the trigger (`pinData: { Start: [{ json: {...} }, ...] }`);
 *   n8n then skips the trigger and feeds them on, so `{{ $json.x }}` resolves per item.
 * - `runWorkflow` rejects (instead of returning `error`) when n8n refuses to start the
 *   workflow at all: unknown node type, or a missing required parameter
 *   (WorkflowHasIssuesError).
 * - Running again as n8n does (RunOptions): `again: { kind: 'retry', after: run }` is the executions
 *   list's Retry (the execution context and the saved outputs kept), `again: { kind: 'partial', … }`
 *   the editor's Execute step (runPartialWorkflow2, a new context), and `parentExecution` a
 *   sub-execution with its caller's context, as the Execute Workflow node starts one.
 * - A resourceLocator's From List: `n8n.listSearch(node, 'searchLocations', { credentials, filter })`
 *   calls the node's list search as the editor does (./list-search.ts).
 * - A throw-away recording HTTP server for self-contained tests: ./test-server.ts.
 * - Timezone: workflow `settings.timezone`, else `options.timezone`, else n8n's default
 *   America/New_York; `this.getTimezone()` and `$now` use it.
 * - Logging is silenced (N8N_LOG_LEVEL=silent unless set); n8n's settings folder goes
 *   to a temporary N8N_USER_FOLDER (see ./env.ts).
 */
import './env';

import path from 'node:path';
import type { ExecutionError, ICredentialDataDecryptedObject, IConnections, INode, INodeListSearchResult } from 'n8n-workflow';

import { testCredential, type CredentialTestResult } from './credential-test';
import { listSearch, type ListSearchOptions } from './list-search';
import { loadNodes, type LoadedNodes } from './registry';
import { runWorkflow, type RunOptions, type RunResult, type WorkflowJson } from './run-workflow';

export { MANUAL_TRIGGER_TYPE, NO_OP_TYPE } from './builtin-nodes';
export { HarnessCredentialsHelper } from './credentials-helper';
export { harnessDeduplicator, InMemoryDeduplicator } from './deduplication';
export type { CredentialStore, CredentialUpdate } from './credentials-helper';
export { N8N_DEFAULT_TIMEZONE } from './run-workflow';
export type { RunOptions, RunResult, WorkflowJson } from './run-workflow';
export type { CredentialTestResult } from './credential-test';
export type { ListSearchOptions } from './list-search';
export type { LoadedNodes } from './registry';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The major version of the n8n engine the harness drives: 2 from the root devDependencies,
 * 1 under `npm run test:n8n1`. Tests branch on it only where n8n 1.x itself behaves
 * differently, and say how.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const N8N_MAJOR = Number((require('n8n-workflow/package.json') as { version: string }).version.split('.')[0]);

export interface Harness extends LoadedNodes {
	runWorkflow(workflow: WorkflowJson, options?: RunOptions): Promise<RunResult>;
	testCredential(type: string, data: ICredentialDataDecryptedObject): Promise<CredentialTestResult>;
	/** A node's From List search (its `methods.listSearch[method]`), as the editor asks for it: ./list-search.ts. */
	listSearch(node: INode, method: string, options?: ListSearchOptions): Promise<INodeListSearchResult>;
}

/**
 * Loads the package(s) at `packageDirs` (default: this repository) and returns a
 * harness bound to them. Loading takes a few milliseconds; do it once per test file.
 */
export async function loadPackageNodes(...packageDirs: string[]): Promise<Harness> {
	const loaded = await loadNodes(packageDirs.length ? packageDirs : [REPO_ROOT]);
	return {
		...loaded,
		runWorkflow: (workflow, options) => runWorkflow(loaded, workflow, options),
		testCredential: (type, data) => testCredential(loaded, type, data),
		listSearch: (node, method, options) => listSearch(loaded, node, method, options),
	};
}

/** A manual trigger node named `name` (default 'Start'). */
export function manualTrigger(name = 'Start'): INode {
	return {
		id: `trigger-${name}`,
		name,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/** Connections linking `names` one after another through main output 0. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** Plain view of a run error for assertions (`toMatchObject`), or undefined. */
export function errorOf(result: { error?: ExecutionError }) {
	const error = result.error as (ExecutionError & { httpCode?: string | null; node?: INode }) | undefined;
	if (!error) return undefined;
	return {
		name: error.name,
		message: error.message,
		description: error.description ?? undefined,
		httpCode: error.httpCode ?? undefined,
		node: error.node?.name,
	};
}
