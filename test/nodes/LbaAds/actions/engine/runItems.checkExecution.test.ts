/**
 * A run the operation refuses as a whole before anything is sent (`checkExecution`: Create's Max
 * Campaigns per Execution) ends there, with continue on fail too: nothing is claimed in the history,
 * so no refused campaign is held back later as "may have been created".
 */
import { campaigns, createParameters, requests, runNode, useHistory, useSandbox } from '../../setup';

const context = useSandbox();
const history = useHistory('check-execution');
const byName = (options: Record<string, unknown> = {}) => createParameters({ name: '={{ $json.name }}', options });
const three = [1, 2, 3].map((n) => ({ name: `capped-${n}` }));

it('with continue on fail, a run over Max Campaigns per Execution sends nothing, and a later run under a higher limit sends every campaign (none held back as "may have been created")', async () => {
	const refused = await runNode(context, byName({ maxCampaignsPerExecution: 2 }), three, { workflowId: history.workflowId, node: { onError: 'continueRegularOutput' } });
	expect(refused.items.map((item) => String(item.json.error))).toEqual(three.map(() => expect.stringMatching(/^Items 1-3 › Max Campaigns per Execution \(2\)/)));
	expect(await requests(context, { method: 'POST' })).toHaveLength(0);

	const raised = await runNode(context, byName({ maxCampaignsPerExecution: 3 }), three, { workflowId: history.workflowId });
	expect(raised.items.map((item) => item.json.status)).toEqual(['Published', 'Published', 'Published']);
	expect(await campaigns(context)).toHaveLength(3);
});
