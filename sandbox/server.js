#!/usr/bin/env node
'use strict';
// The LBA API sandbox: an offline server that speaks the API of docs/lba-api.md,
// validating requests against openapi.yaml. Run `npm run sandbox -- --help`.

const http = require('node:http');
const { parseArgs } = require('node:util');
const { loadDocument, createAjv, compileOperations, pointerTo } = require('./openapi');
const { MAX_BODY_BYTES, jsonReply, errorReply, sendReply, readBody, mediaType } = require('./http-util');
const { TokenStore, bearerToken, invalidTokenReply } = require('./auth');
const { CampaignStore } = require('./campaigns');
const { RequestLog, FaultList, faultReplacesReply } = require('./control');
const { sharedGeocoder } = require('./geocode');
const { Locations } = require('./locations');
const { Catalogue } = require('./products');
const { createHandlers } = require('./handlers');

const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  tokens: ['lba-sandbox-token'],
  clientId: 'lba-sandbox-client',
  clientSecret: 'lba-sandbox-secret',
  tokenTtlSeconds: 3600,
  tokenType: 'Bearer',
  dataDir: undefined,
  productsScale: 1,
  quiet: false,
  headersTimeoutMs: 10000,
  requestTimeoutMs: 30000,
};

const CONTROL_PREFIX = '/_sandbox/';

function checkSettings(s) {
  const wholeNumber = (value, min, max) => Number.isInteger(value) && value >= min && value <= max;
  if (!wholeNumber(s.port, 0, 65535)) throw new Error(`port must be 0..65535, got ${s.port}`);
  if (!Array.isArray(s.tokens) || s.tokens.length === 0 || !s.tokens.every((t) => bearerToken(`Bearer ${t}`) === t)) {
    throw new Error('tokens must be a non-empty list of tokens made of letters, digits and -._~+/');
  }
  if (!s.clientId || !s.clientSecret) throw new Error('clientId and clientSecret must not be empty');
  if (!wholeNumber(s.tokenTtlSeconds, 1, 31536000)) throw new Error('tokenTtlSeconds must be a whole number of seconds, at least 1');
  if (!['Bearer', 'BearerToken'].includes(s.tokenType)) throw new Error('tokenType must be Bearer or BearerToken');
  if (!wholeNumber(s.productsScale, 1, 100000)) throw new Error('productsScale must be a whole number from 1');
  if (!wholeNumber(s.headersTimeoutMs, 1, 3600000) || !wholeNumber(s.requestTimeoutMs, 1, 3600000)) {
    throw new Error('headersTimeoutMs and requestTimeoutMs must be positive whole numbers');
  }
}

/** Routing table from the document: path -> method -> operation with its handler. */
function buildRoutes(operations, handlers) {
  const routes = new Map();
  for (const op of operations) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`openapi.yaml has ${op.operationId} but the sandbox has no handler for it`);
    if (!routes.has(op.path)) routes.set(op.path, new Map());
    routes.get(op.path).set(op.method, { ...op, handler });
  }
  return routes;
}

/** Methods a path really serves: those whose documented responses include a success, and HEAD with GET. */
function allowedMethods(doc, routePath) {
  return Object.entries(doc.paths[routePath])
    .filter(([, op]) => Object.keys(op.responses || {}).some((status) => status.startsWith('2')))
    .flatMap(([method]) => (method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()]))
    .join(', ');
}

// RFC 3986 6.2.2.2: a percent-encoded unreserved character (letter, digit, - . _ ~) is the same
// URI as the character itself. Other escapes, "%2F" above all, are left as they are.
const UNRESERVED_ESCAPE = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/**
 * The path and query of a request-target. An absolute-form target ("http://host/path", which
 * RFC 9112 3.2.2 says a server must accept) routes by its path. The path is matched exactly as
 * sent otherwise: case, empty segments and dot segments count.
 */
function splitTarget(target) {
  if (target[0] !== '/') {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target);
    if (scheme) target = '/' + target.slice(scheme[0].length).replace(/^\//, '');
  }
  const queryStart = target.indexOf('?');
  let pathname = queryStart < 0 ? target : target.slice(0, queryStart);
  if (pathname.includes('%')) pathname = pathname.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  return { pathname, query: new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1)) };
}

