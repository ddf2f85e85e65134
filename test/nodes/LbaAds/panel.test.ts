/**
 * What a marketer building a first campaign by hand reads in n8n's editor (issue 41): the node
 * picker's entry, the action's name, the canvas subtitle, a channel's fields in the order of the
 * task, what SMS Quantity counts, the category it starts at, and the credentials' fields.
 * Read from the built package (dist/), as n8n loads it.
 */
import * as path from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

const DIST = path.resolve(__dirname, '../../../dist');
/* eslint-disable @typescript-eslint/no-require-imports */
const { LbaAds } = require(path.join(DIST, 'nodes/LbaAds/LbaAds.node.js'));
/* eslint-enable @typescript-eslint/no-require-imports */

const node: INodeTypeDescription = new LbaAds().description;
const property = (name: string, properties: INodeProperties[] = node.properties) => properties.find((p) => p.name === name) as INodeProperties;

describe("the panel, in a marketer's words", () => {
	it("a channel's fields in the order of the task: who sends, where, what, how many, when, which operator", () => {
		const channels = node.properties.find((p) => p.name === 'channels' && p.type === 'fixedCollection') as INodeProperties;
		const channel = (channels.options as INodePropertyCollection[]).find((o) => o.name === 'channel') as INodePropertyCollection;
		expect(channel.values.map((field) => field.displayName)).toEqual(['Sender', 'Location ID', 'Message', 'SMS Quantity', 'Send From', 'Send Until', 'Telco']);
		const smsQty = channel.values.find((field) => field.name === 'smsQty') as INodeProperties;
		expect(smsQty.description).toMatch(/^How many SMS messages this channel sends \(the API's smsQty\)\. The node takes it as one message per recipient, so about this many people receive it;/);
	});

	it('Category says that it starts at Uncategorized', () => {
		const category = property('categoryId');
		expect(category.default).toBe(26);
		expect(category.hint).toBe('Starts at Uncategorized: pick the category closest to your offer');
	});
});
