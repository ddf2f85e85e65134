/**
 * Node and credential type registries, filled from packages the way n8n loads a
 * community package: n8n-core's own `PackageDirectoryLoader` reads the package's
 * `package.json` `n8n` section (`nodes`, `credentials`: compiled .js paths), loads
 * each class, and names node types `<package name>.<node name>` exactly as an n8n
 * instance does for a package installed in ~/.n8n/nodes.
 *
 * The registries mirror the small parts of n8n's cli `NodeTypes` / `CredentialTypes`
 * (packages/cli/src/node-types.ts, credential-types.ts) that the execution engine and
 * the credentials helper call.
 */
import './env';

import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	UnexpectedError,
	type ICredentialType,
	type ICredentialTypes,
	type IDataObject,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';
import path from 'node:path';

import { ManualTrigger, NoOp, SetJson, MANUAL_TRIGGER_TYPE, NO_OP_TYPE, SET_TYPE } from './builtin-nodes';
import { OAuth2Api } from './oauth2-api.credentials';

export class HarnessNodeTypes implements INodeTypes {
	readonly types: Record<string, INodeType | IVersionedNodeType> = {};

	add(fullName: string, type: INodeType | IVersionedNodeType) {
		this.types[fullName] = type;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) {
			throw new UnexpectedError(`Unknown node type "${nodeType}"`, {
				extra: { known: Object.keys(this.types) },
			});
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

export class HarnessCredentialTypes implements ICredentialTypes {
	readonly types: Record<string, ICredentialType> = {};

	/** Full node type names per credential type (n8n fills `supportedNodes` likewise). */
	readonly supportedNodes: Record<string, string[]> = {};

	add(type: ICredentialType, supportedNodes: string[] = []) {
		this.types[type.name] = type;
		this.supportedNodes[type.name] = supportedNodes;
	}

	recognizes(credentialType: string): boolean {
		return credentialType in this.types;
	}

	getByName(credentialType: string): ICredentialType {
		const type = this.types[credentialType];
		if (!type) throw new UnexpectedError(`Unknown credential type "${credentialType}"`);
		return type;
	}

	getSupportedNodes(type: string): string[] {
		return this.supportedNodes[type] ?? [];
	}

	/** All ancestors through `extends`, nearest first (as n8n's CredentialTypes does). */
	getParentTypes(typeName: string): string[] {
		const extendsArr = this.types[typeName]?.extends ?? [];
		const parents = [...extendsArr];
		for (const parent of extendsArr) parents.push(...this.getParentTypes(parent));
		return parents;
	}
}

export interface LoadedNodes {
	/** Package names loaded, in order. */
	packageNames: string[];
	nodeTypes: HarnessNodeTypes;
	credentialTypes: HarnessCredentialTypes;
}

/**
 * The "<name>Tool" type n8n makes of a node with `usableAsTool` (n8n's NodeTypes builds it the
 * same way: the node's own properties under a description named "…Tool", so `@tool` display
 * options apply). One difference: real n8n gives it no main input and an agent feeds the tool
 * call's arguments as its input item; the harness keeps the main input, so a test feeds those
 * arguments from the previous node, where `$fromAI('key')` reads them.
 */
function toolVariant(type: INodeType | IVersionedNodeType): INodeType | undefined {
	if (!('usableAsTool' in type.description) || !type.description.usableAsTool) return undefined;
	const node = type as INodeType;
	const description = { ...node.description, name: `${node.description.name}Tool`, displayName: `${node.description.displayName} Tool` };
	delete description.usableAsTool;
	return Object.create(node, { description: { value: description } }) as INodeType;
}

/**
 * Loads one or more community packages (folders with a package.json `n8n` section;
 * build them first, the section points at compiled files) plus the harness built-ins
 * `n8n-nodes-base.manualTrigger`, `n8n-nodes-base.noOp`, `n8n-nodes-base.set` (JSON mode) and the `oAuth2Api` credential.
 */
export async function loadNodes(packageDirs: string[]): Promise<LoadedNodes> {
	const nodeTypes = new HarnessNodeTypes();
	const credentialTypes = new HarnessCredentialTypes();
	nodeTypes.add(MANUAL_TRIGGER_TYPE, new ManualTrigger());
	nodeTypes.add(NO_OP_TYPE, new NoOp());
	nodeTypes.add(SET_TYPE, new SetJson());
	credentialTypes.add(new OAuth2Api());

	const packageNames: string[] = [];
	for (const dir of packageDirs) {
		const loader = new PackageDirectoryLoader(path.resolve(dir));
		await loader.loadAll();
		const pkg = loader.packageName;
		packageNames.push(pkg);
		if (Object.keys(loader.nodeTypes).length + Object.keys(loader.credentialTypes).length === 0) {
			throw new UnexpectedError(`Package "${pkg}" in ${dir} has no nodes or credentials in its n8n section`);
		}
		const toolNames = new Map<string, string>();
		for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
			nodeTypes.add(`${pkg}.${name}`, type);
			const tool = toolVariant(type);
			if (tool) {
				nodeTypes.add(`${pkg}.${name}Tool`, tool);
				toolNames.set(name, `${name}Tool`);
			}
		}
		for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
			const supported = (loader.known.credentials[name]?.supportedNodes ?? []).flatMap((node) =>
				[node, toolNames.get(node)].filter(Boolean).map((each) => `${pkg}.${each}`),
			);
			credentialTypes.add(type, supported);
		}
	}
	return { packageNames, nodeTypes, credentialTypes };
}
