/**
 * LBA Ads Tool, the node n8n builds from `usableAsTool` for AI agents, in n8n-core's engine.
 * The tool node keeps its defaults, so every field comes from `$fromAI()`; the harness feeds the
 * tool call's arguments as the input item, where `$fromAI('key')` reads them (in real n8n the
 * agent does that: test/e2e/ai-agent.e2e.test.ts).
 */
import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { LbaAds } from '../../../nodes/LbaAds/LbaAds.node';
import { errorOf, harnessDeduplicator } from '../../harness';
import { campaigns, fault, requests, runNode, useSandbox } from './setup';

const context = useSandbox();
const store = harnessDeduplicator();
const TOOL = { type: 'n8n-nodes-lba-ads.lbaAdsTool' };
const createTool = { resource: 'campaign', operation: 'create' };

/** What a model sends for one campaign; override what a test is about. */
function toolCall(overrides: IDataObject = {}, channel: IDataObject = {}): IDataObject {
	return {
		name: 'Bandung weekend promo',
		description: 'Weekend promo for the Bandung store',
		category: 'Food & Drinks',
		channels: [
			{
				sender: 'LBADEMO',
				locationId: 3273,
				smsQty: 500,
				message: 'Diskon 20% akhir pekan ini!',
				startDate: '2026-12-05T09:00:00+07:00',
				endDate: '2026-12-06T21:00:00+07:00',
				telcoId: 'Telkomsel',
				...channel,
			},
		],
		...overrides,
	};
}

let workflowCounter = 0;
beforeEach(() => store.reset());
const workflowId = () => `tool-${++workflowCounter}`;

describe('LBA Ads Tool (the node as an AI agent tool)', () => {
	it('fills every campaign field from the model, Category and Telco by label, and creates the campaign', async () => {
		const result = await runNode(context, createTool, [toolCall()], { node: TOOL, workflowId: workflowId() });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Published', idempotencyKey: expect.stringMatching(/^content:/) });
		expect(result.items[0].json).not.toHaveProperty('assumedTimezone');
		const [sent] = await campaigns(context);
		expect(sent.request).toMatchObject({
			name: 'Bandung weekend promo',
			description: 'Weekend promo for the Bandung store',
			categoryId: 10,
			channels: [{ telcoId: 'tsel', startDate: '2026-12-05T09:00:00+07:00' }],
		});
	});

	it('takes one channel object as a list of one, and ids as digit text', async () => {
		const call = toolCall({ category: '10' });
		call.channels = (call.channels as IDataObject[])[0];
		const result = await runNode(context, createTool, [call], { node: TOOL, workflowId: workflowId() });
		expect(errorOf(result)).toBeUndefined();
		expect((await campaigns(context)).map((campaign) => campaign.request.categoryId)).toEqual([10]);
	});

	it('every problem is in the message, with the valid values, and nothing is sent', async () => {
		const result = await runNode(
			context,
			createTool,
			[toolCall({ category: 'Pizza' }, { telcoId: 'Smartfren', smsQty: 0 })],
			{ node: TOOL, workflowId: workflowId() },
		);
		const message = errorOf(result)?.message ?? '';
		expect(message).toMatch(/^Item 1 › Category: "Pizza" is not a category \(API: categoryId must be a category id from 3 to 26 or its label\)\. /);
		expect(message).toContain('Item 1 › Channel 1 › SMS Quantity: 0 is less than 1 (API: channels[0].smsQty must be at least 1)');
		expect(message).toContain(
			'Item 1 › Channel 1 › Telco: "Smartfren" is not one of isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata) (API: channels[0].telcoId must be isat (Indosat Ooredoo Hutchison), tsel (Telkomsel) or xl (XL Axiata))',
		);
		// The tool's message also carries the description (the categories), which n8n does not pass to the model.
		expect(message).toContain('. Nothing was sent. Categories: 3 Arts & Entertainment, 4 Automotive,');
		expect(message).toMatch(/10 Food & Drinks, .*, 26 Uncategorized\.$/);
		expect(await requests(context, { path: '/lba/campaign' })).toHaveLength(0);
	});

	it('the regular node keeps the message and the longer description apart for its panel', async () => {
		const result = await runNode(
			context,
			{ ...createTool, name: 'x', campaignDescription: 'y', categoryId: 99, channelsInput: 'json', channelsJson: '[]' },
			[{}],
			{ workflowId: workflowId() },
		);
		const error = errorOf(result);
		expect(error?.message).toBe(
			'Item 1 › Category: 99 is not a category (API: categoryId must be a category id from 3 to 26 or its label). Item 1 › Channels: none; add at least one channel (API: channels must contain at least one channel). Nothing was sent.',
		);
		expect(error?.description).toMatch(/^Fix them in the panel, then run again\. Categories: 3 Arts & Entertainment, .*, 26 Uncategorized\. Item 1 is the 1st input item/);
	});

	it('a 502 after the service created the campaign: the message says it may exist; the same call again is not sent', async () => {
		await fault(context, { method: 'POST', path: '/lba/campaign', when: 'after', status: 502, times: 1 });
		const id = workflowId();
		const failed = await runNode(context, createTool, [toolCall()], { node: TOOL, workflowId: id });
		const message = errorOf(failed)?.message ?? '';
		expect(message).toMatch(/^The LBA service failed to answer POST \/lba\/campaign \(HTTP 502\); the campaign may have been created, so do not send it again\. /);
		expect(message).toContain('so a Retry of this execution will not send it again (nor a new run, unless its dates come from $now: then it is a new campaign)');
		// The way to send it again that a tool user can take (a tool node has no Mode), its key in it.
		expect(message).toMatch(/only if it is missing, send it again: show the user this key: again:v1:\S+\. The user then, in the editor, makes a new workflow with one LBA Ads node/);
		expect(message).not.toContain("set this node's Mode");
		expect(await campaigns(context)).toHaveLength(1);

		const again = await runNode(context, createTool, [toolCall()], { node: TOOL, workflowId: id });
		expect(errorOf(again)).toBeUndefined();
		expect(again.items[0].json).toMatchObject({ skipped: true, earlierOutcome: 'unknown' });
		// A tool node has no Mode: its held result sends the user to a Create node in the editor.
		expect(again.items[0].json.howToResend).toContain("If it is missing: show the user the held result's sendAgainKey. The user then, in the editor, makes a new workflow with one LBA Ads node set to Resource Campaign and Operation Create (not the tool)");
		expect(await campaigns(context)).toHaveLength(1);
	});

	it('dates without an offset: the output says which timezone they were read in', async () => {
		const result = await runNode(
			context,
			createTool,
			[toolCall({}, { startDate: '2026-12-05T09:00:00', endDate: '2026-12-06' })],
			{ node: TOOL, workflowId: workflowId(), timezone: 'Asia/Jakarta' },
		);
		expect(errorOf(result)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			assumedTimezone: 'Asia/Jakarta',
			datesWithoutOffset: ['channels[0].startDate', 'channels[0].endDate'],
		});
		const [sent] = await campaigns(context);
		expect(sent.request.channels).toMatchObject([{ startDate: '2026-12-05T09:00:00+07:00', endDate: '2026-12-06T23:59:59+07:00' }]);
	});

	it('Forget Sent as a tool forgets nothing and tells the model why, with the way out', async () => {
		const id = workflowId();
		await runNode(context, createTool, [toolCall()], { node: TOOL, workflowId: id });
		const entries = store.entries(id, 'lba');
		expect(entries.length).toBeGreaterThan(0);
		const result = await runNode(context, { resource: 'campaign', operation: 'forgetSent', forget: 'all' }, [{}], { node: TOOL, workflowId: id });
		expect(errorOf(result)?.message).toMatch(/^Forget Sent does nothing as a tool: .*Nothing was forgotten\. To send a campaign the Create tool held again, show the user the held result's sendAgainKey\. The user then, in the editor, makes a new workflow with one LBA Ads node set to Resource Campaign and Operation Create \(not the tool\)/);
		expect(store.entries(id, 'lba')).toEqual(entries);
	});

	it('reverse geocode: latitude and longitude from the model; both bad values named in one message', async () => {
		const found = await runNode(context, { resource: 'location', operation: 'reverseGeocode' }, [{ latitude: -6.9175, longitude: 107.6191 }], { node: TOOL });
		expect(found.items[0].json).toMatchObject({ found: true, city: 'Kota Bandung' });
		const bad = await runNode(context, { resource: 'location', operation: 'reverseGeocode' }, [{ latitude: 'north', longitude: 500 }], { node: TOOL });
		expect(errorOf(bad)?.message).toBe(
			'Latitude must be a number from -90 to 90, got "north"; Longitude must be a number from -180 to 180, got 500. Nothing was sent. Give decimal degrees, e.g. -6.9147 and 107.6098 for Bandung.',
		);
	});
});

