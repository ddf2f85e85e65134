import type {
	IAuthenticate,
	Icon,
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlProperty, productsTest } from './common';
import { SAY } from '../nodes/shared/instructions';

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
			hint: `A token expires (the real service's after an hour). ${SAY.useOauth2}`,
		},
	];

	/**
	 * The token as a header, written without an n8n expression: n8n 2.40's expression runtime
	 * refuses a workflow whose timezone is n8n's own "DEFAULT" ("Invalid timezone"), which made the
	 * generic `=Bearer {{$credentials.accessToken}}` fail every request of such a workflow (issue 52).
	 */
	authenticate: IAuthenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
	});

	test: ICredentialTestRequest = productsTest;
}
