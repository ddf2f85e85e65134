'use strict';
// `npm run demo`: the package in a real n8n against the offline sandbox, ready to click.
//
//   1. build the package and `npm pack` it
//   2. start the sandbox (port 8080, or a free one if 8080 is taken)
//   3. install n8n (first run only: a few minutes, with progress; cached afterwards)
//   4. a persistent n8n user folder (LBA_DEMO_DIR, default ~/.cache/n8n-nodes-lba-ads/demo):
//      the freshly packed package installed into it on every start (so code changes show up),
//      the "LBA sandbox" credential pointed at this sandbox, the examples imported
//   5. example (a) run once headlessly (`n8n execute`), its result printed
//   6. the editor (port 5678, or a free one), owner account created if needed, URL and login
//      printed; Ctrl-C stops n8n and the sandbox
//
// Runs under Node 24 (n8n 2.x needs it): `bash scripts/with-node24.sh node scripts/demo.js`.
// It reuses the e2e helpers in test/e2e/lib, so the demo and the tests set n8n up the same way.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const e2e = require('../test/e2e/lib');
const { startSandbox } = require('../sandbox/server');

const DEMO_DIR = process.env.LBA_DEMO_DIR || path.join(os.homedir(), '.cache', 'n8n-nodes-lba-ads', 'demo');
const SANDBOX_PORT = 8080;
const EDITOR_PORT = 5678;
// A local demo account (the instance listens on 127.0.0.1 only). n8n wants 8+ characters
// with a number and a capital letter.
const OWNER = { email: 'demo@example.com', firstName: 'Demo', lastName: 'User', password: 'LbaDemo-2026' };

function step(message) {
	console.log(`\n[demo] ${message}`);
}

async function pickPort(preferred) {
	return (await e2e.isPortFree(preferred)) ? preferred : e2e.freePort();
}

// What is running, so Ctrl-C and failures stop it (n8n runs in its own process group and
// would outlive us otherwise).
let sandbox;
let n8n;
let stopping = false;
async function stop(reason, exitCode) {
	if (stopping) return;
	stopping = true;
	step(`${reason}: stopping n8n and the sandbox...`);
	if (n8n) await n8n.stop();
	if (sandbox) await sandbox.close();
	console.log('[demo] stopped.');
	process.exit(exitCode);
}

async function main() {
	const started = Date.now();
	process.on('SIGINT', () => stop('Ctrl-C', 0));
	process.on('SIGTERM', () => stop('SIGTERM', 0));

	step('building the package (npm run build)...');
	execFileSync('npm', ['run', '--silent', 'build'], { cwd: e2e.REPO_ROOT, stdio: 'inherit', env: e2e.node24Env() });

	step('installing n8n if needed (first run: a few minutes, progress below)...');
	const bin = e2e.n8nBin();
	console.log(`[demo] n8n: ${bin}`);

	const sandboxPort = await pickPort(SANDBOX_PORT);
	sandbox = await startSandbox({ port: sandboxPort, quiet: true });
	step(`sandbox (offline LBA API) on ${sandbox.url}${sandboxPort === SANDBOX_PORT ? '' : ` (${SANDBOX_PORT} was taken)`}`);

	const userFolder = {
		dir: DEMO_DIR,
		n8nDir: path.join(DEMO_DIR, '.n8n'),
		nodesDir: path.join(DEMO_DIR, '.n8n', 'nodes'),
	};
	fs.mkdirSync(userFolder.n8nDir, { recursive: true });
	step(`n8n user folder ${DEMO_DIR}: installing the freshly packed package...`);
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-demo-pack-'));
	try {
		const tgz = await e2e.packPackage(e2e.REPO_ROOT, packDir);
		// Same name and version on every start: remove the old copy so npm cannot keep it.
		fs.rmSync(path.join(userFolder.nodesDir, 'node_modules', 'n8n-nodes-lba-ads'), { recursive: true, force: true });
		const installed = await e2e.installCommunityPackage(userFolder, tgz);
		console.log(`[demo] installed ${installed.name}@${installed.version} as a community package`);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}

	step('importing the "LBA sandbox" credential and the examples (the examples are reset to examples/*.json)...');
	await e2e.importCredentials(userFolder, [e2e.sandboxCredential(sandbox.url, sandbox.tokens[0])]);
	await e2e.importWorkflow(userFolder, e2e.loadAllExamples());

	step('running example (a) "geocode-to-campaign" once, headlessly (n8n execute)...');
	const example = e2e.loadExample('geocodeToCampaign');
	const res = await e2e.executeWorkflow(userFolder, example.id);
	if (res.ok) {
		const [place] = res.output('Where is the store?');
		const [campaign] = res.output('Launch city campaign');
		console.log(`[demo]   geocoded: ${place.city}, ${place.province} (${place.formattedAddress})`);
		if (campaign.skipped) {
			// An earlier demo in this user folder sent today's campaign already: n8n remembers it.
			console.log(`[demo]   campaign: not sent again (duplicate protection): ${campaign.reason}`);
		} else {
			console.log(`[demo]   campaign: ${campaign.campaignId}, status ${campaign.status}, channels ${campaign.channels.join(', ')}`);
		}
	} else {
		// Keep going: the editor is still the way to look into it.
		console.log(`[demo]   FAILED: ${(res.error && res.error.message) || (res.stderr || res.stdout).trim().split('\n').slice(-3).join(' / ')}`);
	}

	const editorPort = await pickPort(EDITOR_PORT);
	step(`starting the n8n editor on port ${editorPort}${editorPort === EDITOR_PORT ? '' : ` (${EDITOR_PORT} was taken)`}...`);
	n8n = await e2e.startN8n(userFolder, { port: editorPort });
	let rest;
	try {
		rest = await e2e.setupOwnerAndLogin(n8n, OWNER);
	} catch (err) {
		console.log(`[demo] could not sign in as ${OWNER.email} (${err.message.split('\n')[0]}).`);
		console.log(`[demo] If you changed the demo password, use yours; to start afresh: rm -rf ${DEMO_DIR}`);
	}

	const url = `${n8n.baseUrl}/workflow/${example.id}`;
	console.log(`
[demo] ready in ${Math.round((Date.now() - started) / 1000)} s
  n8n editor:  ${n8n.baseUrl}   (example (a): ${url})
  sign in:     ${OWNER.email} / ${OWNER.password}${rest && rest.ownerCreated ? '   (owner account just created)' : ''}
  examples:    ${Object.values(e2e.EXAMPLES).map((x) => x.file.replace(/\.json$/, '')).join(', ')}
  credential:  "${e2e.SANDBOX_CREDENTIAL_NAME}" -> ${sandbox.url} (token ${sandbox.tokens[0]})
  sandbox:     ${sandbox.url}/_sandbox/campaigns shows the campaigns your workflows sent
  n8n log:     ${n8n.logFile}
Press Ctrl-C to stop.`);
}

main().catch((err) => {
	console.error(`[demo] failed: ${err.stack || err}`);
	return stop('failure', 1);
});
