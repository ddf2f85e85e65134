import type { IDataObject, IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';

import { retryKey } from './keys';
import { runsAsTool } from '../helpers/aiTool';

/**
 * The retry key's parts: what a Retry gives the node again unchanged, even when `$now` moves the
 * campaign's dates.
 *
 * Its execution is n8n's execution context (`getExecutionContext()`, set once when an execution
 * is established, copied by every Retry, kept across a Wait, new for each editor run and each
 * Execute step). In a sub-execution it is the caller's context: a Retry of the caller starts the
 * sub-workflow as a new execution, but gives it the caller's context again. Only one level up:
 * n8n gives a sub-execution its caller's context with the caller's own `establishedAt` in it, so
 * a sub-sub-workflow sees its caller's, which is new when the top execution is retried.
 */

/** One run of the node: its execution and its run index, read once. */
interface RunOrigin {
	execution: string;
	runIndex: number | null;
}

const origins = new WeakMap<IExecuteFunctions, RunOrigin>();

/** n8n's execution data, on the node's context (n8n-core's BaseExecuteContext) in 1.x and 2.x. */
type WithRunData = { runExecutionData?: IRunExecutionData & { parentExecution?: { workflowId?: string; executionContext?: { establishedAt?: unknown } } } };

/**
 * The execution the user retries, as text: the caller's context in a sub-execution, else this
 * execution's. Without a context (an engine that sets none), the earliest start in the run data,
 * which a Retry also keeps, and then the execution id, which Retry On Fail keeps: never less than
 * the retry key had before it used the context.
 */
export function executionIdentity(ctx: IExecuteFunctions): string {
	const data = (ctx as unknown as WithRunData).runExecutionData;
	const caller = data?.parentExecution;
	if (typeof caller?.executionContext?.establishedAt === 'number') {
		return `caller ${String(caller.workflowId)} established ${caller.executionContext.establishedAt}`;
	}
	const own = ctx.getExecutionContext?.()?.establishedAt;
	if (typeof own === 'number') return `established ${own}`;
	return firstStart(ctx, data) ?? `execution ${ctx.getExecutionId()}`;
}

function runOrigin(ctx: IExecuteFunctions): RunOrigin {
	let origin = origins.get(ctx);
	if (!origin) {
		origin = {
			execution: executionIdentity(ctx),
			// A tool call is identified by its input (the model's arguments, and in n8n 2.x the call's id):
			// n8n gives each Retry On Fail try of a tool a new run.
			runIndex: runsAsTool(ctx) ? null : Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0),
		};
		origins.set(ctx, origin);
	}
	return origin;
}

/** "started <ms>": the earliest start in the execution's run data, other than this node's own runs. */
function firstStart(ctx: IExecuteFunctions, data: IRunExecutionData | undefined): string | undefined {
	const runData = data?.resultData?.runData ?? {};
	const self = ctx.getNode().name;
	let earliest: number | undefined;
	for (const [name, tasks] of Object.entries(runData)) {
		const start = name === self ? undefined : tasks?.[0]?.startTime;
		if (typeof start === 'number' && start > 0 && (earliest === undefined || start < earliest)) earliest = start;
	}
	return earliest === undefined ? undefined : `started ${earliest}`;
}

/**
 * The parameters named in `campaignParameters` ('options.timezone' for an option), as written:
 * nothing else of the node counts, so a new parameter, a send-only option or Duplicate Protection
 * itself never changes a retry key.
 */
export function writtenParameters(ctx: IExecuteFunctions, campaignParameters: readonly string[]): IDataObject {
	const written = ctx.getNode().parameters as IDataObject;
	const picked: IDataObject = {};
	for (const path of campaignParameters) {
		const [name, option] = path.split('.');
		const value = option === undefined ? written[name] : (written[name] as IDataObject | undefined)?.[option];
		if (value !== undefined) picked[path] = value;
	}
	return picked;
}

/** The retry key of one item (see keys.ts), from the parameters that define its campaign. */
export function itemRetryKey(ctx: IExecuteFunctions, itemIndex: number, target: string, campaignParameters: readonly string[]): string {
	const { execution, runIndex } = runOrigin(ctx);
	// As saved: a Retry reads the input back from n8n's database as JSON.
	const input = JSON.parse(JSON.stringify(ctx.getInputData()[itemIndex]?.json ?? {})) as unknown;
	return retryKey({ target, parameters: writtenParameters(ctx, campaignParameters), input, itemIndex, runIndex, execution });
}
