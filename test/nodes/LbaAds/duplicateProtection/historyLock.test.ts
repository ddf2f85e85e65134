/**
 * The history lock between n8n processes: two copies of the module (two queue-mode workers,
 * each with its own in-process queue) share one store, the harness copy of n8n's, whose calls
 * read, wait and write back with no lock of their own.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { InMemoryDeduplicator } from '../../../harness';

type LockModule = typeof import('../../../../nodes/LbaAds/duplicateProtection/historyLock');

function loadProcessCopy(): LockModule {
	let copy: LockModule | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		copy = require('../../../../nodes/LbaAds/duplicateProtection/historyLock');
	});
	return copy!;
}

/** What a node's `this` offers the lock: the store's helpers bound to one workflow and node. */
function nodeContext(store: InMemoryDeduplicator, workflowId: string): IExecuteFunctions {
	const contextData = { workflow: { id: workflowId }, node: { id: 'lba' } } as never;
	return {
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: 'lba', name: 'LBA Ads', type: 'n8n-nodes-lba-ads.lbaAds', typeVersion: 1, position: [0, 0], parameters: {} }),
		helpers: {
			checkProcessedAndRecord: (items: never, scope: never, options: never) => store.checkProcessedAndRecord(items, scope, contextData, options),
			removeProcessed: (items: never, scope: never, options: never) => store.removeProcessed(items, scope, contextData, options),
			clearAllProcessedItems: (scope: never, options: never) => store.clearAllProcessedItems(scope, contextData),
		},
	} as unknown as IExecuteFunctions;
}

const ENTRIES = { mode: 'entries' as const };

describe('the history lock across two n8n processes', () => {
	it('40 writers on two processes at once, each reading and writing the history row: none is lost, never two inside at once', async () => {
		const store = new InMemoryDeduplicator();
		store.rmwDelayMs = 2;
		const processes = [loadProcessCopy(), loadProcessCopy()];
		expect(processes[0]).not.toBe(processes[1]);
		let inside = 0;
		let mostInside = 0;
		await Promise.all(
			Array.from({ length: 40 }, async (_, writer) => {
				const lockModule = processes[writer % 2];
				const ctx = nodeContext(store, 'wf-lock');
				await lockModule.withHistoryLock(ctx, async () => {
					mostInside = Math.max(mostInside, ++inside);
					await ctx.helpers.checkProcessedAndRecord([`writer-${writer}`], 'node', ENTRIES);
					inside--;
				});
			}),
		);
		expect(mostInside).toBe(1);
		expect(store.entries('wf-lock', 'lba')).toHaveLength(40);
		expect(store.rows.has('wf-lock|')).toBe(false);
	});

	it('control: the same 40 writers without the lock lose entries', async () => {
		const store = new InMemoryDeduplicator();
		store.rmwDelayMs = 2;
		await nodeContext(store, 'wf-raw').helpers.checkProcessedAndRecord(['seed'], 'node', ENTRIES);
		await Promise.all(
			Array.from({ length: 40 }, async (_, writer) => {
				await nodeContext(store, 'wf-raw').helpers.checkProcessedAndRecord([`writer-${writer}`], 'node', ENTRIES);
			}),
		);
		expect(store.entries('wf-raw', 'lba').length).toBeLessThan(41);
	});

	it('different workflows do not wait for each other', async () => {
		const store = new InMemoryDeduplicator();
		const lockModule = loadProcessCopy();
		let release!: () => void;
		const holding = lockModule.withHistoryLock(nodeContext(store, 'wf-a'), async () => await new Promise<void>((resolve) => (release = resolve)));
		await new Promise((resolve) => setTimeout(resolve, 20));
		const other = await lockModule.withHistoryLock(nodeContext(store, 'wf-b'), async () => 'done');
		expect(other).toBe('done');
		release();
		await holding;
	});

	it('a task that fails releases the lock', async () => {
		const store = new InMemoryDeduplicator();
		const lockModule = loadProcessCopy();
		await expect(lockModule.withHistoryLock(nodeContext(store, 'wf-fail'), async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
		expect(store.rows.has('wf-fail|')).toBe(false);
	});
});