/** HTTP/1.1 framing rules Node's parser leaves to the server: the version, and one Host (RFC 9112 2.3, 3.2). */
function protocolError(req) {
  const close = { headers: { Connection: 'close' } };
  if (req.httpVersionMajor !== 1) {
    return errorReply(505, 'HTTP_VERSION_NOT_SUPPORTED', `HTTP/${req.httpVersion} is not supported; use HTTP/1.1.`, close);
  }
  if (req.httpVersionMinor === 0) return null;
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].length === 4 && req.rawHeaders[i].toLowerCase() === 'host') hosts++;
  if (hosts === 1) return null;
  return errorReply(400, 'BAD_REQUEST', hosts === 0 ? 'An HTTP/1.1 request needs a Host header.' : 'The request has more than one Host header.', close);
}

const LINGER_MS = 2000;

/**
 * Makes Node's close after a `Connection: close` answer a lingering close (RFC 9112 9.6) on a
 * client still sending a body the sandbox will not read: closing at once resets the connection,
 * and the client's system may then drop the 413 before the client reads it. Instead the sending
 * side is closed, what still arrives is read and thrown away (Node discards the rest of the
 * body), and the connection is cut only after LINGER_MS.
 */
function lingeringClose(socket) {
  socket.destroySoon = function destroyLater() {
    if (this.writable) this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

/** Writes a reply straight to a socket that Node's HTTP layer has let go of, then closes it. */
function endSocketWith(socket, reply) {
  if (!socket.writable) return socket.destroy();
  const head = [`HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status]}`];
  for (const [name, value] of Object.entries(reply.headers)) head.push(`${name}: ${value}`);
  head.push('Content-Type: application/json; charset=utf-8', `Content-Length: ${reply.body.length}`, 'Connection: close');
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), reply.body]));
}

