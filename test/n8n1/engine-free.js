// Fast test files that n8n 1.x's engine cannot change: they run no engine (no harness) and no
// code of n8n-workflow, n8n-core, luxon or zod whose behaviour is a version's own, only our
// registry, descriptions and pure logic (and the history lock on its own fake clock, with a
// stand-in for the node's `this`). test/n8n1/jest.config.js leaves them out: on 1.x they would
// prove nothing new. test/agreements/n8n1-scope.test.ts checks that none of them uses the harness.
module.exports = [
	'test/nodes/LbaAds/actions/campaign/create/smsSegments.test.ts',
	'test/nodes/LbaAds/actions/campaign/create/spendingLimits.test.ts',
	'test/nodes/LbaAds/actions/engine/operation.test.ts',
	'test/nodes/LbaAds/actions/resources.test.ts',
	'test/nodes/LbaAds/description.test.ts',
	'test/nodes/LbaAds/duplicateProtection/historyLock.test.ts',
	'test/nodes/LbaAds/helpers/aiTool.test.ts',
	'test/nodes/LbaAdsTrigger/catalogueChanges.test.ts',
];
