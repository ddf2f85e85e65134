'use strict';
// P6: what a Retry pays to recognize its campaigns (issue 59). 10,000 campaigns of one shape (the
// same promo on a minute grid of $now dates, as the node's own fields compute them), numbered in a first run and recorded as the node records
// them (before each request, and with the campaign's id once created), then the same campaigns
// after a Retry, their dates moved 90 s by the clock: the time to number them (the built node's
// `retryKeysOf`) in the Retry over the first run's, per round; and the records' size per campaign
// in the execution context (what n8n saves with the execution and every Retry copies). Each campaign
// has its input item (a store and its slot), as the node's have.
const path = require('node:path');

const { REPO } = require('./processes');

const CAMPAIGNS = 10_000;
const TARGET = 'https://api.example.co.id';

function load() {
	return require(path.join(REPO, 'dist/nodes/LbaAds/duplicateProtection/itemOrigin.js'));
}

/** A stand-in for n8n's node context: what `retryKeysOf` reads (as test/nodes/…/itemOrigin.test.ts's). */
function contextWith(executionContext, items) {
	return {
		getNode: () => ({ name: 'LBA', type: 'n8n-nodes-lba-ads.lbaAds', parameters: {} }),
		// The node's input items: a Retry finds each campaign of these dates by its item.
		getInputData: () => items,
		getWorkflowDataProxy: () => ({ $runIndex: 0 }),
		getExecutionId: () => '17',
		getMode: () => 'manual',
		getExecutionContext: () => executionContext,
		runExecutionData: { resultData: { runData: {} } },
	};
}

function campaigns(count, readAt, shiftMs) {
	const start = Date.UTC(2036, 11, 1, 2);
	return Array.from({ length: count }, (_, itemIndex) => ({
		itemIndex,
		shape: { name: 'Weekend promo', channels: [{ locationId: 3273, message: 'Diskon 20%', smsQty: 500 }] },
		dates: [start + itemIndex * 60_000 + shiftMs, start + itemIndex * 60_000 + 3 * 86_400_000 + shiftMs],
		evaluatedAt: readAt + shiftMs,
	}));
}

/** One round: the first run's numbering, then the Retry's; their times (ms) and the records' bytes per campaign. */
function round(count) {
	const { retryKeysOf, rememberSending, rememberCreated } = load();
	const executionContext = { version: 1, establishedAt: Date.now(), source: 'manual' };
	const items = Array.from({ length: count }, (_, slot) => ({ json: { store: 'Bandung', slot } }));
	const first = contextWith(executionContext, items);
	const readAt = Date.now() - 90_000;
	const sent = campaigns(count, readAt, 0);
	let t = process.hrtime.bigint();
	const keys = retryKeysOf(first, sent, TARGET, 'ownClock');
	const firstMs = Number(process.hrtime.bigint() - t) / 1e6;
	for (const campaign of sent) {
		const identity = keys.get(campaign.itemIndex);
		rememberSending(first, identity, campaign.dates, campaign.evaluatedAt);
		rememberCreated(first, identity.key, `C${campaign.itemIndex.toString(16).padStart(12, '0')}`);
	}
	const saved = JSON.stringify(executionContext);
	const retried = contextWith(JSON.parse(saved), items);
	const moved = campaigns(count, readAt, 90_000);
	t = process.hrtime.bigint();
	const again = retryKeysOf(retried, moved, TARGET, 'ownClock');
	const retryMs = Number(process.hrtime.bigint() - t) / 1e6;
	const same = moved.filter((campaign) => again.get(campaign.itemIndex).key === keys.get(campaign.itemIndex).key).length;
	if (same !== count) throw new Error(`P6: the Retry recognized ${same} of ${count} campaigns`);
	return { firstMs, retryMs, ratio: retryMs / firstMs, bytesPerCampaign: saved.length / count };
}

async function runP6({ rounds, quick, log }) {
	const count = quick ? 1000 : CAMPAIGNS;
	round(Math.min(count, 1000)); // warm-up: module loading, JIT
	const per = { firstMs: [], retryMs: [], ratio: [], bytesPerCampaign: [] };
	for (let index = 0; index < rounds; index++) {
		const r = round(count);
		for (const key of Object.keys(per)) per[key].push(r[key]);
		log(`P6 round ${index + 1}/${rounds}: first run ${r.firstMs.toFixed(1)} ms, Retry ${r.retryMs.toFixed(1)} ms (${r.ratio.toFixed(2)}×), ${r.bytesPerCampaign.toFixed(0)} bytes a campaign`);
	}
	return { campaigns: count, per };
}

module.exports = { runP6 };
