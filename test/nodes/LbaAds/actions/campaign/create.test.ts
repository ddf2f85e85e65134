import { errorOf } from '../../../../harness';
import { campaigns, channel, createParameters, fault, holdNextLatency, requests, runNode, useReturnedByExecute, useSandbox } from '../../setup';

const context = useSandbox();
// pairedItem as execute() returned it: n8n would fill a dropped one in the run's output.
const returned = useReturnedByExecute();
/** The pairedItem of each item the last run's execute() returned. */
const pairedItems = () => returned[returned.length - 1][0].map((item) => item.pairedItem);

describe('Campaign > Create', () => {
	it('creates a campaign: sends the spec body with offset dates, outputs the service answer', async () => {
		const result = await runNode(
			context,
			// A date alone is midnight: a night start, allowed here (create.sendWindows.test.ts refuses it by default).
			createParameters({ options: { allowNightStart: true } }, [channel(), channel({ telcoId: 'xl', locationId: '3578', startDate: '2026-12-02', endDate: '2026-12-03' })]),
			[{}],
			{ timezone: 'Asia/Jakarta' },
		);
		expect(errorOf(result)).toBeUndefined();

		const [sent] = await campaigns(context);
		expect(sent.request).toEqual({
			name: 'Weekend promo',
			description: 'Promo for the weekend',
			categoryId: 10,
			channels: [
				{ ...channel(), startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-07T21:00:00+07:00' },
				{
					...channel({ telcoId: 'xl', locationId: 3578 }),
					startDate: '2026-12-02T00:00:00+07:00',
					endDate: '2026-12-03T23:59:59+07:00',
				},
			],
		});
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({
					success: true,
					campaignId: sent.campaignId,
					channels: [`${sent.campaignId}-01`, `${sent.campaignId}-02`],
					status: 'Published',
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect(pairedItems()).toEqual([{ item: 0 }]);

		const [request] = await requests(context, { path: '/lba/campaign' });
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toMatch(/^application\/json/);
	});

	it('takes channels from JSON built by an earlier node, with the service sample\'s string ids', async () => {
		const channelsFromInput = [
			{
				sender: 'LBADEMO',
				locationId: '3273',
				smsQty: 100,
				message: 'Hai Bandung',
				startDate: '2026-12-16',
				endDate: '2026-12-17',
				telcoId: 'isat',
			},
		];
		const result = await runNode(
			context,
			createParameters({ channelsInput: 'json', channelsJson: '={{ $json.channels }}', channels: undefined, options: { allowNightStart: true } }),
			[{ channels: channelsFromInput }],
			{ timezone: 'Asia/Makassar' },
		);
		expect(errorOf(result)).toBeUndefined();
		const [sent] = await campaigns(context);
		expect(sent.request.channels).toEqual([
			{
				...channelsFromInput[0],
				locationId: 3273,
				startDate: '2026-12-16T00:00:00+08:00',
				endDate: '2026-12-17T23:59:59+08:00',
			},
		]);
	});

	it('Campaign Input = JSON: one value gives the whole campaign, sent and keyed exactly as the same campaign from fields', async () => {
		const fromFields = await runNode(context, createParameters({}), [{}], { timezone: 'Asia/Jakarta', workflowId: 'campaign-json-fields' });
		expect(errorOf(fromFields)).toBeUndefined();
		const [sentFromFields] = await campaigns(context);
		const campaign = { name: 'Weekend promo', description: 'Promo for the weekend', categoryId: 'Food & Drinks', channels: channel() };
		const fromJson = await runNode(context, createParameters({ campaignInput: 'json', campaignJson: '={{ $json.campaign }}' }), [{ campaign }], {
			timezone: 'Asia/Jakarta',
			workflowId: 'campaign-json',
		});
		expect(errorOf(fromJson)).toBeUndefined();
		const sent = await campaigns(context);
		expect(sent).toHaveLength(2);
		expect(sent[1].request).toEqual(sentFromFields.request);
		expect(fromJson.items[0].json.idempotencyKey).toBe(fromFields.items[0].json.idempotencyKey);
	});

	it('Campaign Input = JSON: text that is not one campaign object is refused with the item and what to give, nothing sent', async () => {
		const run = (campaignJson: string) =>
			runNode(context, createParameters({ campaignInput: 'json', campaignJson }), [{}, {}], { node: { onError: 'continueRegularOutput' } });
		const notJson = await run('{ "name": ');
		expect(notJson.items[0].json.error).toBe('Item 1 › Campaign (JSON): not valid JSON (Unexpected end of JSON input). Not sent; the other items go on.');
		const array = await run('[{ "name": "A" }]');
		expect(array.items.map((item) => item.json.error)).toEqual([1, 2].map(
			(item) => `Item ${item} › Campaign (JSON): an array of 1, not one campaign object; give an object with name, description, categoryId and channels. Not sent; the other items go on.`,
		));
		expect(array.items[1].json.description).toBe("For several campaigns, give one item per campaign. Item 2 is the 2nd input item (n8n's error details show Item Index 1).");
		const unknownField = await run(JSON.stringify({ name: 'A', description: 'B', categoryId: 10, channels: [channel()], budget: 5 }));
		expect(unknownField.items[0].json).toEqual({
			error: 'Item 1 › Campaign (JSON): unknown field "budget" (API: campaign has unknown field "budget"). Not sent; the other items go on.',
			// On Error → Continue: the other items went on, so "run again" would send them again with $now dates (issue 60).
			description:
				"Fix it in the panel (in Campaign (JSON)), then run the workflow again with only this item (for example, its row alone in the input): the other items of this run were sent, and a new run holds them back only if their dates come out the same. Item 1 is the 1st input item (n8n's error details show Item Index 0).",
		});
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});

	it('the Timezone option overrides the workflow timezone for offset-less dates', async () => {
		const result = await runNode(context, createParameters({ options: { timezone: 'Asia/Jayapura', allowNightStart: true } }), [{}], {
			timezone: 'Europe/Berlin',
		});
		expect(errorOf(result)).toBeUndefined();
		const [sent] = await campaigns(context);
		expect((sent.request.channels as Array<{ startDate: string }>)[0].startDate).toBe('2026-12-01T09:00:00+09:00');
	});

	it('an invalid item stops the run before anything is sent, naming item, channel and field', async () => {
		const result = await runNode(
			context,
			createParameters({ name: '={{ $json.name }}' }, [channel(), channel({ endDate: '2026-11-30T09:00:00' })]),
			[{ name: 'A' }, { name: 'B' }, { name: 'C' }],
			{ timezone: 'Asia/Jakarta' },
		);
		const error = errorOf(result);
		expect(error?.message).toBe(
			'Item 1 › Channel 2 › Send Until: 2026-11-30 09:00 Asia/Jakarta is before Send From (2026-12-01 09:00 Asia/Jakarta) (API: channels[1].endDate must be after startDate). Nothing was sent.',
		);
		expect(error?.description).toBe("Fix it in the panel, then run again. Item 1 is the 1st input item (n8n's error details show Item Index 0).");
		expect((result.error as unknown as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});

	it('with continueOnFail, bad items become error items and good items are still sent, in input order', async () => {
		const result = await runNode(
			context,
			createParameters({
				name: '={{ $json.name }}',
				channels: { channel: [channel({ smsQty: '={{ $json.qty }}' })] },
			}),
			[
				{ name: 'ok-1', qty: 10 },
				{ name: '', qty: 10 },
				{ name: 'ok-2', qty: 0 },
				{ name: 'ok-3', qty: '25' },
			],
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(errorOf(result)).toBeUndefined();
		expect(pairedItems()).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(result.items[0].json).toMatchObject({ status: 'Published' });
		expect(result.items[1].json.error).toBe('Item 2 › Name: empty (API: name must not be empty). Not sent; the other items go on.');
		expect(result.items[2].json.error).toBe('Item 3 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1). Not sent; the other items go on.');
		expect(result.items[3].json).toMatchObject({ status: 'Published' });

		const sent = await campaigns(context);
		expect(sent.map((campaign) => campaign.request.name).sort()).toEqual(['ok-1', 'ok-3']);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(2);
	});

	it('a G-400003 answer becomes a clear API error with the server message', async () => {
		await fault(context, {
			method: 'POST',
			path: '/lba/campaign',
			status: 400,
			body: {
				success: false,
				error: {
					code: 'G-400003',
					message: 'Campaign could not be created: incomplete or invalid data',
					details: [{ field: 'channels[0].sender', message: 'sender is not registered' }],
				},
			},
		});
		const result = await runNode(context, createParameters());
		const error = errorOf(result);
		expect(error?.message).toBe('The service rejected the campaign as incomplete or invalid (G-400003); the campaign was not created');
		expect(error?.description).toContain('Campaign could not be created: incomplete or invalid data');
		expect(error?.description).toContain('- channels[0].sender: sender is not registered');
		expect(error?.httpCode).toBe('400');
	});

	it.each([
		['503 before the campaign was made', { status: 503, body: { message: 'busy' } }, 0],
		['503 after the campaign was made', { status: 503, body: { message: 'busy' }, when: 'after' }, 1],
		['a dropped connection after the campaign was made', { drop: true, when: 'after' }, 1],
		['429 with Retry-After', { status: 429, headers: { 'Retry-After': '1' }, body: { message: 'slow down' } }, 0],
	])('is never retried: %s', async (_name, spec, created) => {
		await fault(context, { method: 'POST', path: '/lba/campaign', times: 5, ...spec });
		const result = await runNode(context, createParameters());
		expect(errorOf(result)?.description).toMatch(/not retried/);
		expect(await requests(context, { method: 'POST', path: '/lba/campaign' })).toHaveLength(1);
		expect(await campaigns(context)).toHaveLength(created);
	});

	it('many items run concurrently, but output order and pairedItem follow the input', async () => {
		// The first request (one of items 1-4) is held until the 11 others are created: it finishes last.
		await fault(context, { method: 'POST', path: '/lba/campaign', times: 1, latencyMs: 1 });
		const slow = holdNextLatency(context);
		const names = Array.from({ length: 12 }, (_, index) => `campaign-${index}`);
		const running = runNode(
			context,
			createParameters({ name: '={{ $json.name }}', options: { concurrency: 4 } }),
			names.map((name) => ({ name })),
		);
		await slow.arrived;
		while ((await campaigns(context)).length < 11) await new Promise((resolve) => setTimeout(resolve, 5));
		slow.release();
		const result = await running;
		expect(errorOf(result)).toBeUndefined();
		const sent = await campaigns(context);
		const idByName = new Map(sent.map((campaign) => [campaign.request.name, campaign.campaignId]));
		expect(result.items.map((item) => item.json.campaignId)).toEqual(names.map((name) => idByName.get(name)));
		expect(pairedItems()).toEqual(names.map((_, item) => ({ item })));
		// Created out of input order (the held one last), output in input order.
		expect(names.indexOf(String(sent[11].request.name))).toBeLessThan(4);
	});
});
