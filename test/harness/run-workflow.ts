/**
 * Runs a workflow through n8n-core's real engine (`WorkflowExecute.processRunExecutionData`),
 * set up the way n8n's own test harness does (n8n-io/n8n packages/core/nodes-testing/
 * node-test-harness.ts) but with a plain additionalData object instead of jest mocks,
 * so anything n8n-core calls that the harness does not provide fails loudly.
 */
import './env';
import './safe-regex';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	UnexpectedError,
	Workflow,
	getGlobalState,
	setGlobalState,
	createRunExecutionData,
	deepCopy,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type IConnections,
	type INode,
	type INodeExecutionData,
	type IPinData,
	type IRun,
	type IRunExecutionData,
	type IWorkflowBase,
	type RelatedExecution,
	type IWorkflowExecuteAdditionalData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, type CredentialStore, type CredentialUpdate } from './credentials-helper';
import { harnessDeduplicator } from './deduplication';
import type { LoadedNodes } from './registry';
import { SHOWN } from './shown';

/** n8n's own default when neither the workflow nor the instance sets a timezone. */
export const N8N_DEFAULT_TIMEZONE = 'America/New_York';

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
}

export interface RunOptions {
	/** Credential data per credential type (what the user typed into the credential). */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Instance timezone (GENERIC_TIMEZONE); the workflow's `settings.timezone` wins. */
	timezone?: string;
	/** Node to start from; default: the workflow's trigger, found as n8n does. */
	startNode?: string;
	/** Items the start node receives (a trigger ignores them and emits its own). */
	startItems?: INodeExecutionData[];
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's id, which n8n's processed-items store (duplicate protection) keys its
	 * history by. Default: a new id per run, as if each run were a new workflow; give the same
	 * id to runs that stand for re-runs of one saved workflow.
	 */
	workflowId?: string;
	/**
	 * Run again after an earlier run, as n8n does (the workflow is `workflowJson`, maybe edited):
	 * - `retry`: the executions list's Retry (n8n's ExecutionService.retry): the earlier run's
	 *   data with the failed node's failed run taken out, in mode 'retry', so the execution
	 *   context and the saved outputs of the nodes before it are kept;
	 * - `partial`: the editor's Execute step on `destination` (WorkflowExecute.runPartialWorkflow2,
	 *   which n8n's editor run calls): the earlier run data, `dirtyNodeNames` run again, and a new
	 *   execution context.
	 */
	again?: { kind: 'retry'; after: IRun } | { kind: 'partial'; after: IRun; destination: string; dirtyNodeNames?: string[] };
	/**
	 * Run as a sub-execution of this caller, as n8n's Execute Workflow node starts one (n8n's
	 * workflow-execute-additional-data `getRunData`: mode 'integrated', `parentExecution` on the run
	 * data and on the start item's metadata). Its `executionContext` is the caller's
	 * (`run.data.executionData.runtimeData` of a RunResult, or a context made by a test).
	 */
	parentExecution?: RelatedExecution;
}

