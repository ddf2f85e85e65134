import { randomUUID } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IRunExecutionData, ISourceData } from 'n8n-workflow';

import { retryKey } from './keys';
import { runsAsTool } from '../helpers/aiTool';

/**
 * The retry key's parts: where an item came from, never what was written or computed this time.
 * An item is identified by its execution, its run of the node, and its place: the chain of
 * `pairedItem` links from the node's input back to the first node of the execution (the trigger,
 * or a sub-workflow's Execute Workflow Trigger), with that first item's saved data. A Retry
 * gives all of these again, whatever the user edited in the LBA node and whatever `$now`, a Set
 * node or a sub-workflow computed again on the way.
 *
 * Its execution is a mark this node writes once into n8n's execution context
 * (`getExecutionContext()`: saved with the execution, copied by every Retry, kept across a Wait,
 * new for each editor run and each Execute step). n8n's own `establishedAt` is a millisecond,
 * which two queue-mode workers can share; the mark is random. In a sub-execution the mark is
 * written into the caller's context (n8n passes it by reference and saves it with the caller), so
 * a Retry of the caller, which starts the sub-workflow as a new execution, finds it again.
 */

/** The field of n8n's execution context that holds this package's mark of the execution. */
export const EXECUTION_MARK = 'lbaAdsExecution';

/** One run of the node: its execution and its run index, read once. */
interface RunOrigin {
	execution: string;
	runIndex: number | null;
}

const origins = new WeakMap<IExecuteFunctions, RunOrigin>();

type Context = Record<string, unknown>;
/** n8n's execution data, on the node's context (n8n-core's BaseExecuteContext) in 1.x and 2.x. */
type WithRunData = { runExecutionData?: IRunExecutionData & { parentExecution?: { workflowId?: string; executionContext?: Context } } };

/** The context's mark, written the first time a node of this package reads it. */
function markOf(context: Context): string {
	if (typeof context[EXECUTION_MARK] !== 'string') context[EXECUTION_MARK] = randomUUID();
	return String(context[EXECUTION_MARK]);
}

/**
 * The execution the user retries, as text: the caller's in a sub-execution, else this one. Without
 * a context (an engine that sets none), the earliest start in the run data, which a Retry also
 * keeps, and then the execution id, which Retry On Fail keeps.
 */
export function executionIdentity(ctx: IExecuteFunctions): string {
	const data = (ctx as unknown as WithRunData).runExecutionData;
	const caller = data?.parentExecution;
	if (caller?.executionContext && typeof caller.executionContext === 'object') {
		return `caller ${String(caller.workflowId)} execution ${markOf(caller.executionContext)}`;
	}
	const own = ctx.getExecutionContext?.() as Context | undefined;
	if (own && typeof own === 'object') return `execution ${markOf(own)}`;
	return firstStart(ctx, data) ?? `execution id ${ctx.getExecutionId()}`;
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

/** As n8n saves it: a Retry reads run data back from its database as JSON (a Date becomes its text). */
const asSaved = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? {})) as unknown;

const firstPaired = (item: INodeExecutionData): { item: number; input?: number } | undefined => {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	if (typeof paired === 'number') return { item: paired };
	return paired && typeof paired.item === 'number' ? paired : undefined;
};

/**
 * Where input item `itemIndex` came from: each node it passed through (name, run, output, item),
 * back along `pairedItem` to the first node of the execution or to a node that did not say, and
 * that first item's saved data. Run data n8n saved, so a Retry finds the same.
 */
export function itemLineage(ctx: IExecuteFunctions, itemIndex: number): { path: Array<[string, number, number, number]>; root: unknown } {
	const runData = (ctx as unknown as WithRunData).runExecutionData?.resultData?.runData ?? {};
	const path: Array<[string, number, number, number]> = [];
	let source: ISourceData | null | undefined = ctx.getExecuteData?.()?.source?.main?.[0];
	let index = itemIndex;
	let root: unknown = ctx.getInputData()[itemIndex]?.json;
	for (let steps = 0; source && steps < 1_000; steps++) {
		const run = source.previousNodeRun ?? 0;
		const output = source.previousNodeOutput ?? 0;
		const task = runData[source.previousNode]?.[run];
		const item = task?.data?.main?.[output]?.[index];
		if (!item) break;
		path.push([source.previousNode, run, output, index]);
		root = item.json;
		const paired = firstPaired(item);
		if (!paired) break;
		// The first node of the execution has no source: its item (a sub-workflow's: the caller's) is the root.
		source = task.source?.[paired.input ?? 0];
		index = paired.item;
	}
	return { path, root: asSaved(root) };
}

/** The retry key of one item (see keys.ts): its execution, its run, and where it came from. */
export function itemRetryKey(ctx: IExecuteFunctions, itemIndex: number, target: string): string {
	const { execution, runIndex } = runOrigin(ctx);
	if (runIndex === null) {
		// A tool call: the model's arguments (and n8n's call id) are the item.
		return retryKey({ target, execution, runIndex, itemIndex, origin: asSaved(ctx.getInputData()[itemIndex]?.json) });
	}
	return retryKey({ target, execution, runIndex, itemIndex, origin: itemLineage(ctx, itemIndex) as unknown as IDataObject });
}
