// `node sandbox/server.js`: flags, environment fallbacks, the start-up banner, on every
// Node the project runs (the system Node 20 and the Node 24 that runs these tests).

import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { BANNER_GUARD_MS, SERVER, rawRequest, spawnServer, stop } from './helpers';

// Room for the start-up guard (a slow first start), and the test after it.
const START_TIMEOUT = BANNER_GUARD_MS + 60_000;

/** Node binaries to try: this one, and the system one if it is another version. */
function nodeBinaries(): string[] {
  const found = [process.execPath];
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!fs.existsSync(candidate) || found.includes(fs.realpathSync(candidate))) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (version !== process.version) found.push(candidate);
  }
  return found;
}

describe.each(nodeBinaries())('with %s', (node) => {
  test('--port 0 prints the URL first, then the token and client credentials; SIGTERM exits 0', async () => {
    const server = await spawnServer(node, ['--port', '0', '--token', 'alpha', '--token', 'beta', '--client-id', 'cid', '--client-secret', 'csec']);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(server.url.split(':').pop())).toBeGreaterThan(0);
      for (const token of ['alpha', 'beta']) {
        const reply = await rawRequest(`${server.url}/io/products`, 'GET', { Authorization: `Bearer ${token}` });
        expect(reply.status).toBe(200);
      }
      const basic = Buffer.from('cid:csec').toString('base64');
      const issued = await rawRequest(
        `${server.url}/oauth/token`,
        'POST',
        { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials',
      );
      expect(issued.status).toBe(200);
      // Give the rest of the banner a moment to arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.output()).toContain('alpha, beta');
      expect(server.output()).toContain('cid / csec');
      expect(server.output()).toContain('GeoNames');
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  }, START_TIMEOUT);

  test('environment variables stand in for flags; --quiet prints only the first line', async () => {
    const server = await spawnServer(node, ['--quiet'], {
      LBA_SANDBOX_PORT: '0',
      LBA_SANDBOX_TOKEN: 'from-env,second-env',
      LBA_SANDBOX_TOKEN_TTL: '60',
      LBA_SANDBOX_PRODUCTS_SCALE: '2',
    });
    try {
      const products = await rawRequest(`${server.url}/io/products`, 'GET', { Authorization: 'Bearer second-env' });
      expect(products.status).toBe(200);
      expect(products.json.totalResults).toBe(products.json.results.length);
      expect(products.json.totalResults % 2).toBe(0);
      const token = await rawRequest(
        `${server.url}/oauth/token`,
        'POST',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials&client_id=lba-sandbox-client&client_secret=lba-sandbox-secret',
      );
      expect(token.json.expires_in).toBe('60');
      expect(server.output().trim().split('\n')).toHaveLength(1);
    } finally {
      await stop(server.child);
    }
  }, START_TIMEOUT);

  test('--help prints the flags; an unknown flag or a bad value exits non-zero', () => {
    const help = spawnSync(node, [SERVER, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--port', '--host', '--token', '--client-id', '--client-secret', '--token-ttl', '--data-dir', '--products-scale', '--quiet']) {
      expect(help.stdout).toContain(flag);
    }
    expect(spawnSync(node, [SERVER, '--bogus'], { encoding: 'utf8' }).status).toBe(2);
    const badPort = spawnSync(node, [SERVER, '--port', 'eighty'], { encoding: 'utf8' });
    expect(badPort.status).toBe(1);
    expect(badPort.stderr).toMatch(/port/);
  });
});
