import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlProperty, productsTest } from './common';

export class LbaAdsApi implements ICredentialType {
	name = 'lbaAdsApi';

	displayName = 'LBA Ads API';

	icon: Icon = { light: 'file:../nodes/LbaAds/lbaAds.svg', dark: 'file:../nodes/LbaAds/lbaAds.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lba-ads/n8n-nodes-lba-ads#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The access_token issued to you; it is sent as "Authorization: Bearer <token>"',
			hint: 'A token expires (the real service\'s after an hour). For a token n8n fetches and renews itself, use the LBA Ads OAuth2 API credential with your client key and secret.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = productsTest;
}
