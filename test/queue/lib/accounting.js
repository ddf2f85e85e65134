'use strict';
// What the adversary suite counts, kept apart from the running of n8n so that its rules are
// tested on made-up results (accounting.test.ts) in `npm test`: a rule that lets a lost campaign
// pass must fail there, not hide in a slow suite.

/**
 * Counts the pairs' answers against the sandbox's journal.
 * @param {Array<{ pair: number, answers: Array<{ status: number, body: unknown }> }>} results each pair's two answers
 * @param {Map<string, number>} sent how many times the journal holds each campaign name
 * @param {{ label: string, campaignsPerCall: number, workerOf: (executionId: string) => string | undefined }} how
 */
function countPairs(results, sent, { label, campaignsPerCall, workerOf }) {
	const counts = {
		pairs: results.length,
		campaigns: results.length * campaignsPerCall,
		sentOnce: 0,
		twice: 0,
		/** Not sent, and a call of its pair failed or its item is an error: the caller was told. */
		notSentCallerTold: 0,
		/** Not sent, and no caller told: held back by both calls, or by one whose twin did not send it. */
		unaccounted: 0,
		/** An answer says Published for a campaign the journal does not hold (as often). */
		falseReports: 0,
		failedCalls: 0,
		/** Items skipped because their twin had them; of which "may have been created". */
		heldBack: 0,
		mayHaveBeen: 0,
		onTwoWorkers: 0,
		failures: [],
	};
	for (const { pair, answers } of results) {
		const items = answers.map((answer) => (answer.status === 200 && Array.isArray(answer.body) ? answer.body : undefined));
		for (const [index, answer] of answers.entries()) {
			if (items[index]) continue;
			counts.failedCalls++;
			if (counts.failures.length < 3) counts.failures.push(`HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
		}
		const workers = new Set(items.filter(Boolean).map((list) => workerOf(String(list[0]?.executionId))));
		if (workers.size === 2 && !workers.has(undefined)) counts.onTwoWorkers++;
		for (let i = 0; i < campaignsPerCall; i++) {
			const count = sent.get(`${label}-${pair}-${i + 1}`) ?? 0;
			const told = items.some((list) => !list || list[i]?.error !== undefined);
			const published = items.filter((list) => list?.[i]?.status === 'Published').length;
			counts.heldBack += items.filter((list) => list?.[i]?.skipped).length;
			counts.mayHaveBeen += items.filter((list) => list?.[i]?.skipped && list[i].earlierOutcome === 'unknown').length;
			if (count === 1) counts.sentOnce++;
			if (count > 1) counts.twice += count - 1;
			if (count === 0 && told) counts.notSentCallerTold++;
			if (count === 0 && !told) counts.unaccounted++;
			if (published > count) counts.falseReports++;
		}
	}
	return counts;
}

/**
 * The verdict on a round's counts: the reasons it fails, none when it passes. A round must show it
 * competed (a pair on two workers, a twin held back); every campaign is sent once, or, where a call
 * failed and its caller was told, at most once; no answer claims a send the journal lacks; on a
 * calm host no call fails.
 */
function verdict(counts, { calm = false } = {}) {
	const reasons = [];
	if (counts.onTwoWorkers === 0) reasons.push('no pair ran on two workers');
	if (counts.heldBack === 0) reasons.push('no twin was held back');
	if (counts.twice) reasons.push(`${counts.twice} campaigns sent twice`);
	if (counts.unaccounted) reasons.push(`${counts.unaccounted} campaigns neither sent nor failed to their caller`);
	if (counts.falseReports) reasons.push(`${counts.falseReports} campaigns answered Published but not in the journal`);
	if (counts.sentOnce + counts.notSentCallerTold !== counts.campaigns) reasons.push(`${counts.sentOnce} sent once and ${counts.notSentCallerTold} failed to their caller, of ${counts.campaigns}`);
	if (calm && counts.failedCalls) reasons.push(`${counts.failedCalls} calls failed on a calm host`);
	if (calm && counts.sentOnce !== counts.campaigns) reasons.push(`${counts.campaigns - counts.sentOnce} campaigns not sent on a calm host`);
	return reasons;
}

module.exports = { countPairs, verdict };
