import { randomUUID } from 'crypto';
import type { IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';

import { retryKey, rowKey } from './keys';
import { runsAsTool } from '../helpers/aiTool';
import { isValidZone, unitsBegun, workflowZone } from '../helpers/dates';
import { INDONESIAN_ZONES } from '../helpers/indonesianZones';

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
 * What the execution sent is also written into that context, before each request
 * (`rememberSending`: which campaign of its shape, its dates, when they were read) and with the
 * campaign's id once created (`rememberCreated`). A Retry matches each campaign to what was sent
 * (dates the node's own fields compute from the clock: the same input item; other dates: the same
 * dates, else dates the clock moved), so a campaign of one shape removed or added before
 * the Retry moves no other's hold; it names the campaign it holds (`createdAs`).
 */

/** The field of n8n's execution context that holds this package's mark of the execution. */
export const EXECUTION_MARK = 'lbaAdsExecution';
/** The field that holds what this execution created, by retry key (see `rememberCreated`). */
export const CREATED_FIELD = 'lbaAdsCreated';
/** The field that lists the node runs that returned their items (see `rememberEnded`). */
export const ENDED_FIELD = 'lbaAdsEnded';
/** The ended runs kept: a loop of that many rounds (or sub-workflow calls) in one execution. */
const MAX_ENDED = 10_000;

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
 * How the execution the user would retry was first started (n8n writes the mode into the context
 * it establishes, `source`, and a Retry copies it): the caller's in a sub-execution. Without a
 * context (an engine that sets none), this run's own mode.
 */
export function startedAs(ctx: IExecuteFunctions): string {
	const source = retriedContext(ctx).context?.source;
	return typeof source === 'string' ? source : ctx.getMode();
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
	/** When its dates were read (ms): the item's preparation. */
	evaluatedAt?: number;
	/** Its input item (`rowKey`), kept when its dates read the clock: what a Retry finds it by. */
	row?: string;
}

/** Which campaign of the execution an item is: its retry key, and what the execution this one retries sent as it. */
export interface RetryIdentity {
	key: string;
	/** The execution's campaigns of its shape (none for a tool call), and its number among them. */
	group?: string;
	ordinal?: Ordinal;
	/** Its input item, when its dates read the clock (`CampaignIdentity.row`). */
	row?: string;
	/**
	 * The campaign the retried execution created that this one may be, when the node cannot tell
	 * (dates in whole minutes computed again before the node, which the clock's move explains):
	 * not sent, not held as created; both are named (create.operation.ts `unclearJson`).
	 */
	mayBe?: CreatedRecord;
}

/**
 * What the node knows of how its campaigns' dates were computed, which decides what a Retry may
 * take for a move of the clock:
 * - `fixed`: nothing moves them (the node's own fields do not read the clock, and a Retry of this
 *   execution reuses the saved output of the nodes before it): only the same dates are the same;
 * - `ownClock`: the node's own fields read the clock ($now, $today), so every Retry moves them:
 *   its own input item's record first, if the clock explains the move (a Retry gives the node the
 *   items it had; a child computed again gives the same rows unless they hold a value computed
 *   again); then the move the clock explains best (a $today series retried after midnight is each
 *   day its own, not the next day's record); unpaired in a Retry, numbered by the item (`r:`);
 * - `unknown`: data computed again before the node (a sub-execution, started anew by its caller's
 *   Retry): the same dates first, then a move of the clock.
 */
export type DatesOrigin = 'fixed' | 'ownClock' | 'unknown';

/** Whether the node runs in a sub-execution (its data before it is computed again by a caller's Retry). */
export function inSubExecution(ctx: IExecuteFunctions): boolean {
	return retriedContext(ctx).prefix.startsWith('caller ');
}

/** The top-level execution of this node run: the caller's in a sub-execution. */
function topExecution(ctx: IExecuteFunctions): string {
	const caller = (ctx as unknown as WithRunData & { runExecutionData?: { parentExecution?: { executionId?: string } } }).runExecutionData?.parentExecution;
	return String(caller?.executionId ?? ctx.getExecutionId());
}

/**
 * This run of the node, as its records name it: its own execution (the child's in a sub-execution),
 * the node, and its run index. Not without the node: once another LBA node of the execution has
 * returned its items, a Retry On Fail of this one would take its own first try's records for that
 * node's, and send them again.
 */
function nodeRun(ctx: IExecuteFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getExecutionId()}:${node.id ?? node.name}:${Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0)}`;
}

/**
 * The retry key of each item (see keys.ts): its execution, its run, and which campaign it is.
 * Identical shapes are numbered: each takes the number of what the retried execution sent with the
 * same dates, else with dates the clock moved (the pairs the clock explains best first); the others
 * take the numbers nothing sent holds, in order of their dates, then of their items.
 */
export function retryKeysOf(ctx: IExecuteFunctions, campaigns: CampaignIdentity[], target: string, datesOrigin: DatesOrigin = 'unknown'): Map<number, RetryIdentity> {
	const execution = executionIdentity(ctx);
	const keys = new Map<number, RetryIdentity>();
	if (runsAsTool(ctx)) {
		// A tool call: the model's arguments (and n8n's call id) are the item.
		for (const { itemIndex } of campaigns) {
			keys.set(itemIndex, { key: retryKey({ target, execution, runIndex: null, itemIndex, origin: asSaved(ctx.getInputData()[itemIndex]?.json) }) });
		}
		return keys;
	}
	// Not the run index: a loop's rounds shift when a row is added before a Retry (retry:v4).
	const zones = clockZones(ctx);
	// Once the context holds what this node sent (a Retry of an execution that sent, a later loop
	// round or call), a campaign nothing recorded is numbered by its own dates, not by a free place:
	// another Retry of the same execution (n8n offers one while none succeeded) may have sent other
	// campaigns under the free places, which this copy of the context never saw. Without a record (a
	// first run, or one whose context was saved before this node sent), the places.
	const sentByGroup = groupedRecords(ctx);
	const byOwnDates = sentByGroup.size > 0;
	const pairable = pairableRecord(ctx);
	// Numbered by the input item when nothing was paired: the node's own clock dates, at the top level
	// (a Retry gives the node the saved items; a child's rows may hold a value computed again).
	const byItem = datesOrigin === 'ownClock' && !inSubExecution(ctx);
	const groups = new Map<string, { shape: unknown; campaigns: CampaignIdentity[] }>();
	// The input item of each campaign whose dates read the clock: a grid rounded from $now moves each
	// slot onto the next one's dates, so only the item tells which campaign it is.
	// As n8n saves it (a Retry reads the items back as JSON); items alike in everything by their order.
	const input = datesOrigin === 'ownClock' ? ctx.getInputData() : [];
	const copies = new Map<string, number>();
	for (const campaign of datesOrigin === 'ownClock' ? [...campaigns].sort((a, b) => a.itemIndex - b.itemIndex) : []) {
		const json = input[campaign.itemIndex]?.json;
		if (json === undefined) continue;
		const row = rowKey(asSaved(json));
		const copy = (copies.get(row) ?? 0) + 1;
		copies.set(row, copy);
		campaign.row = copy > 1 ? `${row}#${copy}` : row;
	}
	for (const campaign of campaigns) {
		const shape = asSaved(campaign.shape);
		const group = retryKey({ group: { target, execution, shape } });
		if (!groups.has(group)) groups.set(group, { shape, campaigns: [] });
		groups.get(group)!.campaigns.push(campaign);
	}
	for (const [group, { shape, campaigns: same }] of groups) {
		const ordered = [...same].sort((a, b) => compareDates(a.dates, b.dates) || a.itemIndex - b.itemIndex);
		const unclear = new Map<CampaignIdentity, CreatedRecord>();
		for (const [campaign, ordinal] of numbered(ordered, sentByGroup.get(group) ?? [], zones, { pairable, byItem }, datesOrigin, unclear, byOwnDates)) {
			const mayBe = unclear.get(campaign);
			keys.set(campaign.itemIndex, { key: retryKey({ target, execution, shape, ordinal }), group, ordinal, ...(campaign.row ? { row: campaign.row } : {}), ...(mayBe ? { mayBe } : {}) });
		}
	}
	return keys;
}

