#!/usr/bin/env node
'use strict';
// The LBA API sandbox: an offline server that speaks the API of docs/lba-api.md,
// validating requests against openapi.yaml. Run `npm run sandbox -- --help`.

const { parseArgs } = require('node:util');
const { loadDocument, createAjv, compileOperations, pointerTo } = require('./openapi');
const { jsonReply } = require('./http-util');
const { TokenStore, bearerToken } = require('./auth');
const { CampaignStore } = require('./campaigns');
const { RequestLog, FaultList } = require('./control');
const { createRouter } = require('./router');
const { createJsonServer } = require('./http-protocol');
const { createRequestFlow, Sleeps } = require('./request-flow');
const { createAnswerCheck } = require('./answer-check');
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
  checkAnswers: false,
  // For tests in the same process: (ms) => a promise that ends a fault's latency (request-flow.js Sleeps).
  waitLatency: undefined,
};

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

function hostForUrl(host) {
  return host.includes(':') ? `[${host}]` : host;
}

/** The state behind the operations: tokens, campaigns, the journal, faults and the data sets. */
async function openContext(settings, ajv) {
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
  return context;
}

function listen(server, settings) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
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
  const context = await openContext(settings, ajv);
  const router = createRouter(doc, compileOperations(doc, ajv), createHandlers(context));
  let closed = false;
  const sleeps = new Sleeps(settings.waitLatency);
  const checkAnswer = settings.checkAnswers ? createAnswerCheck(doc, ajv) : undefined;
  const onRequest = createRequestFlow({ router, context, log, sleeps, isClosed: () => closed, checkAnswer });
  const server = createJsonServer(settings, onRequest, router.route, log);
  await listen(server, settings);
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
      sleeps.wakeAll();
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
