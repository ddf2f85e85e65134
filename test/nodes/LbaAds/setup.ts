/**
 * Shared set-up for the LBA Ads node tests: the real sandbox on an ephemeral
 * loopback port, the package loaded from its `n8n` section into n8n-core's
 * WorkflowExecute, and small helpers to build a workflow around one LBA node.
 */
import * as http from 'node:http';

import { Settings as luxonSettings } from 'luxon';

import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { chain, harnessDeduplicator, loadPackageNodes, manualTrigger, type Harness, type RunOptions, type RunResult } from '../../harness';
import type { LbaAds as LbaAdsClass } from '../../../nodes/LbaAds/LbaAds.node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../../sandbox/server.js') as {
	startSandbox(options: Record<string, unknown>): Promise<Sandbox>;
};

export interface Sandbox {
	url: string;
	tokens: string[];
	clientId: string;
	clientSecret: string;
	close(): Promise<void>;
}

export const NODE_TYPE = 'n8n-nodes-lba-ads.lbaAds';

/** "Now" for the node's send windows in the node tests (useSandbox): 2026-11-26 09:00 WIB. */
export const TEST_NOW = Date.parse('2026-11-26T02:00:00Z');
const HOUR_MS = 3_600_000;
/** How far `$now` is from the real clock in the node tests: whole hours, to within the hour after TEST_NOW. */
const luxonShift = Math.ceil((TEST_NOW - Date.now()) / HOUR_MS) * HOUR_MS;

export interface Context {
	sandbox: Sandbox;
	n8n: Harness;
	token: string;
	/** The waits the transport asked for before its retries, this test (not waited: see useSandbox). */
	retryWaits: number[];
	/** Set by holdNextLatency: how the next fault latency is waited. */
	heldLatency?: () => Promise<void>;
}

/**
 * Starts a sandbox and loads the package once per test file; resets the sandbox before each test.
 * The sandbox checks each of its answers against openapi.yaml (`checkAnswers`), so a node test
 * also proves the handler keeps to the document: an answer it does not document becomes a 500.
 * The transport's waits before a retry are recorded in `retryWaits`, not waited, unless `realRetryWaits`.
 */
export function useSandbox(options: Record<string, unknown> = {}, { realRetryWaits = false } = {}): Context {
	const context = { retryWaits: [] } as unknown as Context;
	beforeAll(async () => {
		const waitLatency = (ms: number) => (context.heldLatency ? context.heldLatency() : new Promise<void>((resolve) => setTimeout(resolve, ms)));
		context.sandbox = await startSandbox({ port: 0, quiet: true, checkAnswers: true, waitLatency, ...options });
		context.token = context.sandbox.tokens[0];
		context.n8n = await loadPackageNodes();
		// The node's clock for send windows (a window that is over is refused): a fixed time before
		// every fixture's dates (2026-12-01 ...), so the tests mean the same next year.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		(require('../../../dist/nodes/LbaAds/helpers/dates') as { clock: { now(): number } }).clock.now = () => TEST_NOW;
		// `$now` and `$today` (luxon's clock, which n8n's expressions read) run on from the same
		// morning, a whole number of hours from the real clock: a `$now` date still moves with time (a
		// Retry gives later ones, an hour begun is an hour begun), but starts by day in WIB, never
		// at night because of when CI runs.
		luxonSettings.now = () => Date.now() + luxonShift;
		if (realRetryWaits) return;
		// The node as n8n loads it (dist/): its retries go at once, each wait recorded for the test to
		// check, so a test of three retries does not sleep their 3.5 s of back-off. The reliability
		// suite waits them (realRetryWaits): it measures the node against a real clock.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { retryWait } = require('../../../dist/nodes/shared/transport') as { retryWait: { sleep(ms: number): Promise<void> } };
		retryWait.sleep = async (ms) => {
			context.retryWaits.push(ms);
			await new Promise((resolve) => setImmediate(resolve));
		};
	});
	afterAll(async () => {
		luxonSettings.now = () => Date.now();
		await context.sandbox?.close();
	});
	beforeEach(async () => {
		context.heldLatency = undefined;
		context.retryWaits.length = 0;
		await control(context, 'POST', '/_sandbox/reset');
	});
	return context;
}

