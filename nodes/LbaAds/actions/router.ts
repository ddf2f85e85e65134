import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { create } from './campaign/create.operation';
import { reverseGeocode } from './location/reverseGeocode.operation';
import { getMany } from './product/getMany.operation';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, runItems, type Operation } from '../helpers/runItems';
import { createTransport, type CredentialType } from '../transport';

const operations: Record<string, Record<string, Operation<unknown>>> = {
	campaign: { create: create as Operation<unknown> },
	location: { reverseGeocode: reverseGeocode as Operation<unknown> },
	product: { getMany: getMany as Operation<unknown> },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Resource, operation, credential and batching are node-wide settings, read once (not per item).
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}

	const credentialType: CredentialType =
		this.getNodeParameter('authentication', 0, 'accessToken') === 'oAuth2' ? 'lbaAdsOAuth2Api' : 'lbaAdsApi';
	const credentials = await this.getCredentials(credentialType);
	const transport = createTransport(this, credentialType, credentials);

	const requested = Number(this.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY));
	const concurrency = Number.isInteger(requested) ? Math.min(Math.max(requested, 1), MAX_CONCURRENCY) : DEFAULT_CONCURRENCY;

	return [await runItems(this, operation, transport, concurrency)];
}
