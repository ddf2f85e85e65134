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

	it("the trigger joins the node's picker entry without changing what it says: its name is the node's and \"Trigger\", its description the node's", () => {
		// n8n's editor merges a trigger into the node named as it without "Trigger", and the entry then
		// shows the trigger's description. That merge is n8n's, asserted in its own editor by
		// first-campaign.e2e (one "LBA Ads" entry for "LBA", with this description); here, what it relies on.
		expect(trigger.name).toBe(`${node.name}Trigger`);
		expect(trigger.description).toBe(node.description);
		expect(node.description).toBe('Publish location-based SMS campaigns (sent at once, billed), reverse-geocode coordinates and list data packages');
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
