import type { IDataObject } from 'n8n-workflow';

import { catalogueChanges, MAX_WATCHED_PRODUCTS, type CatalogueEvent, type CatalogueState } from '../../../nodes/LbaAdsTrigger/catalogueChanges';

const ALL: CatalogueEvent[] = ['newProduct', 'priceChanged', 'quotaChanged', 'productRemoved'];
const NOW = new Date('2026-11-23T08:00:00Z');

function product(uuid: string, overrides: IDataObject = {}): IDataObject {
	return { uuid, name: `Paket ${uuid}`, description: 'd', price: 10000, currency: 'IDR', mainQuotaBytes: 1024, mainQuota: '1 KB', nightQuotaBytes: 0, nightQuota: '0 B', appsQuotaBytes: 0, appsQuota: '0 B', ...overrides };
}

/** Polls `catalogues` one after another from an empty state, as n8n would; the items of each poll. */
function poll(catalogues: IDataObject[][], events = ALL, emitCurrent = false) {
	const state: CatalogueState = {};
	return catalogues.map((products) => {
		const { items, next } = catalogueChanges(state, products, events, emitCurrent, NOW);
		Object.assign(state, next);
		return items.map((item) => [item.event, item.uuid, item.changes]);
	});
}

describe('catalogueChanges', () => {
	const a = product('a');
	const b = product('b');

	it('the first poll records the catalogue and emits nothing; later polls emit only what changed, once', () => {
		expect(poll([[a, b], [a, b], [a, b, product('c')], [a, b, product('c')]])).toEqual([[], [], [['newProduct', 'c', {}]], []]);
	});

	it('with "emit current catalogue" the first poll emits every package as New Product', () => {
		expect(poll([[a, b], [a, b]], ALL, true)).toEqual([[['newProduct', 'a', {}], ['newProduct', 'b', {}]], []]);
	});

	it('price, quota and removal, with old and new values', () => {
		const cheaper = product('a', { price: 8000 });
		const bigger = product('b', { mainQuotaBytes: 2048, nightQuotaBytes: 512 });
		expect(poll([[a, b], [cheaper, bigger], [cheaper]])).toEqual([
			[],
			[
				['priceChanged', 'a', { price: { old: 10000, new: 8000 } }],
				['quotaChanged', 'b', { mainQuotaBytes: { old: 1024, new: 2048 }, nightQuotaBytes: { old: 0, new: 512 } }],
			],
			[['productRemoved', 'b', {}]],
		]);
	});

	it('a removed package is described from what was seen of it', () => {
		const state: CatalogueState = {};
		Object.assign(state, catalogueChanges(state, [a, b], ALL, false, NOW).next);
		const { items } = catalogueChanges(state, [a], ALL, false, NOW);
		expect(items).toEqual([
			{ event: 'productRemoved', detectedAt: NOW.toISOString(), uuid: 'b', name: 'Paket b', price: 10000, currency: 'IDR', mainQuotaBytes: 1024, nightQuotaBytes: 0, appsQuotaBytes: 0, changes: {} },
		]);
	});

	it('only the selected events are emitted, and the state still moves on', () => {
		const changed = [product('a', { price: 1 }), product('c')];
		expect(poll([[a, b], changed, changed], ['productRemoved'])).toEqual([[], [['productRemoved', 'b', {}]], []]);
	});

	it(`watches at most ${MAX_WATCHED_PRODUCTS} packages, and says so`, () => {
		const many = Array.from({ length: MAX_WATCHED_PRODUCTS + 10 }, (_, index) => product(`p${index}`));
		const { next } = catalogueChanges({}, many, ALL, false, NOW);
		expect(Object.keys(next.products)).toHaveLength(MAX_WATCHED_PRODUCTS);
		expect(next.truncated).toBe(true);
		// The packages beyond the bound are never "new" on a later poll.
		expect(catalogueChanges(next, many, ALL, false, NOW).items).toEqual([]);
	});
});
