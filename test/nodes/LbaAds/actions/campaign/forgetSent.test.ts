/**
 * Campaign > Forget Sent: the deliberate way to send again what duplicate protection holds
 * back. It runs on the same node (same node id) as the Create it forgets for.
 */
import { errorOf } from '../../../../harness';
import { campaigns, createParameters, runNode, useHistory, useSandbox } from '../../setup';

const context = useSandbox();
const history = useHistory('forget');
const store = history.store;

const byName = createParameters({ name: '={{ $json.name }}' });
const three = [{ name: 'p1' }, { name: 'p2' }, { name: 'p3' }];

describe('Campaign > Forget Sent', () => {
	it('All Campaigns: clears the node history; the next run sends everything again', async () => {
		await runNode(context, byName, three, { workflowId: history.workflowId });
		const forget = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'all' }, [{}], { workflowId: history.workflowId });
		expect(errorOf(forget)).toBeUndefined();
		expect(forget.items).toEqual([{ json: { forgotten: 'all', entriesBefore: 12 }, pairedItem: [{ item: 0 }] }]);
		expect(store.entries(history.workflowId, 'lba')).toEqual([]);

		const again = await runNode(context, byName, three, { workflowId: history.workflowId });
		expect(again.items.map((item) => item.json.status)).toEqual(['Published', 'Published', 'Published']);
		expect(await campaigns(context)).toHaveLength(6);
	});

	it('Some Keys: forgets the keys of chosen items (from an earlier output), the others stay protected', async () => {
		const first = await runNode(context, byName, three, { workflowId: history.workflowId });
		const p2Key = first.items[1].json.idempotencyKey as string;
		const forget = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: '={{ $json.key }}' }, [{ key: p2Key }], {
			workflowId: history.workflowId,
		});
		expect(forget.items[0].json).toEqual({ forgotten: p2Key, entriesBefore: 12 });

		const again = await runNode(context, byName, three, { workflowId: history.workflowId });
		expect(again.items.map((item) => (item.json.skipped ? 'skipped' : item.json.status))).toEqual(['skipped', 'Published', 'skipped']);
	});

	it('Some Keys takes a custom key as its plain text too', async () => {
		const custom = { ...byName, duplicateProtection: 'customKey', idempotencyKey: '={{ $json.name }}-order' };
		await runNode(context, custom, three, { workflowId: history.workflowId });
		await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: 'p3-order' }, [{}], { workflowId: history.workflowId });
		const again = await runNode(context, custom, three, { workflowId: history.workflowId });
		expect(again.items.map((item) => Boolean(item.json.skipped))).toEqual([true, true, false]);
	});

	it('another node forgets only its own history (each node keeps its own)', async () => {
		await runNode(context, byName, three, { workflowId: history.workflowId });
		const elsewhere = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'all' }, [{}], {
			workflowId: history.workflowId,
			node: { id: 'another-node' },
		});
		expect(elsewhere.items[0].json).toEqual({ forgotten: 'all', entriesBefore: 0 });
		const again = await runNode(context, byName, three, { workflowId: history.workflowId });
		// One held-back item per campaign (an empty output would pass an every()).
		expect(again.items.map((item) => item.json.skipped)).toEqual([true, true, true]);
		expect(await campaigns(context)).toHaveLength(3);
	});

	it('an empty key fails its item with the index; with continue on fail the other keys are forgotten', async () => {
		const first = await runNode(context, byName, three, { workflowId: history.workflowId });
		const parameters = { resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: '={{ $json.key }}' };
		const items = [{ key: '' }, { key: first.items[0].json.idempotencyKey }];
		const stopped = await runNode(context, parameters, items, { workflowId: history.workflowId });
		expect(errorOf(stopped)?.message).toBe('Idempotency Key of item 0 is empty; nothing was forgotten for it');
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(12);

		const continued = await runNode(context, parameters, items, { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(continued.items.map((item) => Object.keys(item.json)[0])).toEqual(['error', 'forgotten']);
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(10);
	});
});
