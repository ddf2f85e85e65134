import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { create } from './campaign/create.operation';
import { forgetSent } from './campaign/forgetSent.operation';
import { findTargetingLocation } from './location/findTargetingLocation.operation';
import { reverseGeocode } from './location/reverseGeocode.operation';
import { getMany } from './product/getMany.operation';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, runItems, type Operation } from '../helpers/runItems';
import { connect, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../transport';

const operations: Record<string, Record<string, Operation<unknown>>> = {
	campaign: { create: create as Operation<unknown> },
	location: {
		findTargetingLocation: findTargetingLocation as Operation<unknown>,
		reverseGeocode: reverseGeocode as Operation<unknown>,
	},
	product: { getMany: getMany as Operation<unknown> },
};

/** The resource n8n adds to every node whose credential authenticates; it has no operation parameter. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** Operations that work on n8n's own data only: no credential, no request. */
const localOperations: Record<string, Record<string, (ctx: IExecuteFunctions) => Promise<INodeExecutionData[]>>> = {
	campaign: { forgetSent },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Resource, operation, credential and batching are node-wide settings, read once (not per item).
	const resource = this.getNodeParameter('resource', 0) as string;
	if (resource === CUSTOM_API_CALL) {
		throw new NodeOperationError(
			this.getNode(),
			'Custom API Call is not available in the LBA Ads node: use the HTTP Request node with the LBA Ads credential',
			{
				description:
					'Nothing was sent. In an HTTP Request node, set Authentication to "Predefined Credential Type", pick "LBA Ads API" (or "LBA Ads OAuth2 API") and your credential, and give the full URL (your Base URL plus the path).',
			},
		);
	}
	const operationName = this.getNodeParameter('operation', 0) as string;
	const local = localOperations[resource]?.[operationName];
	if (local) return [await local(this)];
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}

	const transport = await connect(this, this.getNodeParameter('authentication', 0, 'accessToken'), {
		timeoutMs: wholeNumberOption(this, 'options.timeoutMs', DEFAULT_TIMEOUT_MS, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS),
	});
	const concurrency = wholeNumberOption(this, 'options.concurrency', DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY);

	return [await runItems(this, operation, transport, concurrency)];
}

/** A whole-number option clamped to its range; anything else (e.g. an expression giving text) means the default. */
function wholeNumberOption(ctx: IExecuteFunctions, name: string, fallback: number, min: number, max: number): number {
	const value = Number(ctx.getNodeParameter(name, 0, fallback));
	return Number.isInteger(value) ? Math.min(Math.max(value, min), max) : fallback;
}
