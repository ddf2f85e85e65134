/**
 * n8n's processed-items store (the data-deduplication helpers on `this.helpers`), in memory.
 *
 * Registered the way n8n registers its own: `DataDeduplicationService.init(deduplicator)`
 * from n8n-core. It copies what n8n 2.40.7 does in `n8n/dist/deduplication/deduplication-helper.js`
 * for modes 'entries' and 'latestIncrementalKey': one row per workflow and context ('' for scope
 * workflow, `n:<node id>` for scope node). In 'entries' the row holds an array of md5/base64
 * hashes; `maxEntries` drops the oldest; a value given twice in one call is pushed twice;
 * removeProcessed drops one copy. In 'latestIncrementalKey' it holds the largest number given,
 * and a number is new only above it. A row kept in another mode fails the call. Every call
 * reads the row, awaits, then writes it back whole, with no lock; a missing row is inserted, and
 * a second insert of one row fails on its unique key. `rmwDelayMs` widens the read-write gap,
 * so tests can show what concurrent calls do to each other.
 */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

interface Row {
	mode: string;
	data: string[] | number;
}

const INCOMPATIBLE = 'Deduplication Failed: Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter.';

export class InMemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, Row>();
	/** Store calls made, by kind (what a test counts to see batching). */
	readonly calls = { checkProcessedAndRecord: 0, removeProcessed: 0, clearAllProcessedItems: 0, getProcessedDataCount: 0 };
	/** Of those, the calls on a workflow's shared row (scope 'workflow'): duplicate protection's lock. */
	readonly workflowRowCalls = { checkProcessedAndRecord: 0, clearAllProcessedItems: 0 };
	/** Time between a call's read and its write, as a database round trip would take. */
	rmwDelayMs = 0;
	/** While set, a DELETE of a workflow's row (the lock's release) lands this much later: a stalled connection. */
	workflowRowDeleteDelayMs = 0;
	/** While set, this many more calls on a node's row succeed, then every one fails: a database that refuses writes. */
	nodeRowCallsBeforeFailure: number | undefined;
	/** While set, calls on a node's row wait for it after their read: a database that does not answer. */
	nodeRowsBlockedUntil: Promise<void> | undefined;
	/** The same for a workflow's row (the lock's). */
	workflowRowsBlockedUntil: Promise<void> | undefined;

	static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		if (!contextData.workflow.id) throw new Error('workflow id missing');
		if (scope === 'node' && !contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
		return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node!.id}` : ''}`;
	}

	/** The hashes a node's (or a workflow's) row holds, for assertions. */
	entries(workflowId: string, nodeId?: string): string[] {
		const data = this.rows.get(`${workflowId}|${nodeId === undefined ? '' : `n:${nodeId}`}`)?.data;
		return Array.isArray(data) ? [...data] : [];
	}

	reset() {
		this.rows.clear();
		this.nodeRowsBlockedUntil = undefined;
		this.workflowRowsBlockedUntil = undefined;
		this.nodeRowCallsBeforeFailure = undefined;
		this.workflowRowDeleteDelayMs = 0;
		for (const key of Object.keys(this.calls) as Array<keyof typeof this.calls>) this.calls[key] = 0;
		this.workflowRowCalls.checkProcessedAndRecord = 0;
		this.workflowRowCalls.clearAllProcessedItems = 0;
	}

	private async read(key: string, options: ICheckProcessedOptions): Promise<Row | undefined> {
		if (options.mode !== 'entries' && options.mode !== 'latestIncrementalKey') throw new Error(`the harness store does not support mode ${options.mode}`);
		if (key.includes('|n:') && this.nodeRowCallsBeforeFailure !== undefined && this.nodeRowCallsBeforeFailure-- <= 0) {
			throw new Error('permission denied for table processed_data');
		}
		const row = this.rows.get(key);
		if (row && row.mode !== options.mode) throw new Error(INCOMPATIBLE);
		const copy = row ? { mode: row.mode, data: Array.isArray(row.data) ? [...row.data] : row.data } : undefined;
		await new Promise((resolve) => (this.rmwDelayMs > 0 ? setTimeout(resolve, this.rmwDelayMs) : setImmediate(resolve)));
		if (this.nodeRowsBlockedUntil && key.includes('|n:')) await this.nodeRowsBlockedUntil;
		if (this.workflowRowsBlockedUntil && key.endsWith('|')) await this.workflowRowsBlockedUntil;
		return copy;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls.checkProcessedAndRecord++;
		if (scope === 'workflow') this.workflowRowCalls.checkProcessedAndRecord++;
		const key = this.rowKey(scope, contextData);
		const row = await this.read(key, options);
		if (options.mode === 'latestIncrementalKey') return this.recordLatest(key, row, items, options);
		const hashes = items.map((item) => InMemoryDeduplicator.hash(item));
		if (!row) {
			if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
			if (this.rows.has(key)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
			this.rows.set(key, { mode: options.mode, data: hashes });
			return { new: items, processed: [] };
		}
		const data = row.data as string[];
		const seen = new Set(data);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashes.forEach((hash, index) => {
			if (seen.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				data.push(hash);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		this.write(key, row);
		return output;
	}

	/** n8n's handleLatestModes: the row keeps the largest number; a number is new only above it. */
	private recordLatest(key: string, row: Row | undefined, items: DeduplicationItemTypes[], options: ICheckProcessedOptions): IDeduplicationOutput {
		const numbers = items.map(Number);
		if (!row) {
			if (this.rows.has(key)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
			this.rows.set(key, { mode: options.mode, data: Math.max(...numbers) });
			return { new: items, processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		let largest = row.data as number;
		numbers.forEach((value, index) => {
			if (value > (row.data as number)) {
				output.new.push(items[index]);
				largest = Math.max(largest, value);
			} else output.processed.push(items[index]);
		});
		this.write(key, { mode: row.mode, data: largest });
		return output;
	}

	/** n8n's `update` of a row by its key: a row deleted meanwhile stays deleted. */
	private write(key: string, row: Row) {
		if (this.rows.has(key)) this.rows.set(key, row);
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.calls.removeProcessed++;
		const key = this.rowKey(scope, contextData);
		const row = await this.read(key, options);
		if (!row || !Array.isArray(row.data)) return;
		for (const hash of items.map((item) => InMemoryDeduplicator.hash(item))) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
		this.write(key, row);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.calls.clearAllProcessedItems++;
		if (scope === 'workflow') this.workflowRowCalls.clearAllProcessedItems++;
		const key = this.rowKey(scope, contextData);
		if (scope === 'workflow' && this.workflowRowDeleteDelayMs > 0) {
			const delayMs = this.workflowRowDeleteDelayMs;
			// The caller is told at once (its connection answered); the statement lands later.
			setTimeout(() => this.rows.delete(key), delayMs);
			return;
		}
		this.rows.delete(key);
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.calls.getProcessedDataCount++;
		const key = this.rowKey(scope, contextData);
		await new Promise((resolve) => (this.rmwDelayMs > 0 ? setTimeout(resolve, this.rmwDelayMs) : setImmediate(resolve)));
		const row = this.rows.get(key);
		return options.mode === 'entries' && row && Array.isArray(row.data) ? row.data.length : 0;
	}
}

let registered: InMemoryDeduplicator | undefined;

/** The one store of this test process, registered with n8n-core on first use. */
export function harnessDeduplicator(): InMemoryDeduplicator {
	if (!registered) {
		registered = new InMemoryDeduplicator();
		void DataDeduplicationService.init(registered);
	}
	return registered;
}
