'use strict';
// State behind the /_sandbox/ control API: the recent-request journal and programmed faults.

const crypto = require('node:crypto');

const KEPT_BODY_BYTES = 64 * 1024;

/**
 * The last `capacity` API requests, oldest first. Each request only stores references;
 * the journal shape (ISO time, query object, redacted headers, parsed body) is built when
 * someone reads /_sandbox/requests, so recording costs almost nothing per request.
 */
class RequestLog {
  constructor(capacity = 1000) {
    this.capacity = capacity;
    this.entries = [];
  }

  /** Records a request as it arrives; the caller fills in body and status later. */
  start(req, pathname, query) {
    const entry = { at: Date.now(), method: req.method, path: pathname, query, headers: req.headers, raw: null, mediaType: null, status: null };
    this.entries.push(entry);
    // Trimmed in batches: shifting a long array on every request would cost more than the log.
    if (this.entries.length >= 2 * this.capacity) this.entries = this.entries.slice(-this.capacity);
    return entry;
  }

  keepBody(entry, raw, mediaType) {
    // A big body is not kept, only its size: 1000 entries of up to 1 MiB would be a lot of memory.
    entry.raw = raw && raw.length > KEPT_BODY_BYTES ? { length: raw.length } : raw;
    entry.mediaType = mediaType;
  }

  list() {
    return this.entries.slice(-this.capacity).map((entry) => ({
      at: new Date(entry.at).toISOString(),
      method: entry.method,
      path: entry.path,
      query: queryObject(entry.query),
      headers: redactHeaders(entry.headers),
      ...tokenFingerprint(entry.headers.authorization),
      body: bodyForLog(entry.raw, entry.mediaType),
      status: entry.status,
    }));
  }

  clear() {
    const count = Math.min(this.entries.length, this.capacity);
    this.entries = [];
    return count;
  }
}

function queryObject(searchParams) {
  const query = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

function redactHeaders(headers) {
  const copy = { ...headers };
  if (copy.authorization !== undefined) {
    const scheme = String(copy.authorization).split(' ')[0];
    copy.authorization = scheme && scheme !== copy.authorization ? `${scheme} [redacted]` : '[redacted]';
  }
  return copy;
}

/**
 * Which bearer token a request carried, without the token: the first 12 hex digits of its
 * SHA-256. Tests use it to see that two n8n processes used the same OAuth2 token.
 */
function tokenFingerprint(authorization) {
  const match = /^Bearer +(\S+)/i.exec(String(authorization || ''));
  return match ? { tokenFingerprint: crypto.createHash('sha256').update(match[1]).digest('hex').slice(0, 12) } : {};
}

/** What the journal keeps of a body: parsed JSON or form fields when they parse, else text. */
function bodyForLog(raw, mediaType) {
  if (!raw || raw.length === 0) return null;
  if (raw.length > KEPT_BODY_BYTES) return `[${raw.length} bytes, not kept]`;
  const text = raw.toString('utf8');
  if (mediaType === 'application/json') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    const form = Object.fromEntries(new URLSearchParams(text));
    if (form.client_secret !== undefined) form.client_secret = '[redacted]';
    return form;
  }
  return text;
}

/**
 * Programmed faults, matched oldest first. A plain fault is used up by the next `times`
 * matching requests, whoever sends them. A `perRequest` fault models a transient failure:
 * each distinct request (method, URL with query, body) is faulted on its first `times`
 * attempts and then answered normally, however many clients run at once; it stays until
 * the faults are cleared.
 */
class FaultList {
  constructor() {
    this.faults = [];
    this.nextId = 1;
    /** fault id -> Map(request key -> attempts faulted); kept apart so list() stays the documented shape. */
    this.attemptsByFault = new Map();
  }

  add(spec) {
    const fault = { id: `fault-${this.nextId++}`, times: 1, when: 'before', ...spec };
    if (fault.method) fault.method = fault.method.toUpperCase();
    if (fault.perRequest) this.attemptsByFault.set(fault.id, new Map());
    this.faults.push(fault);
    return fault;
  }

  /** Takes one use of the first fault matching the request, or returns null. */
  take(method, pathname, url = pathname, body = null) {
    for (let index = 0; index < this.faults.length; index++) {
      const fault = this.faults[index];
      if ((fault.method && fault.method !== method) || (fault.path && fault.path !== pathname)) continue;
      if (fault.perRequest) {
        const attempts = this.attemptsByFault.get(fault.id);
        const key = `${method} ${url}\u0000${body ? body.toString('latin1') : ''}`;
        const count = attempts.get(key) || 0;
        if (count >= fault.times) continue;
        attempts.set(key, count + 1);
        return fault;
      }
      if (fault.skip > 0) {
        fault.skip -= 1;
        continue;
      }
      fault.times -= 1;
      if (fault.times <= 0) this.faults.splice(index, 1);
      return fault;
    }
    return null;
  }

  list() {
    return this.faults;
  }

  clear() {
    const count = this.faults.length;
    this.faults = [];
    this.attemptsByFault.clear();
    return count;
  }
}

/** Whether a fault replaces the reply (as opposed to only adding latency). */
function faultReplacesReply(fault) {
  return Boolean(fault.drop) || fault.status !== undefined;
}

module.exports = { RequestLog, FaultList, bodyForLog, faultReplacesReply };
