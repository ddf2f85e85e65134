'use strict';
// A local npm registry (Verdaccio, no uplinks) and a test-only HTTPS proxy that makes it answer
// for https://registry.npmjs.org, so n8n's own community-package installer (which only accepts
// that registry without an enterprise licence) installs our package from it, untouched.
//
//   n8n (OutboundHttp, honours HTTPS_PROXY)  ─┐
//   npm spawned by n8n (https-proxy, cafile) ─┴─ CONNECT registry.npmjs.org:443 ─> proxy
//     proxy: TLS with a throwaway CA made for this run, then plain HTTP to Verdaccio;
//            CONNECT to any other host is refused (403), so nothing reaches the internet.
const { execFile, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { promisify } = require('node:util');

const { REPO_ROOT, NODE24_BIN, node24Env, freePort } = require('./env');

const execFileP = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const REGISTRY_DIR = path.join(REPO_ROOT, 'test', 'e2e', 'registry');
const PUBLIC_REGISTRY_HOST = 'registry.npmjs.org';

async function run(cmd, args, opts = {}) {
	try {
		return await execFileP(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: node24Env(), ...opts });
	} catch (err) {
		err.message = `${cmd} ${args.join(' ')} failed: ${err.message}\n${err.stdout || ''}\n${err.stderr || ''}`;
		throw err;
	}
}

/**
 * Verdaccio from test/e2e/registry/package-lock.json, installed once (`npm ci`, ~10 s) into a
 * cache folder outside the clone keyed by the lock file's hash. It lives there and not in the
 * repo's devDependencies because it needs an `overrides` entry (see that package.json).
 * @returns {Promise<string>} path of Verdaccio's bin script (run it with Node 24: it needs >= 22)
 */
async function installVerdaccio() {
	const lock = fs.readFileSync(path.join(REGISTRY_DIR, 'package-lock.json'));
	const key = crypto.createHash('sha256').update(lock).digest('hex').slice(0, 12);
	const cacheRoot = process.env.LBA_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-lba-ads');
	const target = path.join(cacheRoot, `verdaccio-${key}`);
	const bin = path.join(target, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (fs.existsSync(bin)) return bin;
	fs.mkdirSync(cacheRoot, { recursive: true });
	const tmp = fs.mkdtempSync(path.join(cacheRoot, '.tmp-verdaccio-'));
	try {
		fs.copyFileSync(path.join(REGISTRY_DIR, 'package.json'), path.join(tmp, 'package.json'));
		fs.copyFileSync(path.join(REGISTRY_DIR, 'package-lock.json'), path.join(tmp, 'package-lock.json'));
		await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: tmp });
		// Atomic: a half-done install never sits at `target`. If another run won the race, use its copy.
		try {
			fs.renameSync(tmp, target);
		} catch (err) {
			if (!fs.existsSync(bin)) throw err;
		}
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	return bin;
}

/**
 * Start Verdaccio on a free loopback port with test/e2e/registry/config.yaml copied into a fresh
 * folder (its storage and htpasswd are per run), and sign up one publisher.
 * @returns {Promise<{ url: string, dir: string, token: string, logs(): string, close(): Promise<void> }>}
 */
