/**
 * The reliability suite's oracle routes exactly the paths and methods sandbox/openapi.yaml
 * serves. The oracle keeps its own table (a second opinion on the sandbox); this test only
 * holds the two side by side, so a new path is not found missing by the slow suite alone.
 */
import { ROUTES } from '../reliability/sandbox-abuse/oracle';
import { expectAgreement, servedMethods } from './openapi';

describe('the oracle and openapi.yaml', () => {
	it('route the same paths with the same methods', () => {
		const documented = servedMethods();
		const problems: string[] = [];
		for (const [route, methods] of Object.entries(documented)) {
			const ours = Object.keys(ROUTES[route] ?? {}).sort();
			if (ours.join() !== methods.join()) problems.push(`${route}: openapi.yaml serves [${methods}], the oracle routes [${ours}]`);
		}
		for (const route of Object.keys(ROUTES)) if (!documented[route]) problems.push(`${route}: routed by the oracle, not in openapi.yaml`);
		expectAgreement(
			problems,
			'Give each path of sandbox/openapi.yaml (with its methods that have a 2xx answer) a line in ROUTES of ' +
				'test/reliability/sandbox-abuse/oracle.ts, and the expected answer in expectedFor().',
		);
	});
});