describe('what the model reads: tool description and $fromAI defaults only on the tool', () => {
	const node = new LbaAds();
	const regular = node.description;
	const tool = { ...regular, name: 'lbaAdsTool' } as INodeTypeDescription;
	const parameters = (description: INodeTypeDescription, values: IDataObject) =>
		NodeHelpers.getNodeParameters(description.properties, values as never, true, false, null, description) as IDataObject;

	it('the regular node has no tool description and plain defaults', () => {
		const values = parameters(regular, createTool);
		expect(values).not.toHaveProperty('toolDescription');
		expect(values).toMatchObject({ name: '', categoryId: 26, channelsInput: 'fields' });
	});

	it('the tool describes each operation for a model and asks it for every campaign field', () => {
		const values = parameters(tool, createTool);
		expect(values.toolDescription).toMatch(/^Publishes a paid SMS campaign in LBA Ads at once: .*call it once per campaign\. Never call it again/);
		expect(values.channelsInput).toBe('json');
		for (const [field, key, type] of [
			['name', 'name', 'string'],
			['campaignDescription', 'description', 'string'],
			['categoryId', 'category', 'string'],
			['channelsJson', 'channels', 'json'],
		]) {
			expect(values[field]).toMatch(new RegExp(`^={{ /\\*n8n-auto-generated-fromAI-override\\*/ \\$fromAI\\('${key}', \`[^\`]{20,}\`, '${type}'\\) }}$`));
		}
		expect(values.channelsJson).toContain('+07:00 WIB');
		expect(values.categoryId).toContain('10 Food & Drinks');
		expect(parameters(tool, { resource: 'product', operation: 'getMany' }).toolDescription).toMatch(/mobile data packages/);
		expect(parameters(tool, { resource: 'location', operation: 'reverseGeocode' }).toolDescription).toMatch(/^Looks up the address/);
	});
});
