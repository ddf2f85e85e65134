/**
 * The reliability suite's oracle (test/reliability/sandbox-abuse/oracle.ts), checked fast so an
 * oracle mistake never waits for the slow suite: its token rule against openapi.yaml's
 * `security`, and its answers against the sandbox started in-process, for a request to every
 * route (each `{name}` filled with the generator's TEMPLATE_VALUES) and a few hundred random ones.
 */
import * as http from 'node:http';

import { rawRequest, Sandbox, startTestSandbox } from '../sandbox/helpers';
import { probesForEveryRoute, randomRequests } from '../reliability/sandbox-abuse/generate';
import { expectedAnswer, judge, needsToken, Probe, ROUTES } from '../reliability/sandbox-abuse/oracle';
import { expectAgreement, openapi } from './openapi';

describe('the oracle', () => {
	it("needs the token exactly where openapi.yaml's security asks for it", () => {
		const problems: string[] = [];
		for (const [route, methods] of Object.entries(ROUTES)) {
			for (const method of Object.keys(methods)) {
				const security = openapi.paths[route][method.toLowerCase()].security ?? openapi.security;
				const documented = security.some((requirement) => 'bearerAuth' in requirement);
				if (documented !== needsToken(route)) problems.push(`${method} ${route}: openapi.yaml ${documented ? 'asks for' : 'does not ask for'} the bearer token, the oracle ${needsToken(route) ? 'does' : 'does not'}`);
			}
		}
		expectAgreement(
			problems,
			'Every operation of the service needs the bearer token (spec 5); only /oauth/token and /_sandbox/… do not. ' +
				'Fix `security` in sandbox/openapi.yaml (leave it out to inherit the bearer token; `security: []` for none), ' +
				'or, if the docs changed, needsToken() in test/reliability/sandbox-abuse/oracle.ts.',
		);
	});

	describe('judges the in-process sandbox right', () => {
		let sandbox: Sandbox;
		const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
		beforeAll(async () => {
			sandbox = await startTestSandbox();
		});
		afterAll(async () => {
			agent.destroy();
			await sandbox.close();
		});

		async function problemsOf(probes: Probe[]): Promise<string[]> {
			const problems: string[] = [];
			await Promise.all(
				probes.map(async (probe) => {
					const name = `${probe.method} ${probe.target.slice(0, 120)} ${JSON.stringify(probe.headers)}${probe.body ? ' with a body' : ''}`;
					let expected;
					try {
						expected = expectedAnswer(probe);
					} catch (error) {
						problems.push(`${name}: ${(error as Error).message}`);
						return;
					}
					const headers = probe.body ? { 'content-length': String(probe.body.length), ...probe.headers } : probe.headers;
					const reply = await rawRequest({ host: sandbox.host, port: sandbox.port, path: probe.target }, probe.method, headers, probe.body, agent);
					const problem = judge(expected, { status: reply.status, headers: reply.headers, body: Buffer.from(reply.text, 'utf8') });
					if (problem) problems.push(`${name}: ${problem}`);
				}),
			);
			return problems;
		}

		const FIX =
			"Either the sandbox or the oracle is wrong. The oracle's answer comes from expectedFor() in test/reliability/sandbox-abuse/oracle.ts " +
			'(an operation without a case of its own: 404 RESOURCE_NOT_FOUND on a templated path, 200 with no body and no required parameter); ' +
			'the sandbox answers through its handler in sandbox/handlers.js. Correct the one the docs disagree with.';

		it('for every route and method, each {name} filled with each of TEMPLATE_VALUES', async () => {
			const probes = probesForEveryRoute();
			expect(probes.length).toBeGreaterThan(Object.keys(ROUTES).length);
			expectAgreement(await problemsOf(probes), FIX);
		});

		it('for 300 random requests', async () => {
			expectAgreement(await problemsOf(randomRequests(300, 37)), FIX);
		});
	});
});