/**
 * Which records a campaign of this run may be: not those of a run of the node that returned its
 * items (another call of a sub-workflow, an earlier loop round): that run is over, its campaigns
 * are its own. In this same execution; and, at the top level, in the execution this one retries
 * too, since n8n's Retry resumes at the node that failed and never runs an ended run again (a
 * caller's Retry runs the failed call's sub-workflow anew, whose node run may have ended before the
 * call failed, so there only this execution's count). Nor a record another LBA node wrote: its
 * campaigns are its own (two nodes fed the same rows). A run that failed, was stopped or crashed is
 * what a Retry (or Retry On Fail) runs again.
 */
function pairableRecord(ctx: IExecuteFunctions): (record: SentRecord) => boolean {
	const { context } = retriedContext(ctx);
	const ended = new Set(Array.isArray(context?.[ENDED_FIELD]) ? (context![ENDED_FIELD] as string[]) : []);
	const top = topExecution(ctx);
	const node = nodeOf(nodeRun(ctx));
	const topLevel = !inSubExecution(ctx);
	return (record) => {
		if (record.run !== undefined && ended.has(record.run) && (record.top === top || topLevel)) return false;
		// A record written before the node was part of its run's name has none: any node's.
		const writer = nodeOf(record.run);
		return writer === undefined || writer === node;
	};
}

