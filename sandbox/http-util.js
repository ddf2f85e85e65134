'use strict';
// Small HTTP helpers. Handlers return a reply object { status, headers, body } instead of
// writing to the response, so a programmed fault can replace the reply after handling.

const MAX_BODY_BYTES = 1024 * 1024;
// An over-long body is still read (and thrown away) up to this size before the 413, so the
// connection can serve the next request; beyond it the 413 is sent at once and the connection
// closed after it (a lingering close, see server.js).
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;

/** A JSON reply; `body` is serialised once here. */
function jsonReply(status, body, headers = {}) {
  return { status, headers, body: Buffer.from(JSON.stringify(body)) };
}

const serialised = new WeakMap();
/** A JSON reply for a body that never changes (frozen): serialised once, then reused. */
function cachedJsonReply(status, body) {
  let bytes = serialised.get(body);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(body));
    serialised.set(body, bytes);
  }
  return { status, headers: {}, body: bytes };
}

/** The error shape for everything the spec does not show (see SandboxError in openapi.yaml). */
function errorReply(status, code, message, { headers = {}, details } = {}) {
  const error = details ? { code, message, details } : { code, message };
  return jsonReply(status, { success: false, error }, headers);
}

/**
 * 404 RESOURCE_NOT_FOUND (openapi.yaml components.responses.ResourceNotFound): the path is served,
 * but what its values name does not exist. Unlike the router's NOT_FOUND (no such path), it tells
 * a client "no such campaign" from "no such endpoint". `message` names what was not found.
 */
function resourceNotFoundReply(message) {
  return errorReply(404, 'RESOURCE_NOT_FOUND', message);
}

function sendReply(res, reply) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, {
    ...reply.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': reply.body.length,
  });
  res.end(reply.body);
}

/** Resolves to { raw: Buffer } or { tooLarge: true }; never rejects. */
function readBody(req) {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_DRAIN_BYTES) {
      resolve({ tooLarge: true, cutConnection: true });
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.removeAllListeners('data');
        resolve({ tooLarge: true, cutConnection: true });
      } else if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? { tooLarge: true } : { raw: Buffer.concat(chunks) }));
    req.on('error', () => resolve({ aborted: true }));
  });
}

/** The media type of a Content-Type header, lower case, without parameters. */
function mediaType(header) {
  return String(header || '').split(';')[0].trim().toLowerCase();
}

module.exports = { MAX_BODY_BYTES, jsonReply, cachedJsonReply, errorReply, resourceNotFoundReply, sendReply, readBody, mediaType };
