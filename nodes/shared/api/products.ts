import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Transport } from '../transport';
import { digitsToNumber, shownValue } from '../parameterValues';

/** The data package catalogue of GET /io/products (spec 2.6), read by Get Many, the trigger and a panel's list. */
export async function fetchProducts(
	ctx: IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions,
	transport: Transport,
	itemIndex = 0,
): Promise<IDataObject[]> {
	const body = await transport.request({ method: 'GET', path: '/io/products', itemIndex, retry: true });
	if (!body || typeof body !== 'object' || !Array.isArray(body.results)) {
		// An HTML error page or a proxy's text with HTTP 200 must not look like an empty catalogue.
		throw new NodeApiError(ctx.getNode(), {}, {
			message: 'The LBA service answered GET /io/products without a product list',
			description: `Expected JSON with a "results" array (spec 2.6), got ${typeof body === 'string' ? 'text' : transport.redact(shownValue(body))}.`,
			itemIndex,
		});
	}
	return body.results as IDataObject[];
}

/**
 * A product as flat fields: quotas as numbers of bytes plus readable sizes. What a person compares
 * comes first (n8n's table shows the keys in this order): name, price, readable quotas, then the
 * description, the uuid and the quotas in bytes.
 */
export function simplifyProduct(product: IDataObject): IDataObject {
	const data = ((product.details as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const price = (product.price ?? {}) as IDataObject;
	const mainQuotaBytes = bytes(data.mainQuota);
	const nightQuotaBytes = bytes(data.nightQuota);
	const appsQuotaBytes = bytes(data.appsQuota);
	return {
		name: product.name ?? null,
		price: typeof price.amount === 'number' ? price.amount : null,
		currency: price.currency ?? null,
		mainQuota: readableSize(mainQuotaBytes),
		nightQuota: readableSize(nightQuotaBytes),
		appsQuota: readableSize(appsQuotaBytes),
		description: product.description ?? null,
		uuid: product.uuid ?? null,
		mainQuotaBytes,
		nightQuotaBytes,
		appsQuotaBytes,
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
