/**
 * An in-memory `ICredentialsHelper`: the object n8n-core asks for credential data,
 * for `authenticate`-ing requests and for storing refreshed OAuth tokens.
 *
 * It mirrors n8n's cli `CredentialsHelper` (n8n-io/n8n packages/cli/src/credentials-helper.ts)
 * minus the database, encryption, overwrites, external secrets and dynamic credentials:
 * - getDecrypted: stored data + the type's property defaults (incl. inherited ones, e.g.
 *   oAuth2Api's `authentication: 'header'`), `oauthTokenData` kept, then expressions
 *   resolved with `$self` = the credential data (so `={{$self.baseUrl}}/oauth/token` works).
 * - authenticate: a function `authenticate` is called; a generic one
 *   (`{type:'generic', properties:{headers|qs|body|auth: {...}}}`) has keys and values
 *   resolved as expressions with `$credentials` and merged into the request.
 * - preAuthentication: runs the type's `preAuthentication` when its expirable hidden
 *   property is empty, expired, or the credential is being tested; stores the result.
 * - updateCredentials / updateCredentialsOauthTokenData: write into the store, so a
 *   token fetched once is reused by later requests of the same run, as in n8n.
 * Data is keyed by credential type: a workflow node's `credentials: {type: {id, name}}`
 * gets the data stored for `type`.
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	UserError,
	Workflow,
	deepCopy,
	isExpression,
	type ICredentialDataDecryptedObject,
	type ICredentialsExpressionResolveValues,
	type IExecuteData,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { NO_OP_TYPE } from './builtin-nodes';
import type { HarnessCredentialTypes, HarnessNodeTypes } from './registry';

export type CredentialStore = Record<string, ICredentialDataDecryptedObject>;

/** One write n8n-core made to a credential (token refresh, preAuthentication). */
export interface CredentialUpdate {
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Everything n8n-core wrote back, in order (e.g. a fetched OAuth2 token). */
	readonly updates: CredentialUpdate[] = [];

	constructor(
		private readonly credentialTypes: HarnessCredentialTypes,
		private readonly nodeTypes: HarnessNodeTypes,
		/** Stored (not yet defaulted or resolved) data per credential type; mutated by updates. */
		readonly store: CredentialStore,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type = this.credentialTypes.getByName(credentialType);
		if (!type.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);

		if (!workflow || !node) {
			throw new UserError('Workflow and node are required for declarative credential authentication');
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const keyResolved = this.resolveValue(key, credentials, workflow, node);
					const valueResolved = this.resolveValue(value, credentials, workflow, node);
					const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
					target[outerKey] ??= {};
					target[outerKey][keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	/** Same as n8n: `={{...}}` strings are evaluated with `$credentials`; empty → ''. */
	private resolveValue(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.getByName(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined || typeof type.preAuthentication !== 'function') {
			return undefined;
		}
		// n8n marks a credential test by running it on a temporary noOp node with `temp: ''`.
		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === NO_OP_TYPE;
		if (credentials[expirable.name] === '' || credentialsExpired || isTestingCredentials) {
			const output = (await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
			if (output[expirable.name] === undefined) return undefined;
			if (node.credentials) {
				await this.updateCredentials(node.credentials[typeName], typeName, {
					...this.store[typeName],
					...output,
				});
				return Object.assign(credentials, output);
			}
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.getByName(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject | undefined) ?? undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		// n8n-core only uses this object for its id/name; data stays unencrypted here.
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.store[type];
		if (stored === undefined) {
			// Same wording as n8n's CredentialNotFoundError.
			throw new UserError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		if (raw === true) return deepCopy(stored);
		return this.applyDefaults(additionalData, deepCopy(stored), type, mode, executeData, expressionResolveValues);
	}

	/** n8n's `applyDefaultsAndOverwrites` without overwrites. */
	applyDefaults(
		additionalData: IWorkflowExecuteAdditionalData,
		original: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		let data = NodeHelpers.getNodeParameters(
			properties,
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		// getNodeParameters drops what is not a declared property; n8n adds the token back.
		if (original.oauthTokenData !== undefined) data.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			data = expressionResolveValues.workflow.expression.getParameterValue(
				data as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as ICredentialDataDecryptedObject;
		} else {
			const mockNode: INode = {
				id: 'credential-resolver',
				name: '',
				type: NO_OP_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			};
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: this.nodeTypes,
			});
			data = workflow.expression.getComplexParameterValue(
				mockNode,
				data as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				data,
			) as ICredentialDataDecryptedObject;
		}
		return data;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store[type] = deepCopy(data);
		this.updates.push({ type, data: deepCopy(data) });
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		// n8n stores only the token part here (Credentials.updateData({ oauthTokenData })).
		this.store[type] = { ...this.store[type], oauthTokenData: deepCopy(data.oauthTokenData) };
		this.updates.push({ type, data: { oauthTokenData: deepCopy(data.oauthTokenData) } });
	}

	/** The type's properties merged with its parents' (parents first, own ones win). */
	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialType.properties,
					{ displayName: 'oauthTokenData', name: 'oauthTokenData', type: 'json', required: false, default: {} },
				];
			}
			return credentialType.properties;
		}
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
