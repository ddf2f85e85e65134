/**
 * A node's list search (a resourceLocator's From List) as n8n's editor asks for it: the node's
 * `methods.listSearch[method]` called with n8n-core's LoadOptionsContext on the node as the panel
 * holds it, its credential read from the harness's store, its requests made over real HTTP.
 */
import './env';

import { LoadOptionsContext } from 'n8n-core';
import { UnexpectedError, Workflow, deepCopy, type ICredentialDataDecryptedObject, type INode, type INodeListSearchResult } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper';
import type { LoadedNodes } from './registry';
import { createAdditionalData } from './run-workflow';

export interface ListSearchOptions {
	/** Credential data per credential type, as for runWorkflow. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** What the user typed into the list's search box. */
	filter?: string;
	paginationToken?: string;
}

export async function listSearch(loaded: LoadedNodes, node: INode, method: string, options: ListSearchOptions = {}): Promise<INodeListSearchResult> {
	const nodes = [deepCopy(node)];
	const workflow = new Workflow({ id: 'harness-list-search', nodes, connections: {}, active: false, nodeTypes: loaded.nodeTypes, settings: {} });
	const nodeType = loaded.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new UnexpectedError(`${node.type} has no list search method ${method} (its methods.listSearch: ${Object.keys(nodeType.methods?.listSearch ?? {}).join(', ') || 'none'})`);
	const helper = new HarnessCredentialsHelper(loaded.credentialTypes, loaded.nodeTypes, deepCopy(options.credentials ?? {}));
	const additionalData = createAdditionalData(helper, undefined, 'list-search');
	additionalData.currentNodeParameters = nodes[0].parameters;
	const context = new LoadOptionsContext(workflow, workflow.getNode(node.name)!, additionalData, 'parameters');
	return await search.call(context, options.filter, options.paginationToken);
}
