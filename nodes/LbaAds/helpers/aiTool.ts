import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

/**
 * The node as an AI agent's tool. n8n builds "LBA Ads Tool" from `usableAsTool`; its parameters
 * are this node's, and the `@tool` display option tells the two apart. What the model reads is the
 * tool's description and the `$fromAI()` placeholders in its parameters (each with a description);
 * a failed call reaches it as the error's `message` only.
 */

/** The tool variant runs with n8n's "<type>Tool" node type. */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * A parameter value the model fills, written as n8n's editor writes "Defined automatically by the
 * model", so the panel shows it that way and the description can be edited there.
 */
export function fromAI(key: string, description: string, type: 'string' | 'number' | 'boolean' | 'json'): string {
	if (description.includes('`')) throw new UnexpectedError(`a $fromAI description cannot hold a backtick: ${key}`);
	return `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`${description}\`, '${type}') }}`;
}

/**
 * The `$fromAI()` calls in a tool default, as written by `fromAI`: in a text, or in a picker's
 * `{ mode, value }` (helpers/picker.ts). What the model fills of a field is what these name.
 */
export function fromAICalls(value: unknown): Array<{ key: string; type: string }> {
	if (typeof value === 'string') {
		return [...value.matchAll(/\$fromAI\('([^']+)', `[^`]*`, '([a-z]+)'\)/g)].map(([, key, type]) => ({ key, type }));
	}
	if (value !== null && typeof value === 'object') return Object.values(value).flatMap(fromAICalls);
	return [];
}

/**
 * The property as the node shows it, and a copy that the tool shows with `toolDefault` instead.
 * `nodeOnlyShow`: conditions on fields that only the node has (the tool always fills this one).
 */
export function withToolDefault(
	property: INodeProperties,
	toolDefault: INodeProperties['default'],
	nodeOnlyShow: NonNullable<INodeProperties['displayOptions']>['show'] = {},
): INodeProperties[] {
	const show = property.displayOptions?.show ?? {};
	return [
		{ ...property, displayOptions: { ...property.displayOptions, show: { ...show, ...nodeOnlyShow, '@tool': [false] } } },
		{ ...property, default: toolDefault, displayOptions: { ...property.displayOptions, show: { ...show, '@tool': [true] } } },
	];
}

/**
 * The text the model reads about one operation. Defining `toolDescription` ourselves replaces
 * n8n's "Set Automatically" text, which is only the operation's action ("Create a campaign in
 * LBA Ads"); the panel shows this text, so the user sees and can edit what the model reads.
 */
export function toolDescription(resource: string, operation: string, text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		required: true,
		default: text,
		typeOptions: { rows: 4 },
		description: 'What the AI model reads about this tool: what it does, what it costs, when not to call it',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/**
 * The model sees only an error's `message`, so in a tool run the message carries the
 * description too (the panel of a regular run keeps them apart).
 */
export function withDescriptionInMessage(error: Error): Error {
	const description = (error as { description?: string | null }).description?.trim();
	if (description && !error.message.includes(description)) {
		error.message = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${description}`;
	}
	return error;
}
