/**
 * Every operation is a tool an AI agent can call (nodes/LbaAds/helpers/aiTool.ts): it has its own
 * `toolDescription` (what the model reads about it), and every field the model must fill (a
 * required text, number or JSON field) has a `$fromAI()` default on the tool, since the model's
 * schema is built from those expressions alone. (A field shown only behind another field's choice,
 * such as a custom key, is the user's to fill.) An operation without them fails here, naming the fix.
 */
import type { INodeProperties } from 'n8n-workflow';

import { RESOURCES } from '../../../../nodes/LbaAds/actions/resources';
import { expectAgreement } from '../../../agreements/openapi';

const MODEL_FILLS = new Set(['string', 'number', 'json']);
const onTool = (property: INodeProperties) => property.displayOptions?.show?.['@tool']?.[0] === true;
/** Shown whatever else is chosen: not only on the regular node, not behind another field's choice (that field's value is the user's). */
const alwaysOnTool = (property: INodeProperties) =>
	property.displayOptions?.show?.['@tool']?.[0] !== false &&
	Object.keys(property.displayOptions?.show ?? {}).every((key) => ['resource', 'operation', '@tool'].includes(key));

const operations = RESOURCES.flatMap((resource) => resource.operations.map((module) => ({ name: `${resource.name} → ${module.option.name}`, resource, module })));

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

	it('fills every required text, number and JSON field from the model ($fromAI) on the tool', () => {
		const missing = operations.flatMap(({ name, module }) =>
			module.description
				.filter((property) => property.required && MODEL_FILLS.has(property.type) && property.name !== 'toolDescription' && alwaysOnTool(property) && !onTool(property))
				.filter((property) => !module.description.some((twin) => twin.name === property.name && onTool(twin) && String(twin.default).includes('$fromAI(')))
				.map((property) => `${name}: ${property.name} is required but has no $fromAI default on the tool`),
		);
		expectAgreement(
			missing,
			"Wrap each in ...withToolDefault(property, fromAI('<key>', '<what the model must give, with an example>', '<type>')) from helpers/aiTool.ts (see location/reverseGeocode.operation.ts).",
		);
	});
});
