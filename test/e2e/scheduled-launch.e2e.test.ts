// Issue 61, scheduled launches in the recipients' hours, on the n8n a marketer really runs: an
// instance whose zone is unset (n8n's default, America/New_York: test/e2e/lib/cli.js sets no
// GENERIC_TIMEZONE) and workflows without a timezone of their own. Each journey runs what a
// marketer writes, follows the node's advice to the letter, and reads the hour each campaign was
// sent for from the sandbox's journal, counted per campaign name: the node's old `$today` advice
// and a Schedule Trigger's timestamp are refused before billing (21:00 and 20:00 WIB), the advised
// form sends 09:00 in each place's hours; a date alone (midnight) is refused as a night start;
// `Etc/GMT+7` is refused; dates typed the Indonesian way are read as meant and said back.
import { DateTime } from 'luxon';

import * as e2e from './lib';

type Json = Record<string, any>;

const LBA = 'Launch campaign';
const BANDUNG = 3273; // Kota Bandung, Jawa Barat: WIB
const MAKASSAR = 7371; // Kota Makassar, Sulawesi Selatan: WITA

const channel = (locationId: number, dates: { startDate: string; endDate: string }) => ({
	sender: 'WARUNGKITA',
	locationId,
	smsQty: 100,
	message: 'Promo pagi!',
	telcoId: 'tsel',
	...dates,
});

/** Create Campaign named `name`, its channels, no workflow timezone (the instance's, n8n's default). */
function launch(id: string, name: string, trigger: e2e.WorkflowNode, channels: Json[], options: Json = {}) {
	const lba = e2e.lbaNode(`${id}-lba`, LBA, {
		resource: 'campaign',
		operation: 'create',
		name,
		campaignDescription: 'Scheduled launch',
		categoryId: 10,
		channelsInput: 'fields',
		channels: { channel: channels },
		options: { concurrency: 1, allowNightStart: false, ...options },
	});
	const workflow = e2e.workflow(id, `Scheduled launch: ${name}`, [trigger, lba], e2e.chain(trigger.name, LBA));
	// Saved as the editor saves a new workflow: no timezone setting at all.
	return { ...workflow, settings: { executionOrder: 'v1' } };
}
const everyDayAt8 = (id: string) => e2e.node(`${id}-start`, 'Start', 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'days', triggerAtHour: 8 }] } });

/** The node's advice until issue 61, as the marketer wrote it. */
const TODAY_DATES = { startDate: '={{ $today.plus({ days: 1 }).set({ hour: 9 }) }}', endDate: '={{ $today.plus({ days: 1 }).set({ hour: 18 }) }}' };
/** The trigger's time as the shipped example used it: the next whole hour, and the evening. */
const TRIGGER_DATES = {
	startDate: "={{ DateTime.fromISO($json.timestamp, { setZone: true }).plus({ hours: 1 }).startOf('hour') }}",
	endDate: '={{ DateTime.fromISO($json.timestamp, { setZone: true }).plus({ days: 1 }).set({ hour: 20 }) }}',
};

const TODAY = launch('slToday', 'sl-today-1', everyDayAt8('slToday'), [channel(BANDUNG, TODAY_DATES), channel(MAKASSAR, TODAY_DATES)]);
const TRIGGER = launch('slTrigger', 'sl-trigger-1', everyDayAt8('slTrigger'), [channel(BANDUNG, TRIGGER_DATES)]);
const ALONE = launch('slAlone', 'sl-alone-1', e2e.manualTrigger('slAlone-start'), [channel(BANDUNG, { startDate: '2036-12-10', endDate: '2036-12-10' })]);
const POSIX = launch('slPosix', 'sl-posix-1', e2e.manualTrigger('slPosix-start'), [channel(BANDUNG, { startDate: '2036-12-10 09:00', endDate: '2036-12-10 18:00' })], { timezone: 'Etc/GMT+7' });
const TYPED = launch('slTyped', 'sl-typed-1', e2e.manualTrigger('slTyped-start'), [
	channel(BANDUNG, { startDate: '10/12/2036 09.00', endDate: '10 Des 2036 18.00' }),
	channel(MAKASSAR, { startDate: '10/12/2036 09.00 WITA', endDate: '11/12/2036 9:00 WITA' }),
]);

