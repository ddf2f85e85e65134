'use strict';
// HTTP/1.1 rules Node's server leaves to the application: reading the request-target, the
// version and Host checks, a lingering close after a 413, and JSON answers to malformed HTTP,
// timeouts, unsupported `Expect` and CONNECT (Node would otherwise answer empty or not at all).

const http = require('node:http');
const { errorReply, sendReply } = require('./http-util');

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

/**
 * A node:http server whose every answer is JSON, including the ones Node's HTTP layer gives.
 * `route(method, pathname)` is the router's (a CONNECT gets its 404 or 405).
 */
function createJsonServer(settings, onRequest, route, log) {
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
  return server;
}

module.exports = { splitTarget, protocolError, lingeringClose, createJsonServer };