/** The node of a node run's name (`execution:node:run`); none in a record of an earlier version (`execution:run`). */
function nodeOf(run: unknown): string | undefined {
	if (typeof run !== 'string') return undefined;
	const parts = run.split(':');
	return parts.length >= 3 ? parts.slice(1, -1).join(':') : undefined;
}

/** Written once the node's run has returned its items: its records are no later run's (`pairableRecord`). */
export function rememberEnded(ctx: IExecuteFunctions): void {
	const { context } = retriedContext(ctx);
	if (!context) return;
	const ended = Array.isArray(context[ENDED_FIELD]) ? (context[ENDED_FIELD] as string[]) : [];
	ended.push(nodeRun(ctx));
	context[ENDED_FIELD] = ended.slice(-MAX_ENDED);
}

/**
 * Each campaign of one shape (in order of dates) with its number: that of what was sent as it, else
 * a free one. Linear in the campaigns but for the pairs the clock can explain (a window of dates
 * around each explanation), so a run of thousands of one shape takes milliseconds.
 */
function numbered(
	ordered: CampaignIdentity[],
	sent: SentRecord[],
	zones: string[],
	{ pairable = () => true, byItem = false }: { pairable?: (record: SentRecord) => boolean; byItem?: boolean } = {},
	datesOrigin: DatesOrigin = 'unknown',
	unclear?: Map<CampaignIdentity, CreatedRecord>,
	byOwnDates = false,
): Map<CampaignIdentity, Ordinal> {
	const matched = new Map<CampaignIdentity, Ordinal>();
	const open = new Set([...sent].filter(pairable).sort((a, b) => compareOrdinals(a.ordinal!, b.ordinal!)));
	const take = (campaign: CampaignIdentity, record: SentRecord) => matched.set(campaign, record.ordinal!);
	// The same dates: the same campaign (fixed dates, or a Retry within the second). Not for dates
	// the node's own fields compute from the clock: a Retry moves every one of them, so the next
	// slot's record may hold this one's new dates ($today a day on: day 1's dates are day 2's).
	const byDates = new Map<string, CampaignIdentity[]>();
	for (const campaign of datesOrigin === 'ownClock' ? [] : ordered) {
		const dates = campaign.dates.join();
		if (!byDates.has(dates)) byDates.set(dates, []);
		byDates.get(dates)!.push(campaign);
	}
	for (const record of open) {
		const same = byDates.get(record.dates.join())?.shift();
		if (same) {
			take(same, record);
			open.delete(record);
		}
	}
	// Dates nothing moves: only the same dates are the same campaign.
	if (datesOrigin === 'fixed') open.clear();
	// Dates the clock moved: the pairs the clock explains best first (a morning and an evening
	// campaign a day on are each their own, however late the Retry).
	const left = ordered.filter((campaign) => !matched.has(campaign) && campaign.dates.length);
	const starts = left.map((campaign) => campaign.dates[0]);
	const nowMs = Math.max(0, ...left.map((campaign) => campaign.evaluatedAt ?? 0)) || Date.now();
	const begun = new Map<number, number[]>();
	const grids = datesOrigin === 'ownClock' ? OWN_GRIDS_MS : [];
	type Pair = { record: SentRecord; campaign: CampaignIdentity; off: number; move: number };
	const explained = (record: SentRecord, campaigns: Iterable<CampaignIdentity>, explanations: number[], pairs: Pair[], sameItem = false) => {
		for (const campaign of campaigns) {
			if (matched.has(campaign)) continue;
			// Its own item's dates less than a minute apart, either way: the seconds of the clock a time of
			// day set on $now keeps ($now.set({ hour: 9, minute: 0 }): 09:00:52 in the run, 09:00:05 in the Retry).
			const off = sameItem && withinAMinute(record, campaign.dates) ? 0 : moveError(record, campaign.dates, explanations);
			if (off <= CLOCK_TOLERANCE_MS) pairs.push({ record, campaign, off, move: campaign.dates[0] - record.dates[0] });
		}
	};
	/** The campaigns whose first date is within the tolerance of `record`'s moved by one of `explanations`. */
	function* near(record: SentRecord, explanations: number[]): Generator<CampaignIdentity> {
		for (const explanation of new Set(explanations)) {
			const target = record.dates[0] + explanation;
			for (let index = firstAtLeast(starts, target - CLOCK_TOLERANCE_MS); index < left.length && starts[index] <= target + CLOCK_TOLERANCE_MS; index++) yield left[index];
		}
	}
	// Equally well explained: a move beats no move at all (no unit begun "explains" a zero move: a
	// $today series retried after midnight is each day its own), and the smaller move the larger (an
	// hourly grid retried across midnight moved an hour, not a day onto the slot 23 hours later).
	const byMove = (a: { move: number }, b: { move: number }) => Number(a.move === 0) - Number(b.move === 0) || a.move - b.move;
	const assign = (pairs: Pair[]) => {
		for (const { record, campaign } of pairs.sort((a, b) => a.off - b.off || byMove(a, b))) {
			if (!open.has(record) || matched.has(campaign) || unclear?.has(campaign)) continue;
			open.delete(record);
			// Whole minutes from data computed again (a sheet's 09:00, or $today's): the same campaign
			// moved by the clock, or another one at the next slot? The node cannot tell: not held as
			// created (it gets a number of its own), named with the campaign it may be.
			if (datesOrigin === 'unknown' && record.campaignId !== undefined && campaign.dates.every((date) => date % 60_000 === 0) && unclear) {
				unclear.set(campaign, record as CreatedRecord);
				continue;
			}
			take(campaign, record);
		}
	};
	// Dates the node's own fields compute from the clock, from its input items: first each record
	// with its own item's campaign. A grid rounded from $now moves each slot onto the next one's dates
	// (a minute grid retried seconds after hh:mm), which the clock alone explains as well or better.
	const byRow = new Map<string, CampaignIdentity[]>();
	for (const campaign of datesOrigin === 'ownClock' ? left : []) {
		if (campaign.row === undefined) continue;
		if (!byRow.has(campaign.row)) byRow.set(campaign.row, []);
		byRow.get(campaign.row)!.push(campaign);
	}
	if (byRow.size) {
		const pairs: Pair[] = [];
		for (const record of open) {
			const same = typeof record.row === 'string' ? byRow.get(record.row) : undefined;
			if (same) explained(record, same, clockExplanations(record, nowMs, zones, begun, grids), pairs, true);
		}
		assign(pairs);
	}
	// Then the clock (a record whose item came out otherwise: a value computed again in it, the
	// output of a node before that holds back in the Retry what it sent in the run).
	const pairs: Pair[] = [];
	for (const record of open) {
		const explanations = clockExplanations(record, nowMs, zones, begun, grids);
		explained(record, near(record, explanations), explanations, pairs);
	}
	assign(pairs);
	// The others: in a Retry, whole-minute dates (a sheet's, a grid's) are their own number: the same
	// campaign if another Retry of this execution sent it with these dates, else a new one. Dates with
	// seconds ($now's) come out anew in every Retry, so they keep the numbers nothing sent holds, in
	// order, as in a first run: another Retry that sent the same rows numbered them the same.
	const taken = new Set<Ordinal>(sent.map((record) => record.ordinal!));
	let next = 0;
	for (const campaign of ordered) {
		if (matched.has(campaign)) continue;
		// Dates the node's own fields compute from the clock move in every Retry; its saved item does not.
		if (byOwnDates && byItem && campaign.row !== undefined) {
			let own: Ordinal = `r:${campaign.row}`;
			for (let repeat = 2; taken.has(own); repeat++) own = `r:${campaign.row}@${repeat}`;
			taken.add(own);
			matched.set(campaign, own);
			continue;
		}
		// Not the node's own clock dates (whole minutes from $today or startOf, or by chance): they move in
		// every Retry, so by their own dates a second Retry would not find what the first one sent.
		if (byOwnDates && datesOrigin !== 'ownClock' && campaign.dates.every((date) => date % 60_000 === 0)) {
			let own: Ordinal = `d:${campaign.dates.join()}`;
			for (let repeat = 2; taken.has(own); repeat++) own = `d:${campaign.dates.join()}#${repeat}`;
			taken.add(own);
			matched.set(campaign, own);
			continue;
		}
		while (taken.has(next)) next++;
		matched.set(campaign, next++);
	}
	return matched;
}

