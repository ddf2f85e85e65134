'use strict';
// P1 (node throughput) and P2 (memory) in a real n8n (n8n-versions.json "ci", 2.40.7 today), driven through the n8n CLI
// with the e2e lib: temp user folder, our package and the bench's own package installed
// as community packages, workflows imported once, `n8n execute --id` per round.
//
// Timing: every contender is a node of ONE workflow execution, all fed by the same input
// node. n8n records each node's own executionTime in runData, so n8n's start-up, the
// input generation and the final JSON dump are not in any figure. The contenders' order
// (v1 execution order follows canvas position) is rotated from round to round.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');

const e2e = require('../test/e2e/lib');

const REPO = path.resolve(__dirname, '..');
const TOKEN = 'lba-bench-token';

const CRED_LBA = { id: 'benchLbaCredential', name: 'LBA sandbox (bench)' };
const CRED_BEARER = { id: 'benchBearerCredential', name: 'Bearer (bench)' };

/** Builds the package, packs it and the bench package, installs both in a fresh user folder. */
async function prepareN8n(log) {
	log('building the node package (npm run build)...');
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], env: e2e.node24Env() });
	const folder = e2e.makeUserFolder('lba-bench-n8n-');
	const packs = path.join(folder.dir, 'packs');
	log(`installing both packages into ${folder.nodesDir}...`);
	for (const dir of [REPO, path.join(__dirname, 'floor-package')]) {
		await e2e.installCommunityPackage(folder, await e2e.packPackage(dir, packs));
	}
	return folder;
}

async function importCredentials(folder, sandboxUrl) {
	await e2e.importCredentials(folder, [
		{ ...CRED_LBA, type: 'lbaAdsApi', data: { baseUrl: sandboxUrl, accessToken: TOKEN } },
		{ ...CRED_BEARER, type: 'httpBearerAuth', data: { token: TOKEN } },
	]);
}

// ---- workflows -------------------------------------------------------------------------

const node = (name, type, typeVersion, parameters, position, credentials) => ({
	id: `00000000-0000-4000-8000-${String(Math.abs(hash(name))).padStart(12, '0').slice(0, 12)}`,
	name,
	type,
	typeVersion,
	position,
	parameters,
	...(credentials ? { credentials } : {}),
});

function hash(text) {
	let h = 0;
	for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) | 0;
	return h;
}

const TRIGGER = 'Start';
const INPUT = 'Input items';
const LBA = 'LBA Ads';
const LBA_JSON = 'LBA Ads (JSON channels)';
const LBA_CAMPAIGN_JSON = 'LBA Ads (campaign JSON)';
const HTTP = 'HTTP Request';
const DEDUP = 'Remove Duplicates';
const DEDUP_HTTP = 'HTTP Request after Remove Duplicates';
const FLOOR = 'Engine floor';
const HTTP_FLOOR = 'HTTP floor';
const SPLIT = 'Split Out';
const WARM_INPUT = 'Warm-up items';
const WARM_PREFIX = 'Warm-up ';
const WARM_ITEMS = 100;
// The warm-up campaigns start at this ID, so none equals a measured one (see DEDUP_PARAMS).
const WARM_FIRST_ID = 1000000;

