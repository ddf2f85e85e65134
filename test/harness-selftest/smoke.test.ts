import path from 'node:path';
import { loadPackageNodes, manualTrigger, chain, errorOf } from '../harness';
import { startTestServer, sendJson } from '../harness/test-server';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'harness-package');

test('smoke', async () => {
	const server = await startTestServer((req, res) => sendJson(res, 200, { path: req.path, auth: req.headers.authorization }));
	const n8n = await loadPackageNodes(FIXTURE);
	console.log(Object.keys(n8n.nodeTypes.types), Object.keys(n8n.credentialTypes.types), n8n.credentialTypes.supportedNodes);
	const r = await n8n.runWorkflow(
		{
			nodes: [
				manualTrigger(),
				{ id: '2', name: 'Probe', type: 'n8n-nodes-harness-fixture.harnessProbe', typeVersion: 1, position: [1, 1], parameters: { action: 'request' }, credentials: { harnessBearerApi: { id: '1', name: 'b' } } },
			],
			connections: chain('Start', 'Probe'),
		},
		{ credentials: { harnessBearerApi: { baseUrl: server.url, accessToken: 'abc' } } },
	);
	console.log(errorOf(r), r.run.status, JSON.stringify(r.output('Probe')), server.requests);
	await server.close();
});
