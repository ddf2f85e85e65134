/**
 * Create Campaign in n8n-core's engine against the sandbox: the same campaign written two ways
 * (channels in another order, text in NFC or NFD) is sent once; a changed channel is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf } from '../../../../harness';
import { campaigns, channel, createParameters, runNode, useHistory, useSandbox } from '../../setup';

const context = useSandbox();
const history = useHistory('meaning');

const CAFE = 'Promo spesial di café! Diskon 50% untuk pelanggan setia.';
const withDates = (overrides: IDataObject) => channel({ startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-07T21:00:00+07:00', ...overrides });
const tsel = withDates({ telcoId: 'tsel' });
const xl = withDates({ telcoId: 'xl', smsQty: 200 });
const isat = withDates({ telcoId: 'isat', locationId: 3273 });
const channelsFromItem = createParameters({ channelsInput: 'json', channelsJson: '={{ $json.channels }}', channels: undefined });

describe('Campaign > Create: the same campaign by meaning', () => {
	it('the same channels in another order: one campaign, in the same run and in a later one', async () => {
		const result = await runNode(context, channelsFromItem, [{ channels: [tsel, xl, isat] }, { channels: [isat, tsel, xl] }], { workflowId: history.workflowId });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json.status).toBe('Published');
		expect(result.items[1].json).toMatchObject({ skipped: true, earlierOutcome: 'sameRun', idempotencyKey: result.items[0].json.idempotencyKey });
		const later = await runNode(context, channelsFromItem, [{ channels: [xl, isat, tsel] }], { workflowId: history.workflowId });
		expect(later.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		const sent = await campaigns(context);
		expect(sent).toHaveLength(1);
		// Sent in the order the user gave.
		expect((sent[0].request.channels as IDataObject[]).map(({ telcoId }) => telcoId)).toEqual(['tsel', 'xl', 'isat']);
	});

	it('a channel changed in one field, or listed once more, is another campaign and is sent', async () => {
		const result = await runNode(
			context,
			channelsFromItem,
			[{ channels: [tsel, xl] }, { channels: [xl, { ...tsel, smsQty: 501 }] }, { channels: [xl, tsel, tsel] }],
			{ workflowId: history.workflowId },
		);
		expect(errorOf(result)).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(['Published', 'Published', 'Published']);
		expect(await campaigns(context)).toHaveLength(3);
	});

	it("the same window written with its offset and without one (read in its place's zone): one campaign, in the same run and in a later one", async () => {
		// Kota Makassar is in WITA; on a UTC workflow a date without an offset is read in its place's zone.
		const makassar = (startDate: string, endDate: string) => channel({ locationId: 7371, startDate, endDate });
		const withOffset = makassar('2026-12-01T09:00:00+08:00', '2026-12-01T18:00:00+08:00');
		const asTyped = makassar('2026-12-01 09:00', '2026-12-01 18:00');
		const result = await runNode(context, channelsFromItem, [{ channels: [withOffset] }, { channels: [asTyped] }], { workflowId: history.workflowId, timezone: 'UTC' });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[1].json).toMatchObject({ skipped: true, earlierOutcome: 'sameRun', idempotencyKey: result.items[0].json.idempotencyKey });
		const later = await runNode(context, channelsFromItem, [{ channels: [asTyped] }], { workflowId: history.workflowId, timezone: 'UTC' });
		expect(later.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('the same message in NFD (a copy from macOS or a CMS) and in NFC: one campaign, sent in NFC as GSM-7', async () => {
		const byMessage = createParameters({}, [channel({ message: '={{ $json.message }}' })]);
		const result = await runNode(context, byMessage, [{ message: CAFE.normalize('NFD') }, { message: CAFE }], { workflowId: history.workflowId, timezone: 'Asia/Jakarta' });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Published', smsPerRecipient: [{ channel: 1, encoding: 'GSM-7', units: 56, segments: 1 }] });
		expect(result.items[1].json).toMatchObject({ skipped: true, earlierOutcome: 'sameRun' });
		const sent = await campaigns(context);
		expect(sent).toHaveLength(1);
		const message = (sent[0].request.channels as IDataObject[])[0].message;
		expect(message).toBe(CAFE);
		expect(message).not.toBe(CAFE.normalize('NFD'));
	});
});
