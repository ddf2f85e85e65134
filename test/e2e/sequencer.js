// The e2e suites' order: the longest first, so that on two workers the last suite to start is a
// short one. On a fresh clone jest has no timings of earlier runs and orders by file size, which
// left the trigger suite (about 3 minutes, most of it waiting for n8n's once-a-minute polls) to run
// alone at the end. Suites not named here follow, by name.
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST_FIRST = ['lba-ads-trigger', 'identity', 'lba-ads-examples', 'ai-agent', 'first-campaign', 'duplicate-protection', 'community-install', 'dry-run', 'free-campaign', 'marketer-paths'];

class LongestFirst extends Sequencer {
	sort(tests) {
		const rank = (test) => {
			const index = LONGEST_FIRST.findIndex((name) => test.path.endsWith(`/${name}.e2e.test.ts`));
			return index === -1 ? LONGEST_FIRST.length : index;
		};
		return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
	}
}

module.exports = LongestFirst;
