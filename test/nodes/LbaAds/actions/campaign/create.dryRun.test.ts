/**
 * Create Campaign's dry run (Options > Dry Run, and the tool's `preview` argument): validated and
 * converted exactly as a real send, shown instead of sent, and recorded nowhere. Plus the SMS per
 * recipient that every Create output carries.
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf } from '../../../../harness';
import { campaigns, channel, createParameters, requests, runNode, useHistory, useSandbox } from '../../setup';

const context = useSandbox();
const history = useHistory('dry');
const { store } = history;

const CURLY = 'Diskon “spesial” 20% hari ini di Warung Kita, Bandung. Tunjukkan SMS ini!';
const withDryRun = (parameters: IDataObject, dryRun = true) => ({ ...parameters, options: { ...(parameters.options as IDataObject), dryRun } });

describe('Campaign > Create: dry run', () => {
	it('shows the exact request a real send makes, sends nothing and records nothing; the real send then goes out', async () => {
		const parameters = createParameters({}, [channel(), channel({ telcoId: 'xl', message: CURLY, startDate: '2026-12-01T09:00:00+07:00' })]);
		const dry = await runNode(context, withDryRun(parameters), [{}], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		expect(errorOf(dry)).toBeUndefined();
		const preview = dry.items[0].json;
		expect(preview).toMatchObject({ dryRun: true, sent: false, request: { method: 'POST', path: '/lba/campaign' } });
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
		expect(store.entries(history.workflowId, 'lba')).toEqual([]);

		const real = await runNode(context, parameters, [{}], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		expect(real.items[0].json).toMatchObject({ status: 'Published' });
		const [sent] = await requests(context, { method: 'POST', path: '/lba/campaign' });
		// The preview is the body the real run sent, byte for byte once parsed.
		expect((preview.request as IDataObject).body).toEqual(sent.body);
		expect(preview.idempotencyKey).toBe(real.items[0].json.idempotencyKey);
	});

	it('counts SMS per recipient and warns of UCS-2, long messages and dates without an offset', async () => {
		const parameters = createParameters({}, [channel({ message: 'Promo hari ini!' }), channel({ message: CURLY })]);
		const dry = await runNode(context, withDryRun(parameters), [{}], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		const preview = dry.items[0].json;
		expect(preview.smsPerRecipient).toEqual([
			{ channel: 1, encoding: 'GSM-7', units: 15, segments: 1 },
			{ channel: 2, encoding: 'UCS-2', units: 73, segments: 2, nonGsmCharacter: '“' },
		]);
		expect(preview.warnings).toEqual([
			'Channel 2: “ (U+201C) is not in the GSM alphabet, so the message is sent as UCS-2 (70 per SMS): 73 units, 2 SMS per recipient.',
			'Channel 1: This window runs through 6 nights (21:00 to 08:00 WIB), and the service may send at any hour of it.',
			'Channel 2: This window runs through 6 nights (21:00 to 08:00 WIB), and the service may send at any hour of it.',
			'channels[0].startDate, channels[0].endDate, channels[1].startDate, channels[1].endDate had no UTC offset and were read in Asia/Jakarta.',
		]);
	});

	it('a bad campaign fails as a real send would, and nothing is sent', async () => {
		const dry = await runNode(context, withDryRun(createParameters({}, [channel({ smsQty: 0 })])), [{}], { workflowId: history.workflowId });
		expect(errorOf(dry)?.message).toBe('Item 1 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1). Nothing was sent.');
		expect(await requests(context)).toHaveLength(0);
	});

	it('a real send also says how many SMS each recipient gets, counted on the text sent', async () => {
		const result = await runNode(context, createParameters({}, [channel({ message: '€'.repeat(81) })]), [{}], { workflowId: history.workflowId });
		expect(result.items[0].json.smsPerRecipient).toEqual([{ channel: 1, encoding: 'GSM-7', units: 162, segments: 2 }]);
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('a message typed with combining accents is shown, counted and sent as it goes out: in NFC', async () => {
		const decomposed = 'Halo Hélène! Promo spesial di café kami: diskon 50% untuk pelanggan setia setiap Jumat. Tunjukkan SMS ini di kasir.'.normalize('NFD');
		const parameters = createParameters({}, [channel({ message: decomposed })]);
		const dry = await runNode(context, withDryRun(parameters), [{}], { workflowId: history.workflowId });
		const body = (dry.items[0].json.request as IDataObject).body as IDataObject;
		const shown = (body.channels as IDataObject[])[0].message as string;
		expect(shown).toBe(decomposed.normalize('NFC'));
		expect(shown).not.toBe(decomposed);
		// As typed (NFD) it would be UCS-2 and 2 SMS per recipient; as sent it is GSM-7 and 1.
		expect(dry.items[0].json.smsPerRecipient).toEqual([{ channel: 1, encoding: 'GSM-7', units: 115, segments: 1 }]);
		expect(dry.items[0].json.warnings).toEqual([expect.stringMatching(/runs through 6 nights/), expect.stringMatching(/had no UTC offset/)]);
		await runNode(context, parameters, [{}], { workflowId: history.workflowId });
		const [sent] = await requests(context, { method: 'POST', path: '/lba/campaign' });
		expect(sent.body).toEqual(body);
	});

	it('on the tool, the model previews with preview: true and publishes with preview: false', async () => {
		const call = (preview: boolean) => ({
			name: 'Tool preview',
			description: 'Preview first',
			category: 'Shopping',
			channels: [{ ...channel(), startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-02T09:00:00+07:00' }],
			preview,
		});
		const tool = { type: 'n8n-nodes-lba-ads.lbaAdsTool' };
		const parameters = { resource: 'campaign', operation: 'create' };
		const previewed = await runNode(context, parameters, [call(true)], { node: tool, workflowId: history.workflowId });
		expect(previewed.items[0].json).toMatchObject({ dryRun: true, request: { body: { name: 'Tool preview', categoryId: 24 } } });
		expect(await campaigns(context)).toHaveLength(0);
		const published = await runNode(context, parameters, [call(false)], { node: tool, workflowId: history.workflowId });
		expect(published.items[0].json).toMatchObject({ status: 'Published' });
		expect(await campaigns(context)).toHaveLength(1);
	});
});
