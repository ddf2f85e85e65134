// Issue 41, "A marketer's first campaign in the editor": everything a marketer does, in Chromium, from
// an empty workflow in a fresh n8n with no LBA Ads credential: the node from the nodes panel (search
// "LBA", the Publish action), the credential created in its dialog, the campaign filled field by field
// (Location ID picked From List), Mode → Preview and Execute step (the dry run; nothing sent), Mode →
// Publish, save, Execute step (one campaign), again (held back, the reason on screen), a message too
// long and an unknown Location ID (each refused in the panel's words, nothing sent). The sandbox
// journal's campaign count is checked at every step.
//
// Screenshots go to artifacts/ as first-campaign-*.png. With LBA_SCREENSHOTS=1 (`npm run screenshots`)
// the docs' pictures of the Create panel are written too (docs/images/, see DOCS_PICTURES); CI leaves
// docs/images alone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

import * as e2e from './lib';

type Json = Record<string, any>;

const SHOTS = 'first-campaign';
/** n8n names a node added from the nodes panel after the action picked. */
const NODE = 'Publish a campaign (sends SMS, billed)';
const WRITE_DOCS = process.env.LBA_SCREENSHOTS === '1';
/** Screenshot (artifacts name suffix) → the docs picture it replaces, with LBA_SCREENSHOTS=1. */
const DOCS_PICTURES: Record<string, string> = {
	'04-location-from-list': 'location-from-list',
	'05-campaign-filled': 'node-panel-channels',
	'06-duplicate-protection-options': 'duplicate-protection-options',
	'07-preview-output': 'dry-run-output',
	'09-held': 'rerun-skipped',
};

const CAMPAIGN = 'Bandung weekend promo';
const DESCRIPTION = 'Weekend discounts at Warung Kita';
const SENDER = 'WARUNGKITA';
/** Pasted from a document, with curly quotes: sent as UCS-2, which the preview's hint says. */
const MESSAGE = 'Diskon “spesial” 20% akhir pekan ini di Warung Kita Bandung!';
const LONG_MESSAGE =
	'Diskon 20% akhir pekan ini di Warung Kita Bandung! Tunjukkan SMS ini di kasir dan dapatkan minuman gratis untuk setiap pembelian paket makan siang. Berlaku Sabtu dan Minggu, 09.00-21.00 WIB';
/** Next week, as the date picker takes it (n8n and the browser run in UTC here). */
const pickerDate = (days: number, time: string) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
const SEND_FROM = pickerDate(7, '09:00:00');
const SEND_UNTIL = pickerDate(8, '21:00:00');

