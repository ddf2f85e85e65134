import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

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
		// Client ID and Client Secret are OAuth2 API's own fields, given a description here (n8n
		// replaces a parent's field by the child's field of the same name, in the parent's place).
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			required: true,
			default: '',
			description: 'The client key (consumer key) of your LBA partner account',
			hint: 'n8n exchanges the key and secret for an access token at <Base URL>/oauth/token, and fetches a new one when it expires',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The client secret (consumer secret) that goes with the client key',
		},
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

	/**
	 * The real service (Apigee) may answer token_type "BearerToken"; n8n's OAuth2 client then
	 * puts the token in the URL (?access_token=...), where server and proxy logs keep it. The
	 * node asks for a Bearer header itself; the credential Test does not go through the node,
	 * so the token type is made "Bearer" here, after every token fetch, before n8n signs.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const token = credentials.oauthTokenData as IDataObject | undefined;
		if (!token || typeof token !== 'object' || String(token.token_type ?? 'bearer').toLowerCase() === 'bearer') return {};
		return { oauthTokenData: { ...token, token_type: 'Bearer' } };
	}
}