function workflow(id, name, nodes, edges) {
	const connections = {};
	// Every edge leaves output 0 (Remove Duplicates: "Kept"; its output 1 is "Discarded").
	for (const [from, to] of edges) {
		connections[from] = connections[from] || { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	}
	return {
		id,
		name,
		nodes,
		connections,
		active: false,
		// Nothing of these runs goes to the database: n8n would spend seconds serialising 10,000 items.
		settings: {
			executionOrder: 'v1',
			timezone: 'Asia/Jakarta',
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'all',
			saveManualExecutions: false,
			saveExecutionProgress: false,
		},
		pinData: {},
	};
}

/** HTTP Request configured as a user would: bearer credential, expressions in query or JSON body. */
function httpRequest(extra) {
	return { authentication: 'genericCredentialType', genericAuthType: 'httpBearerAuth', options: {}, ...extra };
}

const CAMPAIGN_JSON_BODY = `={
  "name": "{{ $json.name }}",
  "description": "{{ $json.description }}",
  "categoryId": 10,
  "channels": [
${['tsel', 'isat', 'xl']
	.map(
		(telco) =>
			`    { "sender": "WARUNGKITA", "locationId": {{ $json.locationId }}, "smsQty": 1000, "message": "Promo {{ $json.city }}", "startDate": "{{ $json.start }}", "endDate": "{{ $json.end }}", "telcoId": "${telco}" }`,
	)
	.join(',\n')}
  ]
}`;

const CAMPAIGN_CHANNELS = {
	channel: ['tsel', 'isat', 'xl'].map((telcoId) => ({
		sender: 'WARUNGKITA',
		locationId: '={{ $json.locationId }}',
		smsQty: 1000,
		message: '=Promo {{ $json.city }}',
		startDate: '={{ $json.start }}',
		endDate: '={{ $json.end }}',
		telcoId,
	})),
};

// LBA Ads with Channels Input = JSON: one expression per item gives the whole channels array
// (the same three channels as the fields mode and the HTTP Request body).
const CAMPAIGN_CHANNELS_JSON = `={{ [${['tsel', 'isat', 'xl']
	.map(
		(telco) =>
			`{ "sender": "WARUNGKITA", "locationId": $json.locationId, "smsQty": 1000, "message": "Promo " + $json.city, "startDate": $json.start, "endDate": $json.end, "telcoId": "${telco}" }`,
	)
	.join(', ')}] }}`;

// LBA Ads with Campaign Input = JSON: one expression per item gives the whole campaign, as the HTTP
// Request's JSON body does (the same name, description, category and three channels).
const CAMPAIGN_JSON = `={{ { "name": $json.name, "description": $json.description, "categoryId": 10, "channels": ${CAMPAIGN_CHANNELS_JSON.slice(4, -3)} } }}`;

// n8n's own once-only guarantee in front of the HTTP Request: Remove Duplicates v2, "Remove Items
// Processed in Previous Executions", Keep Items Where "Value Is New", the value being the JSON of
// the fields the body is made of. Scope Node (its default), not Workflow: our node refuses to run
// beside a Remove Duplicates node with Workflow scope (both would use the workflow's shared row of
// n8n's history, which our node locks), and Node scope is the guarantee our node gives (history
// per workflow and node). One workflow per round, and the warm-up items have other IDs
// (WARM_FIRST_ID), so no measured item is dropped whatever the scope.
const DEDUP_PARAMS = {
	operation: 'removeItemsSeenInPreviousExecutions',
	logic: 'removeItemsWithAlreadySeenKeyValues',
	dedupeValue: '={{ JSON.stringify({ name: $json.name, description: $json.description, locationId: $json.locationId, city: $json.city, start: $json.start, end: $json.end }) }}',
	options: { scope: 'node' },
};

/** The P1 contenders of a scenario, in their base order (the order rotates per round). */
function contendersOf(scenario) {
	return scenario.kind === 'campaign' ? [LBA, LBA_JSON, LBA_CAMPAIGN_JSON, DEDUP_HTTP, HTTP, FLOOR, HTTP_FLOOR] : [LBA, HTTP, FLOOR, HTTP_FLOOR];
}

/** The nodes whose executionTime make a contender's time, first to last. */
function chainOf(contender) {
	return contender === DEDUP_HTTP ? [DEDUP, DEDUP_HTTP] : [contender];
}

/**
 * P1 workflow: input node -> each contender (LBA, HTTP Request, engine floor, HTTP floor; for
 * Create Campaign also LBA with JSON channels and Remove Duplicates -> HTTP Request) in the
 * given top-to-bottom order.
 */
function throughputWorkflow(id, scenario, order, sandboxUrl, { warmUp = true } = {}) {
	const geocode = scenario.kind === 'geocode';
	const lbaParams = geocode
		? { resource: 'location', operation: 'reverseGeocode', latitude: '={{ $json.lat }}', longitude: '={{ $json.lng }}', output: 'simplified', options: {} }
		: {
				resource: 'campaign',
				operation: 'create',
				name: '={{ $json.name }}',
				campaignDescription: '={{ $json.description }}',
				categoryId: 10,
				channelsInput: 'fields',
				channels: CAMPAIGN_CHANNELS,
				options: {},
			};
	const floorParams = { ...lbaParams };
	delete floorParams.resource;
	const httpParams = geocode
		? httpRequest({
				method: 'GET',
				url: `${sandboxUrl}/io/location`,
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'latlng', value: '={{ $json.lat }},{{ $json.lng }}' }] },
			})
		: httpRequest({
				method: 'POST',
				url: `${sandboxUrl}/lba/campaign`,
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: CAMPAIGN_JSON_BODY,
			});
	const contenders = {
		[LBA]: ['n8n-nodes-lba-ads.lbaAds', 1, lbaParams, { lbaAdsApi: CRED_LBA }],
		[LBA_JSON]: ['n8n-nodes-lba-ads.lbaAds', 1, { ...lbaParams, channelsInput: 'json', channels: undefined, channelsJson: CAMPAIGN_CHANNELS_JSON }, { lbaAdsApi: CRED_LBA }],
		[LBA_CAMPAIGN_JSON]: ['n8n-nodes-lba-ads.lbaAds', 1, { resource: 'campaign', operation: 'create', campaignInput: 'json', campaignJson: CAMPAIGN_JSON, options: {} }, { lbaAdsApi: CRED_LBA }],
		[HTTP]: ['n8n-nodes-base.httpRequest', 4.2, httpParams, { httpBearerAuth: CRED_BEARER }],
		[DEDUP]: ['n8n-nodes-base.removeDuplicates', 2, DEDUP_PARAMS],
		[DEDUP_HTTP]: ['n8n-nodes-base.httpRequest', 4.2, httpParams, { httpBearerAuth: CRED_BEARER }],
		[FLOOR]: ['n8n-nodes-lba-bench.benchFloor', 1, floorParams],
		// Our package's credential on the bench package's node: n8n finds credential types across packages.
		[HTTP_FLOOR]: ['n8n-nodes-lba-bench.benchHttpFloor', 1, floorParams, { lbaAdsApi: CRED_LBA }],
	};
	const kind = geocode ? 'points' : 'campaigns';
	// A warm-up branch runs first (it is higher on the canvas): every contender once on a
	// few items, so module loading, credential decryption and JIT warm-up are paid there
	// and not by whichever contender happens to run first in the measured branch.
	const nodes = [
		node(TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {}, [0, 0]),
		node(WARM_INPUT, 'n8n-nodes-lba-bench.benchItems', 1, { count: WARM_ITEMS, kind, first: WARM_FIRST_ID }, [200, -1000]),
		node(INPUT, 'n8n-nodes-lba-bench.benchItems', 1, { count: scenario.items, kind }, [200, 0]),
	];
	const edges = [
		[TRIGGER, WARM_INPUT],
		[TRIGGER, INPUT],
	];
	const branches = [[WARM_PREFIX, WARM_INPUT, -1000 - 200 * order.length], [``, INPUT, 0]];
	if (!warmUp) {
		// A profiled run: the measured branch only, so the profile holds one contender's work.
		nodes.splice(1, 1);
		edges.splice(0, 1);
		branches.shift();
	}
	for (const [prefix, input, y0] of branches) {
		order.forEach((contender, rank) => {
			let from = input;
			chainOf(contender).forEach((name, step) => {
				const [type, version, params, creds] = contenders[name];
				nodes.push(node(`${prefix}${name}`, type, version, params, [500 + step * 200, y0 + rank * 200], creds));
				edges.push([from, `${prefix}${name}`]);
				from = `${prefix}${name}`;
			});
		});
	}
	return workflow(id, `bench ${scenario.key} ${order.join(' > ')}`, nodes, edges);
}

