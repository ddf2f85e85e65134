import { createHash, randomUUID } from 'crypto';
import type { DeduplicationItemTypes, ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { failureOutcome } from '../transport';
import type { SendGuard } from './runItems';

/**
 * "Never the same campaign twice, across executions": each campaign gets an idempotency key,
 * recorded in n8n's own processed-items store (the Remove Duplicates node's store, in n8n's
 * database, so it survives restarts and is shared by queue-mode workers) before its request
 * leaves, and released only when the answer proves nothing was created.
 *
 * The store keeps md5 hashes in one row per workflow and node, rewritten read-modify-write
 * without a lock, so concurrent calls can lose each other's entries. Hence: calls are batched
 * per wave of items (one to claim and one to confirm just before the wave is sent, one or two
 * to settle after),
 * and calls for one node are serialised within this n8n process. Across processes (queue-mode
 * workers) a claim is confirmed before anything is sent, and two claims of one key at the same
 * moment are told apart by a token written with each: see `confirmClaimed`. The settling call
 * also re-records every kept key, so a key another process overwrote in between is restored.
 */

/** Scope 'node': the history is this node's own row (see the README for why not 'workflow'). */
const SCOPE = 'node';
/** The history holds this many entries: a key and a "created" mark per campaign. */
export const HISTORY_MAX_CAMPAIGNS = 10_000;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_MAX_CAMPAIGNS * 2 };

export type ProtectionMode = 'content' | 'customKey' | 'off';

const CONTENT_PREFIX = 'content:';
const CUSTOM_PREFIX = 'custom:';
const CREATED_PREFIX = 'created:';
const TOKEN_PREFIX = 'claim:';

export const HOW_TO_RESEND =
	'To send it again on purpose, turn on Options > Resend for this item (an expression such as {{ $json.resend }} picks items), or run this same node once with the operation Forget Sent Campaigns.';

/** The key of a campaign body exactly as it would be sent: a hash of its canonical JSON. */
export function contentKey(body: unknown): string {
	return `${CONTENT_PREFIX}${createHash('sha256').update(canonicalJson(body)).digest('hex')}`;
}

/** The key a user gives (e.g. {{ $json.orderId }}), or undefined when it is empty. */
export function customKey(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim();
	return text === '' ? undefined : `${CUSTOM_PREFIX}${text}`;
}

/** A key as a user types it for forgetting: a full key from an output, or a custom key's own text. */
export function keyFromUser(value: unknown): string | undefined {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text.startsWith(CONTENT_PREFIX) || text.startsWith(CUSTOM_PREFIX)) return text;
	return customKey(text);
}

function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

const createdMark = (key: string) => `${CREATED_PREFIX}${key}`;
/** Written with a key when it is claimed, unique to that claim; dropped when the wave settles. */
const claimToken = (key: string) => `${TOKEN_PREFIX}${randomUUID()}:${key}`;

export interface Candidate {
	itemIndex: number;
	key: string;
	/** Send even if an earlier run recorded the key. */
	resend: boolean;
}

/** Calls of one node's history, one at a time within this process. */
const queues = new Map<string, Promise<void>>();

async function serialised<T>(ctx: IExecuteFunctions, task: () => Promise<T>): Promise<T> {
	const lock = `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id}`;
	const previous = queues.get(lock) ?? Promise.resolve();
	const run = previous.then(task, task);
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	queues.set(lock, tail);
	void tail.then(() => {
		if (queues.get(lock) === tail) queues.delete(lock);
	});
	return await run;
}

const unique = (values: string[]) => [...new Set(values)];
const asStrings = (values: DeduplicationItemTypes[]) => new Set(values.map(String));

/**
 * Duplicate protection for one run. Each wave's keys are recorded in one store call just
 * before its items are sent; `claim` says which items must not be sent: a key an earlier run
 * recorded, or the key of an earlier item of this run (which shares that item's fate).
 */
