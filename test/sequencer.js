// Every jest run's order: the longest files first, so that the last file to start on a worker is a
// short one. On a fresh clone (CI's) jest has no timings of earlier runs and orders by file size:
// the trigger suite (about 3 minutes of n8n's once-a-minute polls) ran alone at the end of e2e, and
// the simulation's 10,000 schedules (80 to 100 s) at the end of `npm test`. Files not named here
// keep jest's own order (its timings when it has them, else by size), after the named ones.
// Each group is one jest config's files, the longest first (seconds of a CI run, 2026-11-27).
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST_FIRST = [
	// npm test
	'duplicateProtection/simulation/simulation.test.ts', // 80 to 100 s
	'duplicateProtection/sameCampaign.test.ts', // 36 to 47 s
	'duplicateProtection/campaignGuard.test.ts', // 17 to 35 s
	'duplicateProtection/simulation/store.differential.test.ts', // 13 to 27 s
	'scan/scanner.test.ts', // 13 to 25 s
	'sandbox/geocode-cache.test.ts', // 13 to 17 s
	'duplicateProtection/identity.test.ts', // 11 to 18 s
	// npm run test:reliability, two files at a time: its longest first, so that the other four
	// (about 530 s in all) run beside it
	'reliability/bad-input.reliability.test.ts', // 422 to 447 s
	// npm run test:n8n1 (and sameCampaign, campaignGuard and identity above); then the rest of test:reliability
	'reliability/faults.reliability.test.ts', // 104 to 147 s
	'reliability/secrets.reliability.test.ts', // 78 to 128 s
	'actions/location/findTargetingLocation.test.ts', // 26 s
	'reliability/sandbox-abuse.reliability.test.ts', // 89 to 134 s
	// npm run test:e2e, four at a time since 2026-12-07 (seconds of runs AH and AI, three at a time, a core busy, 2026-11-27)
	'e2e/lba-ads-examples.e2e.test.ts', // 215 to 336 s
	'e2e/lba-ads-trigger.e2e.test.ts', // 153 to 207 s
	'e2e/community-install.e2e.test.ts', // 180 s
	'e2e/midnight.e2e.test.ts', // about 140 to 175 s, most of it waiting for n8n's clock to pass midnight
	'e2e/identity.e2e.test.ts', // 152 to 172 s
	'e2e/first-campaign.e2e.test.ts', // 113 to 151 s
	'e2e/lba-ads-load.e2e.test.ts', // 110 to 121 s
	'e2e/duplicate-protection.e2e.test.ts', // 111 to 114 s
	'e2e/ai-agent.e2e.test.ts', // 63 to 92 s
	'e2e/free-campaign.e2e.test.ts', // 72 to 79 s
	'e2e/marketer-paths.e2e.test.ts', // 70 to 77 s
	'e2e/custom-api-call.e2e.test.ts', // 51 to 65 s
	'e2e/mcp.e2e.test.ts', // 46 to 51 s
	'e2e/targeting.e2e.test.ts', // 36 to 42 s
	'e2e/dry-run.e2e.test.ts', // 30 to 34 s
];

class LongestFirst extends Sequencer {
	sort(tests) {
		const rank = (test) => {
			const index = LONGEST_FIRST.findIndex((name) => test.path.endsWith(`/${name}`));
			return index === -1 ? LONGEST_FIRST.length : index;
		};
		// Array.prototype.sort is stable: the files not named keep jest's order.
		return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
	}
}

LongestFirst.LONGEST_FIRST = LONGEST_FIRST;
module.exports = LongestFirst;
