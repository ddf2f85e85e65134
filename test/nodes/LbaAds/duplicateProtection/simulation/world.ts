/**
 * The simulated world: n8n processes (each with its own copy of duplicate protection's modules),
 * the LBA service that counts creations, and a run of Create Campaign driven the way the engine
 * (runItems.ts) drives the guard: waves claimed, sent, settled.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ApiRequestError } from '../../../../../nodes/shared/transport';
import type { SentResult } from '../../../../../nodes/LbaAds/actions/engine/operation';
import type { SimProcessState, VirtualClock } from './clock';
import { loadForProcess } from './modules';
import type { Random } from './random';
import type { StatementKind, StatementSource, StoreModel } from './store';

type GuardModule = typeof import('../../../../../nodes/LbaAds/duplicateProtection/campaignGuard');
type LockModule = typeof import('../../../../../nodes/LbaAds/duplicateProtection/historyLock');

/** The lock task the running code is in (promise continuations carry it). */
export const taskContext = new AsyncLocalStorage<LockTask>();

export const WORKFLOW_ID = 'wf-sim';
const NODE = { id: 'lba', name: 'LBA Ads', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} };

/** A task under the history lock, as the lock ran it: the invariants read these. */
export interface LockTask {
	process: number;
	run: number;
	started: number;
	ended?: number;
}

export interface ItemPlan {
	/** The campaign's key: the service counts creations by it (a Retry whose `$now` moved the dates sends another campaign). */
	key: string;
	retryKey: string;
	resend: boolean;
}

export type ItemEnd =
	| { kind: 'created' }
	| { kind: 'failed'; outcome: 'refused' | 'unknown' }
	/** The item's output as the guard gave it (a repeat's is completed once its first item has ended). */
	| { kind: 'skipped'; json: IDataObject }
	| { kind: 'error'; message: string };

export interface RunRecord {
	id: number;
	process: number;
	kind: 'create' | 'forget';
	items: ItemPlan[];
	forgets?: string[] | 'all';
	started: number;
	ended?: number;
	ends: Map<number, ItemEnd>;
	hints: string[];
	/** When each claimed item's claim and settle calls ended (virtual ms). */
	claimedAt: Map<number, number>;
	settleStartedAt: Map<number, number>;
	crashed?: boolean;
}

export interface ServiceOutcomes {
	refused: number;
	unknownCreated: number;
	unknownNotCreated: number;
}

/** The LBA service: every creation it made, in order. */
export class Service {
	readonly creations: Array<{ key: string; retryKey: string; time: number; run: number; resend: boolean }> = [];

	constructor(
		private readonly clock: VirtualClock,
		private readonly random: Random,
		private readonly outcomes: ServiceOutcomes,
		private readonly latency: () => number,
	) {}

	async create(owner: SimProcessState, run: number, item: ItemPlan): Promise<void> {
		await this.clock.sleep(owner, this.latency());
		const draw = this.random.next();
		const { refused, unknownCreated, unknownNotCreated } = this.outcomes;
		if (draw < refused) throw serviceError('refused');
		const created = draw >= refused + unknownNotCreated;
		if (created) this.creations.push({ key: item.key, retryKey: item.retryKey, time: this.clock.now, run, resend: item.resend });
		await this.clock.sleep(owner, this.latency());
		if (draw >= 1 - unknownCreated || !created) throw serviceError('unknown');
	}
}

function serviceError(outcome: 'refused' | 'unknown'): Error {
	// The transport's error, as a 400 (refused) or a lost answer (unknown) makes it.
	const error = Object.create(ApiRequestError.prototype) as ApiRequestError;
	Object.assign(error, { message: outcome === 'refused' ? 'Bad request' : 'The connection was reset', failureClass: { outcome } });
	return error;
}

export class SimProcess implements SimProcessState {
	pausedUntil = 0;
	killed = false;
	readonly guard: GuardModule;
	readonly lock: LockModule;

