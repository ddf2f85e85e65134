'use strict';
// P5: duplicate protection's cost as its history grows, in real n8n (n8n-versions.json "ci"), on SQLite (regular
// mode's default) and on PostgreSQL (queue mode's). One wave is one Create Campaign run of 32
// new campaigns (8 requests in flight, so one claim and one settle under the history lock).
// Contenders, all in the same round: the same node with a history of 0, 1,000 and 10,000
// campaigns recorded beforehand (written straight into n8n's processed_data table, as n8n
// itself stores them: one md5 hash per key and per "created" mark), and with protection Off.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const e2e = require('../test/e2e/lib');
const { startPostgres } = require('../test/queue/lib/services');
const { createCampaignParameters } = require('../test/queue/lib/workflows');
const n8n = require('./n8n');
const { REPO } = require('./processes');

const LBA_NODE_ID = 'bench-history-lba';
const WAVE = 32;
const HISTORIES = [0, 1000, 10000];

function historyWorkflow(id, protection) {
	return {
		id,
		name: `Bench P5: ${id}`,
		nodes: [
			{ id: 'bench-history-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'bench-history-items',
				name: 'Campaigns',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				// New names every run: the wave is always 32 campaigns no run has sent.
				parameters: { jsCode: `return Array.from({ length: ${WAVE} }, (_, i) => ({ json: { name: \`p5-\${$execution.id}-\${Date.now()}-\${i}\` } }));` },
			},
			{
				id: LBA_NODE_ID,
				name: 'LBA Ads',
				type: 'n8n-nodes-lba-ads.lbaAds',
				typeVersion: 1,
				position: [440, 0],
				parameters: createCampaignParameters('Bench P5', { duplicateProtection: protection }),
				credentials: { lbaAdsApi: { id: 'benchLbaCredential', name: 'LBA sandbox (bench)' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Campaigns', type: 'main', index: 0 }]] }, Campaigns: { main: [[{ node: 'LBA Ads', type: 'main', index: 0 }]] } },
		active: false,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false },
		pinData: {},
	};
}

/** The processed_data row of a history of `campaigns` campaigns: a key and a "created" mark each. */
function historyRow(campaigns) {
	const data = Array.from({ length: campaigns * 2 }, () => crypto.randomBytes(16).toString('base64'));
	return JSON.stringify({ mode: 'entries', data });
}

const contenders = [{ key: 'off', protection: 'off' }, ...HISTORIES.map((campaigns) => ({ key: `h${campaigns}`, protection: 'content', campaigns }))];

async function runP5({ rounds, log, sandboxUrl }) {
	const out = {};
	for (const db of ['sqlite', 'postgres']) {
		const folder = e2e.makeUserFolder(`lba-bench-p5-${db}-`);
		const pg = db === 'postgres' ? await startPostgres() : undefined;
		const env = pg ? pg.env : {};
		try {
			await e2e.installCommunityPackage(folder, await e2e.packPackage(REPO, path.join(folder.dir, 'packs')));
			const input = (name, data) => {
				const file = path.join(folder.dir, name);
				fs.writeFileSync(file, JSON.stringify(data));
				return file;
			};
			await e2e.runN8nOk(folder, ['import:credentials', `--input=${input('credentials.json', [{ id: 'benchLbaCredential', name: 'LBA sandbox (bench)', type: 'lbaAdsApi', data: { baseUrl: sandboxUrl, accessToken: n8n.TOKEN } }])}`], { env });
			const workflows = contenders.map((c) => historyWorkflow(`benchHistory${db}${c.key}`, c.protection));
			await e2e.runN8nOk(folder, ['import:workflow', `--input=${input('workflows.json', workflows)}`], { env });
			log(`P5 ${db}: writing histories of ${HISTORIES.join(', ')} campaigns...`);
			const rows = contenders.filter((c) => c.campaigns).map((c) => ({ workflowId: `benchHistory${db}${c.key}`, value: historyRow(c.campaigns) }));
			if (pg) {
				const quote = (text) => `'${text.replace(/'/g, "''")}'`;
				await pg.sqlScript(rows.map((r) => `INSERT INTO processed_data ("workflowId", context, value) VALUES (${quote(r.workflowId)}, 'n:${LBA_NODE_ID}', ${quote(r.value)});`).join('\n'));
			} else {
				const { DatabaseSync } = require('node:sqlite');
				const sqlite = new DatabaseSync(path.join(folder.n8nDir, 'database.sqlite'));
				const insert = sqlite.prepare(`INSERT INTO processed_data (workflowId, context, value, createdAt, updatedAt) VALUES (?, ?, ?, STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW'), STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW'))`);
				for (const r of rows) insert.run(r.workflowId, `n:${LBA_NODE_ID}`, r.value);
				sqlite.close();
			}
			const ms = Object.fromEntries(contenders.map((c) => [c.key, []]));
			for (let round = 0; round < rounds; round++) {
				const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]);
				for (const c of order) {
					const { runData } = await n8n.execute(folder, `benchHistory${db}${c.key}`, env);
					const run = n8n.nodeRun(runData, 'LBA Ads');
					if (run.items.length !== WAVE || run.items.some((item) => item.json.status !== 'Published')) throw new Error(`P5 ${db} ${c.key}: not ${WAVE} published campaigns`);
					ms[c.key].push(run.ms);
				}
				log(`P5 ${db} round ${round + 1}/${rounds}: ${contenders.map((c) => `${c.key} ${ms[c.key][round]} ms`).join(', ')}`);
			}
			out[db] = { ms, perRound: ms };
		} finally {
			folder.cleanup();
			if (pg) await pg.close();
		}
	}
	return { wave: WAVE, histories: HISTORIES, contenders: contenders.map((c) => c.key), rounds, results: out };
}

module.exports = { runP5, P5_CONTENDERS: contenders.length };
