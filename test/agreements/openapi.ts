/**
 * sandbox/openapi.yaml as the agreement tests read it: the document's paths with the methods
 * each serves, and the campaign's schema bounds. Read with the yaml parser alone (no sandbox
 * code), so these tests stay a check of the document, not of the sandbox.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';

export const REPO = path.resolve(__dirname, '../..');

type SecurityRequirements = Array<Record<string, unknown>>;
interface Operation {
	responses?: Record<string, unknown>;
	security?: SecurityRequirements;
}
interface SchemaNode {
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	maxItems?: number;
	enum?: unknown[];
	properties?: Record<string, SchemaNode>;
}
interface Document {
	paths: Record<string, Record<string, Operation>>;
	security: SecurityRequirements;
	components: { schemas: Record<string, SchemaNode> };
}

export const openapi: Document = YAML.parse(readFileSync(path.join(REPO, 'sandbox/openapi.yaml'), 'utf8'));

/** Path -> the methods it serves (those with a documented 2xx answer), sorted. */
export function servedMethods(): Record<string, string[]> {
	return Object.fromEntries(
		Object.entries(openapi.paths).map(([route, item]) => [
			route,
			Object.entries(item)
				.filter(([, op]) => Object.keys(op.responses ?? {}).some((status) => status.startsWith('2')))
				.map(([method]) => method.toUpperCase())
				.sort(),
		]),
	);
}

/** The campaign's bounds as the document states them (Campaign, Channel, CategoryId, TelcoId). */
export function campaignBounds() {
	const { Campaign, Channel, CategoryId, TelcoId } = openapi.components.schemas;
	const channel = Channel.properties!;
	return {
		name: Campaign.properties!.name.maxLength,
		description: Campaign.properties!.description.maxLength,
		channels: Campaign.properties!.channels.maxItems,
		sender: channel.sender.maxLength,
		message: channel.message.maxLength,
		smsQty: channel.smsQty.maximum,
		locationId: channel.locationId.maximum,
		categoryIds: CategoryId.enum,
		telcoIds: [...(TelcoId.enum as string[])].sort(),
	};
}

/** Fails with every problem listed and what to do about it, rather than a bare diff. */
export function expectAgreement(problems: string[], fix: string): void {
	if (problems.length) throw new Error(`${problems.join('\n')}\n\n${fix}`);
}
