import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as createCampaign from './actions/campaign/create.operation';
import * as forgetSentCampaigns from './actions/campaign/forgetSent.operation';
import * as findTargetingLocation from './actions/location/findTargetingLocation.operation';
import * as reverseGeocode from './actions/location/reverseGeocode.operation';
import * as getManyProducts from './actions/product/getMany.operation';
import { router } from './actions/router';
import { searchLocations } from './methods/searchLocations';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './helpers/runItems';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './transport';
import { AUTHENTICATION, CREDENTIALS } from './transport/authentication';

export class LbaAds implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LBA Ads',
		name: 'lbaAds',
		icon: { light: 'file:lbaAds.svg', dark: 'file:lbaAds.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Create location-based SMS campaigns, reverse-geocode coordinates and list data packages',
		defaults: { name: 'LBA Ads' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: CREDENTIALS,
		properties: [
			AUTHENTICATION,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Campaign', value: 'campaign' },
					{ name: 'Location', value: 'location' },
					{ name: 'Product', value: 'product' },
				],
				default: 'campaign',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['campaign'] } },
				options: [
					{
						name: 'Create',
						value: 'create',
						action: 'Create a campaign',
						description: 'Create and publish an SMS campaign (never sent twice: see Duplicate Protection)',
					},
					{
						name: 'Forget Sent',
						value: 'forgetSent',
						action: 'Forget sent campaigns',
						description: "Clear this node's duplicate-protection history, so campaigns can be sent again on purpose",
					},
				],
				default: 'create',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['location'] } },
				options: [
					{
						name: 'Find Targeting Location',
						value: 'findTargetingLocation',
						action: 'Find a targeting location',
						description: 'Find the Location ID of a regency or city, e.g. the city of a geocoded address',
					},
					{
						name: 'Reverse Geocode',
						value: 'reverseGeocode',
						action: 'Reverse geocode a location',
						description: 'Turn a latitude and longitude into an address',
					},
				],
				default: 'reverseGeocode',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['product'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getMany',
						action: 'Get many products',
						description: 'List the mobile data packages on offer',
					},
				],
				default: 'getMany',
			},
			...createCampaign.description,
			...forgetSentCampaigns.description,
			...findTargetingLocation.description,
			...reverseGeocode.description,
			...getManyProducts.description,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Dry Run',
						name: 'dryRun',
						type: 'boolean',
						default: false,
						description:
							'Whether to only check the campaign and output the exact request, the SMS per recipient and any warnings, sending nothing and recording nothing for duplicate protection',
						displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
					},
					{
						displayName: 'Max Concurrent Requests',
						name: 'concurrency',
						type: 'number',
						default: DEFAULT_CONCURRENCY,
						typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
						description:
							'How many items are sent to the service at the same time. Output order always follows input order.',
					},
					{
						displayName: 'Resend',
						name: 'resend',
						type: 'boolean',
						default: false,
						description:
							'Whether to send the item even if this node already sent (or may have sent) the same campaign. An expression can pick the items to resend.',
						displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'], '/duplicateProtection': ['content', 'customKey'] } },
					},
					{
						displayName: 'Timeout (Ms)',
						name: 'timeoutMs',
						type: 'number',
						default: DEFAULT_TIMEOUT_MS,
						typeOptions: { minValue: MIN_TIMEOUT_MS, maxValue: MAX_TIMEOUT_MS },
						description:
							'How long to wait for each answer. A read that times out is retried; a campaign that times out is not, because it may have been created.',
					},
					{
						displayName: 'Timezone',
						name: 'timezone',
						type: 'string',
						default: '',
						placeholder: 'Asia/Jakarta',
						description:
							"IANA timezone for channel dates given without an offset. Empty: the workflow's timezone.",
						displayOptions: { show: { '/resource': ['campaign'], '/operation': ['create'] } },
					},
				],
			},
		],
	};

	methods = { listSearch: { searchLocations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