	constructor(
		readonly id: number,
		private readonly clock: VirtualClock,
		readonly random: Random,
		readonly tasks: LockTask[],
		configure: (guard: GuardModule, lock: LockModule) => void,
	) {
		const globals = { now: () => clock.now, random: () => random.next(), sleep: (ms: number) => clock.sleep(this, ms) };
		let lock!: LockModule;
		this.guard = loadForProcess<GuardModule>('campaignGuard.ts', globals, (file, exports) => {
			if (!file.endsWith('/historyLock.ts')) return exports;
			lock = exports as unknown as LockModule;
			return { ...exports, withHistoryLock: this.instrumented(lock.withHistoryLock) };
		});
		this.lock = lock;
		configure(this.guard, lock);
	}

	/** The lock as the guard sees it, with each task's time inside recorded. */
	private instrumented(withHistoryLock: LockModule['withHistoryLock']): LockModule['withHistoryLock'] {
		return async (ctx, task) =>
			await withHistoryLock(ctx, async (held) => {
				const record: LockTask = { process: this.id, run: (ctx as unknown as { runId: number }).runId, started: this.clock.now };
				this.tasks.push(record);
				try {
					return await taskContext.run(record, async () => await task(held));
				} finally {
					record.ended = this.clock.now;
				}
			});
	}

	context(store: StoreModel, source: StatementSource, run: RunRecord): IExecuteFunctions {
		const contextData = { workflow: { id: WORKFLOW_ID }, node: NODE } as never;
		return {
			runId: run.id,
			getWorkflow: () => ({ id: WORKFLOW_ID }),
			getNode: () => NODE,
			helpers: {
				checkProcessedAndRecord: (items: never, scope: never, options: never) => store.checkProcessedAndRecord(source, items, scope, contextData, options),
				removeProcessed: (items: never, scope: never, options: never) => store.removeProcessed(source, items, scope, contextData, options),
				clearAllProcessedItems: (scope: never) => store.clearAllProcessedItems(source, scope, contextData),
				getProcessedDataCount: (scope: never, options: never) => store.getProcessedDataCount(source, scope, contextData, options),
			},
			addExecutionHints: (...hints: Array<{ message: string }>) => run.hints.push(...hints.map((hint) => hint.message)),
		} as unknown as IExecuteFunctions;
	}
}

/** A statement source for one process: its latencies, drawn per statement. */
export type LatencyOf = (process: SimProcess, kind: StatementKind) => { toDatabase: number; back: number };

/** Create Campaign's run as runItems drives the guard: waves claimed, sent at once, settled. */
export async function createRun(process: SimProcess, ctx: IExecuteFunctions, run: RunRecord, service: Service, waveSize: number, now: () => number): Promise<void> {
	const candidates = run.items.map((item, itemIndex) => ({ itemIndex, key: item.key, retryKey: item.retryKey, resend: item.resend }));
	const guard = process.guard.campaignGuard(ctx, candidates);
	for (let start = 0; start < run.items.length; start += waveSize) {
		const wave = candidates.slice(start, start + waveSize).map(({ itemIndex }) => itemIndex);
		let skipped: Map<number, IDataObject>;
		try {
			skipped = await guard.claim(wave);
		} catch (error) {
			for (let itemIndex = start; itemIndex < run.items.length; itemIndex++) run.ends.set(itemIndex, { kind: 'error', message: (error as Error).message });
			return;
		}
		for (const [itemIndex, json] of skipped) run.ends.set(itemIndex, { kind: 'skipped', json });
		const toSend = wave.filter((itemIndex) => !skipped.has(itemIndex));
		for (const itemIndex of toSend) run.claimedAt.set(itemIndex, now());
		const results: SentResult[] = await Promise.all(
			toSend.map(async (itemIndex): Promise<SentResult> => {
				try {
					await service.create(process, run.id, run.items[itemIndex]);
					run.ends.set(itemIndex, { kind: 'created' });
					return { itemIndex, status: 'done' };
				} catch (error) {
					run.ends.set(itemIndex, { kind: 'failed', outcome: (error as { failureClass: { outcome: 'refused' | 'unknown' } }).failureClass.outcome });
					return { itemIndex, status: 'failed', error };
				}
			}),
		);
		for (const itemIndex of toSend) run.settleStartedAt.set(itemIndex, now());
		try {
			await guard.settle(results);
		} catch (error) {
			run.hints.push(`settle failed: ${(error as Error).message}`);
		}
	}
}
