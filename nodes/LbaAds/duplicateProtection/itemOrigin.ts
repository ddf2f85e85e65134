import type { IDataObject, IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';

import { retryKey } from './keys';

/**
 * The retry key's parts: what a Retry of an execution (the executions list's, or the node's own
 * Retry On Fail) gives the node again unchanged, even when `$now` moves the campaign's dates.
 *
 * n8n does not tell a node which execution a Retry retries, but it reuses the saved run data of
 * the nodes before the failed one, so the earliest start time in that run data (the trigger's)
 * is the first execution's, and the node's input items are that execution's output. Where the
 * run data is not there, the execution id stands in (Retry On Fail still finds it).
 */

/** Parameters that only change how the node sends, not which campaign it sends. */
const NOT_THE_CAMPAIGN = new Set(['concurrency', 'timeoutMs', 'dryRun', 'resend', 'maxSmsPerCampaign', 'maxCampaignsPerExecution']);

interface RunOrigin {
	execution: string;
	runIndex: number;
	parameters: IDataObject;
}

const origins = new WeakMap<IExecuteFunctions, RunOrigin>();

function runOrigin(ctx: IExecuteFunctions): RunOrigin {
	let origin = origins.get(ctx);
	if (!origin) {
		const { options, ...parameters } = ctx.getNode().parameters as IDataObject;
		const campaignOptions = Object.fromEntries(Object.entries((options as IDataObject) ?? {}).filter(([name]) => !NOT_THE_CAMPAIGN.has(name)));
		origin = {
			execution: firstStart(ctx) ?? `execution ${ctx.getExecutionId()}`,
			runIndex: Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0),
			parameters: { ...parameters, options: campaignOptions },
		};
		origins.set(ctx, origin);
	}
	return origin;
}

/** "started <ms>": the earliest start in the execution's run data, other than this node's own runs. */
function firstStart(ctx: IExecuteFunctions): string | undefined {
	// The execution's run data is on n8n's node context (n8n-core's BaseExecuteContext) in 1.x and 2.x.
	const runData = (ctx as unknown as { runExecutionData?: IRunExecutionData }).runExecutionData?.resultData?.runData ?? {};
	const self = ctx.getNode().name;
	let earliest: number | undefined;
	for (const [name, tasks] of Object.entries(runData)) {
		const start = name === self ? undefined : tasks?.[0]?.startTime;
		if (typeof start === 'number' && start > 0 && (earliest === undefined || start < earliest)) earliest = start;
	}
	return earliest === undefined ? undefined : `started ${earliest}`;
}

/** The retry key of one item (see keys.ts). */
export function itemRetryKey(ctx: IExecuteFunctions, itemIndex: number, target: string): string {
	const { execution, runIndex, parameters } = runOrigin(ctx);
	// As saved: a Retry reads the input back from n8n's database as JSON.
	const input = JSON.parse(JSON.stringify(ctx.getInputData()[itemIndex]?.json ?? {})) as unknown;
	return retryKey({ target, parameters, input, itemIndex, runIndex, execution });
}
