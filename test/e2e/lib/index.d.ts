// Types for the plain-JS e2e helpers (index.js), so TypeScript tests get checked calls.
import type { BrowserContext, Locator, Page } from 'playwright-core';

export declare const REPO_ROOT: string;
export declare const NODE24_DIR: string;
export declare const NODE24_BIN: string;
export declare const ARTIFACTS_DIR: string;
export declare function node24Env(extra?: Record<string, string>): NodeJS.ProcessEnv;
/** scripts/install-n8n.sh with `env` (another pin: LBA_N8N_MANIFEST, LBA_N8N_PACKAGE...): the last line it prints. */
export declare function installPinned(env?: Record<string, string>): string;
/** Real n8n bin: $LBA_N8N_BIN, or scripts/install-n8n.sh (instant when cached). */
export declare function n8nBin(): string;
/** The n8n versions we test, from n8n-versions.json at the repo root. */
export declare const N8N_VERSIONS: { lowest: string; ci: string; highest: string; overrides: Record<string, string> };
/** Version of the n8n the tests run (from $LBA_N8N_BIN's package, $LBA_N8N_VERSION or the ci pin); starts nothing. */
export declare function n8nVersion(): string;
export declare function freePort(): Promise<number>;
export declare function isPortFree(port: number): Promise<boolean>;
export declare function ensureDir(dir: string): string;
/** A clock set by the test for the processes started with `env` (libfaketime): `set(ms)` makes it read `ms` about a second later, then run on. */
export declare function settableClock(): { env: Record<string, string | undefined>; set(ms: number): void; cleanup(): void };

export interface UserFolder {
	dir: string;
	n8nDir: string;
	nodesDir: string;
	cleanup(): void;
}
export type UserFolderLike = UserFolder | string;
/** `template`: a `.n8n` folder to start from (default: LBA_E2E_N8N_TEMPLATE's). */
export declare function makeUserFolder(prefix?: string, opts?: { template?: string }): UserFolder;
/** A migrated `.n8n` (database and config) for makeUserFolder to copy (LBA_E2E_N8N_TEMPLATE). */
export declare function makeN8nTemplate(): Promise<string>;
export declare function makePackageNodes(packageDir: string): Promise<string>;
export declare function packPackage(packageDir: string, destDir: string): Promise<string>;
export declare function installCommunityPackage(
	userFolder: UserFolderLike,
	tgz: string,
): Promise<{ name: string; version: string; dir: string }>;

export interface RunResult {
	/** The exit code; null when a signal ended the process (not a timeout: that rejects). */
	code: number | null;
	/** The signal that ended the process, else null. */
	signal: string | null;
	stdout: string;
	stderr: string;
}
export interface RunOptions {
	env?: Record<string, string>;
	timeoutMs?: number;
}
export declare function n8nEnv(userFolder: UserFolderLike, extra?: Record<string, string>): NodeJS.ProcessEnv;
export declare function runN8n(userFolder: UserFolderLike, args: string[], opts?: RunOptions): Promise<RunResult>;
export declare function runN8nOk(userFolder: UserFolderLike, args: string[], opts?: RunOptions): Promise<RunResult>;
export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}
export declare function importCredentials(
	userFolder: UserFolderLike,
	credentials: CredentialImport[] | string,
): Promise<RunResult>;
export declare function importWorkflow(userFolder: UserFolderLike, workflow: object | object[] | string): Promise<RunResult>;
export declare function parseRawOutput(stdout: string): any;
/** n8n's record of an execution: its row in the user folder's database. */
export interface ExecutionRecord {
	id: number;
	status: string;
	mode: string;
	finished: boolean;
	startedAt: string | null;
	stoppedAt: string | null;
}
export declare function lastExecutionId(userFolder: UserFolderLike): Promise<number>;
export declare function executionRecords(
	userFolder: UserFolderLike,
	workflowId: string,
	afterId?: number,
): Promise<Array<ExecutionRecord & { workflowId: string; data: any }>>;
/** The verdict on one `n8n execute`: n8n's record decides; `failure` says the record, how the CLI ended, the error and the output's tails. */
export declare function judgeExecution(
	id: string,
	record: ExecutionRecord | null,
	res: RunResult,
	error: { message?: string; description?: string | null; node?: { name: string } } | null,
): { ok: boolean; failure: string };
export interface ExecuteResult extends RunResult {
	/** n8n recorded the execution with status `success` (whatever the CLI's exit code). */
	ok: boolean;
	/** n8n's record of the execution this run made; null when it recorded none. */
	record: ExecutionRecord | null;
	/** Why it is not ok: the record, the CLI's exit code and signal, the execution error, stderr's and stdout's tails. */
	failure: string;
	/** n8n's IRun: run.data.resultData.runData[node][i].data.main[0][j].json */
	run: any;
	error: any;
	/** json of a node's first output, for run `runIndex` */
	output(nodeName: string, runIndex?: number): Array<Record<string, any>>;
}
export declare function executeWorkflow(userFolder: UserFolderLike, id: string, opts?: RunOptions): Promise<ExecuteResult>;

