// Shared helpers for the sandbox tests: start a sandbox on an ephemeral port, send raw
// HTTP requests, and check every answer against sandbox/openapi.yaml with ajv.

import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as YAML from 'yaml';

// The sandbox is plain CommonJS without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');

export const REPO = path.resolve(__dirname, '../..');
export const SERVER = path.join(REPO, 'sandbox/server.js');
export const OPENAPI_FILE = path.join(REPO, 'sandbox/openapi.yaml');
export const SPEC_FILE = path.resolve(REPO, 'docs/lba-api.md');

export interface Sandbox {
  url: string;
  port: number;
  host: string;
  tokens: string[];
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** A JSON value (sent with Content-Type: application/json unless headers say otherwise), or raw text/Buffer. */
  json?: unknown;
  body?: string | Buffer;
  /** Bearer token to send; null sends no Authorization header. Default: the sandbox's first token. */
  token?: string | null;
  /** Skip the OpenAPI check (only for answers a test programmed, e.g. fault bodies). */
  undocumented?: boolean;
}

export function startTestSandbox(options: Record<string, unknown> = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, quiet: true, ...options });
}

/**
 * One HTTP request with full control over headers and body; a fresh connection unless an agent
 * is given. `target` is a URL, or { host, port, path } to send the path exactly as written (a URL
 * string is normalised first: dot segments removed, fragment dropped).
 */
export function rawRequest(
  target: string | { host: string; port: number; path: string },
  method: string,
  headers: Record<string, string | number> = {},
  body?: string | Buffer,
  agent: http.Agent | false = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, agent };
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    };
    const req = typeof target === 'string' ? http.request(target, options, onResponse) : http.request({ ...target, ...options }, onResponse);
    req.on('error', reject);
    req.end(body);
  });
}

/** A request to the sandbox, its answer checked against openapi.yaml. */
export async function call(sandbox: Sandbox, method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? sandbox.tokens[0] : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  Object.assign(headers, options.headers);
  const reply = await rawRequest(sandbox.url + pathAndQuery, method, headers, body);
  if (!options.undocumented) expectDocumented(method, documentedPath(pathAndQuery.split('?')[0]), reply);
  return reply;
}

// --- The server as a child process -------------------------------------------------------

export interface Started {
  child: ChildProcess;
  url: string;
  /** Everything the process printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * A guard against a sandbox that never starts, not a speed check: a start takes under a second on an
 * idle machine, but one that first builds its geocoder's index for this Node (a fresh clone, the
 * system Node) took over 20 s in a CI run on a slow, loaded machine (load average 10), and failed.
 */
export const BANNER_GUARD_MS = 150_000;

/**
 * Spawns `node <script> ...args` (by default the sandbox's command line) and waits for its first
 * line, "LBA sandbox listening on <url>".
 */
export function spawnServer(node: string, args: string[], env: Record<string, string> = {}, script = SERVER): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: REPO });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no banner in ${BANNER_GUARD_MS / 1000} s: ${output}`)), BANNER_GUARD_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^LBA sandbox listening on (http:\/\/\S+)\n/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${output}`));
    });
  });
}

/** Sends a signal (SIGTERM by default) and resolves with the exit code once the process is gone. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

// --- OpenAPI checks -------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const openapi: any = YAML.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats(ajv);
ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'example']);
ajv.addSchema(openapi, 'doc');

function pointer(...segments: (string | number)[]): string {
  return 'doc#/' + segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** Validates a value against the schema at a JSON pointer of the document; throws with ajv's errors. */
export function expectSchema(value: unknown, ...segments: (string | number)[]): void {
  const validate = ajv.getSchema(pointer(...segments));
  if (!validate) throw new Error(`no schema at ${segments.join('/')}`);
  if (!validate(value)) {
    throw new Error(`does not match ${segments.join('/')}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/**
 * The document's path that a request path falls under: itself, or a template whose `{name}`
 * segments stand for any one non-empty segment (a concrete path first, as OpenAPI says).
 * A path under none is returned as it is.
 */
export function documentedPath(requestPath: string): string {
  if (openapi.paths[requestPath]) return requestPath;
  const segments = requestPath.split('/');
  const fits = (template: string) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, i) => part === segments[i] || (/^\{[^{}]+\}$/.test(part) && segments[i] !== ''));
  };
  return Object.keys(openapi.paths).find(fits) ?? requestPath;
}

/**
 * Checks an answer against what the document says for this path, method and status:
 * an undocumented status fails. Paths the document lacks must answer a SandboxError (404).
 * `routePath` is the document's path (see documentedPath).
 */
export function expectDocumented(method: string, routePath: string, reply: Reply): void {
  if (!String(reply.headers['content-type']).startsWith('application/json')) {
    throw new Error(`${method} ${routePath} -> ${reply.status} is not JSON: ${reply.headers['content-type']}`);
  }
  const item = openapi.paths[routePath];
  if (!item) {
    expectSchema(reply.json, 'components', 'schemas', 'SandboxError');
    return;
  }
  const op = item[method.toLowerCase()];
  if (!op) {
    if (reply.status !== 405) throw new Error(`${method} ${routePath} is not in the document but answered ${reply.status}`);
    expectSchema(reply.json, 'components', 'responses', 'MethodNotAllowed', 'content', 'application/json', 'schema');
    return;
  }
  const status = String(reply.status);
  const response = op.responses[status];
  if (!response) throw new Error(`${method} ${routePath} answered ${status}, which the document does not list`);
  if (response.$ref) {
    const name = response.$ref.split('/').pop();
    expectSchema(reply.json, 'components', 'responses', name, 'content', 'application/json', 'schema');
  } else {
    expectSchema(reply.json, 'paths', routePath, method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema');
  }
}

// --- Data -----------------------------------------------------------------------------

export function validChannel(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sender: 'WARUNGKITA',
    locationId: 161,
    smsQty: 1000,
    message: 'Diskon 50% semua menu s/d 31 Des.',
    startDate: '2026-12-01T08:00:00+07:00',
    endDate: '2026-12-31T20:00:00+07:00',
    telcoId: 'tsel',
    ...overrides,
  };
}

export function validCampaign(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Promo Akhir Tahun',
    description: 'Diskon 50% untuk semua menu di Bandung',
    categoryId: 10,
    channels: [validChannel()],
    ...overrides,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
