// Issue 52, "the hour the marketer meant", in Chromium as a marketer types: an n8n left at n8n's
// default zone, America/New_York (issue 61: the n8n marketers run), and a workflow left at n8n's Default timezone, a campaign to Makassar (WITA)
// and Jayapura (WIT) whose dates are typed the usual way, without seconds or an offset. Before the
// run the panel says in whose hours they are read; Preview shows each window in its recipients'
// hours and sends nothing; Publish sends 09:00 WITA and 09:00 WIT (read back from the sandbox's
// journal with their offsets); a window that is over is refused in the panel's words and sends
// nothing. The campaigns are counted by name in the journal at every step.
import type { Page } from 'playwright-core';

import * as e2e from './lib';

type Json = Record<string, any>;

const NODE = 'Launch east Indonesia promo';
const CAMPAIGN = 'East Indonesia weekend promo';
const SHOTS = 'send-hours';
const MAKASSAR = 7371;
const JAYAPURA = 9471;

const channel = (locationId: number) => ({
	sender: 'WARUNGKITA',
	locationId: { __rl: true, mode: 'id', value: locationId },
	smsQty: 500,
	message: 'Diskon 20% akhir pekan ini!',
	telcoId: 'tsel',
});

/** What a marketer has set before the dates: the campaign, two channels, Mode Preview. */
const WORKFLOW = e2e.workflow(
	'lbaSendHours',
	'East Indonesia promo',
	[
		e2e.manualTrigger('sh-start'),
		e2e.lbaNode('sh-lba', NODE, {
			resource: 'campaign',
			operation: 'create',
			runMode: 'preview',
			name: CAMPAIGN,
			campaignDescription: 'Weekend discounts',
			categoryId: 10,
			channels: { channel: [channel(MAKASSAR), channel(JAYAPURA)] },
		}),
	],
	e2e.chain('Start', NODE),
	// n8n's "Default" (the instance's zone, America/New_York here, n8n's default), as the workflow settings store it.
	{ timezone: 'DEFAULT' },
);

/** "2036-12-01 09:00": what a marketer types (no seconds, no offset). A week ago for the window that is over. */
const typed = (date: string, time: string) => `${date} ${time}`;
const DAY = '2036-12-01';
const LAST_WEEK = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

