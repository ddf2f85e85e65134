'use strict';
// P4: queue-mode throughput, 1 worker vs 2 workers, in real n8n (n8n-versions.json "ci") with PostgreSQL and
// Redis (test/queue/lib). N webhook calls, each a production execution that reverse-geocodes
// a point and creates a campaign for it (duplicate protection on, as by default), sent by
// `callers` clients at a time. The same main, database and queue serve both phases; only the
// number of workers changes. Per round the two phases alternate in order.
//
// CPU per execution is read from /proc (utime + stime of each n8n process group) around each
// phase, so the paper estimate of how it scales rests on what was measured here.
const fs = require('node:fs');

const { startQueueN8n } = require('../test/queue/lib/queue-n8n');
const { procStat, groupMembers } = require('../test/queue/lib/proc');
const { SANDBOX_CREDENTIAL_ID, SANDBOX_CREDENTIAL_NAME } = require('../test/e2e/lib/examples');

const WORKFLOW_ID = 'benchQueueGeocodeCampaign';

const lbaNode = (name, position, parameters) => ({
	id: `p4-${name.replace(/\W+/g, '-').toLowerCase()}`,
	name,
	type: 'n8n-nodes-lba-ads.lbaAds',
	typeVersion: 1,
	position,
	parameters,
	credentials: { lbaAdsApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } },
});

