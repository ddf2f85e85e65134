import { randomUUID } from 'crypto';
import type { IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';

import { retryKey } from './keys';
import { runsAsTool } from '../helpers/aiTool';

/**
 * Which campaign of the execution an item is: the retry key's parts. A campaign is recognized by
 * what it is, never by where it sat: its content with the values the clock moves left out (its
 * dates), and, among identical ones, its place in order of their dates (then of the items). So a
 * Retry holds what the execution it retries created however the data before the node was
 * computed again: rows reordered, added or removed, nodes inserted or renamed upstream, a Code
 * node making new items, `$now` in a sub-workflow's inputs. Its parts:
 * - the execution the user retries: a mark this node writes once into n8n's execution context
 *   (`getExecutionContext()`: saved with the execution, copied by every Retry, kept across a Wait,
 *   new for each editor run and each Execute step). In a sub-execution, the caller's context
 *   (n8n passes it by reference and saves it with the caller), so a Retry of the caller, which
 *   starts the sub-workflow as a new execution, finds it again;
 * - the node's run in it (Loop Over Items);
 * - the campaign's shape (the Create operation gives it: everything but the dates) and its
 *   ordinal among the run's campaigns of that shape.
 * A tool call is identified by its input instead (the model's arguments, and in n8n 2.x the
 * call's id): n8n gives each Retry On Fail try of a tool a new run.
 *
 * What the execution created is also written into that context (`rememberCreated`): the campaign's
 * id and dates. A Retry names the campaign it holds (`createdAs`), and checks that the dates only
 * moved with the clock; dates changed otherwise make another campaign.
 */

/** The field of n8n's execution context that holds this package's mark of the execution. */
export const EXECUTION_MARK = 'lbaAdsExecution';
/** The field that holds what this execution created, by retry key (see `rememberCreated`). */
export const CREATED_FIELD = 'lbaAdsCreated';

type Context = Record<string, unknown>;
/** n8n's execution data, on the node's context (n8n-core's BaseExecuteContext) in 1.x and 2.x. */
type WithRunData = { runExecutionData?: IRunExecutionData & { parentExecution?: { workflowId?: string; executionContext?: Context } } };

/** The context's mark, written the first time a node of this package reads it. */
function markOf(context: Context): string {
	if (typeof context[EXECUTION_MARK] !== 'string') context[EXECUTION_MARK] = randomUUID();
	return String(context[EXECUTION_MARK]);
}

/** The context the user's Retry copies: the caller's in a sub-execution, else this execution's own. */
function retriedContext(ctx: IExecuteFunctions): { context?: Context; prefix: string } {
	const caller = (ctx as unknown as WithRunData).runExecutionData?.parentExecution;
	if (caller?.executionContext && typeof caller.executionContext === 'object') {
		return { context: caller.executionContext, prefix: `caller ${String(caller.workflowId)} execution ` };
	}
	const own = ctx.getExecutionContext?.() as Context | undefined;
	return own && typeof own === 'object' ? { context: own, prefix: 'execution ' } : { prefix: '' };
}

/**
 * The execution the user retries, as text. Without a context (an engine that sets none), the
 * earliest start in the run data, which a Retry also keeps, and then the execution id, which
 * Retry On Fail keeps.
 */
export function executionIdentity(ctx: IExecuteFunctions): string {
	const { context, prefix } = retriedContext(ctx);
	if (context) return `${prefix}${markOf(context)}`;
	return firstStart(ctx) ?? `execution id ${ctx.getExecutionId()}`;
}

/** "started <ms>": the earliest start in the execution's run data, other than this node's own runs. */
function firstStart(ctx: IExecuteFunctions): string | undefined {
	const runData = (ctx as unknown as WithRunData).runExecutionData?.resultData?.runData ?? {};
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

/** One campaign as its identity sees it: what it is without its dates, and its dates (ms) to order identical ones. */
export interface CampaignIdentity {
	itemIndex: number;
	shape: unknown;
	dates: number[];
}

/**
 * The retry key of each item (see keys.ts): its execution, its run, and which campaign it is.
 * Identical shapes are numbered in order of their dates, then of their items: the clock moves all
 * of a run's dates alike, so the order holds in a Retry.
 */
export function retryKeysOf(ctx: IExecuteFunctions, campaigns: CampaignIdentity[], target: string): Map<number, string> {
	const execution = executionIdentity(ctx);
	const keys = new Map<number, string>();
	if (runsAsTool(ctx)) {
		// A tool call: the model's arguments (and n8n's call id) are the item.
		for (const { itemIndex } of campaigns) {
			keys.set(itemIndex, retryKey({ target, execution, runIndex: null, itemIndex, origin: asSaved(ctx.getInputData()[itemIndex]?.json) }));
		}
		return keys;
	}
	const runIndex = Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0);
	const ordered = [...campaigns].sort((a, b) => compareDates(a.dates, b.dates) || a.itemIndex - b.itemIndex);
	const seen = new Map<string, number>();
	for (const { itemIndex, shape } of ordered) {
		const shapeText = JSON.stringify(asSaved(shape));
		const ordinal = seen.get(shapeText) ?? 0;
		seen.set(shapeText, ordinal + 1);
		keys.set(itemIndex, retryKey({ target, execution, runIndex, shape: asSaved(shape), ordinal }));
	}
	return keys;
}

function compareDates(a: number[], b: number[]): number {
	for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index] - b[index];
	return a.length - b.length;
}