/** P2 workflows: probe start -> contender path -> probe end, one contender per execution. */
function memoryWorkflow(id, contender, sandboxUrl) {
	const probe = (name, mode, x) => node(name, 'n8n-nodes-lba-bench.benchProbe', 1, { mode }, [x, 0]);
	const path_ =
		contender === 'lba'
			? [node(LBA, 'n8n-nodes-lba-ads.lbaAds', 1, { resource: 'product', operation: 'getMany', returnAll: true, simplify: true }, [400, 0], { lbaAdsApi: CRED_LBA })]
			: [
					node(HTTP, 'n8n-nodes-base.httpRequest', 4.2, httpRequest({ method: 'GET', url: `${sandboxUrl}/io/products` }), [400, 0], { httpBearerAuth: CRED_BEARER }),
					node(SPLIT, 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'results', include: 'noOtherFields', options: {} }, [600, 0]),
				];
	const nodes = [node(TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {}, [0, 0]), probe('Probe start', 'start', 200), ...path_, probe('Probe end', 'end', 800)];
	const chain = nodes.map((n) => n.name);
	return workflow(id, `bench memory ${contender}`, nodes, chain.slice(1).map((name, i) => [chain[i], name]));
}

// ---- running ---------------------------------------------------------------------------

/**
 * Runs one imported workflow; returns runData (throws with n8n's error if any node failed).
 * n8n prints the whole run (tens of MB for 10,000 items), so stdout goes to a file rather
 * than a pipe buffer.
 */
