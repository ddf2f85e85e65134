import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { SAY } from '../../../../shared/instructions';

/**
 * Dates that follow the clock (`$now`, `$today`, `DateTime.now`): each new execution gives the
 * campaign new dates, so Campaign Content sees a new campaign; only a Retry of the execution
 * (its retry key) holds back what it sent. The run says so, and advises Retry, not a re-run.
 */

const CLOCK = /\$now|\$today|DateTime\.now/;
/** Where Campaign Content's dates are written: the channels' date fields, or the JSON that holds them. */
const DATE_FIELDS = ['startDate', 'endDate'];

/** The trigger-timestamp pattern (`$json.timestamp ? … : $now`, as in the shipped examples) is not the clock's. */
const TRIGGER_TIMESTAMP = /\btimestamp\b/;

function isClockExpression(value: unknown): boolean {
	return typeof value === 'string' && value.startsWith('=') && CLOCK.test(value) && !TRIGGER_TIMESTAMP.test(value);
}

/** Whether Duplicate Protection is Campaign Content and a date of the campaign, as written, reads the clock. */
export function datesFollowClock(ctx: IExecuteFunctions): boolean {
	const parameters = ctx.getNode().parameters as IDataObject;
	return (parameters.duplicateProtection ?? 'content') === 'content' && datesReadClock(ctx);
}

/** Whether a date of the campaign, as the node's own parameters write it, reads the clock ($now, $today, DateTime.now). */
export function datesReadClock(ctx: IExecuteFunctions): boolean {
	const parameters = ctx.getNode().parameters as IDataObject;
	const channels = ((parameters.channels as IDataObject | undefined)?.channel as IDataObject[] | undefined) ?? [];
	const inFields = parameters.channelsInput !== 'json' && channels.some((channel) => DATE_FIELDS.some((field) => isClockExpression(channel?.[field])));
	// A JSON parameter is one text: a clock expression in it is taken for a date.
	const inJson = [parameters.channelsJson, parameters.campaignJson].some(isClockExpression);
	return inFields || inJson;
}

/** Said once per run: what "once" means with such dates, and the two ways to make it mean once per day (a trigger's timestamp is not one: each run has a new one). */
export function addClockDatesHint(ctx: IExecuteFunctions): void {
	ctx.addExecutionHints({
		message:
			"The campaign's dates read the clock ($now, $today or DateTime.now): a new execution sends a new campaign whenever its dates come out different (with $now, every time); only a Retry of an execution holds back what that execution sent. " +
			`${SAY.oncePerDay} n8n cannot Retry a stopped execution: ${SAY.lookBeforeRunningAfterStop}`,
		type: 'info',
		location: 'outputPane',
	});
}
