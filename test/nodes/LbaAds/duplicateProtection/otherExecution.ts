/**
 * Another execution staged in the harness's copy of n8n's store (campaignGuard.costly.test.ts,
 * twinWait.test.ts): its outcome lands just before this run asks the store about a key again, as
 * it does while it waits for a twin.
 */
import { InMemoryDeduplicator } from '../../../harness';
import { runNode, type Context, type useHistory } from '../setup';

type History = ReturnType<typeof useHistory>;

/** The campaign's key, from a preview (which sends and records nothing). */
export async function keyOf(context: Context, history: History, parameters: Record<string, unknown>, name: string): Promise<string> {
	const preview = await runNode(context, { ...parameters, options: { dryRun: true } }, [{ name }], { workflowId: history.workflowId });
	expect(preview.items[0].json.dryRun).toBe(true);
	return String(preview.items[0].json.idempotencyKey);
}

/**
 * Just before this run asks the store about `key` again, `taken` entries go (a release), `added`
 * ones come (a creation) and `addedHashes` are stored as they are (other executions' entries).
 * Returns the undo.
 */
export function justBeforeAskedAgain(history: History, key: string, { taken = [], added = [], addedHashes = [] }: { taken?: string[]; added?: string[]; addedHashes?: string[] }): () => void {
	const { store } = history;
	const ask = store.checkProcessedAndRecord;
	const undo = () => {
		store.checkProcessedAndRecord = ask;
	};
	store.checkProcessedAndRecord = async (items, ...rest) => {
		if (items.length === 1 && items[0] === key) {
			undo();
			const data = store.rows.get(`${history.workflowId}|n:lba`)!.data as string[];
			for (const entry of taken) data.splice(data.indexOf(InMemoryDeduplicator.hash(entry)), 1);
			data.push(...added.map((entry) => InMemoryDeduplicator.hash(entry)), ...addedHashes);
		}
		return await ask.call(store, items, ...rest);
	};
	return undo;
}
