'use strict';
// What the burst test counts (issue 40): identical webhook calls fired together, each execution
// creating ONE new campaign whose description carries its execution id. Kept apart from the
// running of n8n so that its rules are tested on made-up results (burst.test.ts) in `npm test`.
const path = require('node:path');

/** The execution id a burst campaign's description carries ("… execution 123"), or undefined. */
function executionOfDescription(description) {
	const match = /execution (\d+)\b/.exec(String(description ?? ''));
	return match ? match[1] : undefined;
}

/** "earlierOutcome: the reason's first clause" (the part before " (" or ";"), how held-back items are grouped. */
function heldBackLabel(item) {
	const reason = String(item.reason ?? '').split(/ \(|;/)[0];
	return `${item.earlierOutcome ?? '?'}: ${reason}`;
}

/**
 * Counts a burst's answers against the sandbox's journal.
 * @param {Array<{ status: number, body: unknown }>} answers one per call (one execution each)
 * @param {Array<{ campaignId: string, request: { description: string } }>} campaigns the burst's campaigns in the journal
 */
function countBurst(answers, campaigns) {
	const counts = {
		calls: answers.length,
		failedCalls: 0,
		failures: [],
		/** Executions the answers name (each answer's one item carries its execution's id). */
		executions: 0,
		/** Executions with exactly one campaign in the journal, which their answer reports Published. */
		created: 0,
		/** Items skipped by duplicate protection, all wrong here (every execution is a new campaign, nothing is retried). */
		heldBack: 0,
		/** heldBackLabel -> how many. */
		heldBackBy: {},
		/** Executions of the burst with no campaign in the journal. */
		missing: 0,
		/** Campaigns beyond the first of one execution. */
		twice: 0,
		/** Campaigns in the journal whose execution no answer names (or whose description names none). */
		strays: 0,
		/** Answers that say Published for an execution whose campaign the journal does not hold (or holds under another id). */
		falseReports: 0,
		/** Held-back executions, by id: which of them shared an establishedAt is told apart by sharedEstablishedAt. */
		heldBackExecutions: [],
	};
	const inJournal = new Map();
	for (const campaign of campaigns) {
		const execution = executionOfDescription(campaign.request && campaign.request.description);
		if (!inJournal.has(execution)) inJournal.set(execution, []);
		inJournal.get(execution).push(campaign.campaignId);
	}
	const named = new Set();
	for (const answer of answers) {
		const item = answer.status === 200 && Array.isArray(answer.body) && answer.body.length === 1 ? answer.body[0] : undefined;
		if (!item || item.executionId === undefined) {
			counts.failedCalls++;
			if (counts.failures.length < 3) counts.failures.push(`HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
			continue;
		}
		const execution = String(item.executionId);
		if (named.has(execution)) continue; // two answers naming one execution: counted once (and the calls then fall short)
		named.add(execution);
		const sent = inJournal.get(execution) || [];
		if (item.skipped) {
			counts.heldBack++;
			counts.heldBackBy[heldBackLabel(item)] = (counts.heldBackBy[heldBackLabel(item)] || 0) + 1;
			counts.heldBackExecutions.push(execution);
		}
		if (sent.length === 0) counts.missing++;
		if (sent.length > 1) counts.twice += sent.length - 1;
		if (item.status === 'Published' && !(sent.length >= 1 && sent.includes(item.campaignId))) counts.falseReports++;
		if (sent.length === 1 && item.status === 'Published' && item.campaignId === sent[0]) counts.created++;
	}
	counts.executions = named.size;
	for (const [execution, ids] of inJournal) if (!named.has(execution)) counts.strays += ids.length;
	return counts;
}

/** The verdict on a burst's counts: the reasons it fails, none when every call created exactly its one campaign. */
function burstVerdict(counts) {
	const reasons = [];
	if (counts.failedCalls) reasons.push(`${counts.failedCalls} calls failed (${counts.failures.join('; ')})`);
	if (counts.executions + counts.failedCalls !== counts.calls) reasons.push(`${counts.calls - counts.failedCalls - counts.executions} answers named an execution another answer named`);
	if (counts.heldBack) reasons.push(`${counts.heldBack} held back wrongly (${Object.entries(counts.heldBackBy).map(([label, n]) => `${n} × ${label}`).join('; ')})`);
	if (counts.missing) reasons.push(`${counts.missing} executions created no campaign`);
	if (counts.twice) reasons.push(`${counts.twice} campaigns sent twice`);
	if (counts.strays) reasons.push(`${counts.strays} campaigns of executions no answer names`);
	if (counts.falseReports) reasons.push(`${counts.falseReports} answers say Published for a campaign the journal lacks`);
	if (counts.created !== counts.calls) reasons.push(`${counts.created} created of ${counts.calls}`);
	return reasons;
}

/**
 * How often n8n gave executions the same `establishedAt` (a millisecond).
 * @param {Array<[string, number | undefined]>} established execution id -> its establishedAt
 * @param {string[]} [heldBack] executions held back, to count those among them that shared one
 * @param {(execution: string) => string | undefined} [workerOf] the worker that ran an execution
 * @returns {{ read: number, pairs: number, instants: number, executionsSharing: number, heldBackSharing: number, pairsOnTwoWorkers: number }}
 *   `pairs`: pairs of executions with the same value (k executions at one instant make k(k-1)/2);
 *   `instants`: values shared by two or more; `pairsOnTwoWorkers`: pairs whose executions ran on different workers.
 */
function sharedEstablishedAt(established, heldBack = [], workerOf = () => undefined) {
	const byInstant = new Map();
	let read = 0;
	for (const [execution, at] of established) {
		if (typeof at !== 'number') continue;
		read++;
		if (!byInstant.has(at)) byInstant.set(at, []);
		byInstant.get(at).push(execution);
	}
	const sharing = new Set();
	let pairs = 0;
	let instants = 0;
	let pairsOnTwoWorkers = 0;
	for (const executions of byInstant.values()) {
		if (executions.length < 2) continue;
		instants++;
		executions.forEach((execution) => sharing.add(execution));
		for (let i = 0; i < executions.length; i++) {
			for (let j = i + 1; j < executions.length; j++) {
				pairs++;
				const [a, b] = [workerOf(executions[i]), workerOf(executions[j])];
				if (a !== undefined && b !== undefined && a !== b) pairsOnTwoWorkers++;
			}
		}
	}
	return { read, pairs, instants, executionsSharing: sharing.size, heldBackSharing: heldBack.filter((execution) => sharing.has(execution)).length, pairsOnTwoWorkers };
}

/**
 * Each execution's `establishedAt` (n8n's execution context, `data.executionData.runtimeData`),
 * read from PostgreSQL's execution_data (stored flatted-encoded; decoded with n8n's own flatted).
 * @param {{ sql: (statement: string) => Promise<string[][]> }} postgres
 * @param {string[]} executionIds
 * @returns {Promise<Array<[string, number | undefined]>>}
 */
async function establishedAtOf(postgres, executionIds) {
	const { n8nBin } = require('../../e2e/lib/env');
	const flatted = require(path.join(path.dirname(n8nBin()), '..', 'flatted'));
	const ids = executionIds.filter((id) => /^\d+$/.test(id));
	if (!ids.length) return [];
	const rows = await postgres.sql(`SELECT "executionId", data FROM execution_data WHERE "executionId" IN (${ids.join(',')})`);
	const byId = new Map(
		rows.map(([id, data]) => {
			const at = flatted.parse(data)?.executionData?.runtimeData?.establishedAt;
			return [String(id), typeof at === 'number' ? at : undefined];
		}),
	);
	return executionIds.map((id) => [id, byId.get(id)]);
}

module.exports = { countBurst, burstVerdict, sharedEstablishedAt, executionOfDescription, establishedAtOf };
