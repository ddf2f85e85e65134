/**
 * n8n's processed-items store as n8n 2.40.7 runs it, on the simulation's virtual clock: the helper
 * itself is the harness's one copy (`test/harness/processedItems.ts`); this model gives it its
 * statements (`findOne`, `insert`, `update`, `delete`), each one atomic step at the database,
 * reached after a latency and answered after another, both drawn per statement by `latency`.
 * `store.differential.test.ts` runs the same call sequences against n8n's own helper on SQLite.
 */
import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDeduplicationOutput } from 'n8n-workflow';

import * as helper from '../../../../harness/processedItems';
import { copyRow as copy, type RowStatements, type RowValue } from '../../../../harness/processedItems';
import type { SimProcessState, VirtualClock } from './clock';

export type { RowValue } from '../../../../harness/processedItems';
export { INCOMPATIBLE_MODE } from '../../../../harness/processedItems';

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

/** SQLite's words; PostgreSQL says 'duplicate key value violates unique constraint'. */
export const UNIQUE_VIOLATION = 'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.context, processed_data.workflowId';

export class StoreModel {
	readonly rows = new Map<string, RowValue>();
	readonly executed: Executed[] = [];
	statements = 0;

	constructor(private readonly clock: VirtualClock) {}

	static hash = helper.hash;
	static rowKey = helper.rowKey;

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

	/** The statements of one source, for the helper. */
	private statementsOf(source: StatementSource): RowStatements {
		return {
			findOne: (row) => this.findOne(source, row),
			insert: (row, value) => this.insert(source, row, value),
			update: (row, value) => this.update(source, row, value),
			delete: (row) => this.delete(source, row),
		};
	}

	checkProcessedAndRecord(
		source: StatementSource,
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		return helper.checkProcessedAndRecord(this.statementsOf(source), items, scope, contextData, options);
	}

	removeProcessed(source: StatementSource, items: DeduplicationItemTypes[], scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<void> {
		return helper.removeProcessed(this.statementsOf(source), items, scope, contextData, options);
	}

	clearAllProcessedItems(source: StatementSource, scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		return helper.clearAllProcessedItems(this.statementsOf(source), scope, contextData);
	}

	getProcessedDataCount(source: StatementSource, scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<number> {
		return helper.getProcessedDataCount(this.statementsOf(source), scope, contextData, options);
	}
}
