/**
 * n8n's processed-items helper, call by call, as n8n 2.40.7 runs it
 * (`n8n/dist/deduplication/deduplication-helper.js`), for the modes duplicate protection and the
 * Remove Duplicates node use ('entries' with maxEntries, 'latestIncrementalKey'). One row per
 * workflow and context ('' for scope workflow, `n:<node id>` for scope node). Every call is a
 * sequence of statements on that row: `findOne`; a change in memory; `update` of the whole row
 * (a row deleted meanwhile stays deleted), or `insert` on the primary key, whose loser gets a
 * unique-key error; `delete` is blind. No lock, no transaction.
 *
 * The one copy of it: the harness's in-memory store (deduplication.ts) and the simulation's store
 * model (its statements on a virtual clock) each give it their statements;
 * `store.differential.test.ts` runs it against n8n's own helper on SQLite.
 */
import { createHash } from 'node:crypto';

import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDeduplicationOutput } from 'n8n-workflow';

export interface RowValue {
	mode: string;
	data: string[] | DeduplicationItemTypes;
}

/** The database's statements on one row, by its key (`<workflow id>|<context>`). Each returns or keeps a copy. */
export interface RowStatements {
	findOne(row: string): Promise<RowValue | undefined>;
	/** Fails with a unique-key error when the row exists. */
	insert(row: string, value: RowValue): Promise<void>;
	update(row: string, value: RowValue): Promise<void>;
	delete(row: string): Promise<void>;
}

export const INCOMPATIBLE_MODE =
	'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.';

const LATEST_MODES = ['latestIncrementalKey', 'latestDate'];

export function hash(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

export function rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (!contextData.workflow.id) throw new Error('workflow id missing');
	if (scope === 'node' && !contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node!.id}` : ''}`;
}

/** What the database keeps and returns: a copy (a row's data is an array of strings, or one value). */
export function copyRow(value: RowValue): RowValue {
	return { mode: value.mode, data: Array.isArray(value.data) ? value.data.slice() : value.data };
}

export async function checkProcessedAndRecord(
	db: RowStatements,
	items: DeduplicationItemTypes[],
	scope: DeduplicationScope,
	contextData: ICheckProcessedContextData,
	options: ICheckProcessedOptions,
): Promise<IDeduplicationOutput> {
	const row = rowKey(scope, contextData);
	const found = await db.findOne(row);
	if (found && found.mode !== options.mode) throw new Error(INCOMPATIBLE_MODE);
	if (LATEST_MODES.includes(options.mode)) return await latest(db, row, items, options, found);
	return await hashed(db, row, items, options, found);
}

/** handleLatestModes: the row keeps the largest value; a value is new only above what was read. */
async function latest(db: RowStatements, row: string, items: DeduplicationItemTypes[], options: ICheckProcessedOptions, found: RowValue | undefined): Promise<IDeduplicationOutput> {
	const sorted = items.slice().sort((a, b) => compareLatest(a, b));
	if (!found) {
		await db.insert(row, { mode: options.mode, data: sorted.pop()! });
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
	await db.update(row, { mode: found.mode, data: largest });
	return output;
}

/** handleHashedItems: md5 hashes appended; maxEntries drops the oldest; a value given twice in one call is pushed twice. */
async function hashed(db: RowStatements, row: string, items: DeduplicationItemTypes[], options: ICheckProcessedOptions, found: RowValue | undefined): Promise<IDeduplicationOutput> {
	const hashes = items.map((item) => hash(item));
	if (!found) {
		if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
		await db.insert(row, { mode: options.mode, data: hashes });
		return { new: items, processed: [] };
	}
	const output: IDeduplicationOutput = { new: [], processed: [] };
	if (!Array.isArray(found.data)) return output;
	const data = found.data;
	const seen = new Set(data);
	hashes.forEach((value, index) => {
		if (seen.has(value)) output.processed.push(items[index]);
		else {
			output.new.push(items[index]);
			data.push(value);
		}
	});
	if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
	await db.update(row, found);
	return output;
}

/** Drops one copy of each value's hash. */
export async function removeProcessed(
	db: RowStatements,
	items: DeduplicationItemTypes[],
	scope: DeduplicationScope,
	contextData: ICheckProcessedContextData,
	options: ICheckProcessedOptions,
): Promise<void> {
	if (LATEST_MODES.includes(options.mode)) throw new Error('Removing processed data is not possible in mode "latest"');
	const row = rowKey(scope, contextData);
	const found = await db.findOne(row);
	if (!found || !Array.isArray(found.data)) return;
	const data = found.data;
	for (const value of items.map((item) => hash(item))) {
		const index = data.indexOf(value);
		if (index !== -1) data.splice(index, 1);
	}
	await db.update(row, found);
}

export async function clearAllProcessedItems(db: RowStatements, scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
	await db.delete(rowKey(scope, contextData));
}

export async function getProcessedDataCount(db: RowStatements, scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<number> {
	const found = await db.findOne(rowKey(scope, contextData));
	return options.mode === 'entries' && found && Array.isArray(found.data) ? found.data.length : 0;
}

/** DeduplicationHelper.compareValues for 'latestIncrementalKey'. */
function compareLatest(a: DeduplicationItemTypes, b: DeduplicationItemTypes): number {
	const x = Number(a);
	const y = Number(b);
	if (isNaN(x) || isNaN(y)) throw new Error('Invalid value. Only numbers are supported in mode "latestIncrementalKey"');
	return x === y ? 0 : x > y ? 1 : -1;
}
