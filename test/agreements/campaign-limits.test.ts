/**
 * The campaign's limits live in three places that must agree: the node's schema
 * (campaignSchema.ts), the sandbox's document (openapi.yaml) and the reliability suite's
 * predicate (spec-predicate.ts, an independent reading of the spec). Each is checked against
 * the document; none is derived from it.
 */
import { CATEGORIES, LIMITS, TELCOS } from '../../nodes/LbaAds/actions/campaign/create/campaignSchema';
import { BOUNDS, CATEGORY_IDS, TELCO_IDS } from '../reliability/spec-predicate';
import { campaignBounds, expectAgreement } from './openapi';

type Bounds = ReturnType<typeof campaignBounds>;

function differences(side: Bounds, document: Bounds): string[] {
	return (Object.keys(document) as Array<keyof Bounds>)
		.filter((key) => JSON.stringify(side[key]) !== JSON.stringify(document[key]))
		.map((key) => `${key}: ${JSON.stringify(side[key])}, openapi.yaml says ${JSON.stringify(document[key])}`);
}

describe('the campaign limits', () => {
	const documented = campaignBounds();

	it("the node's LIMITS, categories and telcos are openapi.yaml's", () => {
		const node = {
			...LIMITS,
			categoryIds: CATEGORIES.map((category) => category.id),
			telcoIds: TELCOS.map((telco) => telco.id).sort(),
		};
		expectAgreement(
			differences(node, documented),
			'Change nodes/LbaAds/actions/campaign/create/campaignSchema.ts (LIMITS, CATEGORIES, TELCOS) or ' +
				'sandbox/openapi.yaml (components.schemas Campaign, Channel, CategoryId, TelcoId) so they agree, ' +
				"then test/reliability/spec-predicate.ts and the docs' numbers (docs/operations.md, docs/choices.md).",
		);
	});

	it("the reliability predicate's BOUNDS, categories and telcos are openapi.yaml's", () => {
		const predicate = { ...BOUNDS, categoryIds: CATEGORY_IDS, telcoIds: [...TELCO_IDS].sort() };
		expectAgreement(
			differences(predicate, documented),
			'Change BOUNDS, CATEGORY_IDS or TELCO_IDS in test/reliability/spec-predicate.ts, by hand, to what the spec and ' +
				'sandbox/openapi.yaml say (the predicate is a second opinion: do not import the node or the document there).',
		);
	});
});