export function campaignGuard(ctx: IExecuteFunctions, candidates: Candidate[]): SendGuard {
	if (!ctx.getWorkflow().id) {
		throw new NodeOperationError(ctx.getNode(), 'Save the workflow before creating campaigns', {
			description: 'Duplicate protection keeps its history per saved workflow. Nothing was sent.',
		});
	}
	const byItem = new Map(candidates.map((candidate) => [candidate.itemIndex, candidate]));
	const firstItemOfKey = new Map<string, number>();
	/** Items held back, for repeats that follow them. */
	const skipped = new Map<number, IDataObject>();
	const claimedKeys = new Map<number, string>();
	/** The tokens of the wave being sent, dropped when it settles. */
	let waveTokens: string[] = [];

	return {
		async claim(itemIndexes) {
			const toClaim: Candidate[] = [];
			const repeats: Array<{ itemIndex: number; first: number; key: string }> = [];
			for (const itemIndex of itemIndexes) {
				const candidate = byItem.get(itemIndex);
				if (!candidate) continue;
				const first = firstItemOfKey.get(candidate.key);
				if (first !== undefined && !candidate.resend) {
					repeats.push({ itemIndex, first, key: candidate.key });
					continue;
				}
				if (first === undefined) firstItemOfKey.set(candidate.key, itemIndex);
				toClaim.push(candidate);
			}

			const created = new Set<string>();
			let claimMs = 0;
			// A key no run has recorded yet is written together with a token of this claim (see confirmClaimed).
			const tokens = new Map<string, string>();
			for (const candidate of toClaim) if (!candidate.resend) tokens.set(candidate.key, claimToken(candidate.key));
			const recordedBefore = await storeCall(ctx, NOTHING_SENT, async () => {
				if (toClaim.length === 0) return new Set<string>();
				const helpers = ctx.helpers;
				const started = Date.now();
				const { processed } = await recordFirstTime(ctx, () =>
					helpers.checkProcessedAndRecord(unique([...toClaim.map((c) => c.key), ...tokens.values()]), SCOPE, STORE_OPTIONS),
				);
				claimMs = Date.now() - started;
				const earlier = asStrings(processed);
				const askMarks = unique(toClaim.filter((c) => !c.resend && earlier.has(c.key)).map((c) => createdMark(c.key)));
				const staleMarks = unique(toClaim.filter((c) => c.resend && earlier.has(c.key)).map((c) => createdMark(c.key)));
				// The store can only answer "seen?" by recording: marks it did not have are taken out again.
				let wronglyRecorded: string[] = [];
				if (askMarks.length) {
					const marks = await helpers.checkProcessedAndRecord(askMarks, SCOPE, STORE_OPTIONS);
					for (const mark of marks.processed) created.add(String(mark));
					wronglyRecorded = marks.new.map(String);
				}
				const unusedTokens = [...tokens].filter(([key]) => earlier.has(key)).map(([, token]) => token);
				const removals = unique([...wronglyRecorded, ...staleMarks, ...unusedTokens]);
				if (removals.length) await helpers.removeProcessed(removals, SCOPE, STORE_OPTIONS);
				return earlier;
			});

			const heldBack = new Map<number, IDataObject>();
			const claimedNow: Candidate[] = [];
			for (const candidate of toClaim) {
				if (candidate.resend || !recordedBefore.has(candidate.key)) {
					claimedNow.push(candidate);
					continue;
				}
				const wasCreated = created.has(createdMark(candidate.key));
				heldBack.set(candidate.itemIndex, {
					skipped: true,
					reason: wasCreated
						? 'Created in an earlier run; not sent again'
						: 'May have been created in an earlier run (its answer was lost, or that run is still going); not sent again',
					idempotencyKey: candidate.key,
					earlierOutcome: wasCreated ? 'created' : 'unknown',
					howToResend: HOW_TO_RESEND,
				});
			}
			const firstClaims = new Map(claimedNow.filter((c) => !c.resend).map((c) => [c.key, tokens.get(c.key)!]));
			const resent = unique(claimedNow.filter((c) => c.resend && !firstClaims.has(c.key)).map((c) => c.key));
			waveTokens = [...firstClaims.values()];
			const takenByOthers = claimedNow.length ? await confirmClaimed(ctx, firstClaims, resent, claimMs) : new Set<string>();
			for (const candidate of claimedNow) {
				if (!takenByOthers.has(candidate.key) || candidate.resend) {
					claimedKeys.set(candidate.itemIndex, candidate.key);
					continue;
				}
				heldBack.set(candidate.itemIndex, {
					skipped: true,
					reason: 'Being sent by another execution of this workflow that started at the same moment (on another n8n worker); not sent here',
					idempotencyKey: candidate.key,
					earlierOutcome: 'unknown',
					howToResend: HOW_TO_RESEND,
				});
			}
			for (const [itemIndex, json] of heldBack) skipped.set(itemIndex, json);
			// A repeat shares its first item's fate: held back with it, or sent once as that item.
			for (const { itemIndex, first, key } of repeats) {
				const firstSkipped = skipped.get(first);
				const json = firstSkipped
					? { ...firstSkipped, sameAsItem: first }
					: {
							skipped: true,
							reason: `Same campaign as item ${first} of this run; sent once, as item ${first}`,
							idempotencyKey: key,
							earlierOutcome: 'sameRun',
							sameAsItem: first,
						};
				heldBack.set(itemIndex, json);
			}
			return heldBack;
		},

		async settle(results) {
			const keep = new Set<string>();
			const marks = new Set<string>();
			const release = new Set<string>();
			for (const result of results) {
				const key = claimedKeys.get(result.itemIndex);
				if (key === undefined) continue;
				if (result.status === 'done') {
					keep.add(key);
					marks.add(createdMark(key));
				} else if (result.status === 'failed' && failureOutcome(result.error) === 'unknown') {
					keep.add(key);
				} else {
					release.add(key);
				}
			}
			for (const key of keep) release.delete(key); // another item of this run with the key may have created it
			await storeCall(ctx, SENT_NOT_RECORDED, async () => {
				// Recording the kept keys again restores any that another process's write dropped meanwhile.
				if (keep.size) await ctx.helpers.checkProcessedAndRecord([...marks, ...keep], SCOPE, STORE_OPTIONS);
				const forget = [...[...release].flatMap((key) => [key, createdMark(key)]), ...waveTokens];
				waveTokens = [];
				if (forget.length) await ctx.helpers.removeProcessed(forget, SCOPE, STORE_OPTIONS);
			});
		},
	};
}

