'use strict';
// What a user does in n8n, over the REST calls the editor and the executions list make, and what
// the sandbox saw: the steps the LBA suites share (identity, marketer paths). One `userSteps(setup)`
// per suite, after `startLbaN8n`.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether n8n's editor shows Retry on this execution (2.40.7, useExecutionHelpers
 * `isExecutionRetriable`): status `error` or `crashed`, and no Retry of it has succeeded. A Stop
 * leaves `canceled`: no Retry.
 * @param {any} rest  a `RestClient`
 */
async function editorOffersRetry(rest, executionId) {
	const { status, retrySuccessId } = await rest.getExecution(executionId);
	return { offered: ['crashed', 'error'].includes(status) && !retrySuccessId, status, retrySuccessId };
}
/** Throws unless the editor shows Retry on this execution. Every journey's Retry goes through this: it follows only what a user can do. */
async function mustOfferRetry(rest, executionId) {
	const { offered, status, retrySuccessId } = await editorOffersRetry(rest, executionId);
	if (!offered) throw new Error(`n8n's editor offers no Retry on execution ${executionId} (status ${status}${retrySuccessId ? `, retried with success by ${retrySuccessId}` : ''}): a user cannot do this`);
}

/**
 * @param {{ sandbox: { url: string }, rest: any }} setup  what `startLbaN8n` gave (`setup.rest` is read at each call)
 * @param {{ timeoutMs?: number }} [opts]  how long an execution may take (default 180 s)
 */
