/**
 * Process environment for n8n-core, set before any n8n service is constructed.
 *
 * Imported first by ./index.ts. n8n's services read their configuration from the
 * environment when the DI container first builds them, so these must be in place
 * before the first `Container.get(...)`:
 * - `N8N_USER_FOLDER`: `InstanceSettings` creates `<folder>/.n8n/config` (with an
 *   encryption key) on first use; point it at a throw-away folder instead of $HOME.
 * - `N8N_LOG_LEVEL=silent`: n8n's winston logger otherwise prints debug/info lines.
 * - `NODE_ENV=test`: jest sets it already; n8n-core's loader then `require`s node
 *   classes directly instead of inside a `vm` context, so they share jest's modules.
 * Values already set by the caller win (e.g. `N8N_LOG_LEVEL=debug npm test`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(path.join(tmpdir(), 'lba-harness-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.NODE_ENV ??= 'test';
