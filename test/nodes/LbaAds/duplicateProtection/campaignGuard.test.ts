/**
 * Create Campaign's duplicate protection across executions, in n8n-core's engine with the
 * harness's in-memory copy of n8n's processed-items store. Runs that stand for a Retry or a
 * re-run of one saved workflow share a workflowId. The real n8n proof is in
 * test/e2e/duplicate-protection.e2e.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf, InMemoryDeduplicator } from '../../../harness';
import { aSecondLater, campaigns, campaignsPerName, channel, createParameters, fault, holdNextLatency, requests, runNode, useHistory, useSandbox } from '../setup';

const context = useSandbox();
// The node as n8n loads it (dist/): its lock's timings, shortened by some tests.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lockTiming } = require('../../../../dist/nodes/LbaAds/duplicateProtection/historyLock') as { lockTiming: Record<string, number> };
const history = useHistory('dedup');
const { store } = history;

/** Six campaigns that differ by name, fed by pinned items ({{ $json.name }}). */
const six = Array.from({ length: 6 }, (_, index) => ({ name: `promo-${index + 1}` }));
const byName = createParameters({ name: '={{ $json.name }}' });
const oneAtATime = (parameters: IDataObject) => ({ ...parameters, options: { concurrency: 1 } });

/** The node's history. */
const campaignEntries = () => store.entries(history.workflowId, 'lba');

function namesIn(journal: Array<{ request: IDataObject }>) {
	return journal.map((entry) => String(entry.request.name));
}

function duplicatesIn(journal: Array<{ request: IDataObject }>) {
	const names = namesIn(journal);
	return names.length - new Set(names).size;
}

