import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class LbaAdsApi implements ICredentialType {
	name = 'lbaAdsApi';

	displayName = 'LBA Ads API';

	icon: Icon = { light: 'file:../nodes/LbaAds/lbaAds.svg', dark: 'file:../nodes/LbaAds/lbaAds.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lba-ads/n8n-nodes-lba-ads#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.co.id',
			description: 'Address of the LBA API without a trailing path, e.g. http://127.0.0.1:8080 for the sandbox',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The access_token issued to you; it is sent as "Authorization: Bearer <token>"',
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

	// The product list is the cheapest call that needs a valid token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/io/products',
			method: 'GET',
			headers: { 'Content-Type': 'application/json' },
		},
	};
}