export interface RunResult {
	run: IRun;
	/** The error that stopped the run (node errors without continueOnFail), if any. */
	error?: ExecutionError;
	/** Items of a node's output `outputIndex` (default 0, i.e. main[0]) in run `runIndex`. */
	output(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** Names of the nodes that ran, in order. */
	executedNodes: string[];
	/** Credential store after the run (e.g. with the OAuth2 `oauthTokenData` n8n saved). */
	credentials: CredentialStore;
	/** Writes n8n-core made to credentials during the run, in order. */
	credentialUpdates: CredentialUpdate[];
}

export function effectiveTimezone(settings: IWorkflowSettings | undefined, fallback?: string) {
	// 'DEFAULT' is how n8n's editor stores "use the instance timezone".
	const own = settings?.timezone && settings.timezone !== 'DEFAULT' ? settings.timezone : undefined;
	return own ?? fallback ?? N8N_DEFAULT_TIMEZONE;
}

let executionCounter = 0;

/** The additionalData n8n-core's node contexts read; unsupported features throw. */
export function createAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	hooks: ExecutionLifecycleHooks | undefined,
	executionId: string,
	settings?: IWorkflowSettings,
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new UnexpectedError(`The test harness does not support ${what}`);
	};
	const base = 'http://localhost:5678';
	return {
		credentialsHelper,
		hooks,
		executionId,
		executeWorkflow: unsupported('sub-workflows (executeWorkflow)'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('task runners (Code node)'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		workflowSettings: settings,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** What n8n's ExecutionService.retry gives the engine: the run's data without its error and the failed run. */
function retryData(after: IRun): IRunExecutionData {
	const data = deepCopy(after.data);
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData?.[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return data;
}

/**
 * Runs a workflow as n8n does on an instance whose zone is `options.timezone` (else n8n's global
 * state's, as a test set it): the workflow's settings stay as saved, so one without a zone of its
 * own takes the instance's (n8n's Workflow reads n8n's global state), and the node reads the
 * instance's zone from there too.
 */
export async function runWorkflow(loaded: LoadedNodes, workflowJson: WorkflowJson, options: RunOptions = {}): Promise<RunResult> {
	const saved = getGlobalState();
	const instance = options.timezone && options.timezone !== 'DEFAULT' ? options.timezone : (saved.defaultTimezone ?? N8N_DEFAULT_TIMEZONE);
	setGlobalState({ ...saved, defaultTimezone: instance });
	try {
		return await runOnInstance(loaded, workflowJson, options);
	} finally {
		setGlobalState(saved);
	}
}

async function runOnInstance(loaded: LoadedNodes, workflowJson: WorkflowJson, options: RunOptions): Promise<RunResult> {
	const mode = options.mode ?? (options.again?.kind === 'retry' ? 'retry' : options.parentExecution ? 'integrated' : 'manual');
	const executionId = String(++executionCounter);
	// The engine mutates nodes (adds parameter defaults) and credentials; keep the caller's intact.
	const nodes = deepCopy(workflowJson.nodes);
	// As saved: 'DEFAULT' stays the text n8n hands the node; no zone at all is the instance's.
	const settings: IWorkflowSettings = { ...workflowJson.settings };
	const store: CredentialStore = deepCopy(options.credentials ?? {});
	const credentialsHelper = new HarnessCredentialsHelper(loaded.credentialTypes, loaded.nodeTypes, store);

	harnessDeduplicator(); // n8n registers its processed-items store at start; so does the harness
	const workflow = new Workflow({
		id: options.workflowId ?? `harness-${executionId}`,
		name: workflowJson.name ?? 'harness workflow',
		nodes,
		connections: workflowJson.connections,
		active: false,
		nodeTypes: loaded.nodeTypes,
		settings,
		pinData: workflowJson.pinData,
	});

	const startNode = options.startNode ? workflow.getNode(options.startNode) : workflow.getStartNode();
	if (!startNode) {
		throw new UnexpectedError(
			'No start node: add an n8n-nodes-base.manualTrigger node or pass options.startNode',
		);
	}

	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: workflowJson.connections,
		settings,
	} as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executedNodes: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executedNodes.push(nodeName);
	});

	const additionalData = createAdditionalData(credentialsHelper, hooks, executionId, settings);
	const again = options.again;
	let run: IRun;
	if (again?.kind === 'partial') {
		run = await new WorkflowExecute(additionalData, mode).runPartialWorkflow2(
			workflow,
			deepCopy(again.after.data.resultData.runData),
			workflowJson.pinData,
			again.dirtyNodeNames ?? [],
			{ nodeName: again.destination, mode: 'inclusive' },
		);
	} else {
		const runExecutionData = again ? retryData(again.after) : createRunExecutionData({
			resultData: { runData: {}, pinData: workflowJson.pinData },
			executionData: {
				nodeExecutionStack: [
					{
						node: startNode,
						data: { main: [options.startItems ?? [{ json: {} }]] },
						source: null,
						...(options.parentExecution ? { metadata: { parentExecution: options.parentExecution } } : {}),
					},
				],
			},
			...(options.parentExecution ? { parentExecution: options.parentExecution } : {}),
		});
		if (again) {
			// The retried execution's nodes, as saved, are the workflow now being run (Retry with the saved workflow).
			for (const entry of runExecutionData.executionData?.nodeExecutionStack ?? []) entry.node = workflow.getNode(entry.node.name) ?? entry.node;
		}
		// Throws synchronously (WorkflowHasIssuesError) when n8n would refuse to start,
		// e.g. a required parameter is missing or a node type is unknown.
		run = await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	}

	rememberShown(run);
	return {
		run,
		error: run.data.resultData.error,
		output(nodeName, outputIndex = 0, runIndex = 0) {
			const taskData = run.data.resultData.runData[nodeName]?.[runIndex];
			if (!taskData) {
				const ran = Object.keys(run.data.resultData.runData).join(', ');
				throw new UnexpectedError(`Node "${nodeName}" has no run ${runIndex} (nodes that ran: ${ran})`);
			}
			return taskData.data?.main?.[outputIndex] ?? [];
		},
		executedNodes,
		credentials: store,
		credentialUpdates: credentialsHelper.updates,
	};
}

function rememberShown(run: IRun): void {
	const add = (where: string, text: unknown) => {
		if (typeof text === 'string' && text) SHOWN.push({ where, text });
	};
	const addError = (where: string, error: unknown) => {
		const { message, description } = (error ?? {}) as { message?: unknown; description?: unknown };
		add(`${where} error message`, message);
		add(`${where} error description`, description);
	};
	addError('the run', run.data.resultData.error);
	for (const [node, tasks] of Object.entries(run.data.resultData.runData)) {
		for (const task of tasks ?? []) {
			for (const hint of task.hints ?? []) add(`${node} hint`, hint.message);
			addError(node, task.error);
			for (const item of task.data?.main?.flat() ?? []) {
				const json = (item?.json ?? {}) as Record<string, unknown>;
				add(`${node} output howToResend`, json.howToResend);
				add(`${node} output reason`, json.reason);
				add(`${node} output message`, json.message);
				addError(`${node} output`, json.error);
			}
		}
	}
}
