import type { IExecuteFunctions, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';
import { isResourceLocatorValue, UnexpectedError } from 'n8n-workflow';

import { fromAI, withToolDefault } from './aiTool';

/**
 * A field that picks an id the service can list: a `resourceLocator` with **By ID** and **From
 * List**, its list from a function the operation owns. The operation lists that function in its
 * `listSearch` (`OperationModule`), the registry (`listSearchMethods` in actions/resources.ts) puts
 * it into the node's `methods.listSearch`, and the picker names it, so the name is written once:
 * `list: { searchProducts }`.
 *
 * n8n applies By ID's `regex` to a typed value before the node runs, in the editor and in n8n-core
 * alike: a value it refuses stops the whole run (WorkflowHasIssuesError), for every item, with no
 * item error and no continueOnFail. An expression (and so the AI tool's `$fromAI`) skips it, so
 * `prepare` checks the value again.
 */

/** One list function of the panel (n8n's `methods.listSearch` entry). */
export type ListSearchMethod = (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>;
/** List functions by the name a picker's `searchListMethod` gives. */
export type ListSearch = Record<string, ListSearchMethod>;

export interface PickerSpec {
	/** The operation's list function under its name, as its `listSearch` holds it: `{ searchProducts }`. */
	list: ListSearch;
	displayName: string;
	name: string;
	description: string;
	/** By ID: its placeholder, and a regex a typed value must match (anchored by n8n; refused for the whole run, see above). */
	byId: { placeholder: string; regex?: string; errorMessage?: string };
	required?: boolean;
	displayOptions?: INodeProperties['displayOptions'];
}

/** What the model is told to give, for the tool's "By ID" value: the key, what to give (where it finds the id, an example). */
export interface PickerOnTool {
	key: string;
	description: string;
	type?: 'string' | 'number';
}

/** The name the picker's `searchListMethod` gives: the one key of `list`. */
export function listName(list: ListSearch): string {
	const names = Object.keys(list);
	if (names.length !== 1 || typeof list[names[0]] !== 'function') {
		throw new UnexpectedError(`a picker takes one list function, as { searchProducts }; got ${names.join(', ') || 'none'}`);
	}
	return names[0];
}

/**
 * The picker as the node shows it, for a field the AI tool does not show (Create's channel
 * Location ID, inside Channels: the tool gives its channels as JSON). A field the tool shows is
 * built with `picker`.
 */
export function pickerField(spec: PickerSpec): INodeProperties {
	const { byId } = spec;
	const field: INodeProperties = {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		required: spec.required ?? true,
		default: { mode: 'id', value: '' },
		description: spec.description,
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: byId.placeholder,
				...(byId.regex
					? { validation: [{ type: 'regex', properties: { regex: byId.regex, errorMessage: byId.errorMessage ?? `Not a valid ${spec.displayName}` } }] }
					: {}),
			},
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: listName(spec.list), searchable: true, searchFilterRequired: false },
			},
		],
	};
	if (spec.displayOptions) field.displayOptions = spec.displayOptions;
	return field;
}

/**
 * The picker on the node, and on the AI tool By ID with the model's value (`$fromAI`): the model
 * cannot open a list, so `tool.description` says where it finds the id (another tool's answer, say).
 */
export function picker(spec: PickerSpec & { tool: PickerOnTool }): INodeProperties[] {
	const { tool, ...field } = spec;
	return withToolDefault(pickerField(field), { mode: 'id', value: fromAI(tool.key, tool.description, tool.type ?? 'string') });
}

/** A picker's value for one item: By ID or From List alike, or the plain value a workflow saved before the field was a picker. */
export function pickedValue(ctx: IExecuteFunctions, name: string, itemIndex: number): unknown {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	return isResourceLocatorValue(value) ? value.value : value;
}
