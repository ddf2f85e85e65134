import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fromAI, toolDescription, withToolDefault } from '../../helpers/aiTool';
import type { OperationModule } from '../engine/operation';
import { shownValue } from '../../../shared/parameterValues';
import { SAY } from '../../../shared/instructions';

const showFor = { show: { resource: ['location'], operation: ['reverseGeocode'] } };

const description: INodeProperties[] = [
	toolDescription(
		'location',
		'reverseGeocode',
		'Looks up the address at a latitude and longitude in Indonesia: province, city or regency, district, village. ' +
			'Read-only and free, so it is safe to call again. Returns found: false when nothing is there (e.g. at sea). ' +
			'Use it to learn the city of a store or customer before a campaign.',
	),
	...withToolDefault(
		{
			displayName: 'Latitude',
			name: 'latitude',
			type: 'number',
			required: true,
			default: 0,
			typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 7 },
			placeholder: 'e.g. -6.9147',
			description: 'Latitude in decimal degrees, -90 to 90 (south is negative)',
			displayOptions: showFor,
		},
		fromAI('latitude', 'Latitude in decimal degrees, -90 to 90; south is negative (Indonesia: about -11 to 6)', 'number'),
	),
	...withToolDefault(
		{
			displayName: 'Longitude',
			name: 'longitude',
			type: 'number',
			required: true,
			default: 0,
			typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 7 },
			placeholder: 'e.g. 107.6098',
			description: 'Longitude in decimal degrees, -180 to 180',
			displayOptions: showFor,
		},
		fromAI('longitude', 'Longitude in decimal degrees, -180 to 180 (Indonesia: about 95 to 141)', 'number'),
	),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		options: [
			{
				name: 'Simplified',
				value: 'simplified',
				description: 'One item with the best match: address, province, city, district and more',
			},
			{ name: 'Raw', value: 'raw', description: 'The response body as the service sent it' },
			{ name: 'Split', value: 'split', description: 'One item per address match' },
		],
		displayOptions: showFor,
	},
];

interface GeocodeRequest {
	latitude: number;
	longitude: number;
	output: 'simplified' | 'raw' | 'split';
}

interface AddressComponent {
	long_name: string;
	short_name: string;
	types: string[];
}

const operation: OperationModule<GeocodeRequest>['operation'] = {
	checkAllBeforeSending: false,
	usesService: true,

	prepare(ctx, itemIndex) {
		const latitude = coordinate(ctx, 'latitude', 'Latitude', 90, itemIndex);
		const longitude = coordinate(ctx, 'longitude', 'Longitude', 180, itemIndex);
		const problems = [latitude, longitude].filter((value): value is string => typeof value === 'string');
		if (problems.length) {
			throw new NodeOperationError(ctx.getNode(), `${problems.join('; ')}. Nothing was sent.`, {
				itemIndex,
				description: SAY.toolDegrees,
			});
		}
		return {
			latitude: latitude as number,
			longitude: longitude as number,
			output: ctx.getNodeParameter('output', itemIndex, 'simplified') as GeocodeRequest['output'],
		};
	},

	async send(ctx, request, transport, itemIndex) {
		const body = await transport.request({
			method: 'GET',
			path: '/io/location',
			qs: { latlng: `${decimalText(request.latitude)},${decimalText(request.longitude)}` },
			itemIndex,
			retry: true,
		});
		const status = String(body.status ?? '');
		if (status !== 'OK' && status !== 'ZERO_RESULTS') {
			const reason = transport.redact(String(body.error_message ?? 'The response carried no error_message.'));
			throw new NodeApiError(ctx.getNode(), { status, error_message: reason }, {
				message: `The LBA service could not geocode ${request.latitude},${request.longitude}: ${transport.redact(status) || 'no status'}`,
				description: reason,
				itemIndex,
			});
		}
		if (request.output === 'raw') return [body];

		const results = Array.isArray(body.results) ? (body.results as IDataObject[]) : [];
		if (results.length === 0) return [notFound(request)];
		if (request.output === 'split') return results;
		return [simplify(results[0], request)];
	},
};

const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Plain decimal text for the latlng query: String(1e-7) would be "1e-7". */
function decimalText(value: number): string {
	const text = String(value);
	return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

/** The coordinate, or what is wrong with it. */
function coordinate(ctx: IExecuteFunctions, name: string, label: string, limit: number, itemIndex: number): number | string {
	const raw = ctx.getNodeParameter(name, itemIndex);
	if (raw === undefined || raw === null || raw === '') return `${label} is required: a number from -${limit} to ${limit}`;
	// Text must be a plain decimal ("-6.9", "1e-3"): Number() would also take "0x10" or "0b1".
	const value = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : raw;
	if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
		return `${label} must be a number from -${limit} to ${limit}, got ${shownValue(raw)}`;
	}
	return value;
}

function notFound(request: GeocodeRequest): IDataObject {
	return {
		message: 'No address found for these coordinates (e.g. open sea)',
		found: false,
		status: 'ZERO_RESULTS',
		latitude: request.latitude,
		longitude: request.longitude,
	};
}

/**
 * The fields a campaign needs from the best match; null where the service gave none. The place
 * names come first (n8n's table shows the keys in this order): city, province, address, then
 * the smaller places, then coordinates, ids and status.
 */
function simplify(result: IDataObject, request: GeocodeRequest): IDataObject {
	const components = (Array.isArray(result.address_components) ? result.address_components : []) as AddressComponent[];
	const named = (type: string, key: 'long_name' | 'short_name' = 'long_name') =>
		components.find((component) => component.types?.includes(type))?.[key] ?? null;
	const geometry = (result.geometry ?? {}) as IDataObject;
	const location = (geometry.location ?? {}) as IDataObject;
	return {
		city: named('administrative_area_level_2'),
		province: named('administrative_area_level_1'),
		formattedAddress: result.formatted_address ?? null,
		district: named('administrative_area_level_3'),
		village: named('administrative_area_level_4'),
		locality: named('locality'),
		postalCode: named('postal_code'),
		country: named('country'),
		countryCode: named('country', 'short_name'),
		found: true,
		status: 'OK',
		latitude: location.lat ?? request.latitude,
		longitude: location.lng ?? request.longitude,
		locationType: geometry.location_type ?? null,
		placeId: result.place_id ?? null,
		types: result.types ?? [],
		query: { latitude: request.latitude, longitude: request.longitude },
	};
}

export const reverseGeocode: OperationModule<GeocodeRequest> = {
	option: { name: 'Reverse Geocode', value: 'reverseGeocode', action: 'Reverse geocode a location', description: 'Turn a latitude and longitude into an address' },
	description,
	operation,
};
