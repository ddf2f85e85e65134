/**
 * `$now` in Campaign Input = JSON (issue 42, item 3). Dates that follow the clock make each new
 * execution a new campaign for Campaign Content: only a Retry holds back what a run sent. Missed,
 * the run gives no hint, and after a store failure midway it advises running the workflow again,
 * which pays for the campaigns already sent twice.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { datesFollowClock } from '../../../../../../nodes/LbaAds/actions/campaign/create/clockDates';
import { errorOf } from '../../../../../harness';
import { campaigns, createParameters, runNode, useHistory, useSandbox } from '../../../setup';

const channelWith = (startDate: string, endDate: string) =>
	`{ sender: 'LBADEMO', locationId: 3273, smsQty: 500, message: 'Diskon 20% hari ini!', startDate: ${startDate}, endDate: ${endDate}, telcoId: 'tsel' }`;
/** Campaign (JSON) as one expression per item, its dates from the clock. */
const CLOCK_JSON = `={{ ({ name: $json.name, description: 'Promo for the weekend', categoryId: 10, channels: [${channelWith('$now.plus({ minutes: 5 }).toISO()', '$now.plus({ days: 3 }).toISO()')}] }) }}`;
/** The same with fixed dates. */
const FIXED_JSON = `={{ ({ name: $json.name, description: 'Promo for the weekend', categoryId: 10, channels: [${channelWith("'2026-12-01T09:00:00+07:00'", "'2026-12-07T21:00:00+07:00'")}] }) }}`;

const withParameters = (parameters: IDataObject) => ({ getNode: () => ({ parameters }) }) as unknown as IExecuteFunctions;

describe('datesFollowClock with Campaign Input = JSON', () => {
	it('notices $now in Campaign (JSON)', () => {
		expect(datesFollowClock(withParameters({ campaignInput: 'json', campaignJson: CLOCK_JSON }))).toBe(true);
	});

	it('control: fixed dates in Campaign (JSON), or Duplicate Protection other than Campaign Content, do not follow the clock', () => {
		expect(datesFollowClock(withParameters({ campaignInput: 'json', campaignJson: FIXED_JSON }))).toBe(false);
		expect(datesFollowClock(withParameters({ campaignInput: 'json', campaignJson: CLOCK_JSON, duplicateProtection: 'customKey' }))).toBe(false);
	});
});

describe('a run whose Campaign (JSON) uses $now, in the engine', () => {
	const context = useSandbox();
	const history = useHistory('clock-json');
	const eight = Array.from({ length: 8 }, (_, index) => ({ name: `clock-${index}` }));

	it('after a store failure in wave 2 advises Retry, never a new run', async () => {
		// Wave 1 (4 items): its claim (1 call) and its settle (2 calls) succeed; wave 2's claim fails.
		history.store.nodeRowCallsBeforeFailure = 3;
		const parameters = createParameters({ campaignInput: 'json', campaignJson: CLOCK_JSON, options: { concurrency: 1 } });
		const result = await runNode(context, parameters, eight, { workflowId: history.workflowId });
		expect(await campaigns(context)).toHaveLength(4);
		const description = String(errorOf(result)?.description);
		expect(description).toMatch(/^4 campaigns were sent earlier in this run \(or may have been\), their keys recorded before sending; nothing more was sent\./);
		expect(description).toContain('Retry this execution');
		expect(description).toContain('Do not run the workflow again');
	});

	it('a run that ends well says what "once" means with such dates', async () => {
		const result = await runNode(context, createParameters({ campaignInput: 'json', campaignJson: CLOCK_JSON }), eight.slice(0, 1), { workflowId: history.workflowId });
		expect(result.items[0].json.status).toBe('Published');
		const hints = (result.run.data.resultData.runData.LBA[0].hints ?? []).map((hint) => hint.message);
		expect(hints).toContainEqual(expect.stringMatching(/^The campaign's dates read the clock \(\$now, \$today or DateTime\.now\): a new execution sends a new campaign whenever its dates come out different/));
	});
});