/** Numbers first, in order; then dates-numbers, as text. */
function compareOrdinals(a: Ordinal, b: Ordinal): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	if (typeof a === 'number') return -1;
	if (typeof b === 'number') return 1;
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index of `sorted` whose value is at least `value`. */
function firstAtLeast(sorted: number[], value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (sorted[middle] < value) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The zones whose midnight `$today` and rounding follow: the workflow's, UTC and Indonesia's three. */
function clockZones(ctx: IExecuteFunctions): string[] {
	// n8n's "DEFAULT" is the instance's zone, as in the send windows.
	const zone = typeof ctx.getTimezone === 'function' ? workflowZone(ctx).zone : undefined;
	return [...new Set([zone, 'UTC', ...Object.keys(INDONESIAN_ZONES)])].filter((zone): zone is string => typeof zone === 'string' && isValidZone(zone));
}

function compareDates(a: number[], b: number[]): number {
	for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index] - b[index];
	return a.length - b.length;
}

/** What the execution sent for a retry key, as written into its context (`rememberSending`, `rememberCreated`). */
export interface SentRecord {
	/** The top-level execution (the caller's in a sub-execution) and the run of the node that sent it (`pairableRecord`). */
	top?: string;
	run?: string;
	/** The campaign's id, once the service created it. */
	campaignId?: string;
	/** The campaign's dates (ms), in the order `CampaignIdentity.dates` gives them. */
	dates: number[];
	/** When its dates were read (ms); for a record written before 1.0.0's release, when it was created. */
	at: number;
	/** Its campaigns of one shape, and its number among them (`RetryIdentity`). */
	group?: string;
	ordinal?: Ordinal;
	/** Its input item, when its dates read the clock (`CampaignIdentity.row`). */
	row?: string;
}