/**
 * Every fault latency the sandbox meets lasts until the test calls `release()`: an answer held so
 * is slower than the node's timeout by construction, however loaded the machine (a 3 s answer
 * against a 1 s timeout is a race a machine at load 12 loses both ways: a request that takes over
 * 1 s to arrive, an unfaulted retry that takes over 1 s to answer).
 */
export function holdLatencies(context: Context): { release(): void } {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	context.heldLatency = () => released;
	return {
		release: () => {
			context.heldLatency = undefined;
			release();
		},
	};
}

/**
 * The next fault latency the sandbox meets lasts until the test calls `release()`; `arrived`
 * resolves once a request waits on it. So a test looks at the store while a request is in
 * flight, however loaded the machine, instead of racing a timer against the run.
 */
export function holdNextLatency(context: Context): { arrived: Promise<void>; release(): void } {
	let arrived!: () => void;
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	const gate = { arrived: new Promise<void>((resolve) => (arrived = resolve)), release: () => release() };
	context.heldLatency = () => {
		context.heldLatency = undefined;
		arrived();
		return released;
	};
	return gate;
}

/**
 * A call to the sandbox's control API, on a connection of its own: the sandbox runs in this
 * process, so a long run blocks its keep-alive timer too, and a kept-alive connection would be
 * reused at the moment the sandbox closes it (ECONNRESET).
 */
export function control<T = IDataObject>(context: Context, method: string, path: string, body?: unknown): Promise<T> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const request = http.request(
			`${context.sandbox.url}${path}`,
			{ method, agent: false, headers: payload === undefined ? {} : { 'Content-Type': 'application/json' } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					resolve((text ? JSON.parse(text) : {}) as T);
				});
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

/**
 * n8n's processed-items store as the harness keeps it, emptied before each test, and a workflow
 * id of each test's own (runs that stand for re-runs of one saved workflow share it).
 */
export function useHistory(prefix: string) {
	const store = harnessDeduplicator();
	const history = { store, workflowId: '' };
	let counter = 0;
	beforeEach(() => {
		store.reset();
		store.rmwDelayMs = 0;
		history.workflowId = `${prefix}-${++counter}`;
	});
	return history;
}

export interface JournalRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number | string;
}

export async function requests(context: Context, filter: Partial<Pick<JournalRequest, 'method' | 'path'>> = {}) {
	const { requests: all } = await control<{ requests: JournalRequest[] }>(context, 'GET', '/_sandbox/requests');
	return all.filter(
		(request) => (!filter.method || request.method === filter.method) && (!filter.path || request.path === filter.path),
	);
}

/** How many campaigns the sandbox created under each name: what a Retry's test counts. */
export async function campaignsPerName(context: Context): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const { request } of await campaigns(context)) counts[String(request.name)] = (counts[String(request.name)] ?? 0) + 1;
	return counts;
}

/** Runs `run` with the clock (`Date.now`, so `$now`) a second on: a Retry's `$now` moved without waiting for it. */
export async function aSecondLater<T>(run: () => Promise<T>): Promise<T> {
	const realNow = Date.now.bind(Date);
	const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 1_000);
	try {
		return await run();
	} finally {
		later.mockRestore();
	}
}

export async function campaigns(context: Context) {
	const { campaigns: all } = await control<{ campaigns: Array<{ campaignId: string; channels: string[]; request: IDataObject }> }>(
		context,
		'GET',
		'/_sandbox/campaigns',
	);
	return all;
}

export async function fault(context: Context, spec: IDataObject) {
	return await control(context, 'POST', '/_sandbox/faults', spec);
}