e2e.describeE2E(`A marketer's first campaign in the editor, real n8n ${e2e.n8nVersion()}`, () => {
	// Signed in through n8n's sign-in page, as a marketer starts (the other suites are given the cookie).
	const suite = e2e.editorSuite(
		'first-campaign',
		{},
		{
			signIn: 'page',
			// A marketer's n8n has no LBA Ads credential yet: remove the one the harness imports for other suites.
			beforeSignIn: async (setup) => void (await setup.rest.call('DELETE', `/rest/credentials/${e2e.SANDBOX_CREDENTIAL_ID}`)),
		},
	);
	let sandbox: e2e.LbaN8n['sandbox'];
	let n8n: e2e.N8nInstance;
	let rest: e2e.N8nRest;
	let page: Page;
	beforeAll(() => ({ sandbox, n8n, rest, page } = suite));
	const steps: Array<{ step: string; shown: string; campaigns: number; seconds: number }> = [];
	const docsWritten: string[] = [];
	let stepStarted = Date.now();

	async function journal(): Promise<Json[]> {
		return ((await (await fetch(`${sandbox.url}/_sandbox/campaigns`)).json()) as { campaigns: Json[] }).campaigns;
	}
	/** The step's screenshot, its campaign count from the journal (asserted), a row of the report. */
	async function step(name: string, shown: string, campaigns: number): Promise<void> {
		expect({ step: name, campaigns: (await journal()).length }).toEqual({ step: name, campaigns });
		const file = await e2e.screenshot(page, `${SHOTS}-${name}`);
		const docsName = DOCS_PICTURES[name];
		if (WRITE_DOCS && docsName) {
			fs.copyFileSync(file, path.join(e2e.REPO_ROOT, 'docs', 'images', `${docsName}.png`));
			docsWritten.push(`docs/images/${docsName}.png (= ${path.basename(file)})`);
		}
		steps.push({ step: name, shown, campaigns, seconds: (Date.now() - stepStarted) / 1000 });
		stepStarted = Date.now();
	}
	const field = (name: string) => e2e.parameterInput(page, name).locator('input, textarea').first();
	/** Pick `label` in the options parameter `name` of the open panel. */
	async function choose(name: string, label: string): Promise<void> {
		await e2e.parameterInput(page, name).scrollIntoViewIfNeeded();
		await e2e.openOptions(page, name);
		await page.locator('[data-test-id="parameter-input-item"]:visible').filter({ hasText: label }).first().click();
		await expect(field(name).inputValue()).resolves.toBe(label);
	}
	/** Location ID's mode (the resource locator's own select): "By ID" or "From list". */
	async function locationMode(label: string): Promise<void> {
		const locator = page.locator('[data-test-id="resource-locator-locationId"]');
		await locator.scrollIntoViewIfNeeded();
		await locator.locator('[data-test-id="rlc-mode-selector"]').click();
		await page.locator('.el-select-dropdown__item:visible').filter({ hasText: label }).first().click();
		await expect(locator.locator('[data-test-id="rlc-mode-selector"] input').inputValue()).resolves.toBe(label);
	}
	/** Close the editor's toasts (an error toast stays until closed), so that they do not pile up. */
	async function closeToasts(): Promise<void> {
		const close = page.locator('.el-notification__closeBtn:visible');
		for (let left = await close.count(); left > 0; left--) await close.first().click().catch(() => undefined);
		await page.locator('.el-notification:visible').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
	}
	/** The panel's Execute step: resolves with its execution once it has finished and the panel has settled. */
	async function executeStep(): Promise<e2e.ExecutionRun> {
		await closeToasts();
		const button = page.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
		const [response] = await Promise.all([
			page.waitForResponse((r) => /\/rest\/workflows\/[^/]+\/run$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST', { timeout: 60_000 }),
			button.click(),
		]);
		const { data } = (await response.json()) as Json;
		await rest.waitForExecution(data.executionId);
		// The button back from its spinner, then the toast's slide-in, before any screenshot.
		await button.filter({ hasText: 'Execute step' }).waitFor({ timeout: 30_000 });
		await page.waitForTimeout(1000);
		return rest.getExecutionRun(data.executionId);
	}
	/** What the output panel shows: wait until `text` is visible there. */
	async function outputShows(text: string): Promise<void> {
		const shown = page.locator('[data-test-id="output-panel"]').getByText(text, { exact: false }).first();
		await shown.waitFor({ state: 'visible', timeout: 30_000 });
		await expect(shown.isVisible()).resolves.toBe(true);
	}

	afterAll(async () => {
		if (steps.length) {
			e2e.writeReport(
				'first-campaign',
				"A marketer's first campaign in the editor",
				e2e.markdownTable<(typeof steps)[number]>(
					[
						['step (screenshot first-campaign-…)', (row) => row.step],
						['what the editor showed', (row) => row.shown],
						['campaigns in the journal', (row) => row.campaigns],
						['seconds', (row) => row.seconds.toFixed(1)],
					],
					steps,
				) + (docsWritten.length ? `\n\nWritten for the docs (LBA_SCREENSHOTS=1):\n\n${docsWritten.map((file) => `- ${file}`).join('\n')}\n` : ''),
				{ print: WRITE_DOCS },
			);
		}
	});

	test('from an empty workflow: node, credential, campaign, preview, publish once, held, refused twice in the panel\'s words', async () => {
		e2e.follows('pickCategory', 'previewFirst', 'askForSandbox', 'pageSaveFirst');
		expect([...LONG_MESSAGE]).toHaveLength(189);
		expect(await rest.call('GET', '/rest/credentials')).toEqual([]);
		stepStarted = Date.now();

		// 1. An empty workflow; the nodes panel: search "LBA".
		await page.goto(`${n8n.baseUrl}/workflow/new`, { waitUntil: 'domcontentloaded' });
		await page.locator('[data-test-id="canvas-add-button"]').click();
		const creator = page.locator('[data-test-id="node-creator"]');
		const search = creator.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first();
		await search.click();
		await search.pressSequentially('LBA');
		const lbaAds = creator.locator('[data-test-id="item-iterator-item"]').filter({ hasText: 'LBA Ads' }).first();
		await lbaAds.waitFor();
		// n8n's own picker merges the trigger into the node: one entry, with the node's description.
		const entries = creator.locator('[data-test-id="item-iterator-item"]').filter({ hasText: 'LBA Ads' });
		await expect(entries.count()).resolves.toBe(1);
		await expect(entries.first().innerText()).resolves.toContain('Publish location-based SMS campaigns (sent at once, billed)');
		await step('01-nodes-panel-search', 'LBA Ads in the results for "LBA"', 0);

		// 2. LBA Ads: its actions; the first of the campaign actions is Publish a campaign.
		await lbaAds.click();
		await creator.locator('[data-test-id="node-creator-category-item"]').filter({ hasText: 'Actions' }).click();
		const publish = creator.getByText(NODE, { exact: true });
		await publish.waitFor();
		await step('02-actions', `action "${NODE}"`, 0);
		await publish.click();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor();
		await page.locator('[data-test-id="node-parameters"]').waitFor();
		// n8n put a manual trigger before it; Mode is Publish, with its notice.
		await page.locator('[data-test-id="canvas-node"]').nth(1).waitFor();
		expect(await page.locator('[data-test-id="canvas-node"]').count()).toBe(2);
		await expect(field('runMode').inputValue()).resolves.toBe('Publish (Sends SMS, Billed)');
		await ndv.getByText('Executing this node publishes each campaign at once', { exact: false }).first().waitFor();

		// 3. The credential, created from the panel: Base URL and Access Token of the sandbox.
		await page.locator('[data-test-id="node-credentials-empty-state"]').getByText('Connect to LBA Ads').click();
		const dialog = page.locator('[data-test-id="editCredential-modal"]');
		await dialog.waitFor();
		await expect(dialog.innerText()).resolves.toContain('LBA Ads API');
		await dialog.locator('[data-test-id="parameter-input-baseUrl"] input').fill(sandbox.url);
		await dialog.locator('[data-test-id="parameter-input-accessToken"] input').fill(sandbox.tokens[0]);
		await step('03-credential', 'LBA Ads API dialog: Base URL, Access Token', 0);
		const saved = await e2e.saveNewCredential(page, dialog);
		const [credential] = (await rest.call('GET', '/rest/credentials')) as Json[];
		expect(credential).toMatchObject({ id: saved.id, type: 'lbaAdsApi', name: expect.any(String) });
		await expect(rest.testSavedCredential(credential.id)).resolves.toMatchObject({ status: 'OK' });
		const credentialSelect = page.locator('[data-test-id="node-credentials-select"] input').first();
		await expect(credentialSelect.inputValue()).resolves.toBe(credential.name);

		// 4. The campaign, field by field; one channel, its Location ID picked From List.
		await field('name').fill(CAMPAIGN);
		await field('campaignDescription').fill(DESCRIPTION);
		await choose('categoryId', 'Food & Drinks');
		await page.locator('[data-test-id="fixed-collection-channels"] [data-test-id="fixed-collection-add"]').click();
		await field('sender').fill(SENDER);
		await locationMode('From list');
		await page.locator('[data-test-id="resource-locator-locationId"] [data-test-id="rlc-input"]').click();
		const locationSearch = page.locator('[data-test-id="rlc-search"]').first();
		await locationSearch.waitFor({ timeout: 30_000 });
		await ((await locationSearch.evaluate((el) => el.tagName === 'INPUT')) ? locationSearch : locationSearch.locator('input').first()).fill('bandung');
		const bandung = page.locator('[data-test-id="rlc-item"]').filter({ hasText: 'Kota Bandung, Jawa Barat (3273)' }).first();
		await bandung.waitFor({ timeout: 30_000 });
		await page.waitForTimeout(800); // the list settles after the search answer
		await step('04-location-from-list', 'From list: the service\'s places for "bandung"', 0);
		await bandung.click();
		await field('message').fill(MESSAGE);
		await field('smsQty').fill('1000');
		for (const [name, value] of [
			['startDate', SEND_FROM],
			['endDate', SEND_UNTIL],
		]) {
			await field(name).click();
			await field(name).fill(value);
			await page.keyboard.press('Enter');
			await expect(field(name).inputValue()).resolves.toBe(value);
		}
		await field('endDate').blur();
		await expect(field('telcoId').inputValue()).resolves.toBe('Telkomsel (tsel)');
		await e2e.parameterInput(page, 'telcoId').evaluate((el) => el.scrollIntoView({ block: 'end' }));
		await page.waitForTimeout(300);
		await step('05-campaign-filled', 'the channel in task order: Sender, Location ID (From list), Message, SMS Quantity, Send From, Send Until, Telco', 0);

		await e2e.parameterInput(page, 'duplicateProtection').scrollIntoViewIfNeeded();
		await expect(e2e.openOptions(page, 'duplicateProtection')).resolves.toEqual(['Campaign Content', 'Custom Key', 'Off']);
		await page.waitForTimeout(300); // the menu fades in
		await step('06-duplicate-protection-options', 'Duplicate Protection: Campaign Content, Custom Key, Off', 0);
		await e2e.closeOptions(page);

		// 5. Mode → Preview, Execute step: the dry run; nothing sent.
		await choose('runMode', 'Preview (Sends Nothing)');
		expect(await ndv.getByText('Executing this node publishes each campaign at once', { exact: false }).count()).toBe(0);
		const preview = await executeStep();
		expect(preview.status).toBe('success');
		const [dryRun] = preview.output(NODE);
		expect(dryRun).toMatchObject({
			dryRun: true,
			sent: false,
			request: {
				method: 'POST',
				path: '/lba/campaign',
				body: {
					name: CAMPAIGN,
					description: DESCRIPTION,
					categoryId: 10,
					channels: [{ sender: SENDER, locationId: 3273, smsQty: 1000, message: MESSAGE, telcoId: 'tsel', startDate: expect.stringContaining(SEND_FROM.slice(0, 10)) }],
				},
			},
			smsPerRecipient: [{ channel: 1, encoding: 'UCS-2', segments: 1, nonGsmCharacter: '“' }],
		});
		await outputShows('is not in the GSM alphabet'); // the hint above the output
		await outputShows('/lba/campaign');
		await step('07-preview-output', 'Mode Preview: the request, SMS per recipient, the UCS-2 hint; dryRun true, sent false', 0);
		const workflowId = new URL(page.url()).pathname.split('/')[2];
		expect(workflowId).toMatch(/^[A-Za-z0-9]{8,}$/);

		// 6. Mode → Publish, save, Execute step: one campaign.
		await choose('runMode', 'Publish (Sends SMS, Billed)');
		await ndv.getByText('Executing this node publishes each campaign at once', { exact: false }).first().waitFor();
		await page.keyboard.press('ControlOrMeta+s');
		const deadline = Date.now() + 30_000;
		for (;;) {
			const saved = (await rest.getWorkflow(workflowId)).nodes.find((node: Json) => node.name === NODE);
			const parameters = saved?.parameters ?? {};
			if ((parameters.runMode ?? 'publish') === 'publish' && parameters.name === CAMPAIGN && saved.credentials?.lbaAdsApi?.id === credential.id) {
				expect(parameters.channels.channel[0]).toMatchObject({ sender: SENDER, locationId: { __rl: true, mode: 'list' }, message: MESSAGE, smsQty: 1000 });
				expect(String(parameters.channels.channel[0].locationId.value)).toBe('3273');
				break;
			}
			if (Date.now() > deadline) throw new Error(`the editor did not save the node: ${JSON.stringify(saved)}`);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		const published = await executeStep();
		expect(published.status).toBe('success');
		const [created] = published.output(NODE);
		expect(created).toMatchObject({ status: 'Published', campaignId: expect.any(String), idempotencyKey: dryRun.idempotencyKey });
		await outputShows(created.message);
		const [campaign] = await journal();
		expect(campaign.request).toEqual(dryRun.request.body);
		await step('08-published', 'status Published, one campaign', 1);

		// 7. Execute step again: held back, the reason on screen.
		const again = await executeStep();
		expect(again.status).toBe('success');
		const [held] = again.output(NODE);
		expect(held).toMatchObject({ skipped: true, reason: expect.stringContaining('not sent again'), earlierOutcome: 'created', howToResend: expect.any(String) });
		expect(Object.keys(held).slice(0, 4)).toEqual(['skipped', 'reason', 'earlierOutcome', 'howToResend']);
		await outputShows('not sent again');
		await step('09-held', `skipped: "${held.reason}"`, 1);

		// 8. A message of 189 characters: refused in the panel's words, nothing sent.
		await field('message').fill(LONG_MESSAGE);
		const tooLong = await executeStep();
		expect(tooLong.status).toBe('error');
		expect(tooLong.error.message).toContain('Item 1 › Channel 1 › Message: 189 of 160 characters');
		await outputShows('Item 1 › Channel 1 › Message: 189 of 160 characters');
		await step('10-message-too-long', tooLong.error.message, 1);

		// 9. The message fixed, Location ID By ID 999999: refused before anything is sent.
		await field('message').fill(MESSAGE);
		await locationMode('By ID');
		await page.locator('[data-test-id="resource-locator-locationId"] [data-test-id="rlc-input"]').fill('999999');
		const unknown = await executeStep();
		expect(unknown.status).toBe('error');
		expect(unknown.error.message).toContain('Item 1 › Channel 1 › Location ID: 999999 is not a place LBA Ads knows');
		await outputShows('is not a place LBA Ads knows');
		await step('11-unknown-location', unknown.error.message, 1);
	});
});