/** Tomorrow in WIB, as the advice computes it (`$now.setZone('Asia/Jakarta').plus({ days: 1 })`). */
const tomorrowInWib = () => DateTime.now().setZone('Asia/Jakarta').plus({ days: 1 }).toISODate();

e2e.describeE2E(`Scheduled launches in the recipients' hours, on real n8n ${e2e.n8nVersion()} left at n8n's default zone`, () => {
	let setup: e2e.LbaN8n | undefined;
	let steps: e2e.UserSteps;

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('scheduled-launch', { workflows: [TODAY, TRIGGER, ALONE, POSIX, TYPED], shared: true });
		steps = e2e.userSteps(setup);
	}, 15 * 60 * 1000);
	afterAll(async () => {
		await setup?.close();
	});

	/** A run refused before anything was sent: its message and advice. */
	async function refused(workflowId: string, name: string): Promise<{ message: string; advice: string }> {
		const run = await steps.run(workflowId);
		expect(run.status).toBe('error');
		expect(await steps.journal(name)).toEqual([]);
		return { message: String(run.error?.message ?? ''), advice: String(run.error?.description ?? '') };
	}
	const setChannels = (workflowId: string, change: (channel: Json) => Json) =>
		steps.setNode(workflowId, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, channels: { channel: node.parameters.channels.channel.map(change) } } }));
	const sentDates = async (name: string) =>
		(await steps.journal(name)).flatMap((campaign) => campaign.request.channels.map(({ startDate, endDate }) => `${startDate} ${endDate}`));
	/** The expression the refusal tells to write, with the time it shows. */
	function advisedForm(message: string): string {
		const advised = /Write the time as text, read in the recipients' local time: (\{\{ .*? \}\}) 09:00/.exec(message);
		expect(advised).not.toBeNull();
		return advised![1];
	}

	test("the node's old $today advice on n8n's default zone: refused before billing (21:00 WIB), its form followed: 09:00 WIB in Bandung, 09:00 WITA in Makassar", async () => {
		e2e.follows('timeAsText', 'timeAsTextInstead');
		const { message } = await refused(TODAY.id, 'sl-today');
		expect(message).toContain(
			"Send From is 09:00 in America/New_York, the n8n instance's timezone, n8n's default (the workflow's is Default), which is 21:00 WIB for the recipients in Kota Bandung",
		);
		const form = advisedForm(message);
		await setChannels(TODAY.id, (each) => ({ ...each, startDate: `=${form} 09:00`, endDate: `=${form} 18:00` }));
		const before = tomorrowInWib();
		const run = await steps.run(TODAY.id);
		expect([run.status, run.error?.message]).toEqual(['success', undefined]);
		const day = [before, tomorrowInWib()].find((candidate) => run.output(LBA)[0].sendWindows[0].from.includes(DateTime.fromISO(candidate!).toFormat('d LLLL yyyy')));
		expect(day).toBeDefined();
		expect(await sentDates('sl-today')).toEqual([`${day}T09:00:00+07:00 ${day}T18:00:00+07:00`, `${day}T09:00:00+08:00 ${day}T18:00:00+08:00`]);
		// Run again the same day: the same campaign (the dates are the same all day), not sent twice.
		expect((await steps.run(TODAY.id)).status).toBe('success');
		expect((await steps.journal('sl-today')).length).toBe(1);
	});

	test("a Schedule Trigger every day at 08:00 on n8n's default zone: its timestamp's next hour is refused (it is 21:00 WIB), the advice followed: 09:00 WIB", async () => {
		const { message } = await refused(TRIGGER.id, 'sl-trigger');
		expect(message).toMatch(/Send From is \d\d:00 in America\/New_York, the n8n instance's timezone, n8n's default \(the workflow's is Default\), which is \d\d:00 WIB for the recipients in Kota Bandung/);
		const form = advisedForm(message);
		await setChannels(TRIGGER.id, (each) => ({ ...each, startDate: `=${form} 09:00`, endDate: `=${form} 18:00` }));
		const run = await steps.run(TRIGGER.id);
		expect([run.status, run.error?.message]).toEqual(['success', undefined]);
		const [sent] = await sentDates('sl-trigger');
		expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}T09:00:00\+07:00 \d{4}-\d{2}-\d{2}T18:00:00\+07:00$/);
		expect([DateTime.now().setZone('Asia/Jakarta').plus({ days: 1 }).toISODate(), DateTime.now().setZone('Asia/Jakarta').toISODate()]).toContain(sent.slice(0, 10));
	});

	test('a date alone as Send From: refused as a night start (00:00 WIB), the advice followed (its day at 09:00): 1 campaign at 09:00 WIB', async () => {
		e2e.follows('windowInFuture');
		const { message, advice } = await refused(ALONE.id, 'sl-alone');
		expect(message).toBe(
			"Item 1 › Channel 1 › sending would start Wednesday 10 December 2036, 00:00 WIB (a date without a time is midnight), at night for the recipients in Kota Bandung; no campaign starts from 21:00 to 08:00 in its recipients' local time unless Options › Allow Night Start is on (API: channels[0].startDate). Nothing was sent.",
		);
		expect(advice).toMatch(/^Give each channel a Send Until in the future and a Send From from 08:00 to 21:00 in its recipients' local time, e\.g\. \d{4}-\d{2}-\d{2} 09:00 \(typed so/);
		await setChannels(ALONE.id, (each) => ({ ...each, startDate: '2036-12-10 09:00' }));
		expect((await steps.run(ALONE.id)).status).toBe('success');
		expect(await sentDates('sl-alone')).toEqual(['2036-12-10T09:00:00+07:00 2036-12-10T23:59:59+07:00']);
	});

	test('Options › Timezone Etc/GMT+7: refused as UTC−7, the advice followed (Asia/Jakarta for WIB): 1 campaign at 09:00 WIB', async () => {
		e2e.follows('timezoneNotEtcGmt');
		const { message, advice } = await refused(POSIX.id, 'sl-posix');
		expect(message).toBe('Item 1 › Options › Timezone: "Etc/GMT+7" is UTC−7: in Etc/GMT names the sign is reversed, so 09:00 there is not what it seems. Nothing was sent.');
		expect(advice).toMatch(/^Use Asia\/Jakarta for WIB, Asia\/Makassar for WITA or Asia\/Jayapura for WIT/);
		await steps.setNode(POSIX.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, options: { ...node.parameters.options, timezone: 'Asia/Jakarta' } } }));
		expect((await steps.run(POSIX.id)).status).toBe('success');
		expect(await sentDates('sl-posix')).toEqual(['2036-12-10T09:00:00+07:00 2036-12-10T18:00:00+07:00']);
	});

	test('dates typed the Indonesian way (10/12/2036 09.00, 10 Des 2036 18.00, … WITA): Preview says them back written out, Publish sends them as meant', async () => {
		e2e.follows('typeDateAs');
		await steps.setNode(TYPED.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'preview' } }));
		const preview = await steps.run(TYPED.id);
		expect(preview.status).toBe('success');
		expect(preview.output(LBA)[0].sendWindows.map(({ from, until }: Json) => `${from} / ${until}`)).toEqual([
			'Wednesday 10 December 2036, 09:00 WIB / Wednesday 10 December 2036, 18:00 WIB',
			'Wednesday 10 December 2036, 09:00 WITA / Thursday 11 December 2036, 09:00 WITA',
		]);
		expect(await steps.journal('sl-typed')).toEqual([]);
		await steps.setNode(TYPED.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'publish' } }));
		expect((await steps.run(TYPED.id)).status).toBe('success');
		expect(await sentDates('sl-typed')).toEqual(['2036-12-10T09:00:00+07:00 2036-12-10T18:00:00+07:00', '2036-12-10T09:00:00+08:00 2036-12-11T09:00:00+08:00']);
	});
});
