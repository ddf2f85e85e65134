'use strict';
// Input items for the bench, made inside n8n (no Code node: that would need n8n's task runner).

// Points in Indonesian cities; a small deterministic jitter makes every item a distinct query.
// Location IDs as the sandbox lists them (BPS regency codes): Create refuses an ID the service does not list.
const CITIES = [
	['Bandung', -6.9147, 107.6098, 3273],
	['Jakarta', -6.2088, 106.8456, 3173],
	['Surabaya', -7.2575, 112.7521, 3578],
	['Medan', 3.5952, 98.6722, 1275],
	['Makassar', -5.1477, 119.4327, 7371],
	['Denpasar', -8.6705, 115.2126, 5171],
	['Yogyakarta', -7.7956, 110.3695, 3471],
	['Semarang', -6.9667, 110.4167, 3374],
];

class BenchItems {
	constructor() {
		this.description = {
			displayName: 'Bench Items',
			name: 'benchItems',
			group: ['transform'],
			version: 1,
			description: 'Makes N bench input items',
			defaults: { name: 'Bench Items' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{ displayName: 'Count', name: 'count', type: 'number', default: 10 },
				// The warm-up input starts far from 0 so its campaigns differ from the measured ones:
				// a Remove Duplicates node with Workflow scope would otherwise drop the first ones as seen.
				{ displayName: 'First ID', name: 'first', type: 'number', default: 0 },
				{
					displayName: 'Kind',
					name: 'kind',
					type: 'options',
					default: 'points',
					options: [{ name: 'Points', value: 'points' }, { name: 'Campaigns', value: 'campaigns' }],
				},
			],
		};
	}

	async execute() {
		const count = this.getNodeParameter('count', 0);
		const kind = this.getNodeParameter('kind', 0);
		const first = this.getNodeParameter('first', 0, 0);
		const out = new Array(count);
		for (let n = 0; n < count; n++) {
			const i = first + n;
			const [city, lat, lng, locationId] = CITIES[i % CITIES.length];
			const jitter = ((i * 7919) % 1000) / 100000; // up to ~1 km
			const json =
				kind === 'points'
					? { id: i, lat: Number((lat + jitter).toFixed(6)), lng: Number((lng - jitter).toFixed(6)) }
					: {
							id: i,
							name: `Promo ${city} #${i}`,
							description: `Store opening promo for ${city}`,
							city,
							locationId,
							start: '2036-12-01T09:00:00+07:00',
							end: '2036-12-07T21:00:00+07:00',
						};
			out[n] = { json, pairedItem: { item: 0 } };
		}
		return [out];
	}
}

module.exports = { BenchItems };