async function execute(folder, id, env = {}) {
	const started = Date.now();
	const outFile = path.join(folder.dir, `execute-${id}.out`);
	const out = fs.openSync(outFile, 'w');
	const code = await new Promise((resolve, reject) => {
		const child = spawn(e2e.n8nBin(), ['execute', `--id=${id}`, '--rawOutput'], {
			cwd: folder.dir,
			// n8n prints the run JSON through its logger at level info.
			env: e2e.n8nEnv(folder, { N8N_LOG_LEVEL: 'info', ...env }),
			stdio: ['ignore', out, 'ignore'],
		});
		child.once('error', reject);
		child.once('exit', resolve);
	});
	fs.closeSync(out);
	const stdout = fs.readFileSync(outFile, 'utf8');
	fs.rmSync(outFile);
	let run = null;
	try {
		run = e2e.parseRawOutput(stdout);
	} catch (error) {
		throw new Error(`n8n execute ${id} exited ${code}: ${stdout.slice(-3000)}`);
	}
	const error = run.data.resultData.error;
	if (code !== 0 || error) throw new Error(`n8n execute ${id} failed (${code}): ${error ? `${error.message} ${error.description || ''}` : ''}`);
	return { runData: run.data.resultData.runData, wallMs: Date.now() - started };
}

function nodeRun(runData, name) {
	const run = runData[name] && runData[name][0];
	if (!run) throw new Error(`node ${name} did not run`);
	const items = (run.data && run.data.main && run.data.main[0]) || [];
	return { ms: run.executionTime, startTime: run.startTime, items };
}

module.exports = {
	TOKEN,
	prepareN8n,
	importCredentials,
	throughputWorkflow,
	memoryWorkflow,
	execute,
	nodeRun,
	contendersOf,
	chainOf,
	names: { LBA, LBA_JSON, LBA_CAMPAIGN_JSON, HTTP, DEDUP, DEDUP_HTTP, FLOOR, HTTP_FLOOR, SPLIT },
};
