import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toolDescription } from '../../helpers/aiTool';
import type { Operation } from '../../helpers/runItems';
import { digitsToNumber, shownValue } from '../../helpers/values';

const showFor = { show: { resource: ['product'], operation: ['getMany'] } };

export const description: INodeProperties[] = [
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

export const getMany: Operation<ProductsRequest> = {
	checkAllBeforeSending: false,

	prepare(ctx, itemIndex) {
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		return {
			limit: returnAll ? Infinity : limit(ctx, itemIndex),
			simplify: ctx.getNodeParameter('simplify', itemIndex, true) as boolean,
		};
	},

	async send(ctx, request, transport, itemIndex) {
		const body = await transport.request({ method: 'GET', path: '/io/products', itemIndex, retry: true });
		if (!body || typeof body !== 'object' || !Array.isArray(body.results)) {
			// An HTML error page or a proxy's text with HTTP 200 must not look like an empty catalogue.
			throw new NodeApiError(ctx.getNode(), {}, {
				message: 'The LBA service answered GET /io/products without a product list',
				description: `Expected JSON with a "results" array (spec 2.6), got ${typeof body === 'string' ? 'text' : transport.redact(shownValue(body))}.`,
				itemIndex,
			});
		}
		// The API has no paging (spec 4.3), so the limit is applied here.
		const products = (body.results as IDataObject[]).slice(0, request.limit);
		return request.simplify ? products.map(simplify) : products;
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

function simplify(product: IDataObject): IDataObject {
	const data = ((product.details as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const price = (product.price ?? {}) as IDataObject;
	const mainQuotaBytes = bytes(data.mainQuota);
	const nightQuotaBytes = bytes(data.nightQuota);
	const appsQuotaBytes = bytes(data.appsQuota);
	return {
		uuid: product.uuid ?? null,
		name: product.name ?? null,
		description: product.description ?? null,
		price: typeof price.amount === 'number' ? price.amount : null,
		currency: price.currency ?? null,
		mainQuotaBytes,
		mainQuota: readableSize(mainQuotaBytes),
		nightQuotaBytes,
		nightQuota: readableSize(nightQuotaBytes),
		appsQuotaBytes,
		appsQuota: readableSize(appsQuotaBytes),
	};
}

/** Quotas arrive as numeric text (spec 2.6); anything else becomes null rather than NaN. */
function bytes(value: unknown): number | null {
	const number = digitsToNumber(value);
	return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Binary multiples labelled the way Indonesian operators label quotas (1 GB = 1024 MB). */
export function readableSize(value: number | null): string | null {
	if (value === null) return null;
	let size = value;
	let unit = 0;
	while (size >= 1024 && unit < UNITS.length - 1) {
		size /= 1024;
		unit++;
	}
	return `${Number.isInteger(size) ? size : Number(size.toFixed(2))} ${UNITS[unit]}`;
}