async function startVerdaccio() {
	const bin = await installVerdaccio();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-registry-'));
	fs.copyFileSync(path.join(REGISTRY_DIR, 'config.yaml'), path.join(dir, 'config.yaml'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const child = spawn(NODE24_BIN, [bin, '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
		cwd: dir,
		env: node24Env(),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (c) => (output += c));
	child.stderr.on('data', (c) => (output += c));
	let exited = null;
	const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
	const close = async () => {
		if (!exited) child.kill('SIGTERM');
		await exitPromise;
		fs.rmSync(dir, { recursive: true, force: true });
	};
	const started = Date.now();
	while (true) {
		if (exited) throw new Error(`Verdaccio exited early (${JSON.stringify(exited)}):\n${output}`);
		if (Date.now() - started > 60000) {
			await close();
			throw new Error(`Verdaccio did not answer /-/ping within 60 s:\n${output}`);
		}
		try {
			if ((await fetch(`${url}/-/ping`)).ok) break;
		} catch {
			/* not listening yet */
		}
		await sleep(200);
	}
	// What `npm adduser` does: PUT the user document, get a token back.
	const user = { name: 'e2e-publisher', password: crypto.randomUUID() };
	const res = await fetch(`${url}/-/user/org.couchdb.user:${user.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ _id: `org.couchdb.user:${user.name}`, type: 'user', roles: [], ...user }),
	});
	const body = await res.json();
	if (!res.ok || !body.token) {
		await close();
		throw new Error(`Verdaccio sign-up failed (${res.status}): ${JSON.stringify(body)}`);
	}
	return { url, dir, token: body.token, logs: () => output, close };
}

/**
 * `npm publish` a packed package (.tgz from packPackage) to the registry as `version`: unpacked in
 * a temp folder, with only the version in its package.json changed.
 */
async function publishAs(registry, tgz, version) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-publish-'));
	try {
		await run('tar', ['-xzf', tgz, '-C', dir, '--strip-components=1']);
		const pkgFile = path.join(dir, 'package.json');
		const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
		pkg.version = version;
		fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
		const { host } = new URL(registry.url);
		await run('npm', ['publish', '--ignore-scripts', `--registry=${registry.url}/`, `--//${host}/:_authToken=${registry.token}`], {
			cwd: dir,
			// A per-publish cache: nothing about this fake registry lands in the user's ~/.npm.
			env: node24Env({ npm_config_cache: path.join(dir, '.npm-cache') }),
		});
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** A CA and a registry.npmjs.org certificate it signed, made with openssl for this run only. */
async function makeThrowawayCa(dir) {
	const file = (name) => path.join(dir, name);
	await run('openssl', [
		'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
		'-keyout', file('ca.key'), '-out', file('ca.pem'),
		'-subj', '/CN=n8n-nodes-lba-ads e2e throwaway CA',
		'-addext', 'basicConstraints=critical,CA:TRUE',
		'-addext', 'keyUsage=critical,keyCertSign,cRLSign',
	]);
	await run('openssl', [
		'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${PUBLIC_REGISTRY_HOST}`,
	]);
	fs.writeFileSync(
		file('server.ext'),
		[
			'basicConstraints=CA:FALSE',
			'keyUsage=critical,digitalSignature,keyEncipherment',
			'extendedKeyUsage=serverAuth',
			`subjectAltName=DNS:${PUBLIC_REGISTRY_HOST}`,
			'subjectKeyIdentifier=hash',
			'authorityKeyIdentifier=keyid,issuer',
		].join('\n'),
	);
	await run('openssl', [
		'x509', '-req', '-days', '1', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
		'-set_serial', `0x${crypto.randomBytes(8).toString('hex')}`, '-extfile', file('server.ext'), '-out', file('server.pem'),
	]);
	return { caFile: file('ca.pem'), key: fs.readFileSync(file('server.key')), cert: fs.readFileSync(file('server.pem')) };
}

/**
 * The HTTPS proxy on a free loopback port. CONNECT registry.npmjs.org:443 is answered here with
 * the throwaway certificate and each request inside is forwarded to `registryUrl` (Verdaccio),
 * with the public Host and `X-Forwarded-Proto: https` so the tarball URLs it writes into package
 * metadata point back at https://registry.npmjs.org (through this proxy again). Anything else,
 * CONNECT to another host or a plain-HTTP proxy request, gets 403 and is listed in `refused`.
 * `requests` lists what reached the registry: `{ method, path, status, userAgent }`.
 */
async function startRegistryProxy(registryUrl) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-e2e-proxy-'));
	const { caFile, key, cert } = await makeThrowawayCa(dir);
	const target = new URL(registryUrl);
	const requests = [];
	const refused = [];
	const tunnels = new Set(); // CONNECT sockets leave the proxy server's bookkeeping: close() ends them

	const forwarder = http.createServer((req, res) => {
		const entry = { method: req.method, path: req.url, status: 0, userAgent: String(req.headers['user-agent'] || '') };
		requests.push(entry);
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: PUBLIC_REGISTRY_HOST, 'x-forwarded-proto': 'https' },
			},
			(upRes) => {
				entry.status = upRes.statusCode;
				res.writeHead(upRes.statusCode, upRes.headers);
				upRes.pipe(res);
			},
		);
		upstream.on('error', (err) => {
			entry.status = 502;
			res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`test proxy: registry unreachable: ${err.message}`);
		});
		req.pipe(upstream);
	});

	const proxy = http.createServer((req, res) => {
		refused.push(req.url);
		res.writeHead(403, { 'content-type': 'text/plain' });
		res.end('test proxy: only https://registry.npmjs.org is served here');
	});
	proxy.on('connect', (req, socket, head) => {
		socket.on('error', () => {});
		tunnels.add(socket);
		socket.on('close', () => tunnels.delete(socket));
		if (req.url !== `${PUBLIC_REGISTRY_HOST}:443`) {
			refused.push(req.url);
			socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head && head.length) socket.unshift(head);
		const tlsSocket = new tls.TLSSocket(socket, { isServer: true, key, cert });
		tlsSocket.on('error', () => {});
		forwarder.emit('connection', tlsSocket);
	});
	const port = await freePort();
	await new Promise((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(port, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		caFile,
		requests,
		refused,
		/**
		 * What n8n (and the npm it spawns) needs to reach the registry only through this proxy:
		 * n8n's HTTP client honours HTTPS_PROXY/NO_PROXY and Node's NODE_EXTRA_CA_CERTS; npm reads
		 * the npm_config_* ones. `npm outdated` (behind the Update button) runs without
		 * `--registry`, so the registry is set explicitly too. The npm cache is private to the run.
		 */
		env(cacheDir) {
			return {
				HTTPS_PROXY: url,
				https_proxy: url,
				NO_PROXY: '127.0.0.1,localhost',
				no_proxy: '127.0.0.1,localhost',
				NODE_EXTRA_CA_CERTS: caFile,
				npm_config_https_proxy: url,
				npm_config_proxy: url,
				npm_config_noproxy: '127.0.0.1,localhost',
				npm_config_cafile: caFile,
				npm_config_registry: `https://${PUBLIC_REGISTRY_HOST}/`,
				npm_config_cache: cacheDir,
				npm_config_audit: 'false',
				npm_config_fund: 'false',
				npm_config_update_notifier: 'false',
			};
		},
		async close() {
			for (const socket of tunnels) socket.destroy();
			proxy.closeAllConnections();
			await new Promise((resolve) => proxy.close(resolve));
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = { installVerdaccio, startVerdaccio, publishAs, startRegistryProxy, PUBLIC_REGISTRY_HOST };