/** How long to wait before confirming a claim: a few store calls' time, within these bounds. */
const CONFIRM_WAIT_MIN_MS = 25;
const CONFIRM_WAIT_MAX_MS = 1000;
const CONFIRM_WAIT_PER_CALL = 4;
const CONFIRM_ROUNDS = 5;

/**
 * Runs between a wave's claim and its first request; returns the keys another execution won.
 *
 * 1. Another process (a queue-mode worker) whose store call read the row just before our claim
 *    wrote it writes the row back a moment later without our entries: our claim is silently
 *    lost, and if n8n then died mid-wave a re-run would send those campaigns again.
 * 2. Two executions that claim the same key at the same moment on two workers both read the
 *    row without it, and both would send.
 *
 * So each first claim of a key is written together with a token unique to it, and after a wait
 * longer than any store call's read-to-write gap (a few of our own calls' time), we ask again:
 * - our token is there: the claim holds (any later claimant reads the key and holds back);
 * - our token is gone but the key is there: a rival claimant of the key wrote over our claim,
 *   and its write is the one that stays, so it sends and we hold back (exactly one wins);
 * - both are gone: an unrelated write dropped them; asking recorded them again, so wait and ask
 *   again. Keys sent again on purpose (Resend) have no token and are only recorded again.
 */
