'use strict';
// The e2e suites' workflow builder: nodes laid out left to right, connections in a chain, and
// the LBA Ads Create Campaign node with the parameters every suite starts from and the
// "LBA sandbox" credential. A suite changes only what its scenario is about.
const { SANDBOX_CREDENTIAL_ID, SANDBOX_CREDENTIAL_NAME } = require('./examples');

const LBA_NODE_TYPE = 'n8n-nodes-lba-ads.lbaAds';
const FIXED_DATES = { startDate: '2036-12-01T09:00:00+07:00', endDate: '2036-12-02T21:00:00+07:00' };
/** Dates the way users write "start now": every evaluation (a Retry too) gives later ones. */
const NOW_DATES = { startDate: '={{ $now.plus({ minutes: 5 }) }}', endDate: '={{ $now.plus({ days: 3 }) }}' };

/** One channel of a campaign: fixed dates unless `overrides` says otherwise. */
function channel(overrides = {}) {
	return { sender: 'LBADEMO', locationId: 3273, smsQty: 100, message: 'Promo!', ...FIXED_DATES, telcoId: 'tsel', ...overrides };
}

/** Create Campaign's parameters: one campaign per item, named by `$json.name`, one request at a time. */
function createCampaignParameters(overrides = {}) {
	return {
		resource: 'campaign',
		operation: 'create',
		name: '={{ $json.name }}',
		campaignDescription: 'e2e',
		categoryId: 10,
		channelsInput: 'fields',
		channels: { channel: [channel()] },
		options: { concurrency: 1 },
		...overrides,
	};
}

/** A node; `extra` adds node settings (retryOnFail, credentials, webhookId, …). */
function node(id, name, type, typeVersion, parameters = {}, extra = {}) {
	return { id, name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** The LBA Ads node (Create Campaign unless `parameters` says otherwise) with the sandbox credential. */
function lbaNode(id, name, parameters = createCampaignParameters(), extra = {}) {
	return node(id, name, LBA_NODE_TYPE, 1, parameters, {
		credentials: { lbaAdsApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } },
		...extra,
	});
}

const manualTrigger = (id, name = 'Start') => node(id, name, 'n8n-nodes-base.manualTrigger', 1);

/** A Code node returning `items` (each the json of one item). */
function itemsNode(id, name, items) {
	return node(id, name, 'n8n-nodes-base.code', 2, { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` });
}

/** `[{ name: 'prefix-1' }, …]`: items that each become one campaign. */
const namedItems = (prefix, count = 6) => Array.from({ length: count }, (_, index) => ({ name: `${prefix}-${index + 1}` }));

/** An Execute Workflow node calling workflow `childId` from the database once, waiting for it. */
function executeWorkflowNode(id, name, childId, extra = {}) {
	return node(
		id,
		name,
		'n8n-nodes-base.executeWorkflow',
		1.2,
		{
			source: 'database',
			workflowId: { __rl: true, mode: 'id', value: childId },
			workflowInputs: { mappingMode: 'defineBelow', value: {}, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: true },
			mode: 'once',
			options: { waitForSubWorkflow: true },
		},
		extra,
	);
}

/** A sub-workflow's trigger (Execute Workflow Trigger) that passes the caller's items through. */
const executeWorkflowTrigger = (id, name = 'Called') => node(id, name, 'n8n-nodes-base.executeWorkflowTrigger', 1.1, { inputSource: 'passthrough' });

/** Connections of nodes in a row: each node's main output to the next one's input. */
function chain(...names) {
	const connections = {};
	for (let index = 0; index + 1 < names.length; index++) connect(connections, names[index], names[index + 1]);
	return connections;
}

/** Adds a connection from `from`'s output `output` to `to`. */
function connect(connections, from, to, output = 0) {
	const outputs = (connections[from] ??= { main: [] }).main;
	while (outputs.length <= output) outputs.push([]);
	outputs[output].push({ node: to, type: 'main', index: 0 });
	return connections;
}

/**
 * A workflow as `n8n import:workflow` takes it; nodes are placed left to right in the given order,
 * unless they have a position of their own. `settings` adds to `executionOrder: 'v1'`.
 */
function workflow(id, name, nodes, connections, settings = {}) {
	return {
		id,
		name,
		nodes: nodes.map((each, index) => ({ ...each, position: each.position && (each.position[0] || each.position[1]) ? each.position : [index * 220, 0] })),
		connections,
		settings: { executionOrder: 'v1', ...settings },
		// n8n 2.40.7's partial run (the editor's Execute step) needs the field.
		pinData: {},
	};
}

/** Start (Manual Trigger) -> "Campaigns to send" (a Code node emitting `items`) -> the LBA node. */
function campaignWorkflow(id, name, items, { lbaName = 'Create campaigns', lbaParameters = createCampaignParameters(), lbaSettings = {} } = {}) {
	return workflow(
		id,
		name,
		[manualTrigger(`${id}-start`), itemsNode(`${id}-code`, 'Campaigns to send', items), lbaNode(`${id}-lba`, lbaName, lbaParameters, lbaSettings)],
		chain('Start', 'Campaigns to send', lbaName),
	);
}

module.exports = {
	LBA_NODE_TYPE,
	FIXED_DATES,
	NOW_DATES,
	channel,
	createCampaignParameters,
	node,
	lbaNode,
	manualTrigger,
	itemsNode,
	namedItems,
	executeWorkflowNode,
	executeWorkflowTrigger,
	chain,
	connect,
	workflow,
	campaignWorkflow,
};
