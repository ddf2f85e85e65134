import type { ICredentialTestRequest, INodeProperties } from 'n8n-workflow';
import { SAY } from '../nodes/shared/instructions';

/** Shared by both LBA Ads credentials: where the API lives, and how "Test" checks it. */
export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://api.example.co.id',
	description: 'Address of the LBA API without a trailing path, e.g. http://127.0.0.1:8080 for the sandbox',
	hint: `The address your LBA partner account gives you, without /lba or /io at the end. ${SAY.askForSandbox} it sends nothing and bills nothing.`,
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
