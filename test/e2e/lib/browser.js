'use strict';
// Debian's Chromium headless shell (/usr/bin/chromium-headless-shell, installed by
// scripts/install-chromium.sh; LBA_CHROMIUM names another build) driven by
// playwright-core with a fresh --user-data-dir. `npx playwright install` cannot download
// browsers here, so we never use Playwright's own builds.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ARTIFACTS_DIR, ensureDir, realClockEnv } = require('./env');

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
// Debian's full Chromium where apt had no headless shell (scripts/install-chromium.sh).
const CHROMIUM = process.env.LBA_CHROMIUM || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
/**
 * How long a panel, dropdown or dialog may take to appear or go: Playwright's own default. 10 s was
 * too short on a loaded 2-core machine (three e2e suites at once beside another process: load ~7).
 */
const UI_TIMEOUT = 30_000;
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

/**
 * Launch Chromium with a fresh temp profile (launchPersistentContext is Playwright's way to
 * pass --user-data-dir). Returns `{ context, page, close() }`; close() also deletes the profile.
 */
async function launchBrowser({ viewport = { width: 1600, height: 1000 } } = {}) {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(`${CHROMIUM} not found: run 'bash scripts/install-chromium.sh' first`);
	}
	const { chromium } = require('playwright-core');
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-chromium-'));
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport,
		locale: 'en-US',
		timezoneId: 'UTC',
		// Chromium on the real clock: under libfaketime it took 5 times as long to start and its page loads
		// timed out. The dates the tests check are n8n's and the node's; the editor's own clock stays real.
		env: realClockEnv(),
	});
	const page = context.pages()[0] || (await context.newPage());
	const consoleErrors = [];
	page.on('console', (msg) => {
		if (msg.type() === 'error') consoleErrors.push(msg.text());
	});
	page.on('pageerror', (err) => consoleErrors.push(String(err)));
	return {
		context,
		page,
		userDataDir,
		consoleErrors,
		async close() {
			await context.close().catch(() => {});
			fs.rmSync(userDataDir, { recursive: true, force: true });
		},
	};
}

/** Screenshot into artifacts/ (git-ignored). Returns the file path. */
async function screenshot(page, name, opts = {}) {
	const file = path.join(ensureDir(ARTIFACTS_DIR), name.endsWith('.png') ? name : `${name}.png`);
	await page.screenshot({ path: file, ...opts });
	return file;
}

/** Sign in through n8n's own sign-in page (the way a person does). */
async function signInThroughUi(page, baseUrl, { email, password }) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	const emailInput = page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first();
	await emailInput.waitFor({ timeout: 60000 });
	await emailInput.fill(email);
	await page.locator('input[type="password"]').first().fill(password);
	await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/rest/login') && r.request().method() === 'POST', { timeout: 30000 }),
		page.locator('button[type="submit"], [data-test-id="form-submit-button"]').first().click(),
	]);
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30000 });
}

/**
 * Signed in as the sign-in page leaves the browser, without loading that page (a page load of n8n's
 * editor is about 7 s of Chromium's CPU): n8n's own `POST /rest/login`, its `n8n-auth` cookie given
 * to Chromium, and the editor's browser id (the cookie is bound to it) set as the editor keeps it.
 */
async function signInWithCookie(context, baseUrl, { email, password }) {
	const { N8nRest } = require('./server');
	const rest = new N8nRest(baseUrl);
	await rest.login(email, password);
	await context.addInitScript((browserId) => localStorage.setItem('n8n-browserId', browserId), rest.browserId);
	await context.addCookies(rest.playwrightCookies());
}

/**
 * Chromium signed in to n8n's editor as `owner`, the way every Chromium suite starts; the page is
 * blank until the suite opens a workflow or another page. `signIn: 'page'` signs in through n8n's
 * sign-in page (first-campaign.e2e.test.ts, where a marketer starts); otherwise n8n's login is
 * called and its cookie given to Chromium (signInWithCookie). A failed sign-in closes the browser
 * before it throws.
 * @param {{ baseUrl: string }} n8n
 */