/**
 * A campaign's number among those of its shape: in a first run, its place in order of dates; for a
 * campaign a Retry pairs with nothing sent, `d:` and its own dates (`numbered`).
 */
export type Ordinal = number | string;
/** What the execution created: a campaign with its id. */
export type CreatedRecord = SentRecord & { campaignId: string };

function sentRecords(ctx: IExecuteFunctions): Record<string, SentRecord> | undefined {
	const { context } = retriedContext(ctx);
	if (!context) return undefined;
	if (!context[CREATED_FIELD] || typeof context[CREATED_FIELD] !== 'object') context[CREATED_FIELD] = {};
	return context[CREATED_FIELD] as Record<string, SentRecord>;
}

/** The records of the context by their group of identical campaigns. */
function groupedRecords(ctx: IExecuteFunctions): Map<string, SentRecord[]> {
	const grouped = new Map<string, SentRecord[]>();
	for (const record of Object.values(sentRecords(ctx) ?? {})) {
		if (typeof record?.group !== 'string' || !['number', 'string'].includes(typeof record.ordinal) || !Array.isArray(record.dates)) continue;
		grouped.set(record.group, [...(grouped.get(record.group) ?? []), record]);
	}
	return grouped;
}

/** Written before a campaign's request: a Retry matches it to what was sent, whatever the answer. */
export function rememberSending(ctx: IExecuteFunctions, identity: RetryIdentity, dates: number[], evaluatedAt: number): void {
	const records = sentRecords(ctx);
	if (records) records[identity.key] = { dates, at: evaluatedAt, group: identity.group, ordinal: identity.ordinal, ...(identity.row ? { row: identity.row } : {}), top: topExecution(ctx), run: nodeRun(ctx) };
}

