'use strict';
// Temp N8N_USER_FOLDER, `npm pack`, and installing a packed community package the way
// n8n's "Install community node" does: into $N8N_USER_FOLDER/.n8n/nodes/node_modules.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');

const { node24Env } = require('./env');

const execFileP = promisify(execFile);

/**
 * Create a fresh, empty N8N_USER_FOLDER under the OS temp dir.
 * n8n keeps its SQLite database, encryption key and community packages in `<dir>/.n8n`.
 * Under `npm run test:e2e` it starts as a copy of the run's migrated template (see makeN8nTemplate), or
 * of `template` when given (the LBA suites' template, lba-n8n.js).
 * @returns {{ dir: string, n8nDir: string, nodesDir: string, cleanup: () => void }}
 */
function makeUserFolder(prefix = 'lba-e2e-n8n-', { template = process.env.LBA_E2E_N8N_TEMPLATE } = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const n8nDir = path.join(dir, '.n8n');
	fs.mkdirSync(n8nDir, { recursive: true });
	if (template) fs.cpSync(template, n8nDir, { recursive: true });
	return {
		dir,
		n8nDir,
		nodesDir: path.join(n8nDir, 'nodes'),
		cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

async function npm(args, cwd) {
	try {
		return await execFileP('npm', args, {
			cwd,
			env: node24Env(),
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		});
	} catch (err) {
		err.message = `npm ${args.join(' ')} (in ${cwd}) failed: ${err.message}\n${err.stdout || ''}\n${err.stderr || ''}`;
		throw err;
	}
}

/**
 * `npm pack` a package folder (it must already be built) into destDir.
 * @returns {Promise<string>} absolute path of the .tgz
 */
async function packPackage(packageDir, destDir) {
	fs.mkdirSync(destDir, { recursive: true });
	const { stdout } = await npm(
		['pack', '--json', '--ignore-scripts', '--pack-destination', destDir],
		packageDir,
	);
	const info = JSON.parse(stdout);
	const tgz = path.join(destDir, info[0].filename);
	if (!fs.existsSync(tgz)) throw new Error(`npm pack did not write ${tgz}`);
	return tgz;
}

/**
 * Install a packed community package into `<userFolder>/.n8n/nodes` with
 * `npm install --omit=peer --legacy-peer-deps <tgz>` (without --omit=peer npm drags in
 * n8n-workflow and fails on its native build). n8n then loads its nodes as
 * `<package-name>.<node name>`; peer imports (n8n-workflow, zod, luxon) resolve to n8n's own copies.
 * @returns {Promise<{ name: string, version: string, dir: string }>}
 */
async function installCommunityPackage(userFolder, tgz) {
	const nodesDir = userFolder.nodesDir || path.join(userFolder.dir || userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pkgJson)) {
		fs.writeFileSync(pkgJson, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	}
	await npm(
		['install', '--omit=peer', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tgz],
		nodesDir,
	);
	const installed = JSON.parse(fs.readFileSync(pkgJson, 'utf8')).dependencies || {};
	const name = Object.keys(installed).find((n) => String(installed[n]).includes(path.basename(tgz)));
	if (!name) throw new Error(`package from ${tgz} not recorded in ${pkgJson}`);
	const dir = path.join(nodesDir, 'node_modules', name);
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	return { name, version, dir };
}

/**
 * A `.n8n` folder whose SQLite database n8n has migrated, for makeUserFolder to copy when
 * LBA_E2E_N8N_TEMPLATE names it (test/e2e/global-setup.js sets it for one jest run). n8n's
 * migrations of a fresh database take 8 to 10 s of every suite's first n8n command otherwise;
 * they are n8n's own and the same every time for one n8n version, so the migrated folder is kept
 * per version in the cache outside the clone (written beside and renamed into place: a run stopped
 * halfway leaves no template) and copied for each run. Only the database and the config (the
 * encryption key) are kept: no package, credential, workflow or owner.
 * @returns {Promise<string>} this run's copy of the template folder
 */
async function makeN8nTemplate() {
	const { CACHE_DIR, n8nBin, n8nVersion } = require('./env');
	n8nBin(); // installs n8n when missing, so that the version is the one installed
	const kept = path.join(CACHE_DIR, 'e2e-n8n-template', n8nVersion());
	if (!fs.existsSync(path.join(kept, 'database.sqlite'))) {
		const migrated = await migrateN8nTemplate();
		const partial = `${kept}.partial-${process.pid}`;
		fs.rmSync(partial, { recursive: true, force: true });
		fs.cpSync(migrated, partial, { recursive: true });
		fs.rmSync(path.dirname(migrated), { recursive: true, force: true });
		try {
			fs.renameSync(partial, kept);
		} catch {
			fs.rmSync(partial, { recursive: true, force: true }); // another run kept its own first
		}
	}
	const template = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-template-')), 'template');
	fs.cpSync(kept, template, { recursive: true });
	return template;
}

/** n8n's database migrated in a fresh user folder (`n8n list:workflow`): its `template` folder. */
async function migrateN8nTemplate() {
	const { runN8nOk } = require('./cli');
	const folder = makeUserFolder('lba-e2e-template-');
	await runN8nOk(folder, ['list:workflow']);
	const template = path.join(folder.dir, 'template');
	fs.mkdirSync(template);
	for (const name of fs.readdirSync(folder.n8nDir)) {
		if (name === 'config' || name.startsWith('database.sqlite')) fs.copyFileSync(path.join(folder.n8nDir, name), path.join(template, name));
	}
	if (!fs.existsSync(path.join(template, 'database.sqlite'))) throw new Error(`n8n list:workflow left no database in ${folder.n8nDir}`);
	return template;
}

/**
 * The package packed and installed once, in a `nodes` folder of its own, for startLbaN8n to copy into
 * each suite's user folder when LBA_E2E_PACKAGE_NODES names it (test/e2e/global-setup.js sets it for
 * one jest run): every suite packed and installed the same build before. The suites that install on
 * purpose (community-install, lba-ads-load, upgrade's earlier build) still do it themselves.
 * @returns {Promise<string>} the `nodes` folder (package.json, package-lock.json, node_modules)
 */
async function makePackageNodes(packageDir) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-package-'));
	const nodesDir = path.join(dir, 'nodes');
	await installCommunityPackage({ nodesDir }, await packPackage(packageDir, dir));
	return nodesDir;
}

module.exports = { makeUserFolder, makeN8nTemplate, makePackageNodes, packPackage, installCommunityPackage };