async function editorSession(n8n, { viewport, owner = require('./server').DEFAULT_OWNER, signIn = 'cookie' } = {}) {
	const session = await launchBrowser({ viewport });
	try {
		if (signIn === 'page') await signInThroughUi(session.page, n8n.baseUrl, owner);
		else await signInWithCookie(session.context, n8n.baseUrl, owner);
	} catch (error) {
		await session.close();
		throw error;
	}
	return session;
}

/** Open a saved workflow in the editor and wait for its canvas nodes. */
async function openWorkflow(page, baseUrl, workflowId) {
	await page.goto(`${baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60000 });
}

/** The canvas node box for a node name. */
function canvasNode(page, nodeName) {
	return page.locator('[data-test-id="canvas-node"]').filter({ hasText: nodeName });
}

/**
 * Whether the node's icon on the canvas is an image that actually loaded (polls up to
 * timeoutMs: the canvas renders before the SVG arrives). A missing or broken icon gives false.
 */
async function nodeIconLoaded(page, nodeName, timeoutMs = UI_TIMEOUT) {
	const img = canvasNode(page, nodeName).locator('img').first();
	try {
		await img.waitFor({ timeout: timeoutMs });
		const handle = await img.elementHandle();
		await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, handle, { timeout: timeoutMs });
		return true;
	} catch {
		return false;
	}
}

/**
 * The inner texts of `locator` once they equal `expected`, or the last ones seen after timeoutMs: a
 * list that refills after an answer (Playwright's retrying `toHaveText([...])`, which jest lacks).
 */
async function innerTextsSettle(locator, expected, timeoutMs = UI_TIMEOUT) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const texts = await locator.allInnerTexts();
		if (JSON.stringify(texts) === JSON.stringify(expected) || Date.now() > deadline) return texts;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Open a node's panel (NDV) by double-clicking it on the canvas; returns the panel locator. */
async function openNodePanel(page, nodeName) {
	await canvasNode(page, nodeName).dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ timeout: 30000 });
	await page.locator('[data-test-id="node-parameters"]').waitFor({ timeout: 30000 });
	return ndv;
}

/** The input of a parameter in the open panel, by the parameter's `name`. */
function parameterInput(page, name) {
	return page.locator(`[data-test-id="parameter-input-${name}"]`);
}

/**
 * Click an `options` parameter and return the labels of its dropdown items (visible ones).
 * The dropdown is left open (screenshot it, then press Escape).
 */
async function openOptions(page, name) {
	await parameterInput(page, name).click();
	const items = page.locator('[data-test-id="parameter-input-item"]:visible');
	await items.first().waitFor({ timeout: UI_TIMEOUT });
	return (await items.allInnerTexts()).map((t) => t.split('\n')[0].trim());
}

/** Close the dropdown openOptions left open, and wait until its items are gone. */
async function closeOptions(page) {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="parameter-input-item"]:visible').first().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

async function closeNodePanel(page) {
	await page.keyboard.press('Escape'); // closes an open dropdown, if any
	await page.locator('[data-test-id="ndv-close-button"]').click();
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/**
 * Save a new credential in its open dialog, then close the dialog, as n8n's own Playwright tests do
 * (CredentialModal: `save()`, then `close()` if the dialog is still open). n8n 2.40.7 closes it by
 * itself only when the dialog came from a node panel and the credential's test, run after saving,
 * passed: nothing a test should wait for. Its Save button reads "Saving", then "Testing" (that test),
 * then "Save" again: n8n's newer "Saved" label shows only after an update.
 * @returns {Promise<object>} the credential n8n saved (POST /rest/credentials's `data`)
 */
async function saveNewCredential(page, dialog) {
	const save = dialog.locator('[data-test-id="credential-save-button"]');
	// 60 s: saving and testing go through n8n's server, slow on a loaded 2-core machine.
	const [response] = await Promise.all([
		page.waitForResponse((r) => new URL(r.url()).pathname === '/rest/credentials' && r.request().method() === 'POST', { timeout: 60_000 }),
		save.click(),
	]);
	const body = await response.json();
	if (!response.ok()) throw new Error(`saving the credential answered ${response.status()}: ${JSON.stringify(body)}`);
	// "Saving" shows from the click until the save and the test are over (or n8n closed the dialog).
	await save.filter({ hasText: /Saving|Testing/ }).waitFor({ state: 'hidden', timeout: 60_000 });
	const close = dialog.locator('.el-dialog__close').first();
	// n8n may be closing the dialog at this moment: a click that finds nothing is fine, the wait below is the check.
	if (await close.isVisible()) await close.click({ timeout: 5_000 }).catch(() => undefined);
	await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
	return body.data;
}

/**
 * Click "Execute workflow" on the canvas. Resolves with the request body the editor sent to
 * POST /rest/workflows/:id/run and its `{executionId}`, once every node in `expectNodes`
 * shows the green success mark and the run button is back from its spinner (lasting states, not
 * the "Workflow executed successfully" toast, which a loaded machine can miss: issue 53).
 */
async function runWorkflowFromEditor(page, { expectNodes = [], timeoutMs = 60000 } = {}) {
	const [response] = await Promise.all([
		page.waitForResponse((r) => /\/rest\/workflows\/[^/]+\/run$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST', { timeout: timeoutMs }),
		page.locator('[data-test-id="execute-workflow-button"]').click(),
	]);
	const body = await response.json();
	if (response.status() !== 200) throw new Error(`run request failed ${response.status()}: ${JSON.stringify(body)}`);
	for (const name of expectNodes) {
		await canvasNode(page, name).locator('[data-test-id="canvas-node-status-success"]').waitFor({ timeout: timeoutMs });
	}
	// The button back from its spinner: the editor has the run's end. Then let the toast's slide-in
	// settle for screenshots (not waited on: a toast comes and goes).
	await page.locator('[data-test-id="execute-workflow-button"]').filter({ hasText: 'Execute workflow' }).waitFor({ timeout: timeoutMs });
	await page.waitForTimeout(1000);
	return { request: JSON.parse(response.request().postData() || '{}'), executionId: body.data && body.data.executionId };
}

/** Pick `label` in the options parameter `name` of the open panel; resolves once the field shows it. */
async function chooseOption(page, name, label) {
	await parameterInput(page, name).scrollIntoViewIfNeeded();
	await openOptions(page, name);
	await page.locator('[data-test-id="parameter-input-item"]:visible').filter({ hasText: label }).first().click();
	const shown = await parameterInput(page, name).locator('input').first().inputValue();
	if (shown !== label) throw new Error(`${name} shows "${shown}" after choosing "${label}"`);
}

/**
 * The open panel's "Execute step": resolves with its execution once n8n has finished it and the
 * button is back from its spinner (lasting states, not a toast).
 */
async function executeStepInPanel(page, rest, { timeoutMs = 60000 } = {}) {
	const button = page.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
	const [response] = await Promise.all([
		page.waitForResponse((r) => /\/rest\/workflows\/[^/]+\/run$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST', { timeout: timeoutMs }),
		button.click(),
	]);
	const { data } = await response.json();
	await rest.waitForExecution(data.executionId, { timeoutMs });
	await button.filter({ hasText: 'Execute step' }).waitFor({ timeout: timeoutMs });
	return rest.getExecutionRun(data.executionId);
}

module.exports = {
	CHROMIUM,
	UI_TIMEOUT,
	CHROMIUM_ARGS,
	launchBrowser,
	screenshot,
	signInThroughUi,
	signInWithCookie,
	editorSession,
	openWorkflow,
	canvasNode,
	nodeIconLoaded,
	innerTextsSettle,
	openNodePanel,
	parameterInput,
	openOptions,
	closeOptions,
	closeNodePanel,
	saveNewCredential,
	runWorkflowFromEditor,
	chooseOption,
	executeStepInPanel,
};
