/**
 * A claim that fails in the first wave (n8n's store refuses writes) is the run's error as the guard
 * words it, item 0's, nothing sent: not the mid-run report ("Items 1-8 were not sent; the 0 items
 * before them were handled"), which is for a failure after earlier waves were sent.
 */
import { errorOf, harnessDeduplicator } from '../../../../harness';
import { campaigns, createParameters, runNode, useSandbox } from '../../setup';

const context = useSandbox();
const store = harnessDeduplicator();
let counter = 0;
const STORE_ERROR = "Duplicate protection could not use n8n's history of sent campaigns: permission denied for table processed_data";
const eight = Array.from({ length: 8 }, (_, index) => ({ name: `wave-one-${index + 1}` }));
const oneAtATime = createParameters({ name: '={{ $json.name }}', options: { concurrency: 1 } });

beforeEach(() => {
	store.reset();
	store.nodeRowCallsBeforeFailure = 0;
});

describe('a claim that fails in the first wave', () => {
	it("stops the run with the guard's own error for item 0, and nothing is sent", async () => {
		const result = await runNode(context, oneAtATime, eight, { workflowId: `first-wave-${++counter}` });
		const error = errorOf(result) as { message: string; description?: string; context?: { itemIndex?: number } };
		expect(error.message).toBe(STORE_ERROR);
		expect(error.description).toMatch(/^Nothing was sent\./);
		expect(await campaigns(context)).toHaveLength(0);
	});
});
