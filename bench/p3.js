'use strict';
// P3: requests/s and p99 latency of the sandbox vs Prism (same openapi.yaml) vs bare
// node:http sending the sandbox's own bodies, per endpoint, with autocannon. Servers run
// in their own processes; autocannon runs here. Contenders alternate within each round.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const { startSandbox, startPrism, startBare } = require('./processes');
const { freePort } = require('../test/e2e/lib/env');

const TOKEN = 'lba-bench-token';

const CAMPAIGN = {
	name: 'Promo Bandung',
	description: 'Store opening promo',
	categoryId: 10,
	channels: ['tsel', 'isat', 'xl'].map((telcoId) => ({
		sender: 'WARUNGKITA',
		locationId: 161,
		smsQty: 1000,
		message: 'Warung Kita Bandung buka! Diskon 20%.',
		startDate: '2036-12-01T09:00:00+07:00',
		endDate: '2036-12-07T21:00:00+07:00',
		telcoId,
	})),
};

const ENDPOINTS = [
	{ key: 'location', label: 'GET /io/location', method: 'GET', path: '/io/location?latlng=-6.9147,107.6098' },
	{ key: 'products', label: 'GET /io/products', method: 'GET', path: '/io/products' },
	{ key: 'campaign', label: 'POST /lba/campaign', method: 'POST', path: '/lba/campaign', body: JSON.stringify(CAMPAIGN) },
];

const CONTENDERS = ['sandbox', 'prism', 'bare'];

function load(url, endpoint, seconds, connections) {
	return autocannon({
		url: url + endpoint.path,
		method: endpoint.method,
		headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
		body: endpoint.body,
		connections,
		duration: seconds,
	});
}

/** Checks that a contender answers the endpoint with 200 (else its figures would be error pages). */
async function check(url, endpoint) {
	const res = await fetch(url + endpoint.path, {
		method: endpoint.method,
		headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
		body: endpoint.body,
	});
	const text = await res.text();
	if (res.status !== 200) throw new Error(`${url}${endpoint.path} answered ${res.status}: ${text.slice(0, 300)}`);
	return text;
}

async function runP3({ rounds, seconds, connections, log }) {
	const servers = {};
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-bench-p3-'));
	try {
		servers.sandbox = await startSandbox({ token: TOKEN });
		// The bare server sends exactly the sandbox's answers.
		const bodies = {};
		for (const endpoint of ENDPOINTS) {
			bodies[`${endpoint.method} ${endpoint.path.split('?')[0]}`] = await check(servers.sandbox.url, endpoint);
		}
		const bodiesFile = path.join(tmp, 'bodies.json');
		fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
		servers.bare = await startBare(bodiesFile);
		servers.prism = await startPrism(await freePort());
		for (const name of CONTENDERS) for (const endpoint of ENDPOINTS) await check(servers[name].url, endpoint);

		const samples = {}; // endpoint -> contender -> [{ rps, p99 }]
		for (const endpoint of ENDPOINTS) {
			samples[endpoint.key] = {};
			for (const name of CONTENDERS) {
				samples[endpoint.key][name] = [];
				await load(servers[name].url, endpoint, 1, connections); // warm-up (JIT), not counted
			}
		}
		for (let round = 0; round < rounds; round++) {
			for (const endpoint of ENDPOINTS) {
				// Rotate who goes first so drift (thermal, other load) spreads over all contenders.
				const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]);
				for (const name of order) {
					const r = await load(servers[name].url, endpoint, seconds, connections);
					const bad = r.errors + r.timeouts + r.non2xx;
					if (bad > 0) throw new Error(`${name} ${endpoint.label}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
					samples[endpoint.key][name].push({ rps: r.requests.average, p99: r.latency.p99, requests: r.requests.total });
					log(`P3 round ${round + 1}/${rounds} ${endpoint.label} ${name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`);
				}
			}
		}
		return { endpoints: ENDPOINTS.map(({ key, label }) => ({ key, label })), samples, seconds, connections, rounds };
	} finally {
		for (const server of Object.values(servers)) await server.stop();
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

module.exports = { runP3 };
