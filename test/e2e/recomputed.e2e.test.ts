// A Retry recognizes each campaign however the data before the LBA node was computed again (issue
// 51), in real n8n with the packed package and the sandbox: the cases of recomputed.cases.ts, each
// parent run from the editor (Execute workflow) and retried from the executions list. The same
// cases run in queue mode in test/queue/queue-mode.queue.test.ts.
import * as e2e from './lib';
import { type Deployment, PUBLISHED, WORKFLOWS, RECOMPUTED_CASES } from './recomputed.cases';

e2e.describeE2E(`a Retry recognizes each campaign however the data before it was computed again, in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let steps: e2e.UserSteps;

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('recomputed', { workflows: WORKFLOWS, publish: PUBLISHED, shared: true });
		steps = e2e.userSteps(setup);
	}, 15 * 60 * 1000);
	afterAll(async () => {
		await setup?.close();
	});

	const deployment: Deployment = {
		get steps() {
			return steps;
		},
		runParent: async (id) => await steps.run(id),
		publish: async (id) => {
			if (PUBLISHED.includes(id)) await setup!.rest.activateWorkflow(id);
		},
	};
	for (const [title, run] of RECOMPUTED_CASES) test(title, async () => await run(deployment));
});
