import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearchMethods, operationHints, operationOptions, operationSubtitle, resourceProperties } from './actions/resources';
import { COMMON_OPTIONS, router } from './actions/router';
import { LBA_ADS_DESCRIPTION } from '../shared/packageDescription';
import { AUTHENTICATION, CREDENTIALS } from '../shared/transport/authentication';

export class LbaAds implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LBA Ads',
		name: 'lbaAds',
		icon: { light: 'file:lbaAds.svg', dark: 'file:lbaAds.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(),
		description: LBA_ADS_DESCRIPTION,
		defaults: { name: 'LBA Ads' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: CREDENTIALS,
		hints: operationHints(),
		properties: [
			AUTHENTICATION,
			...resourceProperties(),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				// In alphabetical order, as n8n lists options.
				options: [...COMMON_OPTIONS, ...operationOptions()].sort((a, b) => a.displayName.localeCompare(b.displayName)),
			},
		],
	};

	// The operations' list functions (each operation's `listSearch`), for their pickers' From List.
	methods = { listSearch: listSearchMethods() };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
