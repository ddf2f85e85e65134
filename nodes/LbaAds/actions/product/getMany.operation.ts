import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolDescription } from '../../helpers/aiTool';
import { fetchProducts, simplifyProduct } from '../../../shared/api/products';
import type { OperationModule } from '../engine/operation';
import { digitsToNumber, shownValue } from '../../../shared/parameterValues';

const showFor = { show: { resource: ['product'], operation: ['getMany'] } };

const description: INodeProperties[] = [
	toolDescription(
		'product',
		'getMany',
		'Lists the mobile data packages (internet quota bundles for Indonesian phones) on offer: name, price in IDR, ' +
			'main, night and apps quota in bytes and as text. Read-only and free, so it is safe to call again.',
	),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: showFor,
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		displayOptions: { show: { ...showFor.show, returnAll: [false] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return flat items with quotas as numbers of bytes plus readable sizes, instead of the raw product objects',
		displayOptions: showFor,
	},
];

interface ProductsRequest {
	limit: number;
	simplify: boolean;
}

const operation: OperationModule<ProductsRequest>['operation'] = {
	checkAllBeforeSending: false,
	usesService: true,

	prepare(ctx, itemIndex) {
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		return {
			limit: returnAll ? Infinity : limit(ctx, itemIndex),
			simplify: ctx.getNodeParameter('simplify', itemIndex, true) as boolean,
		};
	},

	async send(ctx, request, transport, itemIndex) {
		// The API has no paging (spec 4.3), so the limit is applied here.
		const products = (await fetchProducts(ctx, transport, itemIndex)).slice(0, request.limit);
		return request.simplify ? products.map(simplifyProduct) : products;
	},
};

function limit(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('limit', itemIndex, 50);
	const value = digitsToNumber(raw);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		// slice(0, -1) or slice(0, NaN) would quietly return the wrong products.
		throw new NodeOperationError(ctx.getNode(), 'Limit must be a whole number of at least 1', {
			itemIndex,
			description: `Got ${shownValue(raw)}. Nothing was sent for this item.`,
		});
	}
	return value;
}

export const getMany: OperationModule<ProductsRequest> = {
	option: { name: 'Get Many', value: 'getMany', action: 'Get many products', description: 'List the mobile data packages on offer' },
	description,
	operation,
};
