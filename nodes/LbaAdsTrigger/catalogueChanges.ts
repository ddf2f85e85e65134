import type { IDataObject } from 'n8n-workflow';

export type CatalogueEvent = 'newProduct' | 'priceChanged' | 'quotaChanged' | 'productRemoved';

/** What the trigger remembers of a package: enough to tell its changes and to describe it once removed. */
interface SeenProduct {
	name: unknown;
	price: unknown;
	currency: unknown;
	mainQuotaBytes: unknown;
	nightQuotaBytes: unknown;
	appsQuotaBytes: unknown;
}

/** The node's static data. */
export interface CatalogueState {
	products?: Record<string, SeenProduct>;
	/** The catalogue had more than MAX_WATCHED_PRODUCTS packages; the rest are not watched. */
	truncated?: boolean;
}

/** Static data is saved with the workflow: the watched catalogue is bounded. */
export const MAX_WATCHED_PRODUCTS = 5000;

const QUOTAS = ['mainQuotaBytes', 'nightQuotaBytes', 'appsQuotaBytes'] as const;

/**
 * The changes between the catalogue seen last (`state`) and `products` (simplified, in catalogue
 * order), as one item per product and event, and the state to keep. With no earlier state this is
 * the first poll: it records, and emits the catalogue as New Product only if `emitCurrent`.
 */
export function catalogueChanges(
	state: CatalogueState,
	products: IDataObject[],
	events: CatalogueEvent[],
	emitCurrent: boolean,
	now: Date,
): { items: IDataObject[]; next: Required<CatalogueState> } {
	const watched = products.filter((product) => typeof product.uuid === 'string').slice(0, MAX_WATCHED_PRODUCTS);
	const next: Required<CatalogueState> = {
		products: Object.fromEntries(watched.map((product) => [product.uuid as string, seen(product)])),
		truncated: products.length > MAX_WATCHED_PRODUCTS,
	};
	const wanted = new Set(events);
	const detectedAt = now.toISOString();
	const item = (event: CatalogueEvent, product: IDataObject, changes: IDataObject = {}) => ({ event, detectedAt, ...product, changes });

	const previous = state.products;
	if (previous === undefined) {
		return { items: emitCurrent && wanted.has('newProduct') ? watched.map((product) => item('newProduct', product)) : [], next };
	}

	const items: IDataObject[] = [];
	for (const product of watched) {
		const before = previous[product.uuid as string];
		if (!before) {
			if (wanted.has('newProduct')) items.push(item('newProduct', product));
			continue;
		}
		if (wanted.has('priceChanged') && (before.price !== product.price || before.currency !== product.currency)) {
			items.push(item('priceChanged', product, { price: { old: before.price, new: product.price }, ...(before.currency !== product.currency ? { currency: { old: before.currency, new: product.currency } } : {}) }));
		}
		const quotaChanges = Object.fromEntries(
			QUOTAS.filter((quota) => before[quota] !== product[quota]).map((quota) => [quota, { old: before[quota], new: product[quota] }]),
		);
		if (wanted.has('quotaChanged') && Object.keys(quotaChanges).length) items.push(item('quotaChanged', product, quotaChanges));
	}
	if (wanted.has('productRemoved')) {
		for (const [uuid, before] of Object.entries(previous)) {
			if (!(uuid in next.products)) items.push(item('productRemoved', { uuid, ...before } as IDataObject));
		}
	}
	return { items, next };
}

function seen(product: IDataObject): SeenProduct {
	return {
		name: product.name ?? null,
		price: product.price ?? null,
		currency: product.currency ?? null,
		mainQuotaBytes: product.mainQuotaBytes ?? null,
		nightQuotaBytes: product.nightQuotaBytes ?? null,
		appsQuotaBytes: product.appsQuotaBytes ?? null,
	};
}
