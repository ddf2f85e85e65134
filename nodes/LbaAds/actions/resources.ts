import type { INodeProperties, NodeHint } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { campaign } from './campaign';
import type { OperationModule, Resource } from './engine/operation';
import { location } from './location';
import { product } from './product';
import type { ListSearch } from '../helpers/picker';

/**
 * The one list of what the node does: its resources, each with its operations (listed in the
 * resource's index.ts). The node's description and the router are both built from it.
 * Adding an operation = its file (see ARCHITECTURE.md) + one line in its resource's index.
 */
export const RESOURCES: Resource[] = [campaign, location, product];

export function findOperation(resource: string, operation: string): OperationModule | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.option.value === operation);
}

/** The Resource selector, one Operation selector per resource, then every operation's fields. */
export function resourceProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: RESOURCES.map(({ name, value }) => ({ name, value })),
			default: 'campaign',
		},
		...RESOURCES.map(operationSelector),
		...RESOURCES.flatMap((resource) => resource.operations.flatMap((o) => o.description)),
	];
}

/** A resource's Operation selector: its operations' entries, starting on its default one. */
function operationSelector(resource: Resource): INodeProperties {
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: resource.operations.map((o) => o.option),
		default: '',
	};
	// Set apart: n8n's lint reads only a literal default, and each resource names its own.
	selector.default = resource.defaultOperation;
	return selector;
}

/**
 * The canvas subtitle under the node's name: what the node does, in the words of its operation's
 * action ("Publish a campaign (sends SMS, billed)"), not "create: campaign".
 */
export function operationSubtitle(): string {
	const actions = Object.fromEntries(RESOURCES.flatMap((resource) => resource.operations.map((o) => [`${resource.value}:${o.option.value}`, o.option.action])));
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

/** The operations' own entries of the Options collection. */
export function operationOptions(): INodeProperties[] {
	return RESOURCES.flatMap((resource) => resource.operations.flatMap((o) => o.options ?? []));
}

/** The operations' panel hints (n8n shows each whose displayCondition holds). */
export function operationHints(): NodeHint[] {
	return RESOURCES.flatMap((resource) => resource.operations.flatMap((o) => o.hints ?? []));
}

/**
 * The node's `methods.listSearch`: every operation's list functions (its `listSearch`), so a
 * picker's list needs no line in LbaAds.node.ts. Two operations may share one function; two
 * functions under one name would make one picker list the other's items, so that throws.
 */
export function listSearchMethods(resources: Resource[] = RESOURCES): ListSearch {
	const methods: ListSearch = {};
	for (const resource of resources) {
		for (const module of resource.operations) {
			for (const [name, method] of Object.entries(module.listSearch ?? {})) {
				if (methods[name] && methods[name] !== method) {
					throw new UnexpectedError(`Two list functions are named ${name}: ${resource.name} → ${module.option.name}'s listSearch and an earlier operation's. Rename one.`);
				}
				methods[name] = method;
			}
		}
	}
	return methods;
}
