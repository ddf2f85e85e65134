/**
 * n8n's processed-items store (the data-deduplication helpers on `this.helpers`), in memory.
 *
 * Registered the way n8n registers its own: `DataDeduplicationService.init(deduplicator)`
 * from n8n-core. The helper is n8n's, copied once in processedItems.ts (shared with the
 * simulation's store model); this store gives it rows in a Map. Every call reads the row,
 * awaits, then writes it back whole, with no lock; a missing row is inserted, and a second
 * insert of one row fails on its unique key (PostgreSQL's words, as in queue mode).
 * `rmwDelayMs` widens the read-write gap, so tests can show what concurrent calls do to each
 * other; the other settings below stage a database that stalls or refuses.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

import * as helper from './processedItems';
import { copyRow, type RowStatements, type RowValue } from './processedItems';

export class InMemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, RowValue>();
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

	static hash = helper.hash;

	rowKey = helper.rowKey;

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

	/** The Map as a database: a read that may fail, then waits (the round trip, a stall); writes at once. */
	private readonly db: RowStatements = {
		findOne: async (key) => {
			if (key.includes('|n:') && this.nodeRowCallsBeforeFailure !== undefined && this.nodeRowCallsBeforeFailure-- <= 0) {
				throw new Error('permission denied for table processed_data');
			}
			const row = this.rows.get(key);
			const copy = row && copyRow(row);
			await this.roundTrip();
			if (this.nodeRowsBlockedUntil && key.includes('|n:')) await this.nodeRowsBlockedUntil;
			if (this.workflowRowsBlockedUntil && key.endsWith('|')) await this.workflowRowsBlockedUntil;
			return copy;
		},
		insert: async (key, value) => {
			if (this.rows.has(key)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
			this.rows.set(key, copyRow(value));
		},
		update: async (key, value) => {
			if (this.rows.has(key)) this.rows.set(key, copyRow(value));
		},
		delete: async (key) => {
			if (key.endsWith('|') && this.workflowRowDeleteDelayMs > 0) {
				// The caller is told at once (its connection answered); the statement lands later.
				setTimeout(() => this.rows.delete(key), this.workflowRowDeleteDelayMs);
				return;
			}
			this.rows.delete(key);
		},
	};

	/** A count: the round trip, then a read, without the staged refusals and stalls (they stage writes). */
	private readonly countDb: RowStatements = {
		...this.db,
		findOne: async (key) => {
			await this.roundTrip();
			const row = this.rows.get(key);
			return row && copyRow(row);
		},
	};

	private roundTrip() {
		return new Promise((resolve) => (this.rmwDelayMs > 0 ? setTimeout(resolve, this.rmwDelayMs) : setImmediate(resolve)));
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls.checkProcessedAndRecord++;
		if (scope === 'workflow') this.workflowRowCalls.checkProcessedAndRecord++;
		return await helper.checkProcessedAndRecord(this.db, items, scope, contextData, options);
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<void> {
		this.calls.removeProcessed++;
		await helper.removeProcessed(this.db, items, scope, contextData, options);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.calls.clearAllProcessedItems++;
		if (scope === 'workflow') this.workflowRowCalls.clearAllProcessedItems++;
		await helper.clearAllProcessedItems(this.db, scope, contextData);
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<number> {
		this.calls.getProcessedDataCount++;
		return await helper.getProcessedDataCount(this.countDb, scope, contextData, options);
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