export function lbaNode(parameters: IDataObject, extra: Partial<INode> = {}): INode {
	return {
		id: 'lba',
		name: 'LBA',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { lbaAdsApi: { id: 'cred-1', name: 'LBA sandbox' } },
		...extra,
	} as INode;
}

/**
 * Runs Start -> LBA with `items` pinned on Start (how a user feeds test data in n8n),
 * so each item's expressions such as {{ $json.lat }} resolve per item. `again`: run as n8n runs
 * an execution again (`{ kind: 'retry', after: failed.run }` is the executions list's Retry).
 */
export async function runNode(
	context: Context,
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	options: { node?: Partial<INode>; timezone?: string; credentials?: Record<string, IDataObject>; workflowId?: string; again?: RunOptions['again'] } = {},
): Promise<RunResult & { items: INodeExecutionData[] }> {
	const result = await context.n8n.runWorkflow(
		{
			nodes: [manualTrigger(), lbaNode(parameters, options.node)],
			connections: chain('Start', 'LBA'),
			pinData: { Start: items.map((json) => ({ json })) },
			settings: options.timezone ? { timezone: options.timezone } : undefined,
		} as never,
		{
			// Tests give credentials as plain objects; n8n's type only forbids undefined values, which none has.
			credentials: (options.credentials ?? { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } }) as Record<string, ICredentialDataDecryptedObject>,
			workflowId: options.workflowId,
			again: options.again,
		},
	);
	return { ...result, items: result.error ? [] : result.output('LBA') };
}

/**
 * A picker's From List as the panel asks for it (helpers/picker.ts): the node's list function
 * `method` against the sandbox, with what the user typed (`filter`) and the node's `parameters`.
 */
export async function searchList(context: Context, method: string, filter?: string, parameters: IDataObject = {}) {
	return await context.n8n.listSearch(lbaNode(parameters), method, {
		filter,
		credentials: { lbaAdsApi: { baseUrl: context.sandbox.url, accessToken: context.token } },
	});
}

/** A valid channel in the node's field format; override what a test is about. */
export function channel(overrides: IDataObject = {}): IDataObject {
	return {
		sender: 'LBADEMO',
		locationId: 3273,
		smsQty: 500,
		message: 'Diskon 20% hari ini!',
		startDate: '2026-12-01T09:00:00',
		endDate: '2026-12-07T21:00:00',
		telcoId: 'tsel',
		...overrides,
	};
}

export function createParameters(overrides: IDataObject = {}, channels: IDataObject[] = [channel()]): IDataObject {
	return {
		resource: 'campaign',
		operation: 'create',
		name: 'Weekend promo',
		campaignDescription: 'Promo for the weekend',
		categoryId: 10,
		channelsInput: 'fields',
		channels: { channel: channels },
		...overrides,
	};
}

/**
 * What the node's execute() returned in each run of the test, before n8n touches it (emptied before
 * each test). n8n fills a missing pairedItem itself when a node returns as many items as it got, so a
 * run's output cannot show ours dropped: a pairedItem assertion reads this.
 */
export function useReturnedByExecute(): INodeExecutionData[][][] {
	// The class the harness loads (from dist/, through the package's n8n section).
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { LbaAds } = require('../../../dist/nodes/LbaAds/LbaAds.node') as { LbaAds: typeof LbaAdsClass };
	const returned: INodeExecutionData[][][] = [];
	const execute = LbaAds.prototype.execute;
	beforeAll(() => {
		LbaAds.prototype.execute = async function (this: IExecuteFunctions) {
			const output = await execute.call(this);
			returned.push(JSON.parse(JSON.stringify(output)) as INodeExecutionData[][]);
			return output;
		};
	});
	afterAll(() => {
		LbaAds.prototype.execute = execute;
	});
	beforeEach(() => {
		returned.length = 0;
	});
	return returned;
}
