import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { baseUrlProperty, productsTest } from './common';

/**
 * Client-credentials grant against <Base URL>/oauth/token, the way the real
 * service issues tokens (Basic client key:secret, grant_type=client_credentials).
 * n8n fetches the token on first use and fetches a new one when it expires.
 */
export class LbaAdsOAuth2Api implements ICredentialType {
	name = 'lbaAdsOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'LBA Ads OAuth2 API';

	icon: Icon = { light: 'file:../nodes/LbaAds/lbaAds.svg', dark: 'file:../nodes/LbaAds/lbaAds.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lba-ads/n8n-nodes-lba-ads#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'clientCredentials',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"].replace(/\\/+$/, "")}}/oauth/token',
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			// The real service expects the client key and secret as HTTP Basic credentials.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];

	test: ICredentialTestRequest = productsTest;
}
