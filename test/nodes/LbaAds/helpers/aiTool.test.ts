/**
 * Every operation is a tool an AI agent can call (nodes/LbaAds/helpers/aiTool.ts): it has its own
 * `toolDescription` (what the model reads about it), and every field the model must fill (a
 * required text, number or JSON field) has a `$fromAI()` default on the tool, since the model's
 * schema is built from those expressions alone. A picker (a resourceLocator, helpers/picker.ts) is
 * such a field too: the model cannot open its list, so on the tool its By ID value is `$fromAI`.
 * (A field shown only behind another field's choice, such as a custom key, is the user's to fill.)
 * An operation without them fails here, naming the fix.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../../../../nodes/LbaAds/actions/engine/operation';
import { RESOURCES } from '../../../../nodes/LbaAds/actions/resources';
import { fromAICalls, toolDescription } from '../../../../nodes/LbaAds/helpers/aiTool';
import { picker, pickerField } from '../../../../nodes/LbaAds/helpers/picker';
import { expectAgreement } from '../../../agreements/openapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { toolTable } = require('../../../../scripts/tool-table') as { toolTable(resources: typeof RESOURCES): string };

const MODEL_FILLS = new Set(['string', 'number', 'json', 'resourceLocator']);
const onTool = (property: INodeProperties) => property.displayOptions?.show?.['@tool']?.[0] === true;
/** Shown whatever else is chosen: not only on the regular node, not behind another field's choice (that field's value is the user's). */
const alwaysOnTool = (property: INodeProperties) =>
	property.displayOptions?.show?.['@tool']?.[0] !== false &&
	Object.keys(property.displayOptions?.show ?? {}).every((key) => ['resource', 'operation', '@tool'].includes(key));

const operations = RESOURCES.flatMap((resource) => resource.operations.map((module) => ({ name: `${resource.name} → ${module.option.name}`, resource, module })));

/** The required fields of these operations that the tool shows but the model cannot fill: no tool twin with a `$fromAI` default. */
function unfilled(list: Array<{ name: string; module: OperationModule }>): string[] {
	return list.flatMap(({ name, module }) =>
		module.description
			.filter((property) => property.required && MODEL_FILLS.has(property.type) && property.name !== 'toolDescription' && alwaysOnTool(property) && !onTool(property))
			.filter((property) => !module.description.some((twin) => twin.name === property.name && onTool(twin) && fromAICalls(twin.default).length > 0))
			.map((property) =>
				property.type === 'resourceLocator'
					? `${name}: ${property.name} is a picker the model cannot fill (no $fromAI By ID value on the tool)`
					: `${name}: ${property.name} is required but has no $fromAI default on the tool`,
			),
	);
}

const FIX =
	"Wrap each in ...withToolDefault(property, fromAI('<key>', '<what the model must give, with an example>', '<type>')) from helpers/aiTool.ts (see location/reverseGeocode.operation.ts); " +
	"build a picker with ...picker({ list, …, tool: { key: '<key>', description: '<where the model finds the id, with an example>' } }) from helpers/picker.ts.";

/** A made-up Product → Get, its uuid a picker: without a tool form, and with one. */
async function searchProducts() {
	return { results: [] };
}
const showGet = { show: { resource: ['product'], operation: ['get'] } };
const spec = { list: { searchProducts }, displayName: 'Product', name: 'productId', description: 'The data package', byId: { placeholder: 'e.g. 0b391969-0073-4cf9-952b-3f503bb02555' }, displayOptions: showGet };
const fakeGet = (field: INodeProperties[]): OperationModule => ({
	option: { name: 'Get', value: 'get', action: 'Get a product' },
	description: [toolDescription('product', 'get', 'Gets one data package.'), ...field],
	listSearch: { searchProducts },
	operation: { checkAllBeforeSending: false, usesService: true, prepare: () => ({}), send: async () => [] },
});
const withoutTool = fakeGet([pickerField(spec)]);
const withTool = fakeGet(picker({ ...spec, tool: { key: 'productId', description: 'The uuid of a data package, as Get Many lists it' } }));

describe('every operation as an AI agent tool', () => {
	it('has a toolDescription for its resource and operation', () => {
		const missing = operations
			.filter(({ module }) => !module.description.some((property) => property.name === 'toolDescription' && onTool(property)))
			.map(({ name }) => name);
		expectAgreement(
			missing.map((name) => `${name}: no toolDescription`),
			'Put toolDescription(<resource>, <operation>, <what it does, what it costs, when not to call it>) from helpers/aiTool.ts first in its description.',
		);
	});

	it('fills every required text, number, JSON and picker field from the model ($fromAI) on the tool', () => {
		expectAgreement(unfilled(operations), FIX);
	});

	it('a picker without its tool form fails, named; built by picker() with its tool key it passes (the check itself)', () => {
		expect(unfilled([{ name: 'Product → Get', module: withoutTool }])).toEqual(['Product → Get: productId is a picker the model cannot fill (no $fromAI By ID value on the tool)']);
		expect(() => expectAgreement(unfilled([{ name: 'Product → Get', module: withoutTool }]), FIX)).toThrow(/picker\(\{ list, …, tool: \{ key/);
		expect(unfilled([{ name: 'Product → Get', module: withTool }])).toEqual([]);
		const twin = withTool.description.find((property) => property.name === 'productId' && onTool(property))!;
		expect(twin.default).toEqual({ mode: 'id', value: expect.stringContaining("$fromAI('productId', `The uuid of a data package, as Get Many lists it`, 'string')") });
	});

	it("the tools table names a picker's key among the fields the model fills", () => {
		const resources = [{ name: 'Product', value: 'product', defaultOperation: 'get', operations: [withTool] }];
		expect(toolTable(resources)).toContain('| Product → Get | Gets one data package. | `productId` |');
		expect(toolTable([{ ...resources[0], operations: [withoutTool] }])).toContain('| Product → Get | Gets one data package. | none |');
	});
});