/** Webhook {lat, lng, name} -> Reverse Geocode -> Create Campaign named after the call and the city. */
const workflow = {
	id: WORKFLOW_ID,
	name: 'Bench P4: geocode then campaign',
	nodes: [
		{
			id: 'p4-webhook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '5d1f0c2a-0004-4000-8000-000000000004',
			parameters: { httpMethod: 'POST', path: 'bench-p4', responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
		},
		lbaNode('Where', [220, 0], { resource: 'location', operation: 'reverseGeocode', latitude: '={{ $json.body.lat }}', longitude: '={{ $json.body.lng }}' }),
		lbaNode('Campaign', [440, 0], {
			resource: 'campaign',
			operation: 'create',
			name: "={{ $('Webhook').item.json.body.name }} {{ $json.city }}",
			campaignDescription: '=Bench P4 for {{ $json.city }}',
			categoryId: 10,
			channelsInput: 'fields',
			channels: {
				channel: [
					{ sender: 'LBABENCH', locationId: 3273, smsQty: 100, message: '=Promo {{ $json.city }}!', startDate: '2036-12-01T09:00:00+07:00', endDate: '2036-12-02T21:00:00+07:00', telcoId: 'tsel' },
				],
			},
		}),
	],
	connections: {
		Webhook: { main: [[{ node: 'Where', type: 'main', index: 0 }]] },
		Where: { main: [[{ node: 'Campaign', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

// Points across Java, Bali and Sumatra (the sandbox geocodes them offline).
const POINTS = [
	[-6.9147, 107.6098],
	[-7.2575, 112.7521],
	[-6.2088, 106.8456],
	[-8.6705, 115.2126],
	[3.5952, 98.6722],
	[-7.7956, 110.3695],
];

/** CPU seconds used so far by a process and its children that have exited (utime, stime, cutime, cstime). */
function cpuSeconds(pid) {
	const stat = procStat(pid);
	return stat ? stat.cpuSeconds + stat.childrenCpuSeconds : 0;
}
const groupCpu = (pgid) => groupMembers(pgid).reduce((sum, member) => sum + member.cpuSeconds + member.childrenCpuSeconds, 0);

/** CPU seconds of PostgreSQL (every process of the `postgres` user: only the bench's cluster runs) and Redis. */
function storesCpu(redisDir) {
	const postgresUid = Number(fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('postgres:'))?.split(':')[2]);
	let seconds = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (fs.statSync(`/proc/${entry}`).uid === postgresUid) seconds += cpuSeconds(Number(entry));
		} catch {
			/* gone */
		}
	}
	const redisPid = Number(fs.readFileSync(`${redisDir}/redis.pid`, 'utf8').trim());
	return seconds + cpuSeconds(redisPid);
}

async function runP4({ rounds, calls, callers, concurrency, log }) {
	log(`P4: starting PostgreSQL, Redis, n8n main and 2 workers (concurrency ${concurrency} each)...`);
	const queue = await startQueueN8n('bench-p4', { workers: 2, concurrency, workflows: [workflow] });
	let callNumber = 0;
	try {
		await queue.rest.activateWorkflow(WORKFLOW_ID);
		const url = `${queue.main.baseUrl}/webhook/bench-p4`;
		const call = async () => {
			const n = callNumber++;
			const [lat, lng] = POINTS[n % POINTS.length];
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lat, lng, name: `p4-${n}` }) });
			const body = await res.json().catch(() => ({}));
			if (res.status !== 200 || body.status !== 'Published') throw new Error(`P4 call ${n}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
		};
		// Main registers the webhook asynchronously in queue mode; warm both workers up as well.
		for (let tries = 0; ; tries++) {
			try {
				await call();
				break;
			} catch (error) {
				if (tries > 100) throw error;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}
		await Promise.all(Array.from({ length: 20 }, call));

		const phase = async (workers) => {
			const pgids = [queue.main.pid, ...queue.workers.slice(0, workers).map((w) => w.pid)];
			const cpuBefore = pgids.map(groupCpu);
			const storesBefore = storesCpu(queue.redis.dir);
			const journalBefore = await campaignCount(queue.sandbox.url);
			const started = process.hrtime.bigint();
			let next = 0;
			await Promise.all(
				Array.from({ length: callers }, async () => {
					while (next < calls) {
						next++;
						await call();
					}
				}),
			);
			const seconds = Number(process.hrtime.bigint() - started) / 1e9;
			const created = (await campaignCount(queue.sandbox.url)) - journalBefore;
			if (created !== calls) throw new Error(`P4: ${calls} calls created ${created} campaigns`);
			const cpu = pgids.map((pgid, i) => groupCpu(pgid) - cpuBefore[i]);
			const workerCpuMs = (cpu.slice(1).reduce((a, b) => a + b, 0) * 1000) / calls;
			const storesCpuMs = ((storesCpu(queue.redis.dir) - storesBefore) * 1000) / calls;
			return { workers, seconds, executionsPerSec: calls / seconds, mainCpuMsPerExecution: (cpu[0] * 1000) / calls, workerCpuMsPerExecution: workerCpuMs, storesCpuMsPerExecution: storesCpuMs };
		};

		const per = { one: [], two: [], ratio: [], mainCpu: [], workerCpu: [], storesCpu: [] };
		for (let round = 0; round < rounds; round++) {
			const order = round % 2 === 0 ? [1, 2] : [2, 1];
			const got = {};
			for (const workers of order) {
				// One worker: the second is stopped, so every job goes to the first.
				if (workers === 1 && !queue.workers[1].exited()) await queue.workers[1].stop();
				if (workers === 2 && queue.workers[1].exited()) {
					await queue.startWorker(2);
					await Promise.all(Array.from({ length: 10 }, call)); // warm it up
				}
				got[workers] = await phase(workers);
				log(`P4 round ${round + 1}/${rounds}: ${workers} worker(s): ${calls} executions in ${got[workers].seconds.toFixed(1)} s = ${got[workers].executionsPerSec.toFixed(1)}/s; CPU per execution: main ${got[workers].mainCpuMsPerExecution.toFixed(1)} ms, workers ${got[workers].workerCpuMsPerExecution.toFixed(1)} ms, PostgreSQL + Redis ${got[workers].storesCpuMsPerExecution.toFixed(1)} ms`);
			}
			per.one.push(got[1].executionsPerSec);
			per.two.push(got[2].executionsPerSec);
			per.ratio.push(got[2].executionsPerSec / got[1].executionsPerSec);
			per.mainCpu.push(got[1].mainCpuMsPerExecution, got[2].mainCpuMsPerExecution);
			per.workerCpu.push(got[1].workerCpuMsPerExecution, got[2].workerCpuMsPerExecution);
			per.storesCpu.push(got[1].storesCpuMsPerExecution, got[2].storesCpuMsPerExecution);
		}
		return { calls, callers, concurrency, per };
	} finally {
		await queue.close();
	}
}

async function campaignCount(sandboxUrl) {
	return (await (await fetch(`${sandboxUrl}/_sandbox/campaigns`)).json()).campaigns.length;
}

module.exports = { runP4 };