export interface N8nInstance {
	baseUrl: string;
	port: number;
	brokerPort: number;
	pid: number;
	userFolder: string;
	logFile: string;
	startupMs: number;
	logs(): string;
	/** `{ code, signal }` once the process has exited, else null. */
	exited(): { code: number | null; signal: string | null } | null;
	stop(graceMs?: number): Promise<{ code: number | null; signal: string | null }>;
}
export declare function startN8n(
	userFolder: UserFolderLike,
	opts?: {
		env?: Record<string, string>;
		timeoutMs?: number;
		port?: number;
		/** Start `n8n worker` (queue mode) instead of `n8n start`; ready when its health check answers. */
		worker?: { concurrency?: number };
		/** Run it in its own UTS namespace with this host name (n8n's worker id). */
		hostname?: string;
	},
): Promise<N8nInstance>;

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}
export declare const DEFAULT_OWNER: Owner;
export interface ExecutionRun {
	status: string;
	mode: string;
	finished: boolean;
	error: any;
	run: any;
	output(nodeName: string, runIndex?: number): Array<Record<string, any>>;
}
export declare class N8nRest {
	constructor(baseUrl: string);
	baseUrl: string;
	cookies: Map<string, string>;
	browserId: string;
	ownerCreated?: boolean;
	playwrightCookies(): Array<{ name: string; value: string; domain: string; path: string }>;
	request(method: string, urlPath: string, body?: unknown, opts?: { headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
	call(method: string, urlPath: string, body?: unknown, opts?: { headers?: Record<string, string> }): Promise<any>;
	setupOwner(owner?: Owner): Promise<any>;
	login(email?: string, password?: string): Promise<any>;
	currentUser(): Promise<any>;
	testCredential(credentials: { id?: string; name: string; type: string; data: Record<string, unknown> }): Promise<{ status: 'OK' | 'Error'; message: string }>;
	testSavedCredential(id: string): Promise<{ status: 'OK' | 'Error'; message: string }>;
	getWorkflow(id: string): Promise<any>;
	getExecution(id: string): Promise<any>;
	getExecutionRun(id: string): Promise<ExecutionRun>;
	runWorkflow(id: string, triggerName?: string): Promise<{ executionId: string }>;
	activateWorkflow(id: string): Promise<any>;
	listExecutions(workflowId: string): Promise<Array<{ id: string; status: string; mode: string }>>;
	waitForExecution(executionId: string, opts?: { timeoutMs?: number }): Promise<any>;
}
export declare function setupOwnerAndLogin(instance: { baseUrl: string }, owner?: Owner): Promise<N8nRest>;

export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: string[];
export interface BrowserSession {
	context: BrowserContext;
	page: Page;
	userDataDir: string;
	consoleErrors: string[];
	close(): Promise<void>;
}
export declare function launchBrowser(opts?: { viewport?: { width: number; height: number } }): Promise<BrowserSession>;
export declare function screenshot(page: Page, name: string, opts?: object): Promise<string>;
export declare function signInThroughUi(page: Page, baseUrl: string, owner: { email: string; password: string }): Promise<void>;
export declare function signInWithCookie(context: BrowserContext, baseUrl: string, owner: { email: string; password: string }): Promise<void>;
export declare function editorSession(
	n8n: { baseUrl: string },
	opts?: { viewport?: { width: number; height: number }; owner?: { email: string; password: string }; signIn?: 'cookie' | 'page' },
): Promise<BrowserSession>;
/** An editor suite's n8n and signed-in Chromium, filled in by its beforeAll (registered here, with the afterAll that closes them). */
export interface EditorSuite {
	setup: LbaN8n;
	sandbox: LbaN8n['sandbox'];
	rest: N8nRest;
	n8n: N8nInstance;
	session: BrowserSession;
	page: Page;
}
export declare function editorSuite(
	name: string,
	startOptions?: LbaN8nOptions,
	options?: { signIn?: 'cookie' | 'page'; viewport?: { width: number; height: number }; beforeSignIn?: (setup: LbaN8n) => Promise<void> },
): EditorSuite;
/** Ctrl+S, then REST's workflow once `saved` holds of it; every 5 s meanwhile, `fix` then Save again. */
export declare function saveInEditor(
	page: Page,
	rest: { getWorkflow(id: string): Promise<any> },
	workflowId: string,
	saved: (workflow: any) => boolean,
	options?: { fix?: (workflow: any) => Promise<void>; timeoutMs?: number; what?: (workflow: any) => string },
): Promise<any>;
export declare function openWorkflow(page: Page, baseUrl: string, workflowId: string): Promise<void>;
export declare function canvasNode(page: Page, nodeName: string): Locator;
export declare function nodeIconLoaded(page: Page, nodeName: string, timeoutMs?: number): Promise<boolean>;
export declare function innerTextsSettle(locator: Locator, expected: string[], timeoutMs?: number): Promise<string[]>;
export declare function openNodePanel(page: Page, nodeName: string): Promise<Locator>;
export declare function parameterInput(page: Page, name: string): Locator;
export declare function openOptions(page: Page, name: string): Promise<string[]>;
export declare function closeOptions(page: Page): Promise<void>;
export declare function closeNodePanel(page: Page): Promise<void>;
export declare const UI_TIMEOUT: number;
export declare function saveNewCredential(page: Page, dialog: Locator): Promise<any>;
/** Pick `label` in the options parameter `name` of the open panel; resolves once the field shows it. */
export declare function chooseOption(page: Page, name: string, label: string): Promise<void>;
/** The open panel's "Execute step": its execution once finished and the button back from its spinner. */
export declare function executeStepInPanel(page: Page, rest: N8nRest, options?: { timeoutMs?: number }): Promise<ExecutionRun>;
export declare function runWorkflowFromEditor(
	page: Page,
	opts?: { expectNodes?: string[]; timeoutMs?: number },
): Promise<{ request: any; executionId: string }>;

export type ExampleKey = 'geocodeToCampaign' | 'geocodeToCampaignOwnIds' | 'scheduledCampaignLaunch' | 'productsUnderPrice' | 'aiCampaignAssistant' | 'cheaperPackageAlert';
export declare const EXAMPLE_OPENAI_CREDENTIAL: { id: string; name: string };
export declare const EXAMPLES_DIR: string;
export declare const EXAMPLES: Record<ExampleKey, { file: string; id: string }>;
export declare const SANDBOX_CREDENTIAL_ID: string;
export declare const SANDBOX_CREDENTIAL_NAME: string;
/** An examples/ workflow with its fixed id (the files carry none). */
export declare function loadExample(key: ExampleKey): any;
export declare function loadAllExamples(): any[];
export declare function sandboxCredential(baseUrl: string, accessToken: string): CredentialImport;

export interface LbaN8n {
	sandbox: { url: string; tokens: string[]; close(): Promise<void> };
	userFolder: UserFolder;
	n8n: N8nInstance | undefined;
	rest: N8nRest;
	/** Starts n8n (first with `start: false`, or again after `n8n.stop()`) and signs in. */
	start(): Promise<void>;
	/** Stops n8n and the sandbox; removes the user folder unless LBA_E2E_KEEP=1. */
	close(): Promise<void>;
	/** The id n8n saved one of `credentials` with, by the id the suite gave it (n8n's REST API picks its own). */
	credentialId(id: string): string;
}
export interface LbaN8nOptions {
	/** Workflows to import (with their ids). */
	workflows?: object[];
	/** Credentials to save beside "LBA sandbox" (the workflows are saved pointing at them: `credentialId`). */
	credentials?: (sandboxUrl: string) => CredentialImport[];
	/** `false`: leave n8n stopped (`n8n`/`rest` undefined) until the suite calls `start()`. Default true. */
	start?: boolean;
	/** Ids of `workflows` to publish (activate) once saved; not with `start: false`. */
	publish?: string[];
	/**
	 * The run's shared n8n (global-setup.js) instead of one of the suite's own: for a suite that never stops n8n,
	 * reads its database or log, runs its CLI, or adds a node in the editor (which would pick any credential of
	 * the type). Its credentials get ids of their own (`credentialId`); not with `start: false`.
	 */
	shared?: boolean;
	/** More of n8n's environment (a `settableClock`'s `env`, say); not with `shared`. */
	env?: Record<string, string | undefined>;
}
/**
 * n8n installed if missing, then sandbox + n8n user folder `lba-e2e-<name>-*` with the packed package, the "LBA sandbox"
 * credential (and `credentials`), `workflows`; n8n started, owner signed in (unless `start: false`).
 * Everything started is closed again if a step fails.
 */
export declare function startLbaN8n(name: string, opts?: LbaN8nOptions): Promise<LbaN8n>;
/** The LBA suites' `.n8n` template: the package installed, "LBA sandbox" imported pointing nowhere. */
export declare function makeLbaTemplate(template: string, nodesDir: string): Promise<string>;

/** `describe` when `process.env[variable] === '1'`, else `describe.skip`. */
export declare function describeWhen(variable: string): jest.Describe;
/** `describe` under test/e2e/jest.config.js (its setup-env.js sets LBA_E2E=1), `describe.skip` in a plain `jest` run. */
export declare const describeE2E: jest.Describe;

export interface LocalRegistry {
	/** http://127.0.0.1:<port> */
	url: string;
	dir: string;
	/** The publisher's token (`npm adduser` done over HTTP). */
	token: string;
	logs(): string;
	close(): Promise<void>;
}
/** Verdaccio from test/e2e/registry/package-lock.json, installed once into the cache; returns its bin script. */
export declare function installVerdaccio(): Promise<string>;
/** Verdaccio (no uplinks) on a free loopback port, config test/e2e/registry/config.yaml, storage per run, one publisher signed up. */
export declare function startVerdaccio(): Promise<LocalRegistry>;
/** `npm publish` a packed .tgz to the registry with its version set to `version`. */
export declare function publishAs(registry: LocalRegistry, tgz: string, version: string): Promise<void>;
export declare const PUBLIC_REGISTRY_HOST: string;
export interface RegistryProxy {
	url: string;
	/** The throwaway CA's certificate (PEM) made for this run. */
	caFile: string;
	/** Requests that reached the registry through the proxy. */
	requests: Array<{ method: string; path: string; status: number; userAgent: string }>;
	/** CONNECT targets (host:port) and plain-HTTP proxy URLs refused with 403. */
	refused: string[];
	/** Environment for n8n and the npm it spawns: proxy, CA, registry, a private npm cache. */
	env(cacheDir: string): Record<string, string>;
	close(): Promise<void>;
}
/** The HTTPS proxy that serves `registryUrl` as https://registry.npmjs.org and refuses every other host. */
export declare function startRegistryProxy(registryUrl: string): Promise<RegistryProxy>;

/** A workflow node as n8n stores it. */
export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: number[];
	parameters: Record<string, any>;
	[setting: string]: any;
}
export interface WorkflowJson {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, any>;
	settings: Record<string, any>;
	pinData: Record<string, any>;
}
export declare const LBA_NODE_TYPE: string;
export declare const FIXED_DATES: { startDate: string; endDate: string };
/** `$now` dates: every evaluation, a Retry's too, gives later ones. */
export declare const NOW_DATES: { startDate: string; endDate: string };
export declare function channel(overrides?: Record<string, any>): Record<string, any>;
/** Create Campaign: one campaign per item named `$json.name`, fixed dates, one request at a time. */
export declare function createCampaignParameters(overrides?: Record<string, any>): Record<string, any>;
export declare function node(id: string, name: string, type: string, typeVersion: number, parameters?: Record<string, any>, extra?: Record<string, any>): WorkflowNode;
/** The LBA Ads node with the "LBA sandbox" credential. */
export declare function lbaNode(id: string, name: string, parameters?: Record<string, any>, extra?: Record<string, any>): WorkflowNode;
export declare function manualTrigger(id: string, name?: string): WorkflowNode;
/** A Code node returning one item per element of `items`. */
export declare function itemsNode(id: string, name: string, items: Array<Record<string, any>>): WorkflowNode;
export declare function namedItems(prefix: string, count?: number): Array<{ name: string }>;
/** An Execute Workflow node calling `childId` from the database once, waiting for it. */
export declare function executeWorkflowNode(id: string, name: string, childId: string, extra?: Record<string, any>): WorkflowNode;
/** A sub-workflow's Execute Workflow Trigger (default name "Called") passing the caller's items through. */
export declare function executeWorkflowTrigger(id: string, name?: string): WorkflowNode;
export declare function chain(...names: string[]): Record<string, any>;
export declare function connect(connections: Record<string, any>, from: string, to: string, output?: number): Record<string, any>;
export declare function workflow(id: string, name: string, nodes: WorkflowNode[], connections: Record<string, any>, settings?: Record<string, any>): WorkflowJson;
/** Start -> "Campaigns to send" (Code: `items`) -> the LBA node (`lbaName`, default "Create campaigns"). */
export declare function campaignWorkflow(
	id: string,
	name: string,
	items: Array<Record<string, any>>,
	opts?: { lbaName?: string; lbaParameters?: Record<string, any>; lbaSettings?: Record<string, any> },
): WorkflowJson;

/** A Markdown table: `columns` are [heading, row => cell] pairs. */
export declare function markdownTable<T>(columns: Array<[string, (row: T) => unknown]>, rows: T[]): string;
/** Writes `# title` and `body` to artifacts/e2e/<name>.md (printed too with `print`); returns the path. */
export declare function writeReport(name: string, title: string, body: string, opts?: { print?: boolean }): string;

/** A campaign in the sandbox's journal (`GET /_sandbox/campaigns`). */
export interface JournalCampaign {
	campaignId: string;
	receivedAt: string;
	request: { name: string; description: string; categoryId: number; channels: Array<Record<string, any> & { message: string; startDate: string; endDate: string }> };
}
/** A request in the sandbox's log (`GET /_sandbox/requests`); `status` null while pending. */
export interface SandboxRequest {
	at: string;
	method: string;
	path: string;
	body: any;
	status: number | string | null;
}
/** An execution once finished: its run, status, start and stop (ms). */
export interface FinishedExecution extends ExecutionRun {
	executionId: string;
	startedAt: number;
	stoppedAt: number;
}
export interface UserSteps {
	/** The journal's campaigns named `<prefix>-…`, oldest first. */
	journal(prefix: string): Promise<JournalCampaign[]>;
	requests(): Promise<SandboxRequest[]>;
	/** A programmed fault (sandbox/README.md); throws when the sandbox refuses it. */
	fault(spec: Record<string, any>): Promise<void>;
	clearFaults(): Promise<void>;
	finished(executionId: string, timeoutMs?: number): Promise<FinishedExecution>;
	/** The editor's Execute workflow from `trigger` (default "Start"), not waited for: the execution id. */
	start(id: string, trigger?: string): Promise<string>;
	/** The editor's Execute workflow, once finished. */
	run(id: string, trigger?: string): Promise<FinishedExecution>;
	/** The executions list's Retry (with the original workflow, or `loadWorkflow`: the saved one), once finished. */
	retry(workflowId: string, executionId: string, loadWorkflow?: boolean): Promise<FinishedExecution>;
	/** The executions list's Stop. */
	stop(executionId: string): Promise<any>;
	/** The editor's Execute step on `nodeName` (a partial run with `runData`), after a save. */
	executeStep(id: string, nodeName: string, runData: Record<string, any>, dirtyNodeNames?: string[]): Promise<FinishedExecution>;
	/** The editor's Save with `change` applied to the nodes and connections. */
	saveWorkflow(id: string, change: (workflow: { nodes: WorkflowNode[]; connections: Record<string, any> }) => { nodes: WorkflowNode[]; connections: Record<string, any> }): Promise<void>;
	/** Saves the workflow with node `name` changed. */
	setNode(id: string, name: string, change: (node: Record<string, any>) => Record<string, any>): Promise<void>;
	/** Edits node `name` and saves, then (a second later, `$now` moved on) "Retry with currently saved workflow". */
	editThenRetry(id: string, executionId: string, name: string, change: (node: Record<string, any>) => Record<string, any>): Promise<FinishedExecution>;
	/** Resolves once `until` holds for the sandbox's requests (polled every 100 ms). */
	sandboxSees(until: (requests: SandboxRequest[]) => boolean, waitMs?: number): Promise<void>;
	/** Waits at least `ms` (1.1 s), then until the clock is 2 to 50 s into its minute (a child's `$now` read then is no whole minute). */
	waitOffWholeMinute(ms?: number): Promise<void>;
}
/** The user's steps over REST and the sandbox's journal, for one suite's `startLbaN8n` set-up. */
export declare function userSteps(setup: { sandbox: { url: string }; rest: N8nRest }, opts?: { timeoutMs?: number }): UserSteps;
/** Says which catalogued instructions (nodes/shared/instructions.ts ids) this journey follows to the letter. */
export declare function follows(...ids: string[]): void;
/** Whether n8n's editor shows Retry on this execution (`error` or `crashed`, not retried with success). */
export declare function editorOffersRetry(rest: N8nRest, executionId: string): Promise<{ offered: boolean; status: string; retrySuccessId?: string | null }>;
/** Throws unless n8n's editor shows Retry on this execution (`error` or `crashed`, not retried with success). */
export declare function mustOfferRetry(rest: N8nRest, executionId: string): Promise<void>;
