/**
 * Every refusal Create makes before sending, read as the panel shows it: the item and the
 * channel first, the problem in the panel's words (dates with their timezone), then the API's
 * own words, then what was sent. The message stands alone (an AI model sees only the message).
 */
import type { IDataObject } from 'n8n-workflow';

import { errorOf } from '../../../../harness';
import { channel, createParameters, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();

/** Runs the items (one by default) with the workflow in WIB; checks nothing was posted; returns the run's error. */
async function refusal(parameters: IDataObject, options: { items?: IDataObject[]; timezone?: string } = {}) {
	const result = await runNode(context, parameters, options.items ?? [{}], { timezone: options.timezone ?? 'Asia/Jakarta' });
	expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	return errorOf(result);
}

const withChannel = (overrides: IDataObject) => createParameters({}, [channel(overrides)]);
const nothingSent = (text: string) => `${text}. Nothing was sent.`;

describe('Create: refusals in the panel\'s words, item and channel first', () => {
	it.each<[string, IDataObject, string]>([
		['a message over one SMS', withChannel({ message: 'x'.repeat(189) }), 'Item 1 › Channel 1 › Message: 189 of 160 characters (29 too many) (API: channels[0].message must be at most 160 characters)'],
		['a sender over 11 characters', withChannel({ sender: 'WARUNGKITA12' }), 'Item 1 › Channel 1 › Sender: 12 of 11 characters (1 too many) (API: channels[0].sender must be at most 11 characters)'],
		['an empty name', createParameters({ name: '={{ "" }}' }), 'Item 1 › Name: empty (API: name must not be empty)'],
		['a blank description', createParameters({ campaignDescription: '={{ "   " }}' }), 'Item 1 › Description: empty (API: description must not be empty)'],
		['a name over 255 characters', createParameters({ name: 'n'.repeat(256) }), 'Item 1 › Name: 256 of 255 characters (1 too many) (API: name must be at most 255 characters)'],
		['an unknown category', createParameters({ categoryId: '={{ "Pizza" }}' }), 'Item 1 › Category: "Pizza" is not a category (API: categoryId must be a category id from 3 to 26 or its label)'],
		['SMS Quantity 0', withChannel({ smsQty: 0 }), 'Item 1 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1)'],
		['SMS Quantity as text', withChannel({ smsQty: '={{ "lots" }}' }), 'Item 1 › Channel 1 › SMS Quantity: "lots" is not a whole number (API: channels[0].smsQty must be a whole number)'],
		['SMS Quantity with a fraction', withChannel({ smsQty: 2.5 }), 'Item 1 › Channel 1 › SMS Quantity: 2.5 is not a whole number (API: channels[0].smsQty must be a whole number)'],
		['SMS Quantity over the bound', withChannel({ smsQty: 20_000_000 }), 'Item 1 › Channel 1 › SMS Quantity: 20,000,000 is more than 10,000,000 (API: channels[0].smsQty must be at most 10,000,000)'],
		['a Location ID over 32 bits', withChannel({ locationId: 2_147_483_648 }), 'Item 1 › Channel 1 › Location ID: 2,147,483,648 is more than 2,147,483,647 (API: channels[0].locationId must be at most 2,147,483,647)'],
		['an unknown operator', withChannel({ telcoId: '={{ "Smartfren" }}' }), 'Item 1 › Channel 1 › Telco: "Smartfren" is not one of isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata) (API: channels[0].telcoId must be isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata))'],
		['a date n8n cannot read', withChannel({ startDate: '={{ "next monday" }}' }), 'Item 1 › Channel 1 › Send From: "next monday" is not a date the node can read ("next monday" is no day it knows); type it as 2026-11-27 09:00 (or 27/11/2026 09.00 WIB) (API: channels[0].startDate must be a date and time in ISO 8601 with a UTC offset)'],
		['an empty date', withChannel({ endDate: '={{ "" }}' }), 'Item 1 › Channel 1 › Send Until: empty (API: channels[0].endDate is required)'],
		['an offset beyond 18 hours', withChannel({ endDate: '2026-12-07T21:00:00+24:00' }), 'Item 1 › Channel 1 › Send Until: UTC offset +24:00 is outside -18:00 to +18:00 (API: channels[0].endDate must be a date and time in ISO 8601 with a UTC offset)'],
		['Send Until before Send From', withChannel({ startDate: '2026-12-05T09:00:00', endDate: '2026-12-05T08:00:00' }), 'Item 1 › Channel 1 › Send Until: 2026-12-05 08:00 Asia/Jakarta is before Send From (2026-12-05 09:00 Asia/Jakarta) (API: channels[0].endDate must be after startDate)'],
		['Send Until at Send From, one with an offset', withChannel({ startDate: '2026-12-05T10:00:00+08:00', endDate: '2026-12-05T09:00:00' }), 'Item 1 › Channel 1 › Send Until: 2026-12-05 09:00 Asia/Jakarta is the same time as Send From (2026-12-05 10:00 +08:00) (API: channels[0].endDate must be after startDate)'],
	])('%s', async (_name, parameters, message) => {
		expect((await refusal(parameters))?.message).toBe(nothingSent(message));
	});

	it('every problem of an item, each with its place, in one message; the categories in the description', async () => {
		const error = await refusal(createParameters({ categoryId: '={{ 99 }}' }, [channel(), channel({ message: 'x'.repeat(189), startDate: '2026-12-05T09:00:00', endDate: '2026-12-05T08:00:00' })]), {
			items: [{}, {}],
		});
		expect(error?.message).toBe(
			nothingSent(
				[
					'Item 1 › Category: 99 is not a category (API: categoryId must be a category id from 3 to 26 or its label)',
					'Item 1 › Channel 2 › Message: 189 of 160 characters (29 too many) (API: channels[1].message must be at most 160 characters)',
					'Item 1 › Channel 2 › Send Until: 2026-12-05 08:00 Asia/Jakarta is before Send From (2026-12-05 09:00 Asia/Jakarta) (API: channels[1].endDate must be after startDate)',
				].join('. '),
			),
		);
		expect(error?.description).toMatch(/^Fix them in the panel, then run again\. Categories: 3 Arts & Entertainment, 4 Automotive, .*, 26 Uncategorized\. Item 1 is the 1st input item \(n8n's error details show Item Index 0\)\.$/);
	});

	it('the second item is "Item 2", as a person counts the rows', async () => {
		const error = await refusal(createParameters({ name: '={{ $json.name }}' }), { items: [{ name: 'Good' }, { name: '' }] });
		expect(error?.message).toBe(nothingSent('Item 2 › Name: empty (API: name must not be empty)'));
		expect(error?.description).toBe("Fix it in the panel, then run again. Item 2 is the 2nd input item (n8n's error details show Item Index 1).");
	});

	describe('channels given as JSON', () => {
		const json = (channels: unknown) => createParameters({ channelsInput: 'json', channelsJson: JSON.stringify(channels), channels: undefined });

		it('a misspelt field, with the field it means', async () => {
			const { smsQty, ...rest } = channel();
			expect((await refusal(json([{ ...rest, smsQuantity: smsQty }])))?.message).toBe(
				nothingSent(
					'Item 1 › Channel 1 › SMS Quantity: missing (API: channels[0].smsQty is required). Item 1 › Channel 1: unknown field "smsQuantity" (did you mean "smsQty"?) (API: channels[0] has unknown field "smsQuantity")',
				),
			);
		});

		it('no channel, more than 99, not a list', async () => {
			expect((await refusal(json([])))?.message).toBe(nothingSent('Item 1 › Channels: none; add at least one channel (API: channels must contain at least one channel)'));
			expect((await refusal(json(Array.from({ length: 100 }, () => channel()))))?.message).toBe(
				nothingSent('Item 1 › Channels: 100, more than 99 (API: channels must contain at most 99 channels)'),
			);
			expect((await refusal(json('Bandung')))?.message).toBe(nothingSent('Item 1 › Channels: "Bandung" is not a list of channels (API: channels must be a list of channels)'));
		});

		it('text that is not JSON', async () => {
			expect((await refusal(createParameters({ channelsInput: 'json', channelsJson: '[{ "sender": ', channels: undefined })))?.message).toBe(
				nothingSent('Item 1 › Channels (JSON): not valid JSON (Unexpected end of JSON input)'),
			);
		});
	});

	describe('the campaign given as JSON', () => {
		const json = (campaignJson: string) => createParameters({ campaignInput: 'json', campaignJson });

		it('not valid JSON, not one object, an unknown field', async () => {
			expect((await refusal(json('{ "name": ')))?.message).toBe(nothingSent('Item 1 › Campaign (JSON): not valid JSON (Unexpected end of JSON input)'));
			expect((await refusal(json('"Weekend promo"')))?.message).toBe(
				nothingSent('Item 1 › Campaign (JSON): "Weekend promo", not one campaign object; give an object with name, description, categoryId and channels'),
			);
			const campaign = { name: 'A', description: 'B', categoryId: 10, channels: [channel()], names: 'x' };
			const error = await refusal(json(JSON.stringify(campaign)));
			expect(error?.message).toBe(nothingSent('Item 1 › Campaign (JSON): unknown field "names" (did you mean "name"?) (API: campaign has unknown field "names")'));
			expect(error?.description).toBe("Fix it in the panel (in Campaign (JSON)), then run again. Item 1 is the 1st input item (n8n's error details show Item Index 0).");
		});
	});

	it('an unknown timezone in Options', async () => {
		const error = await refusal(createParameters({ options: { timezone: 'Asia/Bandung' } }));
		expect(error?.message).toBe(
			nothingSent('Item 1 › Options › Timezone: "Asia/Bandung" is not a timezone; use an IANA name such as Asia/Jakarta (WIB), Asia/Makassar (WITA) or Asia/Jayapura (WIT)'),
		);
	});

	describe('spending limits', () => {
		it('Max SMS per Campaign: the SMS Quantity to lower, the billed SMS and the limit', async () => {
			const error = await refusal(createParameters({ options: { maxSmsPerCampaign: 5000 } }, [channel({ smsQty: 3000 }), channel({ smsQty: 2500, message: 'ï'.repeat(71) })]));
			expect(error?.message).toBe(
				nothingSent(
					"Item 1 › SMS Quantity: 5,500 over the campaign's channels (8,000 SMS billed, counting SMS per recipient), above the spending limit Max SMS per Campaign (5,000)",
				),
			);
			expect(error?.description).toMatch(/^Lower the channels' SMS Quantity to 5,000 in all, or split the campaign\. The limit is set in the node's Options/);
		});

		it('Max Campaigns per Execution: the items of the run, the limit, and that none was sent', async () => {
			const error = await refusal(createParameters({ name: '={{ $json.name }}', options: { maxCampaignsPerExecution: 2 } }), { items: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] });
			expect(error?.message).toBe('Items 1-3 › Max Campaigns per Execution (2): this run has 3 campaigns, over this spending limit. Nothing of this run was sent.');
			expect(error?.description).toMatch(/^Send at most 2 more campaigns in this execution, or fewer items per run\./);
		});
	});
});
