/**
 * n8n's processed-items store as n8n 2.40.7 runs it (`n8n/dist/deduplication/deduplication-helper.js`),
 * call by call, for the modes duplicate protection uses ('entries' with maxEntries, 'latestIncrementalKey'):
 * every call is a sequence of database statements (`findOne`; change in memory; `update` of the
 * whole row, or `insert` on the primary key (workflowId, context), whose loser gets a unique-key
 * error; `delete` is blind). Each statement is one atomic step at the database, reached after a
 * latency and answered after another, both drawn per statement by `latency`.
 * `store.differential.test.ts` runs the same call sequences against n8n's own helper on SQLite.
 */
import { createHash } from 'node:crypto';

import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDeduplicationOutput } from 'n8n-workflow';

import type { SimProcessState, VirtualClock } from './clock';

export interface RowValue {
	mode: string;
	data: string[] | DeduplicationItemTypes;
}

export type StatementKind = 'findOne' | 'insert' | 'update' | 'delete';

/** One statement as the database ran it: what the invariants read. */
export interface Executed {
	time: number;
	sentAt: number;
	process: number;
	kind: StatementKind;
	row: string;
	/** The row's value after the statement (undefined: no row). */
	after: RowValue | undefined;
	before: RowValue | undefined;
	failed?: boolean;
	/** What the source said at the time the statement was sent (the simulation: the lock task it belongs to). */
	sentBy?: unknown;
}

/** Where a statement goes: a process, or none for a direct caller (the differential test). */
export interface StatementSource {
	process?: SimProcessState;
	/** The latency to the database and back, drawn per statement. */
	latency(kind: StatementKind): { toDatabase: number; back: number };
	/** Asked when a statement is sent: who sends it (kept in Executed.sentBy). */
	sender?(): unknown;
	/** Told of every statement the database ran for this source. */
	onExecuted?(executed: Executed): void;
}

export const INCOMPATIBLE_MODE =
	'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.';
/** SQLite's words; PostgreSQL says 'duplicate key value violates unique constraint'. */
export const UNIQUE_VIOLATION = 'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.context, processed_data.workflowId';

const LATEST_MODES = ['latestIncrementalKey', 'latestDate'];

export class StoreModel {
	readonly rows = new Map<string, RowValue>();
	readonly executed: Executed[] = [];
	statements = 0;

	constructor(private readonly clock: VirtualClock) {}

	static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	static context(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		if (scope === 'node') {
			if (!contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
			return `n:${contextData.node.id}`;
		}
		return '';
	}

	static rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		return `${contextData.workflow.id}|${StoreModel.context(scope, contextData)}`;
	}

	/** One statement: runs atomically when it reaches the database; its answer (or error) comes back later. */
	private statement<T>(source: StatementSource, kind: StatementKind, row: string, run: () => T): Promise<T> {
		const { toDatabase, back } = source.latency(kind);
		const sentAt = this.clock.now;
		const sentBy = source.sender?.();
		return new Promise<T>((resolve, reject) => {
			this.clock.at(sentAt + toDatabase, undefined, 'io', () => {
				this.statements++;
				const before = this.rows.get(row);
				let answer: { ok: true; value: T } | { ok: false; error: unknown };
				try {
					answer = { ok: true, value: run() };
				} catch (error) {
					answer = { ok: false, error };
				}
				const executed: Executed = { time: this.clock.now, sentAt, process: source.process?.id ?? -1, kind, row, before, after: this.rows.get(row), failed: !answer.ok, sentBy };
				this.executed.push(executed);
				source.onExecuted?.(executed);
				this.clock.at(this.clock.now + back, source.process, 'io', () => (answer.ok ? resolve(answer.value) : reject(answer.error)));
			});
		});
	}

	private findOne(source: StatementSource, row: string): Promise<RowValue | undefined> {
		return this.statement(source, 'findOne', row, () => {
			const value = this.rows.get(row);
			return value && copy(value);
		});
	}

	private insert(source: StatementSource, row: string, value: RowValue): Promise<void> {
		const stored = copy(value);
		return this.statement(source, 'insert', row, () => {
			if (this.rows.has(row)) throw new Error(UNIQUE_VIOLATION);
			this.rows.set(row, stored);
		});
	}

