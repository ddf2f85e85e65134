import { errorOf } from '../../../harness';
import { requests, runNode, useSandbox } from '../setup';

const context = useSandbox();

describe('Custom API Call (the resource n8n adds to nodes whose credential authenticates)', () => {
	it('fails with a message that says what to use instead, and sends nothing', async () => {
		const result = await runNode(context, { resource: '__CUSTOM_API_CALL__' });
		expect(errorOf(result)).toMatchObject({
			message: 'Custom API Call is not available in the LBA Ads node: use the HTTP Request node with the LBA Ads credential',
			description: expect.stringContaining('Predefined Credential Type'),
		});
		expect(await requests(context)).toHaveLength(0);
	});
});
