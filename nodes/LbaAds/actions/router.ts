import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, runItems } from './engine/runItems';
import { findOperation } from './resources';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, transportFor } from '../../shared/transport';
import { SAY } from '../../shared/instructions';

/** The resource n8n adds to every node whose credential authenticates; it has no operation parameter. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** Options every operation has (the engine's and the transport's), beside each operation's own. */
export const COMMON_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Max Concurrent Requests',
		name: 'concurrency',
		type: 'number',
		default: DEFAULT_CONCURRENCY,
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		description: 'How many items are sent to the service at the same time. Output order always follows input order.',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeoutMs',
		type: 'number',
		default: DEFAULT_TIMEOUT_MS,
		typeOptions: { minValue: MIN_TIMEOUT_MS, maxValue: MAX_TIMEOUT_MS },
		description:
			'How long to wait for each answer. A read that times out is retried; a campaign that times out is not, because it may have been created.',
	},
];

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Resource, operation, credential and batching are node-wide settings, read once (not per item).
	const resource = String(this.getNodeParameter('resource', 0));
	if (resource === CUSTOM_API_CALL) {
		throw new NodeOperationError(
			this.getNode(),
			`Custom API Call is not available in the LBA Ads node: ${SAY.useHttpRequest}`,
			{
				description: `Nothing was sent. ${SAY.httpRequestSteps}`,
			},
		);
	}
	const operationName = String(this.getNodeParameter('operation', 0));
	const found = findOperation(resource, operationName);
	if (!found) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}
	const operation = found.operation.instead?.(this) ?? found.operation;
	const transport = operation.usesService
		? await transportFor(this, this.getNodeParameter('authentication', 0, 'accessToken'), {
				timeoutMs: wholeNumberOption(this, 'options.timeoutMs', DEFAULT_TIMEOUT_MS, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS),
			})
		: undefined;
	const concurrency = wholeNumberOption(this, 'options.concurrency', DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY);

	return [await runItems(this, operation, transport, concurrency)];
}

/** A whole-number option clamped to its range; anything else (e.g. an expression giving text) means the default. */
function wholeNumberOption(ctx: IExecuteFunctions, name: string, fallback: number, min: number, max: number): number {
	const value = Number(ctx.getNodeParameter(name, 0, fallback));
	return Number.isInteger(value) ? Math.min(Math.max(value, min), max) : fallback;
}
