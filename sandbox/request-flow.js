'use strict';
// One request, from arrival to answer: the journal, the body, programmed faults, routing, the
// token, then the operation's handler. Faults come before routing so that any path can be
// faulted; routing (404, 405) comes before the token, the token before the handler's checks.

const { MAX_BODY_BYTES, errorReply, jsonReply, sendReply, readBody, mediaType } = require('./http-util');
const { bearerToken, invalidTokenReply } = require('./auth');
const { faultReplacesReply } = require('./control');
const { splitTarget, protocolError, lingeringClose } = require('./http-protocol');
const { readPathParams } = require('./router');

const CONTROL_PREFIX = '/_sandbox/';

function faultReply(fault) {
  const body = fault.body !== undefined ? fault.body : { success: false, error: { code: 'SANDBOX_FAULT', message: `Programmed fault: HTTP ${fault.status}.` } };
  return jsonReply(fault.status, body, fault.headers || {});
}

/**
 * Timers that close() can cut short, so a fault's latency never holds the process open.
 * `wait` (tests in the same process): waits a latency instead of a timer, so a test decides when
 * a slow answer comes, whatever the machine's load.
 */
class Sleeps {
  constructor(wait) {
    this.pending = new Set();
    this.wait = wait;
  }

  sleep(ms) {
    return new Promise((resolve) => {
      const done = () => this.pending.delete(pending) && resolve();
      const pending = { resolve, timer: this.wait ? undefined : setTimeout(done, ms) };
      this.pending.add(pending);
      if (this.wait) Promise.resolve(this.wait(ms)).then(done, done);
    });
  }

  wakeAll() {
    for (const pending of this.pending) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.pending.clear();
  }
}

/**
 * @param {{ router, context, log, sleeps: Sleeps, isClosed: () => boolean, checkAnswer?: (op, reply) => object }} parts
 *   checkAnswer: for tests, holds each handler's answer to openapi.yaml (answer-check.js)
 * @returns {(req, res) => Promise<void>} the server's request listener
 */
function createRequestFlow({ router, context, log, sleeps, isClosed, checkAnswer }) {
  /** The reply of the API itself: routing, then the token, then the path's values (their schemas), then the operation's handler. */
  async function handle(req, pathname, query, raw) {
    const { op, allow, params, reply } = router.route(req.method, pathname);
    if (reply) return reply;
    if (op.needsToken && !context.tokens.isValid(bearerToken(req.headers.authorization))) return invalidTokenReply();
    const pathValues = readPathParams(op, params);
    if (pathValues.reply) return pathValues.reply;
    const request = { req, op, raw, query, params: pathValues.params, allow };
    return checkAnswer ? checkAnswer(op, await op.handler(request)) : op.handler(request);
  }

  async function handleSafely(req, pathname, query, raw) {
    try {
      return await handle(req, pathname, query, raw);
    } catch (error) {
      console.error('LBA sandbox: internal error', error);
      return errorReply(500, 'INTERNAL_ERROR', 'The sandbox failed to handle this request.');
    }
  }

  return async function onRequest(req, res) {
    const started = Date.now();
    const { pathname, query } = splitTarget(req.url);
    const isControl = pathname.startsWith(CONTROL_PREFIX);
    const entry = isControl ? null : context.requests.start(req, pathname, query);

    const finish = (reply) => {
      if (isClosed()) return;
      sendReply(res, reply);
      if (entry) entry.status = reply.status;
      log(`${req.method} ${req.url} -> ${reply.status} (${Date.now() - started} ms)`);
    };
    const drop = () => {
      if (entry) entry.status = 'dropped';
      req.socket.destroy();
      log(`${req.method} ${req.url} -> dropped`);
    };
    /** Waits out a fault's latency, then drops the connection or sends the fault's answer; false if neither. */
    const applyFault = async (fault) => {
      if (fault.latencyMs) await sleeps.sleep(fault.latencyMs);
      if (isClosed()) return true;
      if (fault.drop) drop();
      else if (faultReplacesReply(fault)) finish(faultReply(fault));
      else return false;
      return true;
    };

    const body = await readBody(req);
    if (body.aborted) return;
    if (body.tooLarge) {
      if (body.cutConnection) lingeringClose(req.socket);
      return finish(errorReply(413, 'PAYLOAD_TOO_LARGE', `The body is over ${MAX_BODY_BYTES} bytes.`, { headers: { Connection: 'close' } }));
    }
    // Parsed for the journal only when someone reads /_sandbox/requests: it costs every request otherwise.
    if (entry) context.requests.keepBody(entry, body.raw, mediaType(req.headers['content-type']));
    const malformed = protocolError(req);
    if (malformed) return finish(malformed);

    const fault = isControl ? null : context.faults.take(req.method, pathname, req.url, body.raw);
    if (fault && fault.when === 'before' && (await applyFault(fault))) return;
    const reply = await handleSafely(req, pathname, query, body.raw);
    if (fault && fault.when === 'after' && (await applyFault(fault))) return;
    finish(reply);
  };
}

module.exports = { createRequestFlow, Sleeps };
