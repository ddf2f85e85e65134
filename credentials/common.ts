import type { ICredentialTestRequest, INodeProperties } from 'n8n-workflow';

/** Shared by both LBA Ads credentials: where the API lives, and how "Test" checks it. */
export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://api.example.co.id',
	description: 'Address of the LBA API without a trailing path, e.g. http://127.0.0.1:8080 for the sandbox',
	hint: 'The address your LBA partner account gives you, without /lba or /io at the end. Try the node first against the sandbox (npm run sandbox): it sends no SMS and bills nothing.',
};

// The product list is the cheapest call that needs a valid token.
export const productsTest: ICredentialTestRequest = {
	request: {
		baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
		url: '/io/products',
		method: 'GET',
		headers: { 'Content-Type': 'application/json' },
	},
};
