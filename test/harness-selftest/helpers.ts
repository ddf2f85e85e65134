import path from 'node:path';
import type { INode, INodeParameters } from 'n8n-workflow';

import { chain, manualTrigger, type WorkflowJson } from '../harness';

export const FIXTURE_PACKAGE = path.join(__dirname, '..', 'fixtures', 'harness-package');
export const PROBE_TYPE = 'n8n-nodes-harness-fixture.harnessProbe';

/** Start → (optional Items, a noOp fed with pinned items) → Probe. */
export function probeWorkflow(
	parameters: INodeParameters,
	extra: Partial<INode> = {},
	items?: Array<Record<string, unknown>>,
): WorkflowJson {
	const probe: INode = {
		id: 'probe',
		name: 'Probe',
		type: PROBE_TYPE,
		typeVersion: 1,
		position: [400, 0],
		parameters,
		credentials: {
			harnessBearerApi: { id: 'cred-bearer', name: 'Bearer' },
			harnessOAuth2Api: { id: 'cred-oauth2', name: 'OAuth2' },
		},
		...extra,
	};
	if (!items) return { nodes: [manualTrigger(), probe], connections: chain('Start', 'Probe') };
	// Pinned data on a noOp is how n8n's own workflow tests feed fixed items.
	const source: INode = {
		id: 'items',
		name: 'Items',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [200, 0],
		parameters: {},
	};
	return {
		nodes: [manualTrigger(), source, probe],
		connections: chain('Start', 'Items', 'Probe'),
		pinData: { Items: items.map((json) => ({ json })) } as WorkflowJson['pinData'],
	};
}