/** What the execution created for a retry key, as written into its context. */
export interface CreatedRecord {
	campaignId: string;
	/** The campaign's dates (ms), in the order `CampaignIdentity.dates` gives them. */
	dates: number[];
	/** When it was created (ms). */
	at: number;
}

function createdRecords(ctx: IExecuteFunctions): Record<string, CreatedRecord> | undefined {
	const { context } = retriedContext(ctx);
	if (!context) return undefined;
	if (!context[CREATED_FIELD] || typeof context[CREATED_FIELD] !== 'object') context[CREATED_FIELD] = {};
	return context[CREATED_FIELD] as Record<string, CreatedRecord>;
}

/** Written once a campaign is created: a Retry of this execution names it, and checks its dates. */
export function rememberCreated(ctx: IExecuteFunctions, key: string, campaignId: unknown, dates: number[]): void {
	const records = createdRecords(ctx);
	if (records && campaignId !== undefined && campaignId !== null) records[key] = { campaignId: String(campaignId), dates, at: Date.now() };
}

/** What the execution this one retries created for `key`, when its context kept it. */
export function createdFor(ctx: IExecuteFunctions, key: string): CreatedRecord | undefined {
	const record = createdRecords(ctx)?.[key];
	return record && typeof record.campaignId === 'string' && Array.isArray(record.dates) ? record : undefined;
}

/** How far apart the dates of one evaluation of `$now` can be (each field reads the clock once). */
const SAME_MOVE_MS = 60_000;
/** A date taken from `$today` (or rounded to the hour or day) moves by up to a day however soon the Retry comes. */
const ROUNDING_MS = 24 * 3_600_000;

/**
 * Whether `dates` are `record`'s dates moved by the clock: every date by the same amount, forward,
 * by at most the time since it was created (and a day of rounding). Anything else is another campaign.
 */
export function movedByClock(record: CreatedRecord, dates: number[], nowMs = Date.now()): boolean {
	if (record.dates.length !== dates.length) return false;
	if (!dates.length) return true;
	const moves = dates.map((date, index) => date - record.dates[index]);
	const move = moves[0];
	if (moves.some((each) => Math.abs(each - move) > SAME_MOVE_MS)) return false;
	return move >= 0 && move <= Math.max(0, nowMs - record.at) + ROUNDING_MS;
}