e2e.describeE2E(`The hour the marketer meant, in the editor of real n8n ${e2e.n8nVersion()} on n8n's default zone`, () => {
	const suite = e2e.editorSuite('send-hours', { workflows: [WORKFLOW], shared: true });
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;
	let page: Page;
	beforeAll(() => ({ sandbox, n8n, rest, page } = suite));

	async function campaigns(): Promise<Json[]> {
		const { campaigns: all } = (await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: Json[] };
		return all.filter((campaign) => campaign.request?.name === CAMPAIGN);
	}
	const dateInputs = (name: string) => e2e.parameterInput(page, name).locator('input, textarea');
	/** Types a date into the n-th channel's field as a marketer does: click, type, Enter, leave the field. */
	async function typeDate(name: string, index: number, text: string): Promise<void> {
		const input = dateInputs(name).nth(index);
		await input.scrollIntoViewIfNeeded();
		await input.click();
		await input.fill('');
		await page.keyboard.type(text);
		await page.keyboard.press('Enter');
		await input.blur();
		await expect(input.inputValue()).resolves.toBe(text);
	}
	const choose = (name: string, label: string) => e2e.chooseOption(page, name, label);
	const executeStep = () => e2e.executeStepInPanel(page, rest);
	/** Saved with these Send From / Send Until (REST holds them); a field saved wrong is typed again. */
	async function saveWithDates(dates: Array<[string, string]>): Promise<void> {
		const storedDates = (workflow: Json): Array<[string, string]> =>
			(workflow.nodes.find((each: Json) => each.name === NODE)?.parameters?.channels?.channel ?? []).map((each: Json) => [each.startDate, each.endDate]);
		await e2e.saveInEditor(page, rest, WORKFLOW.id, (workflow) => JSON.stringify(storedDates(workflow)) === JSON.stringify(dates), {
			what: (workflow) => `the dates ${JSON.stringify(storedDates(workflow))}`,
			fix: async (workflow) => {
				const stored = storedDates(workflow);
				for (const [index, [startDate, endDate]] of dates.entries()) {
					if (stored[index]?.[0] !== startDate) await typeDate('startDate', index, startDate);
					if (stored[index]?.[1] !== endDate) await typeDate('endDate', index, endDate);
				}
			},
		});
	}
	const output = () => page.locator('[data-test-id="output-panel"]');
	async function outputShows(text: string): Promise<void> {
		await output().getByText(text, { exact: false }).first().waitFor({ timeout: 30_000 });
	}

	test('dates typed without seconds reach Makassar at 09:00 WITA and Jayapura at 09:00 WIT; the panel says so before the run; a window that is over sends nothing', async () => {
		e2e.follows('typeDateHint');
		expect(await campaigns()).toHaveLength(0);
		const saved = await rest.getWorkflow(WORKFLOW.id);
		expect(saved.settings.timezone).toBe('DEFAULT'); // n8n's Default: the instance's zone, America/New_York here

		await e2e.openWorkflow(page, n8n.baseUrl, WORKFLOW.id);
		await e2e.openNodePanel(page, NODE);
		const ndv = page.locator('[data-test-id="ndv"]');

		// Before the run: in whose hours a date without an offset is read, in the panel.
		await ndv.getByText('not WIB, WITA or WIT, so Send From and Send Until without an offset are read in each channel', { exact: false }).first().waitFor({ timeout: 30_000 });
		// Send From and Send Until, typed the usual way (no seconds): kept as typed.
		await typeDate('startDate', 0, typed(DAY, '09:00'));
		await typeDate('endDate', 0, typed(DAY, '18:00'));
		await typeDate('startDate', 1, typed(DAY, '09:00'));
		await typeDate('endDate', 1, typed(DAY, '18:00'));
		// Saved as typed (what the editor stores is what runs).
		await saveWithDates([
			[typed(DAY, '09:00'), typed(DAY, '18:00')],
			[typed(DAY, '09:00'), typed(DAY, '18:00')],
		]);
		await dateInputs('startDate').nth(0).scrollIntoViewIfNeeded();
		await page.waitForTimeout(300);
		await e2e.screenshot(page, `${SHOTS}-1-typed`);

		// Preview: nothing sent; each window in its recipients' hours, first in the item.
		const preview = await executeStep();
		expect(preview.status).toBe('success');
		const [dry] = preview.output(NODE);
		expect(Object.keys(dry).slice(0, 3)).toEqual(['preview', 'campaignName', 'sendWindows']);
		expect(dry.sendWindows.map((window: Json) => window.sendWindow)).toEqual([
			`${DAY} 09:00 to 18:00 WITA (Asia/Makassar, Kota Makassar)`,
			`${DAY} 09:00 to 18:00 WIT (Asia/Jayapura, Kota Jayapura)`,
		]);
		await outputShows('Preview: nothing was sent or billed');
		await output().getByText('JSON', { exact: true }).first().click();
		await outputShows('09:00 to 18:00 WITA');
		await page.waitForTimeout(500);
		await e2e.screenshot(page, `${SHOTS}-2-preview`);
		expect(await campaigns()).toHaveLength(0);

		// Publish (saved first, as a marketer does before a real send): one campaign, sent at each place's 09:00.
		await choose('runMode', 'Publish (Sends SMS, Billed)');
		await page.keyboard.press('ControlOrMeta+s');
		const published = await executeStep();
		expect(published.status).toBe('success');
		const [created] = published.output(NODE);
		expect(created).toMatchObject({ campaignName: CAMPAIGN, status: 'Published' });
		const sent = await campaigns();
		expect(sent).toHaveLength(1);
		expect(sent[0].request.channels.map((each: Json) => [each.locationId, each.startDate, each.endDate])).toEqual([
			[MAKASSAR, `${DAY}T09:00:00+08:00`, `${DAY}T18:00:00+08:00`],
			[JAYAPURA, `${DAY}T09:00:00+09:00`, `${DAY}T18:00:00+09:00`],
		]);
		await outputShows(created.campaignId);
		await e2e.screenshot(page, `${SHOTS}-3-published`);

		// A window that is over (last week, typed the same way): refused in the panel's words; nothing sent.
		await typeDate('startDate', 0, typed(LAST_WEEK, '09:00'));
		await typeDate('endDate', 0, typed(LAST_WEEK, '18:00'));
		await saveWithDates([
			[typed(LAST_WEEK, '09:00'), typed(LAST_WEEK, '18:00')],
			[typed(DAY, '09:00'), typed(DAY, '18:00')],
		]);
		const over = await executeStep();
		expect(over.status).toBe('error');
		expect(over.error.message).toMatch(new RegExp(`^Item 1 › Channel 1 › Send Until: ${LAST_WEEK} 18:00 WITA has passed \\(it is now .* WITA\\); nothing would be sent in a window that is over`));
		await outputShows('has passed');
		await e2e.screenshot(page, `${SHOTS}-4-window-over`);
		expect(await campaigns()).toHaveLength(1);
		e2e.writeReport(
			'send-hours',
			'The hour the marketer meant (n8n on its default zone, workflow timezone Default)',
			[
				`Typed: Send From "${typed(DAY, '09:00')}", Send Until "${typed(DAY, '18:00')}" for Kota Makassar and Kota Jayapura.`,
				`Preview: ${dry.sendWindows.map((window: Json) => window.sendWindow).join('; ')}; 0 campaigns.`,
				`Publish: ${sent[0].request.channels.map((each: Json) => each.startDate).join(', ')}; 1 campaign.`,
				`Window over (${LAST_WEEK}): "${over.error.message}"; still 1 campaign.`,
			].join('\n\n'),
		);
	});
});