describe('Campaign > Create: never the same campaign twice across executions', () => {
	it('a second run of the same workflow sends nothing and says each campaign was created before', async () => {
		const first = await runNode(context, byName, six, { workflowId: history.workflowId });
		expect(errorOf(first)).toBeUndefined();
		const keys = first.items.map((item) => item.json.idempotencyKey);
		expect(keys.every((key) => typeof key === 'string' && /^content:v2:[0-9a-f]{64}$/.test(key as string))).toBe(true);
		expect(new Set(keys).size).toBe(6);

		const second = await runNode(context, byName, six, { workflowId: history.workflowId });
		expect(errorOf(second)).toBeUndefined();
		expect(second.items.map((item) => item.json)).toEqual(
			keys.map((key) => expect.objectContaining({ skipped: true, earlierOutcome: 'created', idempotencyKey: key, reason: 'Created in an earlier run; not sent again' })),
		);
		expect(second.items.map((item) => item.pairedItem)).toEqual(six.map((_, item) => ({ item })));
		expect(await campaigns(context)).toHaveLength(6);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(6);
	});

	it('Retry after a 503 at item 4: items 1-3 reported as created, 4-6 created once, 0 duplicates', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
		const failed = await runNode(context, oneAtATime(byName), six, { workflowId: history.workflowId });
		expect(errorOf(failed)?.message).toBe('The LBA service failed to answer POST /lba/campaign (HTTP 503); the campaign was not created');
		expect(namesIn(await campaigns(context))).toEqual(['promo-1', 'promo-2', 'promo-3']);

		// n8n's Retry re-runs the node with all its input items.
		const retry = await runNode(context, oneAtATime(byName), six, { workflowId: history.workflowId });
		expect(errorOf(retry)).toBeUndefined();
		expect(retry.items.map((item) => (item.json.skipped ? `skipped:${String(item.json.earlierOutcome)}` : 'created'))).toEqual([
			'skipped:created',
			'skipped:created',
			'skipped:created',
			'created',
			'created',
			'created',
		]);
		const journal = await campaigns(context);
		expect(namesIn(journal).sort()).toEqual(six.map((item) => item.name));
		expect(duplicatesIn(journal)).toBe(0);
	});

	it('an answer lost after the service created the campaign (502): the key is kept, a re-run does not resend, Resend does', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, skip: 1, times: 1 });
		const failed = await runNode(context, oneAtATime(byName), six.slice(0, 3), { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(failed.items[1].json.error).toBe('The LBA service failed to answer POST /lba/campaign (HTTP 502); the campaign may have been created, so do not send it again');
		expect(String(failed.items[1].json.description)).toMatch(
			/may already have created the campaign.*Duplicate protection kept this campaign's keys, so a Retry of this execution will not send it again \(nor a new run, unless its dates come from \$now: then it is a new campaign\)\..*set this node's Mode to Send One Again, paste again:v1:\S+ into Send Again Key, click Execute step, then set Mode back to Publish\. Its keys, for Forget Sent: retry:v4:[0-9a-f]{64} content:v2:[0-9a-f]{64}\./s,
		);
		expect(namesIn(await campaigns(context))).toEqual(['promo-1', 'promo-2', 'promo-3']);

		const rerun = await runNode(context, oneAtATime(byName), six.slice(0, 3), { workflowId: history.workflowId });
		expect(rerun.items[1].json).toMatchObject({
			skipped: true,
			earlierOutcome: 'unknown',
			reason: expect.stringMatching(/^May have been created in an earlier run/),
			howToResend: expect.stringContaining("set this node's Mode to Send One Again"),
		});
		expect(await campaigns(context)).toHaveLength(3);

		const resend = await runNode(
			context,
			{ ...oneAtATime(byName), options: { concurrency: 1, resend: '={{ $json.name === "promo-2" }}' } },
			six.slice(0, 3),
			{ workflowId: history.workflowId },
		);
		expect(resend.items.map((item) => Boolean(item.json.skipped))).toEqual([true, false, true]);
		expect(namesIn(await campaigns(context))).toEqual(['promo-1', 'promo-2', 'promo-3', 'promo-2']);

		// After the resend succeeded, the campaign counts as created.
		const again = await runNode(context, oneAtATime(byName), six.slice(0, 3), { workflowId: history.workflowId });
		expect(again.items.map((item) => item.json.earlierOutcome)).toEqual(['created', 'created', 'created']);
	});

	it('a Resend of a campaign created earlier that the service refuses keeps the earlier record: a re-run holds it back as created', async () => {
		const first = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId });
		expect(first.items[0].json).toMatchObject({ success: true });
		const recorded = campaignEntries();

		await fault(context, { method: 'POST', path: '/lba/campaign', status: 400, body: { success: false, error: { code: 'G-400003', message: 'invalid' } }, times: 1 });
		const resend = await runNode(context, { ...byName, options: { resend: true } }, six.slice(0, 1), { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(typeof resend.items[0].json.error).toBe('string');
		// The earlier key and its "created" mark stay; only what the Resend recorded itself (its retry key) goes.
		expect(campaignEntries()).toEqual(recorded);

		const rerun = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId });
		expect(rerun.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		expect(await campaigns(context)).toHaveLength(1);
	});

	it.each([
		['a 400 refusal (G-400003)', { status: 400, body: { success: false, error: { code: 'G-400003', message: 'invalid' } } }],
		['a 401 (n8n sends a request again once after a 401, so twice)', { status: 401, times: 2 }],
		['a 429', { status: 429 }],
		['a 503', { status: 503 }],
	])('%s proves nothing was created: the key is released and a re-run sends it', async (_label, spec) => {
		await fault(context, { method: 'POST', path: '/lba/campaign', times: 1, ...spec } as IDataObject);
		const failed = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(typeof failed.items[0].json.error).toBe('string');
		expect(String(failed.items[0].json.description)).not.toMatch(/kept this campaign's keys/);
		expect(campaignEntries()).toEqual([]);

		const rerun = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId });
		expect(rerun.items[0].json).toMatchObject({ success: true, status: 'Published' });
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('a connection refused before sending releases the key', async () => {
		const closed = { lbaAdsApi: { baseUrl: 'http://127.0.0.1:9', accessToken: context.token } };
		const failed = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId, credentials: closed, node: { onError: 'continueRegularOutput' } });
		// The run's first request is the Location ID check (GET /lba/locations): it fails the same way, before any key is claimed.
		expect(failed.items.map((item) => item.json.error)).toEqual(
			[1, 2].map(() => expect.stringMatching(/^Items 1-2 › Location ID: could not be checked, as GET \/lba\/locations failed \(Could not reach/)),
		);
		expect(campaignEntries()).toEqual([]);
		const rerun = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		expect(rerun.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
	});

	it('an OAuth2 token request that failed (the campaign request never left) releases the key', async () => {
		const oauth = (clientSecret: string) => ({ lbaAdsOAuth2Api: { baseUrl: context.sandbox.url, clientId: context.sandbox.clientId, clientSecret } });
		const node = { credentials: { lbaAdsOAuth2Api: { id: 'cred-2', name: 'LBA OAuth2' } } } as never;
		const parameters = { ...byName, authentication: 'oAuth2' };
		const refused = await runNode(context, parameters, six.slice(0, 1), { workflowId: history.workflowId, node, credentials: oauth('not-the-secret') });
		expect(errorOf(refused)?.message).toMatch(/^The LBA service refused the OAuth2 client credentials/);
		expect(campaignEntries()).toEqual([]);
		const rerun = await runNode(context, parameters, six.slice(0, 1), { workflowId: history.workflowId, node, credentials: oauth(context.sandbox.clientSecret) });
		expect(rerun.items[0].json.status).toBe('Published');
	});

	it('a timeout keeps the key: the campaign the slow service still created is not sent again', async () => {
		// The service answers only once the node has given up (held, not timed: a loaded machine cannot reorder them).
		await fault(context, { method: 'POST', path: '/lba/campaign', latencyMs: 1, when: 'after', times: 1 });
		const slow = holdNextLatency(context);
		const failed = await runNode(context, { ...byName, options: { timeoutMs: 200 } }, six.slice(0, 1), { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(failed.items[0].json.error).toMatch(/did not answer POST \/lba\/campaign within 200 ms/);
		// Not the transport's "Raise Timeout … if the service is slow" alone: raising it is for the next runs, not a reason to run again now.
		expect(String(failed.items[0].json.description)).toMatch(/^If the service is often slow, raise "Timeout" in the node's options for the next runs; do not run the workflow again for this campaign\./);
		slow.release();
		expect(await campaigns(context)).toHaveLength(1);
		const rerun = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId });
		expect(rerun.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'unknown' });
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('a 502 after the service created it: "may have been created", with the way to send it once, and no Timeout to raise (the service answered in time)', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 });
		const failed = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		expect(failed.items[0].json.error).toMatch(/may have been created/);
		const description = String(failed.items[0].json.description);
		expect(description).toMatch(/Send One Again/);
		expect(description).not.toMatch(/Timeout/);
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('items stopped by an earlier failure (no continue on fail) were never sent: their keys are released', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 500, skip: 1, times: 1 });
		const failed = await runNode(context, oneAtATime(byName), six, { workflowId: history.workflowId });
		expect(errorOf(failed)).toBeDefined();
		// promo-1 created and promo-2 unknown keep their keys and retry keys (4) and promo-1 its two "created" marks (2).
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(6);
		const retry = await runNode(context, oneAtATime(byName), six, { workflowId: history.workflowId });
		expect(retry.items.map((item) => item.json.earlierOutcome ?? 'sent')).toEqual(['created', 'unknown', 'sent', 'sent', 'sent', 'sent']);
		expect(duplicatesIn(await campaigns(context))).toBe(0);
	});

	it('the same campaign twice in one run is sent once; the second item says which item was sent', async () => {
		const result = await runNode(context, byName, [{ name: 'a' }, { name: 'b' }, { name: 'a' }], { workflowId: history.workflowId });
		expect(result.items[2].json).toMatchObject({ skipped: true, earlierOutcome: 'sameRun', idempotencyKey: result.items[0].json.idempotencyKey });
		expect(result.items[2].json.reason).toMatch(/^Same campaign as item 1 of this run/);
		expect(namesIn(await campaigns(context))).toEqual(['a', 'b']);
	});

	it('a repeat of an item held back from an earlier run is held back with it, with the same reason', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 });
		await runNode(context, byName, [{ name: 'a' }], { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
		const rerun = await runNode(context, byName, [{ name: 'a' }, { name: 'a' }], { workflowId: history.workflowId });
		expect(rerun.items.map((item) => [item.json.earlierOutcome, item.json.sameAsItem])).toEqual([
			['unknown', undefined],
			['unknown', 0],
		]);
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('the key is the body as sent: a date written differently but meaning the same instant is the same campaign', async () => {
		const dates = createParameters({}, [channel({ startDate: '={{ $json.start }}' })]);
		await runNode(context, dates, [{ start: '2026-12-01T09:00:00+07:00' }], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		const second = await runNode(context, dates, [{ start: '2026-12-01T09:00:00' }, { start: '2026-12-01T10:00:00' }], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		expect(second.items.map((item) => Boolean(item.json.skipped))).toEqual([true, false]);
		expect(await campaigns(context)).toHaveLength(2);
	});

	it('Custom Key: one campaign per key whatever its content; an empty key fails the item before anything is sent', async () => {
		const parameters = { ...byName, duplicateProtection: 'customKey', idempotencyKey: '={{ $json.orderId }}' };
		const first = await runNode(context, parameters, [{ name: 'x', orderId: 'A-17' }, { name: 'y', orderId: 'A-18' }], { workflowId: history.workflowId });
		expect(first.items.map((item) => item.json.idempotencyKey)).toEqual([`custom:v2:${context.sandbox.url} A-17`, `custom:v2:${context.sandbox.url} A-18`]);
		const second = await runNode(context, parameters, [{ name: 'changed text', orderId: 'A-17' }], { workflowId: history.workflowId });
		expect(second.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created', idempotencyKey: `custom:v2:${context.sandbox.url} A-17` });

		const empty = await runNode(context, parameters, [{ name: 'z', orderId: 'A-19' }, { name: 'w', orderId: '  ' }], { workflowId: history.workflowId });
		expect(errorOf(empty)).toMatchObject({ message: 'Idempotency Key of item 2 is empty; nothing was sent' });
		expect(namesIn(await campaigns(context))).toEqual(['x', 'y']);
	});

	it("Custom Key with a part that came out undefined (the page's storeId + day example on rows without storeId): refused before anything is sent", async () => {
		const parameters = { ...byName, duplicateProtection: 'customKey', idempotencyKey: "={{ $json.storeId + '-' + '2026-12-01' }}" };
		const result = await runNode(context, parameters, [{ name: 'a', storeId: 'S1' }, { name: 'b' }, { name: 'c' }], { workflowId: history.workflowId });
		expect(errorOf(result)?.message).toBe('Idempotency Key of item 2 is "undefined-2026-12-01": a part of it came out undefined; nothing was sent');
		expect(await campaigns(context)).toHaveLength(0);
	});

	it.each([
		['an empty cell', ''],
		['a cell of spaces', '   '],
	])("Custom Key, the page's example on rows whose storeId is %s: refused before anything is sent, naming the item (issue 60; it held the third row as item 2's campaign)", async (_case, storeId) => {
		const parameters = { ...byName, duplicateProtection: 'customKey', idempotencyKey: "={{ $json.storeId + '-' + '2026-12-01' }}" };
		const result = await runNode(context, parameters, [{ name: 'a', storeId: 'S1' }, { name: 'b', storeId }, { name: 'c', storeId }], { workflowId: history.workflowId });
		expect(errorOf(result)?.message).toBe(`Idempotency Key of item 2 is "${storeId}-2026-12-01": a part of it came out empty; nothing was sent`);
		expect(await campaigns(context)).toHaveLength(0);
	});

	it('Custom Key from a null cell, or with a part that came out null: refused before anything is sent, naming the item (never the key "null", which would hold every such row as the first)', async () => {
		const whole = { ...byName, duplicateProtection: 'customKey', idempotencyKey: '={{ $json.orderId }}' };
		const nullKey = await runNode(context, whole, [{ name: 'a', orderId: 'A-1' }, { name: 'b', orderId: null }, { name: 'c', orderId: null }], { workflowId: history.workflowId });
		expect(errorOf(nullKey)?.message).toBe('Idempotency Key of item 2 is empty; nothing was sent');
		const part = { ...byName, duplicateProtection: 'customKey', idempotencyKey: "={{ $json.storeId + '-' + '2026-12-01' }}" };
		const nullPart = await runNode(context, part, [{ name: 'a', storeId: 'S1' }, { name: 'b', storeId: null }], { workflowId: history.workflowId });
		expect(errorOf(nullPart)?.message).toBe('Idempotency Key of item 2 is "null-2026-12-01": a part of it came out null; nothing was sent');
		expect(await campaigns(context)).toHaveLength(0);
	});

	it("Custom Key that reads the clock ({{ $now }} in it): the executions list's Retry of a failed execution still sends each campaign once", async () => {
		const clockKey = { ...oneAtATime(byName), duplicateProtection: 'customKey', idempotencyKey: '={{ $json.name }}-{{ $now.toMillis() }}' };
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const failed = await runNode(context, clockKey, six.slice(0, 3), { workflowId: history.workflowId });
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		// The Retry reads $now a second later (the clock moved, not waited for): every key it computes is new.
		const retry = await aSecondLater(() => runNode(context, clockKey, six.slice(0, 3), { workflowId: history.workflowId, again: { kind: 'retry', after: failed.run } }));
		expect(errorOf(retry)).toBeUndefined();
		// What holds promo-1 and promo-2 is then the Retry's memory of its execution.
		expect(retry.items.map((item) => (item.json.skipped ? `held:${String(item.json.earlierOutcome)}` : String(item.json.status)))).toEqual(['held:created', 'held:created', 'Published']);
		expect(await campaignsPerName(context)).toEqual({ 'promo-1': 1, 'promo-2': 1, 'promo-3': 1 });
	});

	it("Resend turned on for the executions list's Retry of a failed execution: only what that execution did not create is sent", async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const failed = await runNode(context, oneAtATime(byName), six.slice(0, 3), { workflowId: history.workflowId });
		expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
		const resend = { ...byName, options: { concurrency: 1, resend: true } };
		const retry = await runNode(context, resend, six.slice(0, 3), { workflowId: history.workflowId, again: { kind: 'retry', after: failed.run } });
		expect(errorOf(retry)).toBeUndefined();
		expect(retry.items.map((item) => (item.json.skipped ? `held:${String(item.json.earlierOutcome)}` : String(item.json.status)))).toEqual(['held:created', 'held:created', 'Published']);
		expect(await campaignsPerName(context)).toEqual({ 'promo-1': 1, 'promo-2': 1, 'promo-3': 1 });
	});

	it('Off: every new run sends again; its only key is the item\'s retry key (what a Retry needs), and an unsaved workflow sends without the store', async () => {
		const parameters = { ...byName, duplicateProtection: 'off' };
		const first = await runNode(context, parameters, six.slice(0, 2), { workflowId: history.workflowId });
		const second = await runNode(context, parameters, six.slice(0, 2), { workflowId: history.workflowId });
		expect(second.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
		expect(second.items[0].json.idempotencyKey).toMatch(/^retry:v4:[0-9a-f]{64}$/);
		expect(second.items[0].json.forgetKeys).toBe(second.items[0].json.idempotencyKey);
		expect(second.items[0].json.idempotencyKey).not.toBe(first.items[0].json.idempotencyKey);
		expect(await campaigns(context)).toHaveLength(4);
		store.reset();
		const unsaved = await runNode(context, parameters, six.slice(2, 3), { workflowId: '' });
		expect(unsaved.items[0].json).toMatchObject({ status: 'Published' });
		expect(unsaved.items[0].json.idempotencyKey).toBeUndefined();
		expect(store.calls.checkProcessedAndRecord + store.calls.removeProcessed).toBe(0);
	});

	it('Campaign Content in an unsaved workflow: refused before anything is sent (its history needs a saved workflow), never sent without protection', async () => {
		const unsaved = await runNode(context, byName, six.slice(0, 2), { workflowId: '' });
		expect(errorOf(unsaved)?.message).toBe('Save the workflow before creating campaigns');
		expect(errorOf(unsaved)?.description).toBe('Duplicate protection keeps its history per saved workflow. Nothing was sent.');
		expect(await campaigns(context)).toHaveLength(0);
	});

	it('store calls are batched per wave of 4 x concurrency items: one history call to claim and one to settle, each under one take and release of the lock', async () => {
		const many = Array.from({ length: 40 }, (_, index) => ({ name: `batch-${index}` }));
		await runNode(context, { ...byName, options: { concurrency: 10 } }, many, { workflowId: history.workflowId });
		// One wave: the lock taken twice (claim, settle). Each take is an insert, each write after the first is
		// preceded by a check that the row is still there, and a final check precedes the release:
		// claim = 2 calls on the workflow's row (one history write), settle = 3 (two history writes).
		expect(store.workflowRowCalls).toEqual({ checkProcessedAndRecord: 5, clearAllProcessedItems: 2 });
		expect(store.calls).toMatchObject({ checkProcessedAndRecord: 5 + 2, removeProcessed: 1 });
		// Per campaign its key, its retry key and their "created" marks.
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(160);
		store.reset();
		await runNode(context, { ...byName, options: { concurrency: 5 } }, many, { workflowId: `${history.workflowId}-b` });
		// Two waves: twice as many calls, whatever the number of items.
		expect(store.workflowRowCalls).toEqual({ checkProcessedAndRecord: 10, clearAllProcessedItems: 4 });
		expect(store.calls).toMatchObject({ checkProcessedAndRecord: 10 + 4, removeProcessed: 2 });
		await runNode(context, { ...byName, options: { concurrency: 5 } }, many, { workflowId: `${history.workflowId}-b` });
		// The re-run's two waves each take the lock once, claim, ask for the "created" marks and take out the retry
		// keys and "sending" marks the claim recorded for campaigns it does not send (a check before each of those
		// two writes, and a final one): 4 calls on the workflow's row and 2 + 1 on the history per wave; nothing to settle.
		expect(store.workflowRowCalls).toEqual({ checkProcessedAndRecord: 10 + 8, clearAllProcessedItems: 6 });
		expect(store.calls).toMatchObject({ checkProcessedAndRecord: 14 + 8 + 4, removeProcessed: 4 });
		expect(store.entries(`${history.workflowId}-b`, 'lba')).toHaveLength(160);
		// The lock row is gone between runs.
		expect(store.rows.has(`${history.workflowId}-b|`)).toBe(false);
	});

	it('only the wave in flight is claimed: if n8n died now, a Retry would send every later item', async () => {
		// Concurrency 1: waves of 4. Item 6 (the 2nd of wave 2) is held at the service; look at the store meanwhile.
		const twelve = Array.from({ length: 12 }, (_, index) => ({ name: `wave-${index}` }));
		await fault(context, { method: 'POST', path: '/lba/campaign', latencyMs: 1, skip: 5, times: 1 });
		const slow = holdNextLatency(context);
		const running = runNode(context, oneAtATime(byName), twelve, { workflowId: history.workflowId });
		await slow.arrived;
		const midRun = new Set(store.entries(history.workflowId, 'lba'));
		slow.release();
		const result = await running;
		expect(result.items.every((item) => item.json.status === 'Published')).toBe(true);

		const keys = result.items.map((item) => String(item.json.idempotencyKey));
		const inStore = (value: string) => midRun.has(InMemoryDeduplicator.hash(value));
		expect(keys.map((key) => inStore(key))).toEqual([...Array(8).fill(true), ...Array(4).fill(false)]);
		expect(keys.map((key) => inStore(`created:${key}`))).toEqual([...Array(4).fill(true), ...Array(8).fill(false)]);
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(12 * 4);
	});
});

describe('concurrent executions of one workflow (one n8n process)', () => {
	/** Executions started at the same time, with the store's read-write gap widened to 5 ms. */
	async function concurrently(runs: Array<Array<{ name: string }>>) {
		store.rmwDelayMs = 5;
		return await Promise.all(runs.map((items) => runNode(context, { ...byName, options: { concurrency: 8 } }, items, { workflowId: history.workflowId })));
	}

	it('two executions with the same six campaigns at once: each campaign created once', async () => {
		const results = await concurrently([six, six]);
		for (const result of results) expect(errorOf(result)).toBeUndefined();
		const journal = await campaigns(context);
		expect(namesIn(journal).sort()).toEqual(six.map((item) => item.name));
		const outcomes = results.flatMap((result) => result.items.map((item) => (item.json.skipped ? 'skipped' : 'created')));
		expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(6);
	});

	it('eight executions with overlapping items: no key lost, no duplicate', async () => {
		const runs = Array.from({ length: 8 }, (_, run) => Array.from({ length: 10 }, (_, index) => ({ name: `c-${(run * 5 + index) % 30}` })));
		await concurrently(runs);
		const journal = await campaigns(context);
		expect(duplicatesIn(journal)).toBe(0);
		expect(journal).toHaveLength(30);
		// Every created campaign's key and mark is in the store.
		const entries = new Set(store.entries(history.workflowId, 'lba'));
		expect(entries.size).toBe(30 * 4);
	});

	it('control: the same calls without the node serialising them lose keys (the store has no lock)', async () => {
		const raw = new InMemoryDeduplicator();
		raw.rmwDelayMs = 5;
		const contextData = { workflow: { id: 'raw', active: false }, node: { id: 'lba' } } as never;
		const options = { mode: 'entries' as const };
		await raw.checkProcessedAndRecord(['seed'], 'node', contextData, options);
		await Promise.all(Array.from({ length: 8 }, (_, run) => raw.checkProcessedAndRecord([`key-${run}`], 'node', contextData, options)));
		expect(raw.entries('raw', 'lba').length).toBeLessThan(9);
	});
});

describe('another n8n process (a queue-mode worker) holding the history lock', () => {
	const lockRow = () => `${history.workflowId}|`;
	const HELD = Number.MIN_SAFE_INTEGER;
	let timing: Record<string, number>;
	beforeEach(() => {
		timing = { ...lockTiming };
		Object.assign(lockTiming, { leaseMs: 600, breakConfirmMs: 20, maxPauseMs: 5_000 });
	});
	afterEach(() => Object.assign(lockTiming, timing));

	it('a run waits while another process holds the lock, and sends once it is released', async () => {
		store.rows.set(lockRow(), { mode: 'latestIncrementalKey', data: HELD });
		Object.assign(lockTiming, { leaseMs: 60_000 });
		const running = runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		await new Promise((resolve) => setTimeout(resolve, 250));
		expect(await campaigns(context)).toHaveLength(0);
		expect(store.entries(history.workflowId, 'lba')).toHaveLength(0);
		await store.clearAllProcessedItems('workflow', { workflow: { id: history.workflowId } } as never);
		const result = await running;
		expect(result.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
		expect(await campaigns(context)).toHaveLength(2);
	});

	it('a lock left by a process killed while it held it is broken after the lease, and the run sends', async () => {
		store.rows.set(lockRow(), { mode: 'latestIncrementalKey', data: HELD });
		const started = Date.now();
		const result = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		expect(result.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
		// Broken after the lease: 600 ms of failing.
		expect(Date.now() - started).toBeGreaterThanOrEqual(600);
		expect(store.rows.has(lockRow())).toBe(false);
	});

	it("a Remove Duplicates node with Scope Workflow keeps the workflow's row: a clear error, nothing sent, its row untouched", async () => {
		const contextData = { workflow: { id: history.workflowId }, node: { id: 'remove-duplicates' } } as never;
		await store.checkProcessedAndRecord(['order-1', 'order-2'], 'workflow', contextData, { mode: 'entries' });
		const before = JSON.stringify(store.rows.get(lockRow()));
		const result = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		expect(errorOf(result)?.message).toBe(
			"Duplicate protection cannot take its lock: another node of this workflow keeps its history in the workflow's shared row (a Remove Duplicates node with Scope set to Workflow)",
		);
		expect(errorOf(result)?.description).toMatch(/^Nothing was sent\. .*set Scope to Node \(its default\); \(2\) add a new Remove Duplicates node, set Operation to "Clear Deduplication History".*Retry this execution/s);
		expect(errorOf(result)?.description).not.toMatch(/\bOff\b/);
		expect(await campaigns(context)).toHaveLength(0);
		expect(JSON.stringify(store.rows.get(lockRow()))).toBe(before);
	});

	it('the same with its "value is higher" mode: taken for a held lock at first, then found to be foreign, never broken', async () => {
		store.rows.set(lockRow(), { mode: 'latestIncrementalKey', data: 42 });
		const result = await runNode(context, byName, six.slice(0, 1), { workflowId: history.workflowId });
		expect(errorOf(result)?.message).toMatch(/^Duplicate protection cannot take its lock/);
		expect(await campaigns(context)).toHaveLength(0);
		expect(store.rows.get(lockRow())).toEqual({ mode: 'latestIncrementalKey', data: 42 });
	});

	it('a holder whose store call stalls past its hold limit stops without sending, and says why', async () => {
		Object.assign(lockTiming, { holdLimitMs: 100 });
		store.rmwDelayMs = 150;
		const result = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		store.rmwDelayMs = 0;
		expect(errorOf(result)?.message).toMatch(/^Duplicate protection held its lock on n8n's history for \d+\.\d s, more than the 0\.1 s it allows itself/);
		expect(errorOf(result)?.description).toMatch(/^Nothing was sent\./);
		expect(await campaigns(context)).toHaveLength(0);
		// It leaves the lock row (it may be another holder's by now); takers break it as a dead holder's.
		expect(store.rows.get(lockRow())).toMatchObject({ mode: 'latestIncrementalKey' });
		expect(store.rows.get(lockRow())!.data).toBeLessThan(0);
	});

	it('a store call that never answers stops its run at the hold limit and does not hold up the next runs of the workflow', async () => {
		Object.assign(lockTiming, { holdLimitMs: 100 });
		let answer = () => {};
		store.nodeRowsBlockedUntil = new Promise<void>((resolve) => (answer = resolve));
		const stuck = await runNode(context, byName, six.slice(0, 2), { workflowId: history.workflowId });
		expect(errorOf(stuck)?.message).toMatch(/^Duplicate protection held its lock on n8n's history for \d+\.\d s, more than the 0\.1 s it allows itself/);
		// The database answers nothing yet; the next run of the workflow, in the same process, breaks the left lock and sends.
		store.nodeRowsBlockedUntil = undefined;
		const next = await runNode(context, byName, six.slice(2, 4), { workflowId: history.workflowId });
		expect(next.items.map((item) => item.json.status)).toEqual(['Published', 'Published']);
		expect(namesIn(await campaigns(context))).toEqual(['promo-3', 'promo-4']);
		answer();
	});
});
