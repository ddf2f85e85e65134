'use strict';
// The workflows in examples/ and the credential they reference, shared by the examples e2e
// test and `npm run demo`. The example files carry no workflow id (so they import cleanly
// into any n8n); `n8n execute --id` needs one, so we give each a fixed id at import.
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT } = require('./env');

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

const EXAMPLES = {
	geocodeToCampaign: { file: 'geocode-to-campaign.json', id: 'lbaExampleGeocode' },
	geocodeToCampaignOwnIds: { file: 'geocode-to-campaign-own-ids.json', id: 'lbaExampleGeocodeOwnIds' },
	scheduledCampaignLaunch: { file: 'scheduled-campaign-launch.json', id: 'lbaExampleSchedule' },
	productsUnderPrice: { file: 'products-under-price.json', id: 'lbaExampleProducts' },
	aiCampaignAssistant: { file: 'ai-campaign-assistant.json', id: 'lbaExampleAiAssistant' },
	cheaperPackageAlert: { file: 'cheaper-package-alert.json', id: 'lbaExampleCheaperAlert' },
};

// The OpenAI credential the AI example's chat model points at (the user picks their own).
const EXAMPLE_OPENAI_CREDENTIAL = { id: 'lbaExampleOpenAi', name: 'OpenAI account' };

// What every example's LBA Ads nodes point at: `credentials.lbaAdsApi` in examples/*.json.
const SANDBOX_CREDENTIAL_ID = 'lbaSandboxCredential';
const SANDBOX_CREDENTIAL_NAME = 'LBA sandbox';

/** An example workflow as an object, with its fixed id. */
function loadExample(key) {
	const example = EXAMPLES[key];
	if (!example) throw new Error(`unknown example ${key}`);
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, example.file), 'utf8'));
	return { ...workflow, id: example.id };
}

/** All examples, in the order of EXAMPLES. */
function loadAllExamples() {
	return Object.keys(EXAMPLES).map(loadExample);
}

/** The `lbaAdsApi` credential the examples reference, pointing at a sandbox. */
function sandboxCredential(baseUrl, accessToken) {
	return {
		id: SANDBOX_CREDENTIAL_ID,
		name: SANDBOX_CREDENTIAL_NAME,
		type: 'lbaAdsApi',
		data: { baseUrl, accessToken },
	};
}

module.exports = {
	EXAMPLE_OPENAI_CREDENTIAL,
	EXAMPLES_DIR,
	EXAMPLES,
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExample,
	loadAllExamples,
	sandboxCredential,
};
