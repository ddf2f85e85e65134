/**
 * Pickers (nodes/LbaAds/helpers/picker.ts): every From List names a list function the node has,
 * because each operation lists its own in `listSearch` and the registry collects them into the
 * node's `methods.listSearch` (no line in LbaAds.node.ts). A picker whose list is missing there
 * fails here, naming the operation and the fix.
 */
import type { INodeProperties } from 'n8n-workflow';

import { LbaAds } from '../../../../nodes/LbaAds/LbaAds.node';
import type { Resource } from '../../../../nodes/LbaAds/actions/engine/operation';
import { listSearchMethods, RESOURCES } from '../../../../nodes/LbaAds/actions/resources';
import { listName, picker, pickerField } from '../../../../nodes/LbaAds/helpers/picker';
import { searchLocations } from '../../../../nodes/LbaAds/methods/searchLocations';
import { expectAgreement } from '../../../agreements/openapi';

/** The list methods named by these properties' From List modes, with the field's name; collections and fixedCollections too. */
function namedLists(properties: INodeProperties[]): Array<{ field: string; method: string }> {
	return properties.flatMap((property) => [
		...(property.modes ?? []).flatMap((mode) => (mode.typeOptions?.searchListMethod ? [{ field: property.name, method: mode.typeOptions.searchListMethod }] : [])),
		...((property.options ?? []) as Array<{ values?: INodeProperties[] } & Partial<INodeProperties>>).flatMap((option) =>
			option.values ? namedLists(option.values) : option.type ? namedLists([option as INodeProperties]) : [],
		),
	]);
}

/** The pickers of these resources whose list the node's methods lack. */
function listsMissing(resources: Resource[], methods: Record<string, unknown>): string[] {
	const missing = resources.flatMap((resource) =>
		resource.operations.flatMap((module) =>
			namedLists(module.description)
				.filter(({ method }) => typeof methods[method] !== 'function')
				.map(({ field, method }) => `${resource.name} → ${module.option.name}: the picker ${field} lists with ${method}, which the node's methods.listSearch lacks`),
		),
	);
	// A picker on the node and its tool form name the same list.
	return [...new Set(missing)];
}

const FIX = 'Give the operation\'s OperationModule `listSearch: { <method> }` (the function the picker was built with: picker({ list: { <method> }, … }) from helpers/picker.ts); do not edit LbaAds.node.ts.';

async function searchProducts() {
	return { results: [] };
}
const spec = {
	list: { searchProducts },
	displayName: 'Product',
	name: 'productId',
	description: 'The data package',
	byId: { placeholder: 'e.g. 0b391969-0073-4cf9-952b-3f503bb02555' },
	displayOptions: { show: { resource: ['product'], operation: ['get'] } },
};
const fakeResource = (listSearch?: Record<string, typeof searchProducts>): Resource => ({
	name: 'Product',
	value: 'product',
	defaultOperation: 'get',
	operations: [
		{
			option: { name: 'Get', value: 'get', action: 'Get a product' },
			description: picker({ ...spec, tool: { key: 'productId', description: 'The uuid of a data package' } }),
			listSearch,
			operation: { checkAllBeforeSending: false, usesService: true, prepare: () => ({}), send: async () => [] },
		},
	],
});

describe('pickers', () => {
	it("every From List names a list function of the node's methods.listSearch", () => {
		const node = new LbaAds();
		expect(namedLists(node.description.properties).map(({ method }) => method)).toContain('searchLocations');
		expectAgreement(listsMissing(RESOURCES, node.methods.listSearch), FIX);
		expect(node.methods.listSearch.searchLocations).toBe(searchLocations);
	});

	it('a picker whose operation does not list its function fails, named; listed, it passes (the check itself)', () => {
		const missing = listsMissing([fakeResource()], listSearchMethods([fakeResource()]));
		expect(missing).toEqual(["Product → Get: the picker productId lists with searchProducts, which the node's methods.listSearch lacks"]);
		expect(() => expectAgreement(missing, FIX)).toThrow(/listSearch: \{ <method> \}/);
		const listed = fakeResource({ searchProducts });
		expect(listsMissing([listed], listSearchMethods([listed]))).toEqual([]);
	});

	it('the registry collects the operations\' list functions; one shared is one, two under one name throw', () => {
		const shared = fakeResource({ searchProducts });
		expect(listSearchMethods([shared, { ...shared, name: 'Other', value: 'other' }])).toEqual({ searchProducts });
		const other = { searchProducts: async () => ({ results: [] }) };
		expect(() => listSearchMethods([shared, { ...fakeResource(other), name: 'Other' }])).toThrow(/Two list functions are named searchProducts: Other → Get's listSearch/);
	});

	it('builds By ID (with its regex) and From List from the list function\'s name; one function only', () => {
		const field = pickerField({ ...spec, byId: { placeholder: 'e.g. 3273', regex: '[0-9]+', errorMessage: 'A whole number' } });
		expect(field).toMatchObject({
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			modes: [
				{ name: 'id', placeholder: 'e.g. 3273', validation: [{ type: 'regex', properties: { regex: '[0-9]+', errorMessage: 'A whole number' } }] },
				{ name: 'list', typeOptions: { searchListMethod: 'searchProducts', searchable: true } },
			],
		});
		expect(pickerField(spec).modes?.[0]).not.toHaveProperty('validation');
		expect(() => listName({})).toThrow(/one list function/);
		expect(() => listName({ searchProducts, searchLocations })).toThrow(/got searchProducts, searchLocations/);
	});
});
