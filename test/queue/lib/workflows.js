'use strict';
// Workflows the queue-mode suites share.
const e2e = require('../../e2e/lib');

/** A Webhook node (POST /webhook/<path>) that answers with the last node's items. */
function webhookNode(webhookPath) {
	return {
		id: `queue-webhook-${webhookPath}`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: `0b8f6a3c-${webhookPath.length.toString(16).padStart(4, '0')}-4000-8000-${Buffer.from(webhookPath).toString('hex').slice(0, 12).padEnd(12, '0')}`,
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

/** LBA Ads Create with one fixed channel, each item's campaign named by {{ $json.name }}. */
function createCampaignParameters(description, extra = {}) {
	return {
		resource: 'campaign',
		operation: 'create',
		name: '={{ $json.name }}',
		campaignDescription: description,
		categoryId: 10,
		channelsInput: 'fields',
		channels: {
			channel: [{ sender: 'LBADEMO', locationId: 3273, smsQty: 100, message: 'Promo!', startDate: '2036-12-01T09:00:00+07:00', endDate: '2036-12-02T21:00:00+07:00', telcoId: 'tsel' }],
		},
		...extra,
	};
}

/**
 * Webhook {prefix, count} -> Code (`count` campaigns named <prefix>-1..n) -> LBA Ads Create,
 * five requests at a time, duplicate protection on (the default). With `withExecutionId`, a Set
 * node after it adds the execution's id to each item, so a caller can tell which worker ran it.
 */
function campaignsWorkflow({ id, webhookPath, name = 'Queue mode: create campaigns', withExecutionId = false }) {
	const create = 'Create campaigns';
	const nodes = [
		webhookNode(webhookPath),
		{
			id: `${id}-code`,
			name: 'Campaigns to send',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				jsCode: 'const { prefix, count } = $input.first().json.body;\nreturn Array.from({ length: count }, (_, i) => ({ json: { name: `${prefix}-${i + 1}` } }));',
			},
		},
		{
			id: `${id}-lba`,
			name: create,
			type: 'n8n-nodes-lba-ads.lbaAds',
			typeVersion: 1,
			position: [440, 0],
			parameters: { ...createCampaignParameters('Queue mode e2e'), options: { concurrency: 5 } },
			credentials: { lbaAdsApi: { id: e2e.SANDBOX_CREDENTIAL_ID, name: e2e.SANDBOX_CREDENTIAL_NAME } },
		},
	];
	const connections = {
		Webhook: { main: [[{ node: 'Campaigns to send', type: 'main', index: 0 }]] },
		'Campaigns to send': { main: [[{ node: create, type: 'main', index: 0 }]] },
	};
	if (withExecutionId) {
		nodes.push({
			id: `${id}-execution`,
			name: 'Execution id',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [660, 0],
			parameters: {
				mode: 'manual',
				includeOtherFields: true,
				assignments: { assignments: [{ id: 'execution-id', name: 'executionId', value: '={{ $execution.id }}', type: 'string' }] },
				options: {},
			},
		});
		connections[create] = { main: [[{ node: 'Execution id', type: 'main', index: 0 }]] };
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/**
 * Webhook {prefix} -> LBA Ads Create of ONE campaign named <prefix>, whose description carries
 * the execution's id (`{{ $execution.id }}`), so every execution is a new campaign by content;
 * Duplicate Protection: Campaign Content. A Set node adds the execution id to the answer. Identical
 * calls give the node identical input and parameters as written: only n8n's execution context
 * tells their executions apart (issue 40's burst).
 */
function burstWorkflow({ id, webhookPath, name = 'Queue mode: a new campaign per execution' }) {
	const create = 'Create campaign';
	return {
		id,
		name,
		nodes: [
			webhookNode(webhookPath),
			{
				id: `${id}-lba`,
				name: create,
				type: 'n8n-nodes-lba-ads.lbaAds',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					...createCampaignParameters('=Burst campaign of execution {{ $execution.id }}', { name: '={{ $json.body.prefix }}' }),
					duplicateProtection: 'content',
				},
				credentials: { lbaAdsApi: { id: e2e.SANDBOX_CREDENTIAL_ID, name: e2e.SANDBOX_CREDENTIAL_NAME } },
			},
			{
				id: `${id}-execution`,
				name: 'Execution id',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [440, 0],
				parameters: {
					mode: 'manual',
					includeOtherFields: true,
					assignments: { assignments: [{ id: 'execution-id', name: 'executionId', value: '={{ $execution.id }}', type: 'string' }] },
					options: {},
				},
			},
		],
		connections: {
			Webhook: { main: [[{ node: create, type: 'main', index: 0 }]] },
			[create]: { main: [[{ node: 'Execution id', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

module.exports = { webhookNode, campaignsWorkflow, createCampaignParameters, burstWorkflow };