/** Added once a campaign is created (to what `rememberSending` wrote): a Retry of this execution names it. */
export function rememberCreated(ctx: IExecuteFunctions, key: string, campaignId: unknown): void {
	const sending = sentRecords(ctx)?.[key];
	if (sending && campaignId !== undefined && campaignId !== null) sending.campaignId = String(campaignId);
}

/** What the execution this one retries sent for `key` (created or not), when its context kept it. */
export function sentFor(ctx: IExecuteFunctions, key: string): SentRecord | undefined {
	const record = sentRecords(ctx)?.[key];
	return record && Array.isArray(record.dates) ? record : undefined;
}

/** What the execution this one retries created for `key`, when its context kept it. */
export function createdFor(ctx: IExecuteFunctions, key: string): CreatedRecord | undefined {
	const record = sentRecords(ctx)?.[key];
	return record && typeof record.campaignId === 'string' && Array.isArray(record.dates) ? (record as CreatedRecord) : undefined;
}

/** How far apart the dates of one evaluation of `$now` can be (each field reads the clock once). */
const SAME_MOVE_MS = 60_000;
/**
 * Grids a node's own fields may round $now to, besides the hour and the day: within them a move is
 * a whole number of steps, which can be up to a step from the time since (more than the tolerance
 * below for these two). Finer grids are within the tolerance of the time since.
 */
const OWN_GRIDS_MS = [15 * 60_000, 30 * 60_000];
/**
 * How far a move may be from what the clock explains: dates read in nodes before this one, whose
 * time to reach it differs between the run and the Retry (a sub-workflow's slow request).
 */
const CLOCK_TOLERANCE_MS = 10 * 60_000;

/**
 * The moves the clock explains since `record`'s dates were read: the time since, or, for dates
 * rounded to the hour or the day (`$now.startOf('hour')`, `$today`) or to one of `grids`, the hours,
 * days or steps (in the workflow's zone, UTC, WIB, WITA or WIT) begun meanwhile. `begun` keeps the latter by the second
 * the dates were read: a run reads thousands within seconds.
 */
function clockExplanations(record: SentRecord, nowMs: number, zones: string[], begun = new Map<number, number[]>(), grids: number[] = []): number[] {
	const second = Math.floor(record.at / 1000) * 1000;
	if (!begun.has(second)) begun.set(second, unitsBegun(second, nowMs, zones, grids));
	return [Math.max(0, nowMs - record.at), ...begun.get(second)!];
}

/** Whether every date of `dates` is `record`'s moved by one amount of less than a minute, either way. */
function withinAMinute(record: SentRecord, dates: number[]): boolean {
	if (record.dates.length !== dates.length || !dates.length) return false;
	const move = dates[0] - record.dates[0];
	return Math.abs(move) < SAME_MOVE_MS && dates.every((date, index) => Math.abs(date - record.dates[index] - move) < 1_000);
}

/** How far `dates` are from `record`'s moved by one of `explanations` (ms); Infinity when not every date moved forward by one amount. */
function moveError(record: SentRecord, dates: number[], explanations: number[]): number {
	if (record.dates.length !== dates.length) return Infinity;
	if (!dates.length) return 0;
	const move = dates[0] - record.dates[0];
	if (move < 0 || dates.some((date, index) => Math.abs(date - record.dates[index] - move) > SAME_MOVE_MS)) return Infinity;
	return Math.min(...explanations.map((explanation) => Math.abs(move - explanation)));
}

/** The rule `numbered` applies to each pair: `dates` are `record`'s moved by the clock, within the tolerance. */
export function movedByClock(record: SentRecord, dates: number[], nowMs = Date.now(), zones: string[] = ['UTC']): boolean {
	return moveError(record, dates, clockExplanations(record, nowMs, zones)) <= CLOCK_TOLERANCE_MS;
}