function hostForUrl(host) {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the sandbox. Resolves once it listens.
 * @returns {Promise<{url: string, port: number, host: string, tokens: string[], clientId: string,
 *   clientSecret: string, close: () => Promise<void>}>}
 */
async function startSandbox(options = {}) {
  const settings = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) settings[key] = value;
  checkSettings(settings);
  const log = settings.quiet ? () => {} : (line) => console.log(line);

  const doc = loadDocument();
  const ajv = createAjv(doc);
  const context = {
    tokens: new TokenStore(settings),
    campaigns: new CampaignStore(settings.dataDir),
    requests: new RequestLog(1000),
    faults: new FaultList(),
    geocoder: sharedGeocoder(),
    catalogue: new Catalogue(settings.productsScale, (body) => jsonReply(200, body)),
    locations: new Locations(),
    validateFault: ajv.getSchema(pointerTo('components', 'schemas', 'FaultRequest')),
  };
  await context.campaigns.open();
  const routes = buildRoutes(compileOperations(doc, ajv), createHandlers(context));
  const allowByPath = new Map([...routes.keys()].map((routePath) => [routePath, allowedMethods(doc, routePath)]));

  let closed = false;
  const pendingSleeps = new Set();
  const sleep = (ms) =>
    new Promise((resolve) => {
      const pending = { resolve, timer: setTimeout(() => pendingSleeps.delete(pending) && resolve(), ms) };
      pendingSleeps.add(pending);
    });

  /** The operation a method and path reach, or the 404 or 405 reply. */
  function route(method, pathname) {
    const methods = routes.get(pathname);
    if (!methods) return { reply: errorReply(404, 'NOT_FOUND', `No resource at ${pathname}.`) };
    // RFC 9110 9.3.2: HEAD is GET without the body (Node leaves the body out).
    const op = methods.get(method) || (method === 'HEAD' ? methods.get('GET') : undefined);
    const allow = allowByPath.get(pathname);
    if (!op) return { reply: errorReply(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}.`, { headers: { Allow: allow } }) };
    return { op, allow };
  }

  /** The reply of the API itself: routing, then the token, then the operation's handler. */
  async function handle(req, pathname, query, raw) {
    const { op, allow, reply } = route(req.method, pathname);
    if (reply) return reply;
    if (op.needsToken && !context.tokens.isValid(bearerToken(req.headers.authorization))) return invalidTokenReply();
    return op.handler({ req, op, raw, query, allow });
  }

  function faultReply(fault) {
    const body = fault.body !== undefined ? fault.body : { success: false, error: { code: 'SANDBOX_FAULT', message: `Programmed fault: HTTP ${fault.status}.` } };
    return jsonReply(fault.status, body, fault.headers || {});
  }

  async function onRequest(req, res) {
    const started = Date.now();
    const { pathname, query } = splitTarget(req.url);
    const isControl = pathname.startsWith(CONTROL_PREFIX);
    const entry = isControl ? null : context.requests.start(req, pathname, query);

    const finish = (reply) => {
      if (closed) return;
      sendReply(res, reply);
      if (entry) entry.status = reply.status;
      log(`${req.method} ${req.url} -> ${reply.status} (${Date.now() - started} ms)`);
    };
    const drop = () => {
      if (entry) entry.status = 'dropped';
      req.socket.destroy();
      log(`${req.method} ${req.url} -> dropped`);
    };

    const body = await readBody(req);
    if (body.aborted) return;
    if (body.tooLarge) {
      const reply = errorReply(413, 'PAYLOAD_TOO_LARGE', `The body is over ${MAX_BODY_BYTES} bytes.`, { headers: { Connection: 'close' } });
      if (body.cutConnection) lingeringClose(req.socket);
      finish(reply);
      return;
    }
    // Parsed for the journal only when someone reads /_sandbox/requests: it costs every request otherwise.
    if (entry) context.requests.keepBody(entry, body.raw, mediaType(req.headers['content-type']));
    const malformed = protocolError(req);
    if (malformed) return finish(malformed);

    const fault = isControl ? null : context.faults.take(req.method, pathname, req.url, body.raw);
    if (fault && fault.when === 'before') {
      if (fault.latencyMs) await sleep(fault.latencyMs);
      if (closed) return;
      if (fault.drop) return drop();
      if (faultReplacesReply(fault)) return finish(faultReply(fault));
    }

    let reply;
    try {
      reply = await handle(req, pathname, query, body.raw);
    } catch (error) {
      console.error('LBA sandbox: internal error', error);
      reply = errorReply(500, 'INTERNAL_ERROR', 'The sandbox failed to handle this request.');
    }

    if (fault && fault.when === 'after') {
      if (fault.latencyMs) await sleep(fault.latencyMs);
      if (closed) return;
      if (fault.drop) return drop();
      if (faultReplacesReply(fault)) return finish(faultReply(fault));
    }
    finish(reply);
  }

  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // How often Node checks the two timeouts above; tests use short timeouts.
      connectionsCheckingInterval: Math.min(1000, settings.headersTimeoutMs, settings.requestTimeoutMs),
      keepAliveTimeout: 5000,
      // Checked in protocolError(), so the 400 has a JSON body like every other answer.
      requireHostHeader: false,
    },
    (req, res) => {
      onRequest(req, res).catch((error) => {
        console.error('LBA sandbox: request failed', error);
        if (!res.headersSent) sendReply(res, errorReply(500, 'INTERNAL_ERROR', 'The sandbox failed to handle this request.'));
      });
    },
  );

  // Malformed HTTP and timeouts: answer in JSON like everything else, then close.
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const [status, code, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request was not received in time.']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.']
          : [400, 'BAD_REQUEST', 'The request is not valid HTTP.'];
    endSocketWith(socket, errorReply(status, code, message));
  });
  // Node answers an Expect other than 100-continue with an empty 417 unless told otherwise.
  server.on('checkExpectation', (req, res) => {
    const reply = errorReply(417, 'EXPECTATION_FAILED', 'Only "Expect: 100-continue" is supported.', { headers: { Connection: 'close' } });
    sendReply(res, reply);
    log(`${req.method} ${req.url} -> 417`);
  });
  // CONNECT (a tunnel) is served nowhere; without a listener Node would close the connection unanswered.
  server.on('connect', (req, socket) => {
    socket.on('error', () => {});
    const { reply } = route(req.method, splitTarget(req.url).pathname);
    endSocketWith(socket, reply);
    log(`${req.method} ${req.url} -> ${reply.status}`);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => console.error('LBA sandbox: server error', error));

  const port = server.address().port;
  const url = `http://${hostForUrl(settings.host)}:${port}`;
  log(`LBA sandbox listening on ${url}`);
  log(`  Bearer token(s):          ${settings.tokens.join(', ')}`);
  log(`  OAuth2 token URL:         ${url}/oauth/token (client credentials)`);
  log(`  OAuth2 client id/secret:  ${settings.clientId} / ${settings.clientSecret}`);
  log(`  Control API:              ${url}/_sandbox/campaigns, /_sandbox/requests, /_sandbox/faults, /_sandbox/products, /_sandbox/reset`);
  log(`  Campaign journal:         ${context.campaigns.journalPath || 'in memory (use --data-dir to keep it)'}`);
  log('  Place data: GeoNames (CC BY 4.0, geonames.org); land outlines: Natural Earth.');

  return {
    url,
    port,
    host: settings.host,
    tokens: [...settings.tokens],
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    async close() {
      if (closed) return;
      closed = true;
      for (const pending of pendingSleeps) {
        clearTimeout(pending.timer);
        pending.resolve();
      }
      pendingSleeps.clear();
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await context.campaigns.close();
    },
  };
}

const USAGE = `Usage: node sandbox/server.js [options]

  --port N             port to listen on (default 8080; 0 picks a free one)   env LBA_SANDBOX_PORT
  --host H             address to listen on (default 127.0.0.1)                env LBA_SANDBOX_HOST
  --token T            accepted bearer token; repeatable (default lba-sandbox-token)
                                                        env LBA_SANDBOX_TOKEN (comma-separated)
  --client-id ID       OAuth2 client id (default lba-sandbox-client)           env LBA_SANDBOX_CLIENT_ID
  --client-secret S    OAuth2 client secret (default lba-sandbox-secret)       env LBA_SANDBOX_CLIENT_SECRET
  --token-ttl SECONDS  lifetime of issued tokens (default 3600)                env LBA_SANDBOX_TOKEN_TTL
  --token-type TYPE    token_type of issued tokens: Bearer or BearerToken (Apigee) env LBA_SANDBOX_TOKEN_TYPE
  --data-dir DIR       keep received campaigns in DIR/campaigns.jsonl          env LBA_SANDBOX_DATA_DIR
  --products-scale N   repeat the product catalogue N times (default 1)        env LBA_SANDBOX_PRODUCTS_SCALE
  --quiet              print only the "listening" line                         env LBA_SANDBOX_QUIET=1
  --help               show this text`;

/** Options for startSandbox from command-line flags, falling back to LBA_SANDBOX_* variables. */
function optionsFromCommandLine(args, env) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string', multiple: true },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'token-ttl': { type: 'string' },
      'token-type': { type: 'string' },
      'data-dir': { type: 'string' },
      'products-scale': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const number = (text) => (text === undefined || text === '' ? undefined : Number(text));
  const envTokens = env.LBA_SANDBOX_TOKEN ? env.LBA_SANDBOX_TOKEN.split(',').map((t) => t.trim()).filter(Boolean) : undefined;
  const options = {
    port: number(values.port ?? env.LBA_SANDBOX_PORT),
    host: values.host ?? (env.LBA_SANDBOX_HOST || undefined),
    tokens: values.token ?? envTokens,
    clientId: values['client-id'] ?? (env.LBA_SANDBOX_CLIENT_ID || undefined),
    clientSecret: values['client-secret'] ?? (env.LBA_SANDBOX_CLIENT_SECRET || undefined),
    tokenTtlSeconds: number(values['token-ttl'] ?? env.LBA_SANDBOX_TOKEN_TTL),
    tokenType: values['token-type'] ?? (env.LBA_SANDBOX_TOKEN_TYPE || undefined),
    dataDir: values['data-dir'] ?? (env.LBA_SANDBOX_DATA_DIR || undefined),
    productsScale: number(values['products-scale'] ?? env.LBA_SANDBOX_PRODUCTS_SCALE),
    quiet: values.quiet ?? ['1', 'true', 'yes'].includes(String(env.LBA_SANDBOX_QUIET).toLowerCase()),
  };
  return { help: Boolean(values.help), options };
}

async function main() {
  let commandLine;
  try {
    commandLine = optionsFromCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (commandLine.help) {
    console.log(USAGE);
    return;
  }
  const { options } = commandLine;
  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    console.error(`LBA sandbox could not start: ${error.message}`);
    process.exit(1);
  }
  if (options.quiet) console.log(`LBA sandbox listening on ${sandbox.url}`);
  const stop = () => sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) main();

module.exports = { startSandbox, optionsFromCommandLine };
