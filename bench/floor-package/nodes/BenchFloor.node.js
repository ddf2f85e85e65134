'use strict';
// The engine floor: the same parameters as the LBA Ads node's Reverse Geocode and Create
// Campaign, read per item with getNodeParameter exactly as the LBA node reads them, then
// nothing else. Its time is what n8n itself costs for those parameters; the LBA node's
// time minus this is what the node adds (validation, HTTP, output).

const channelFields = [
	{ displayName: 'End', name: 'endDate', type: 'dateTime', default: '' },
	{ displayName: 'Location ID', name: 'locationId', type: 'number', default: 0 },
	{ displayName: 'Message', name: 'message', type: 'string', default: '' },
	{ displayName: 'Sender', name: 'sender', type: 'string', default: '' },
	{ displayName: 'SMS Quantity', name: 'smsQty', type: 'number', default: 1 },
	{ displayName: 'Start', name: 'startDate', type: 'dateTime', default: '' },
	{
		displayName: 'Telco',
		name: 'telcoId',
		type: 'options',
		default: 'tsel',
		options: [
			{ name: 'Telkomsel', value: 'tsel' },
			{ name: 'Indosat', value: 'isat' },
			{ name: 'XL', value: 'xl' },
		],
	},
];

const geocode = { show: { operation: ['reverseGeocode'] } };
const create = { show: { operation: ['create'] } };

class BenchFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Floor',
			name: 'benchFloor',
			group: ['transform'],
			version: 1,
			description: 'Reads the LBA node parameters per item and returns',
			defaults: { name: 'Bench Floor' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					default: 'reverseGeocode',
					options: [
						{ name: 'Reverse Geocode', value: 'reverseGeocode' },
						{ name: 'Create', value: 'create' },
					],
				},
				{ displayName: 'Latitude', name: 'latitude', type: 'number', default: 0, displayOptions: geocode },
				{ displayName: 'Longitude', name: 'longitude', type: 'number', default: 0, displayOptions: geocode },
				{
					displayName: 'Output',
					name: 'output',
					type: 'options',
					default: 'simplified',
					options: [{ name: 'Simplified', value: 'simplified' }, { name: 'Raw', value: 'raw' }],
					displayOptions: geocode,
				},
				{ displayName: 'Name', name: 'name', type: 'string', default: '', displayOptions: create },
				{ displayName: 'Description', name: 'campaignDescription', type: 'string', default: '', displayOptions: create },
				{ displayName: 'Category', name: 'categoryId', type: 'number', default: 26, displayOptions: create },
				{
					displayName: 'Channels Input',
					name: 'channelsInput',
					type: 'options',
					default: 'fields',
					options: [{ name: 'Define Below', value: 'fields' }],
					displayOptions: create,
				},
				{
					displayName: 'Channels',
					name: 'channels',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
					displayOptions: create,
					options: [{ displayName: 'Channel', name: 'channel', values: channelFields }],
				},
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					default: {},
					options: [{ displayName: 'Timezone', name: 'timezone', type: 'string', default: '' }],
				},
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const operation = this.getNodeParameter('operation', 0);
		const out = new Array(items.length);
		// The same calls, in the same order, as LbaAds prepare() (reverseGeocode / create).
		for (let i = 0; i < items.length; i++) {
			if (operation === 'reverseGeocode') {
				this.getNodeParameter('latitude', i);
				this.getNodeParameter('longitude', i);
				this.getNodeParameter('output', i, 'simplified');
			} else {
				this.getNodeParameter('options.timezone', i, '');
				this.getNodeParameter('channelsInput', i, 'fields');
				this.getNodeParameter('channels.channel', i, []);
				this.getNodeParameter('name', i);
				this.getNodeParameter('campaignDescription', i);
				this.getNodeParameter('categoryId', i);
			}
			out[i] = { json: {}, pairedItem: { item: i } };
		}
		return [out];
	}
}

module.exports = { BenchFloor };
