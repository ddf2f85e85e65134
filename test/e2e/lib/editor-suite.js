'use strict';
// What every editor suite shares: its n8n (startLbaN8n) and Chromium signed in to it, set up once
// before its tests and closed after them; and a save in the editor that waits until REST holds it.
const { editorSession } = require('./browser');
const { startLbaN8n } = require('./lba-n8n');

/**
 * Registers the suite's beforeAll and afterAll; the returned object is filled in before the first
 * test: `setup`, `sandbox`, `rest`, `n8n`, `session` and `page`. `beforeSignIn(setup)` runs once n8n
 * is up, before Chromium signs in (first-campaign removes the harness's credential there).
 * @param {string} name
 * @param {object} [startOptions] startLbaN8n's options
 * @param {{ signIn?: 'cookie' | 'page', viewport?: { width: number, height: number }, beforeSignIn?: (setup: any) => Promise<void> }} [options]
 */
function editorSuite(name, startOptions = {}, { signIn, viewport, beforeSignIn } = {}) {
	const suite = {};
	beforeAll(async () => {
		suite.setup = await startLbaN8n(name, startOptions);
		Object.assign(suite, { sandbox: suite.setup.sandbox, rest: suite.setup.rest, n8n: suite.setup.n8n });
		if (beforeSignIn) await beforeSignIn(suite.setup);
		suite.session = await editorSession(suite.n8n, { signIn, viewport });
		suite.page = suite.session.page;
	}, 15 * 60 * 1000);
	afterAll(async () => {
		await suite.session?.close();
		await suite.setup?.close();
	});
	return suite;
}

/**
 * Ctrl+S, then waits until REST holds workflow `workflowId` as `saved(workflow)` wants (the editor
 * saved it: a lasting state), and returns it. While it does not, every 5 s, as a user who sees it
 * was not saved: `fix(workflow)` (fields typed again, say), then Save pressed again. On a loaded
 * machine (CI at load 8 to 15) one press was lost once, and the editor once kept "2036-1" of a date
 * typed whole.
 * @param {import('playwright').Page} page
 * @param {{ getWorkflow(id: string): Promise<any> }} rest
 * @param {string} workflowId
 * @param {(workflow: any) => boolean} saved
 * @param {{ fix?: (workflow: any) => Promise<void>, timeoutMs?: number, what?: (workflow: any) => string }} [options]
 */
async function saveInEditor(page, rest, workflowId, saved, { fix, timeoutMs = 45_000, what = (workflow) => JSON.stringify(workflow.nodes.map((node) => node.parameters)) } = {}) {
	await page.keyboard.press('ControlOrMeta+s');
	const deadline = Date.now() + timeoutMs;
	let pressed = Date.now();
	for (;;) {
		const workflow = await rest.getWorkflow(workflowId);
		if (saved(workflow)) return workflow;
		if (Date.now() > deadline) throw new Error(`the editor did not save workflow ${workflowId} as the test needs it: ${what(workflow)}`);
		if (Date.now() - pressed > 5_000) {
			if (fix) await fix(workflow);
			await page.keyboard.press('ControlOrMeta+s');
			pressed = Date.now();
		}
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

module.exports = { editorSuite, saveInEditor };
