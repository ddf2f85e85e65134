/**
 * Campaign > Forget Sent: the deliberate way to send again what duplicate protection holds
 * back. It runs on the same node (same node id) as the Create it forgets for.
 */
import { errorOf } from '../../../../harness';
import { campaigns, campaignsPerName, createParameters, fault, runNode, useHistory, useSandbox } from '../../setup';

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
		expect(forget.items).toEqual([{ json: { forgotten: 'all', message: expect.stringContaining('whole history'), entriesBefore: 12, entriesAfter: 0 }, pairedItem: [{ item: 0 }] }]);
		expect(store.entries(history.workflowId, 'lba')).toEqual([]);

		const again = await runNode(context, byName, three, { workflowId: history.workflowId });
		expect(again.items.map((item) => item.json.status)).toEqual(['Published', 'Published', 'Published']);
		expect(await campaigns(context)).toHaveLength(6);
	});

	it("All Campaigns, then the executions list's Retry of a failed execution: nothing stays held, what that execution created is sent again", async () => {
		// One at a time, the service refusing the third (503): p1 and p2 created, the execution failed.
		const oneByOne = { ...byName, options: { concurrency: 1 } };
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const failed = await runNode(context, oneByOne, three, { workflowId: history.workflowId });
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		expect(await campaignsPerName(context)).toEqual({ p1: 1, p2: 1 });
		const forget = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'all' }, [{}], { workflowId: history.workflowId });
		expect(forget.items[0].json).toMatchObject({ forgotten: 'all', entriesAfter: 0 });
		// The Retry's own memory of what its execution created yields to the history the user cleared.
		const retry = await runNode(context, oneByOne, three, { workflowId: history.workflowId, again: { kind: 'retry', after: failed.run } });
		expect(retry.run.mode).toBe('retry');
		expect(retry.items.map((item) => (item.json.skipped ? 'skipped' : item.json.status))).toEqual(['Published', 'Published', 'Published']);
		expect(await campaignsPerName(context)).toEqual({ p1: 2, p2: 2, p3: 1 });
	});

	it('Some Keys: forgets the keys of chosen items (from an earlier output), the others stay protected', async () => {
		const first = await runNode(context, byName, three, { workflowId: history.workflowId });
		const p2Key = first.items[1].json.idempotencyKey as string;
		const forget = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: '={{ $json.key }}' }, [{ key: p2Key }], {
			workflowId: history.workflowId,
		});
		expect(forget.items[0].json).toEqual({ message: 'Forgot 1 key: the next run sends that campaign again.', forgotten: p2Key, notFound: '', entriesBefore: 12, entriesAfter: 10 });

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
		expect(elsewhere.items[0].json).toMatchObject({ forgotten: 'all', entriesBefore: 0 });
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
		expect(errorOf(stopped)?.message).toBe('Keys to Forget of item 1 is empty; nothing was forgotten for it');
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(12);

		const continued = await runNode(context, parameters, items, { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(continued.items.map((item) => Object.keys(item.json)[0])).toEqual(['error', 'message']);
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(10);
	});

	it('a key that matches nothing: said in the output and in a warning, nothing forgotten', async () => {
		await runNode(context, byName, three, { workflowId: history.workflowId });
		const junk = `content:v2:${'0'.repeat(64)}`;
		const forget = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'keys', forgetKey: junk }, [{}], { workflowId: history.workflowId });
		expect(forget.items[0].json).toMatchObject({ forgotten: '', notFound: junk, entriesBefore: 12, entriesAfter: 12, message: expect.stringMatching(/^No key matched anything/) });
		const hints = (forget.run.data.resultData.runData.LBA[0].hints ?? []).map((hint) => hint.message);
		expect(hints).toEqual([expect.stringMatching(/matched nothing in this node's history/)]);
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(12);
	});
});

describe("Campaign > Create, Mode Forget Sent Campaigns: the node's own history, its setup untouched", () => {
	it('forgets the keys a held item names; every field of the campaign stays; Mode back to Publish sends that campaign once', async () => {
		const limits = { ...byName, options: { maxSmsPerCampaign: 100_000, resend: false } };
		await runNode(context, limits, three, { workflowId: history.workflowId });
		const held = await runNode(context, limits, three, { workflowId: history.workflowId });
		expect(held.items[1].json).toMatchObject({ skipped: true, forgetKeys: expect.any(String) });
		const forgetting = { ...limits, runMode: 'forget', forgetWhat: 'keys', forgetKeys: '={{ $json.forgetKeys }}' };
		const forget = await runNode(context, forgetting, [held.items[1].json], { workflowId: history.workflowId });
		expect(errorOf(forget)).toBeUndefined();
		expect(forget.items[0].json).toMatchObject({ message: 'Forgot 1 key: the next run sends that campaign again.', forgotten: held.items[1].json.forgetKeys, notFound: '' });
		expect(await campaigns(context)).toHaveLength(3); // forgetting sends nothing
		const again = await runNode(context, limits, three, { workflowId: history.workflowId });
		expect(again.items.map((item) => (item.json.skipped ? 'skipped' : item.json.status))).toEqual(['skipped', 'Published', 'skipped']);
		expect(await campaigns(context)).toHaveLength(4);
	});

	it('Forget: All Campaigns clears the whole history, needs no credential, and sends nothing', async () => {
		await runNode(context, byName, three, { workflowId: history.workflowId });
		const forget = await runNode(context, { ...byName, runMode: 'forget', forgetWhat: 'all' }, [{}], { workflowId: history.workflowId, credentials: {} });
		expect(errorOf(forget)).toBeUndefined();
		expect(forget.items[0].json).toMatchObject({ forgotten: 'all', entriesBefore: 12, entriesAfter: 0 });
		expect(await campaigns(context)).toHaveLength(3);
	});

	it('Mode Preview is a dry run: nothing sent, nothing recorded', async () => {
		const preview = await runNode(context, { ...byName, runMode: 'preview' }, three, { workflowId: history.workflowId });
		expect(preview.items.map((item) => item.json.dryRun)).toEqual([true, true, true]);
		expect(await campaigns(context)).toHaveLength(0);
		expect(store.entries(history.workflowId, 'lba')).toEqual([]);
	});
});
