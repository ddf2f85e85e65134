import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fromAI, toolDescription, withToolDefault } from '../../helpers/aiTool';
import { fetchLocations, rankLocations } from '../../../shared/api/locations';
import type { OperationModule } from '../engine/operation';
import { SAY } from '../../../shared/instructions';

const showFor = { show: { resource: ['location'], operation: ['findTargetingLocation'] } };

const description: INodeProperties[] = [
	toolDescription(
		'location',
		'findTargetingLocation',
		'Finds the Location ID a campaign channel needs for an Indonesian regency or city, from its name (e.g. the city a reverse geocode gave, "Kota Bandung"). ' +
			`Read-only and free. Fails with a clear message when the service offers no location list: ${SAY.toolAskLocationId}`,
	),
	...withToolDefault(
		{
			displayName: 'Place Name',
			name: 'placeName',
			type: 'string',
			required: true,
			default: '={{ $json.city }}',
			placeholder: 'e.g. Kota Bandung',
			description:
				'Regency or city to target, e.g. the `city` of a Reverse Geocode result. "Bandung" also finds "Kota Bandung".',
			displayOptions: showFor,
		},
		fromAI('placeName', 'Indonesian regency or city name, e.g. "Kota Bandung" or "Surabaya" (the city a reverse geocode gave)', 'string'),
	),
	{
		displayName: 'Output',
		name: 'matches',
		type: 'options',
		default: 'best',
		options: [
			{ name: 'Best Match', value: 'best', description: 'One item: the exact name first, then "Kota …", then "Kabupaten …"' },
			{ name: 'All Matches', value: 'all', description: 'One item per location whose name contains the place name' },
		],
		displayOptions: showFor,
	},
];

interface FindRequest {
	placeName: string;
	matches: 'best' | 'all';
}

const operation: OperationModule<FindRequest>['operation'] = {
	checkAllBeforeSending: false,
	usesService: true,

	prepare(ctx, itemIndex) {
		const placeName = String(ctx.getNodeParameter('placeName', itemIndex, '') ?? '').trim();
		if (!placeName) {
			throw new NodeOperationError(ctx.getNode(), 'Place Name is empty, so no location was looked up', {
				itemIndex,
				description: SAY.toolCityName,
			});
		}
		return { placeName, matches: ctx.getNodeParameter('matches', itemIndex, 'best') as FindRequest['matches'] };
	},

	async send(ctx, request, transport, itemIndex) {
		// The service filters by a substring; "Kota Bandung" is searched as "Bandung" to find its neighbours too.
		const search = request.placeName.replace(/^(kota|kabupaten)\s+/i, '');
		const ranked = rankLocations(await fetchLocations(ctx, transport, search, itemIndex), request.placeName);
		const query = { placeName: request.placeName };
		if (ranked.length === 0) {
			return [{ found: false, message: `No targeting location matches "${request.placeName}"`, query }];
		}
		const found = (location: IDataObject) => ({ found: true, ...location, query });
		return request.matches === 'all' ? ranked.map(found) : [found(ranked[0])];
	},
};

export const findTargetingLocation: OperationModule<FindRequest> = {
	option: { name: 'Find Targeting Location', value: 'findTargetingLocation', action: 'Find a targeting location', description: 'Find the Location ID of a regency or city, e.g. the city of a geocoded address' },
	description,
	operation,
};