function userSteps(setup, { timeoutMs = 180_000 } = {}) {
	const sandboxUrl = setup.sandbox.url;
	const rest = () => setup.rest;

	/** The sandbox's journal: the campaigns whose name starts with `<prefix>-`, oldest first. */
	async function journal(prefix) {
		const all = (await (await fetch(`${sandboxUrl}/_sandbox/campaigns`)).json()).campaigns;
		return all.filter((campaign) => campaign.request.name.startsWith(`${prefix}-`));
	}
	/** The API requests the sandbox received (the last 1000), `status` null while one is pending. */
	async function requests() {
		return (await (await fetch(`${sandboxUrl}/_sandbox/requests`)).json()).requests;
	}
	/** A programmed fault (sandbox/README.md): `{ method, path, status, latencyMs, skip, times, body, … }`. */
	async function fault(spec) {
		const res = await fetch(`${sandboxUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
		if (res.status >= 300) throw new Error(`the sandbox refused the fault ${JSON.stringify(spec)}: ${res.status} ${await res.text()}`);
	}
	const clearFaults = async () => {
		await fetch(`${sandboxUrl}/_sandbox/faults`, { method: 'DELETE' });
	};

	/** An execution once it has finished: its run (`output(node)`), status, and start and stop in ms. */
	async function finished(executionId, wait = timeoutMs) {
		const { startedAt, stoppedAt } = await rest().waitForExecution(executionId, { timeoutMs: wait });
		return { executionId: String(executionId), startedAt: Date.parse(startedAt), stoppedAt: Date.parse(stoppedAt), ...(await rest().getExecutionRun(executionId)) };
	}
	/** The editor's "Execute workflow" from `trigger`, not waited for: the execution's id. */
	const start = async (id, trigger = 'Start') => String((await rest().runWorkflow(id, trigger)).executionId);
	/** The editor's "Execute workflow" from `trigger`, once finished. */
	const run = async (id, trigger = 'Start') => await finished(await start(id, trigger));
	/**
	 * The executions list's Retry: "Retry with original workflow", or (`loadWorkflow`) "with currently
	 * saved workflow". Throws where the editor shows no Retry button: a journey follows only what a user can do.
	 */
	async function retry(workflowId, executionId, loadWorkflow = false) {
		await mustOfferRetry(rest(), executionId);
		const before = Math.max(0, ...(await rest().listExecutions(workflowId)).map((each) => Number(each.id)));
		await rest().call('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow });
		for (let attempt = 0; ; attempt++) {
			const newer = (await rest().listExecutions(workflowId)).filter((each) => Number(each.id) > before);
			if (newer.length) return await finished(String(newer[newer.length - 1].id));
			if (attempt > 100) throw new Error(`no Retry of execution ${executionId} appeared`);
			await sleep(300);
		}
	}
	/** The executions list's Stop on a running execution. */
	const stop = async (executionId) => await rest().call('POST', `/rest/executions/${executionId}/stop`);
	/**
	 * The editor's Execute step on `nodeName`: a partial run with the run data the editor shows
	 * (`runData`, from an earlier execution) and the nodes edited since (`dirtyNodeNames`), after a save.
	 */
	async function executeStep(id, nodeName, runData, dirtyNodeNames = []) {
		const workflowData = await rest().getWorkflow(id); // n8n 1.x runs what the editor sends; 2.x loads it again
		const started = await rest().call('POST', `/rest/workflows/${id}/run`, { workflowData, runData, destinationNode: { nodeName, mode: 'inclusive' }, dirtyNodeNames });
		return await finished(started.executionId);
	}
	/** Saves the workflow with `change` applied to its nodes and connections (the editor's Save). */
	async function saveWorkflow(id, change) {
		const saved = await rest().getWorkflow(id);
		const { nodes, connections } = change({ nodes: saved.nodes, connections: saved.connections });
		await rest().call('PATCH', `/rest/workflows/${id}`, { nodes, connections, versionId: saved.versionId });
	}
	/** Saves the workflow with node `name` changed. */
	const setNode = async (id, name, change) =>
		await saveWorkflow(id, ({ nodes, connections }) => ({ nodes: nodes.map((node) => (node.name === name ? change(node) : node)), connections }));
	/**
	 * The user edits node `name` and saves, then (a second later: a user takes longer than that, and
	 * `$now` moves on) clicks "Retry with currently saved workflow" on execution `executionId`.
	 */
	async function editThenRetry(id, executionId, name, change) {
		await setNode(id, name, change);
		await sleep(1100);
		return await retry(id, executionId, true);
	}
	/**
	 * Waits at least `ms`, then until the clock is 2 to 50 s into its minute: a Retry whose child
	 * computes dates with `$now` before the node reads the clock within seconds, and a read on :00 is a
	 * whole minute, which the node cannot tell from a sheet's 09:00 and rightly holds as `unclear`
	 * (itemOrigin.ts). A journey that means the other case waits with this.
	 */
	async function waitOffWholeMinute(ms = 1100) {
		await sleep(ms);
		const intoMinute = Date.now() % 60_000;
		if (intoMinute < 2000 || intoMinute > 50_000) await sleep((62_000 - intoMinute) % 60_000);
	}
	/** Resolves once `until(requests)` holds for the sandbox's requests (polled every 100 ms), else throws after `waitMs`. */
	async function sandboxSees(until, waitMs = 60_000) {
		const deadline = Date.now() + waitMs;
		for (;;) {
			if (until(await requests())) return;
			if (Date.now() > deadline) throw new Error(`the sandbox did not see what was awaited within ${waitMs / 1000} s`);
			await sleep(100);
		}
	}

	return { journal, requests, fault, clearFaults, finished, start, run, retry, stop, executeStep, saveWorkflow, setNode, editThenRetry, sandboxSees, waitOffWholeMinute };
}

/**
 * Says which catalogued instructions (ids of nodes/shared/instructions.ts) the journey it is called
 * in follows to the letter; docs/instructions.md names the journey from it
 * (test/docs/instructions.test.ts reads these calls). Throws on an id the catalogue does not have.
 * @param {...string} ids
 */
function follows(...ids) {
	const { INSTRUCTIONS } = require('../../../dist/nodes/shared/instructions');
	const unknown = ids.filter((id) => !(id in INSTRUCTIONS));
	if (unknown.length) throw new Error(`follows: no instruction ${unknown.join(', ')} in nodes/shared/instructions.ts`);
}

module.exports = { userSteps, editorOffersRetry, mustOfferRetry, follows };
