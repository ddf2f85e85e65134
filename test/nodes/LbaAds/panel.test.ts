/**
 * What a marketer building a first campaign by hand reads in n8n's editor (issue 41): the node
 * picker's entry, the action's name, the canvas subtitle, a channel's fields in the order of the
 * task, what SMS Quantity counts, the category it starts at, and the credentials' fields.
 * Read from the built package (dist/), as n8n loads it.
 */
import * as path from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { OAuth2Api } from '../../harness/oauth2-api.credentials';

const DIST = path.resolve(__dirname, '../../../dist');
/* eslint-disable @typescript-eslint/no-require-imports */
const { LbaAds } = require(path.join(DIST, 'nodes/LbaAds/LbaAds.node.js'));
const { LbaAdsTrigger } = require(path.join(DIST, 'nodes/LbaAdsTrigger/LbaAdsTrigger.node.js'));
const { LbaAdsApi } = require(path.join(DIST, 'credentials/LbaAdsApi.credentials.js'));
const { LbaAdsOAuth2Api } = require(path.join(DIST, 'credentials/LbaAdsOAuth2Api.credentials.js'));
/* eslint-enable @typescript-eslint/no-require-imports */

const node: INodeTypeDescription = new LbaAds().description;
const trigger: INodeTypeDescription = new LbaAdsTrigger().description;
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

	it('the Create action says it publishes and bills; its value stays "create" for saved workflows', () => {
		const operations = node.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('campaign')) as INodeProperties;
		const create = (operations.options as INodePropertyOptions[]).find((o) => o.value === 'create');
		expect(create).toMatchObject({ name: 'Create', value: 'create', action: 'Publish a campaign (sends SMS, billed)' });
		expect(create?.description).toMatch(/^Publish an SMS campaign at once: its SMS go out and are billed/);
	});

	it('the canvas subtitle is the action, not "create: campaign"', () => {
		const subtitle = (resource: string, operation: string) =>
			// The subtitle is an n8n expression over the node's parameters: evaluated here as n8n would, with $parameter.
			new Function('$parameter', `return ${String(node.subtitle).replace(/^=\{\{(.*)\}\}$/s, '$1')};`)({ resource, operation });
		expect(subtitle('campaign', 'create')).toBe('Publish a campaign (sends SMS, billed)');
		expect(subtitle('location', 'reverseGeocode')).toBe('Reverse geocode a location');
		expect(subtitle('__CUSTOM_API_CALL__', '__CUSTOM_API_CALL__')).toBe('__CUSTOM_API_CALL__');
	});

	it("n8n's node picker shows one LBA Ads entry, with the action node's own description", () => {
		// n8n's editor (generateMergedNodesAndActions, 1.x and 2.x; read in n8n 2.40.7's editor bundle)
		// merges a trigger into the node whose name is the trigger's without "Trigger", and the
		// merged entry takes the trigger's description.
		const merged = [node, trigger].filter((type) => !type.group.includes('trigger')).map((type) => ({ ...type }));
		for (const type of [node, trigger].filter((t) => t.group.includes('trigger'))) {
			const target = merged.find((entry) => entry.name === type.name.replace('Trigger', ''));
			if (target) target.description = type.description;
		}
		expect(merged.map((entry) => [entry.displayName, entry.description])).toEqual([
			['LBA Ads', 'Publish location-based SMS campaigns (sent at once, billed), reverse-geocode coordinates and list data packages'],
		]);
		expect(merged[0].description).toBe(node.description);
	});
});

describe("the credentials' fields say what to enter", () => {
	it('access token: Base URL and Access Token have hints', () => {
		const { properties } = new LbaAdsApi() as { properties: INodeProperties[] };
		expect(property('baseUrl', properties).hint).toBe(
			"The address your LBA partner account gives you, without /lba or /io at the end. To try the node without sending SMS, ask whoever set up your n8n for the LBA sandbox's address: it sends nothing and bills nothing.",
		);
		expect(property('accessToken', properties).hint).toMatch(/^A token expires .*use the LBA Ads OAuth2 API credential/);
	});

	it('OAuth2: Client ID and Client Secret described, in OAuth2 API\'s places (n8n merges the fields by name)', () => {
		const parent = new OAuth2Api().properties;
		const merged: INodeProperties[] = [];
		NodeHelpers.mergeNodeProperties(merged, parent);
		NodeHelpers.mergeNodeProperties(merged, (new LbaAdsOAuth2Api() as { properties: INodeProperties[] }).properties);
		const names = merged.map((p) => p.name);
		expect(['clientId', 'clientSecret'].map((name) => names.indexOf(name))).toEqual(['clientId', 'clientSecret'].map((name) => parent.findIndex((p) => p.name === name)));
		expect(property('clientId', merged).description).toBe('The client key (consumer key) of your LBA partner account');
		expect(property('clientSecret', merged)).toMatchObject({ typeOptions: { password: true }, description: 'The client secret (consumer secret) that goes with the client key' });
		expect(property('baseUrl', merged).hint).toMatch(/^The address your LBA partner account gives you/);
	});
});
