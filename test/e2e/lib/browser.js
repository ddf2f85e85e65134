'use strict';
// Debian's Chromium (/usr/bin/chromium, installed by scripts/install-chromium.sh) driven by
// playwright-core with a fresh --user-data-dir. `npx playwright install` cannot download
// browsers here, so we never use Playwright's own builds.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ARTIFACTS_DIR, ensureDir } = require('./env');

const CHROMIUM = process.env.LBA_CHROMIUM || '/usr/bin/chromium';
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

module.exports = { CHROMIUM, CHROMIUM_ARGS, launchBrowser, screenshot, signInThroughUi };
