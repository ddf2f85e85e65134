/**
 * What n8n's "Test" button in the credential dialog does, mirrored from n8n's cli
 * `CredentialsTester.testCredentials` (n8n-io/n8n packages/cli/src/services/
 * credentials-tester.service.ts):
 * 1. find the test: the credential type's own `test` (an ICredentialTestRequest); else,
 *    for an OAuth2 type used by a loaded node, "is there an access token yet?";
 * 2. apply property defaults and resolve expressions in the data (`internal` mode);
 * 3. run `test.request` as the only routing request of a temporary declarative node
 *    (`n8n-nodes-base.noOp` with one `temp` property) through n8n-core's `RoutingNode`,
 *    so `baseURL`/`url` expressions see `$credentials` and the request goes through
 *    `httpRequestWithAuthentication` (generic `authenticate`, or the OAuth2 flow);
 * 4. map the outcome: response-code rules, any non-2xx → its status text, network
 *    errors → their code, `responseSuccessBody` rules on success, else OK.
 */
import './env';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	Workflow,
	createRunExecutionData,
	deepCopy,
	type ICredentialDataDecryptedObject,
	type ICredentialTestRequest,
	type ICredentialsDecrypted,
	type IExecuteData,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { NO_OP_TYPE } from './builtin-nodes';
import { HarnessCredentialsHelper, type CredentialStore } from './credentials-helper';
import type { HarnessNodeTypes, LoadedNodes } from './registry';
import { createAdditionalData } from './run-workflow';

// n8n's RESPONSE_ERROR_MESSAGES (packages/cli/src/constants.ts).
const OAUTH2_CREDENTIAL_TEST_SUCCEEDED = 'Connection Successful!';
const OAUTH2_CREDENTIAL_TEST_FAILED = 'This OAuth2 credential was not connected to an account.';

export interface CredentialTestResult extends INodeCredentialTestResult {
	/** Credential data after the test (e.g. with the OAuth2 token n8n fetched and saved). */
	credentials: CredentialStore;
}

export async function testCredential(
	loaded: LoadedNodes,
	credentialType: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const { credentialTypes, nodeTypes } = loaded;
	const store: CredentialStore = { [credentialType]: deepCopy(data) };
	const helper = new HarnessCredentialsHelper(credentialTypes, nodeTypes, store);
	const finish = (result: INodeCredentialTestResult): CredentialTestResult => ({
		...result,
		credentials: store,
	});

	const type = credentialTypes.getByName(credentialType);
	let testRequest: ICredentialTestRequest | undefined = type.test;
	if (!testRequest) {
		const isOAuth2 =
			credentialType === 'oAuth2Api' || credentialTypes.getParentTypes(credentialType).includes('oAuth2Api');
		if (isOAuth2 && credentialTypes.getSupportedNodes(credentialType).length > 0) {
			const token = data.oauthTokenData as Record<string, unknown> | undefined;
			return finish(
				token && typeof token === 'object' && 'access_token' in token
					? { status: 'OK', message: OAUTH2_CREDENTIAL_TEST_SUCCEEDED }
					: { status: 'Error', message: OAUTH2_CREDENTIAL_TEST_FAILED },
			);
		}
		// (n8n also looks for `testedBy` on the nodes; our package does not use it.)
		return finish({ status: 'Error', message: 'No testing function found for this credential.' });
	}

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'harness-credential',
		name: `${credentialType} (test)`,
		type: credentialType,
		data: deepCopy(data),
	};
	const additionalData = createAdditionalData(helper, undefined, 'credential-test');
	try {
		credentialsDecrypted.data = helper.applyDefaults(additionalData, credentialsDecrypted.data!, credentialType, 'internal');
	} catch (error) {
		return finish({ status: 'Error', message: String((error as Error).message) });
	}

	const baseType = nodeTypes.getByNameAndVersion(NO_OP_TYPE);
	const testNodeType: INodeType = {
		description: {
			...baseType.description,
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NO_OP_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [credentialType]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	// The temporary workflow resolves the test node to the temporary type, as n8n's
	// CredentialsTester does with its mock node types.
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: singleTypeRegistry(nodeTypes, NO_OP_TYPE, testNodeType),
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, credentialsDecrypted).runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } })
			.cause;
		if (cause?.response) {
			const statusCode = cause.response.status;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return finish({ status: 'Error', message: rule.properties.message });
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return finish({
					status: 'Error',
					message: cause.response.statusText || `Received HTTP status code: ${statusCode}`,
				});
			}
		} else if (cause?.code) {
			return finish({ status: 'Error', message: cause.code });
		}
		return finish({ status: 'Error', message: String((error as Error).message) });
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json;
			if (getPath(body, rule.properties.key) === rule.properties.value) {
				return finish({ status: 'Error', message: rule.properties.message });
			}
		}
	}
	return finish({ status: 'OK', message: 'Connection successful!' });
}

/** The loaded registry, but with `name` resolving to `type` (the temporary test node). */
function singleTypeRegistry(nodeTypes: HarnessNodeTypes, name: string, type: INodeType) {
	return {
		getByName: (n: string) => (n === name ? type : nodeTypes.getByName(n)),
		getByNameAndVersion: (n: string, v?: number) => (n === name ? type : nodeTypes.getByNameAndVersion(n, v)),
		getKnownTypes: () => ({}),
	};
}

/** lodash.get for dotted paths (n8n uses lodash; its types are not installed here). */
function getPath(value: unknown, dotted: string): unknown {
	return dotted
		.split('.')
		.reduce<unknown>((acc, key) => (acc && typeof acc === 'object' ? (acc as Record<string, unknown>)[key] : undefined), value);
}
