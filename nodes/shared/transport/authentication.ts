import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/**
 * How LBA Ads and LBA Ads Trigger authenticate: the Authentication choice and the credential each
 * choice uses. `transportFor()` maps the same values to the credential type.
 */
export const AUTHENTICATION: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2 (Client Credentials)', value: 'oAuth2' },
	],
	default: 'accessToken',
};

export const CREDENTIALS: INodeCredentialDescription[] = [
	{ name: 'lbaAdsApi', required: true, displayOptions: { show: { authentication: ['accessToken'] } } },
	{ name: 'lbaAdsOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
];