	/** `update({ workflowId, context }, row)`: a row deleted meanwhile stays deleted. */
	private update(source: StatementSource, row: string, value: RowValue): Promise<void> {
		const stored = copy(value);
		return this.statement(source, 'update', row, () => {
			if (this.rows.has(row)) this.rows.set(row, stored);
		});
	}

	private delete(source: StatementSource, row: string): Promise<void> {
		return this.statement(source, 'delete', row, () => void this.rows.delete(row));
	}

	async checkProcessedAndRecord(
		source: StatementSource,
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const row = StoreModel.rowKey(scope, contextData);
		const found = await this.findOne(source, row);
		if (found && found.mode !== options.mode) throw new Error(INCOMPATIBLE_MODE);
		if (LATEST_MODES.includes(options.mode)) return await this.latest(source, row, items, options, found);
		return await this.hashed(source, row, items, options, found);
	}

	/** handleLatestModes: the row keeps the largest value; a value is new only above what was read. */
	private async latest(
		source: StatementSource,
		row: string,
		items: DeduplicationItemTypes[],
		options: ICheckProcessedOptions,
		found: RowValue | undefined,
	): Promise<IDeduplicationOutput> {
		const sorted = items.slice().sort((a, b) => compareLatest(a, b));
		if (!found) {
			await this.insert(source, row, { mode: options.mode, data: sorted.pop()! });
			return { new: items, processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		if (Array.isArray(found.data)) return output;
		let largest = found.data;
		for (const item of sorted) {
			if (compareLatest(item, found.data) === 1) {
				output.new.push(item);
				if (compareLatest(item, largest) === 1) largest = item;
			} else output.processed.push(item);
		}
		await this.update(source, row, { mode: found.mode, data: largest });
		return output;
	}

	/** handleHashedItems: md5 hashes appended; maxEntries drops the oldest. */
	private async hashed(
		source: StatementSource,
		row: string,
		items: DeduplicationItemTypes[],
		options: ICheckProcessedOptions,
		found: RowValue | undefined,
	): Promise<IDeduplicationOutput> {
		const hashes = items.map((item) => StoreModel.hash(item));
		if (!found) {
			if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
			await this.insert(source, row, { mode: options.mode, data: hashes });
			return { new: items, processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		if (!Array.isArray(found.data)) return output;
		const data = found.data;
		const seen = new Set(data);
		hashes.forEach((hash, index) => {
			if (seen.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				data.push(hash);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		await this.update(source, row, found);
		return output;
	}

	async removeProcessed(
		source: StatementSource,
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		if (LATEST_MODES.includes(options.mode)) throw new Error('Removing processed data is not possible in mode "latest"');
		const row = StoreModel.rowKey(scope, contextData);
		const found = await this.findOne(source, row);
		if (!found || !Array.isArray(found.data)) return;
		const data = found.data;
		for (const hash of items.map((item) => StoreModel.hash(item))) {
			const index = data.indexOf(hash);
			if (index !== -1) data.splice(index, 1);
		}
		await this.update(source, row, found);
	}

	async clearAllProcessedItems(source: StatementSource, scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		await this.delete(source, StoreModel.rowKey(scope, contextData));
	}

	async getProcessedDataCount(
		source: StatementSource,
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		const found = await this.findOne(source, StoreModel.rowKey(scope, contextData));
		return options.mode === 'entries' && found && Array.isArray(found.data) ? found.data.length : 0;
	}
}

/** DeduplicationHelper.compareValues for 'latestIncrementalKey'. */
function compareLatest(a: DeduplicationItemTypes, b: DeduplicationItemTypes): number {
	const x = Number(a);
	const y = Number(b);
	if (isNaN(x) || isNaN(y)) throw new Error('Invalid value. Only numbers are supported in mode "latestIncrementalKey"');
	return x === y ? 0 : x > y ? 1 : -1;
}

/** What the database keeps and returns: a copy (a row's data is an array of strings, or one value). */
function copy(value: RowValue): RowValue {
	return { mode: value.mode, data: Array.isArray(value.data) ? value.data.slice() : value.data };
}
