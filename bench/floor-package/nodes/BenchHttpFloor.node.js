'use strict';
// The HTTP floor: the engine floor's parameters, read the same way and in the same order,
// then ONE bare httpRequestWithAuthentication call per item with the LBA Ads credential,
// and the parsed answer as the item. No checks, no retries, no duplicate protection, no
// output shaping: what any node that sends these requests through n8n's helpers must pay.

const { BenchFloor } = require('./BenchFloor.node');

// The LBA Ads node's default "Max Concurrent Requests" (DEFAULT_CONCURRENCY in
// nodes/LbaAds/actions/engine/runItems.ts), the same for Reverse Geocode and Create Campaign.
const CONCURRENCY = 8;

class BenchHttpFloor {
	constructor() {
		this.description = {
			displayName: 'Bench HTTP Floor',
			name: 'benchHttpFloor',
			group: ['transform'],
			version: 1,
			description: 'Reads the LBA node parameters per item and sends one bare request each',
			defaults: { name: 'Bench HTTP Floor' },
			inputs: ['main'],
			outputs: ['main'],
			// The credential type of n8n-nodes-lba-ads: n8n looks credential types up across packages.
			credentials: [{ name: 'lbaAdsApi', required: true }],
			// The same properties as the engine floor, so both read exactly the same parameters.
			properties: new BenchFloor().description.properties,
		};
	}

	async execute() {
		const items = this.getInputData();
		const operation = this.getNodeParameter('operation', 0);
		// The credential's Base URL: read once per run, as the LBA node does.
		const credentials = await this.getCredentials('lbaAdsApi');
		const base = String(credentials.baseUrl).replace(/\/+$/, '');

		// The same calls, in the same order, as the engine floor (and LbaAds prepare()).
		const read = (i) => {
			if (operation === 'reverseGeocode') {
				const latitude = this.getNodeParameter('latitude', i);
				const longitude = this.getNodeParameter('longitude', i);
				this.getNodeParameter('output', i, 'simplified');
				return { method: 'GET', url: `${base}/io/location`, qs: { latlng: `${latitude},${longitude}` }, json: true };
			}
			this.getNodeParameter('options.timezone', i, '');
			this.getNodeParameter('channelsInput', i, 'fields');
			const channels = this.getNodeParameter('channels.channel', i, []);
			const body = {
				name: this.getNodeParameter('name', i),
				description: this.getNodeParameter('campaignDescription', i),
				categoryId: this.getNodeParameter('categoryId', i),
				channels,
			};
			return { method: 'POST', url: `${base}/lba/campaign`, body, json: true };
		};

		// Like the LBA node: Create reads every item before the first request; Reverse
		// Geocode reads item i+1 while item i's request is in flight.
		const readFirst = operation !== 'reverseGeocode';
		const requests = readFirst ? items.map((_, i) => read(i)) : [];

		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const request = readFirst ? requests[i] : read(i);
				const json = await this.helpers.httpRequestWithAuthentication.call(this, 'lbaAdsApi', request);
				out[i] = { json, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
		return [out];
	}
}

module.exports = { BenchHttpFloor };