async function confirmClaimed(ctx: IExecuteFunctions, firstClaims: Map<string, string>, resent: string[], claimMs: number): Promise<Set<string>> {
	const takenByOthers = new Set<string>();
	let pending = new Map(firstClaims);
	let pendingResent = resent;
	let callMs = claimMs;
	for (let round = 1; round <= CONFIRM_ROUNDS && (pending.size || pendingResent.length); round++) {
		await sleep(Math.min(CONFIRM_WAIT_MAX_MS, Math.max(CONFIRM_WAIT_MIN_MS, CONFIRM_WAIT_PER_CALL * callMs)));
		const asked = unique([...pending.keys(), ...pending.values(), ...pendingResent]);
		const started = Date.now();
		const { processed } = await storeCall(ctx, NOTHING_SENT, async () => await ctx.helpers.checkProcessedAndRecord(asked, SCOPE, STORE_OPTIONS));
		callMs = Date.now() - started;
		const present = asStrings(processed);
		const next = new Map<string, string>();
		for (const [key, token] of pending) {
			if (present.has(token) && present.has(key)) continue;
			if (!present.has(token) && present.has(key)) takenByOthers.add(key);
			else next.set(key, token);
		}
		pending = next;
		pendingResent = pendingResent.filter((key) => !present.has(key));
	}
	if (!pending.size && !pendingResent.length) return takenByOthers;
	const unsettled = [...pending.keys(), ...pendingResent];
	await storeCall(ctx, NOTHING_SENT, async () => await ctx.helpers.removeProcessed([...unsettled, ...firstClaims.values()], SCOPE, STORE_OPTIONS));
	throw new NodeOperationError(
		ctx.getNode(),
		`Duplicate protection could not keep its record of ${unsettled.length} campaign(s) in n8n's history: other n8n processes kept overwriting it (${CONFIRM_ROUNDS} tries)`,
		{ description: 'Nothing was sent. Run the workflow again; if this persists, fewer executions of this workflow at once on different workers avoids it.' },
	);
}

/** Forgets the given keys (with their "created" marks), or all of this node's history; returns the entries before. */
export async function forgetCampaigns(ctx: IExecuteFunctions, keys: string[] | 'all'): Promise<number> {
	return await storeCall(ctx, 'Nothing was forgotten.', async () => {
		const before = await ctx.helpers.getProcessedDataCount(SCOPE, STORE_OPTIONS);
		if (keys === 'all') await ctx.helpers.clearAllProcessedItems(SCOPE, STORE_OPTIONS);
		else if (keys.length) await ctx.helpers.removeProcessed(unique(keys.flatMap((key) => [key, createdMark(key)])), SCOPE, STORE_OPTIONS);
		return before;
	});
}

/**
 * A node's first record inserts its row; when another process inserted it meanwhile, the
 * insert fails on the row's unique key and wrote nothing, so asking again is safe.
 */
async function recordFirstTime<T>(ctx: IExecuteFunctions, call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch (error) {
		if (!/unique constraint/i.test(String((error as Error).message))) throw new NodeOperationError(ctx.getNode(), error as Error);
		return await call();
	}
}

const NOTHING_SENT =
	"Nothing was sent. The history lives in n8n's database (the store of the Remove Duplicates node); check the database, or set Duplicate Protection to Off to send without it.";
const SENT_NOT_RECORDED =
	'The campaigns of this run were sent, but not all outcomes were recorded: a re-run reports them as "may have been created" and does not send them.';

/** One serialised use of the store; its failures become one clear node error. */
async function storeCall<T>(ctx: IExecuteFunctions, description: string, task: () => Promise<T>): Promise<T> {
	try {
		return await serialised(ctx, task);
	} catch (error) {
		const reason = (error as Error).message ?? String(error);
		throw new NodeOperationError(ctx.getNode(), `Duplicate protection could not use n8n's history of sent campaigns: ${reason}`, {
			description,
		});
	}
}
