'use strict';
// Routes a request to an operation of openapi.yaml: the document's paths are the routing table.
// A path template's `{name}` stands for one whole, non-empty segment (OpenAPI 3.1 "Path
// Templating"); everything else matches exactly as sent. A concrete path wins over a template
// that also matches it, as the specification says.

const { errorReply, resourceNotFoundReply } = require('./http-util');

/** Methods a path really serves: those whose documented responses include a success, and HEAD with GET. */
function allowedMethods(pathItem) {
  return Object.entries(pathItem)
    .filter(([, op]) => Object.keys(op.responses || {}).some((status) => status.startsWith('2')))
    .flatMap(([method]) => (method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()]))
    .join(', ');
}

const PARAMETER = /^\{([^{}]+)\}$/;

/** `/lba/campaign/{campaignId}` -> a matcher giving { campaignId } for `/lba/campaign/AB12`, or null. */
function templateMatcher(routePath) {
  const segments = routePath.split('/');
  return (pathname) => {
    const parts = pathname.split('/');
    if (parts.length !== segments.length) return null;
    const params = {};
    for (let i = 0; i < segments.length; i++) {
      const name = PARAMETER.exec(segments[i]);
      if (name && parts[i] !== '') params[name[1]] = parts[i];
      else if (segments[i] !== parts[i]) return null;
    }
    return params;
  };
}

const NO_PARAMS = Object.freeze({});

/**
 * @param doc the OpenAPI document
 * @param operations compileOperations(doc) (openapi.js)
 * @param handlers operationId -> handler (handlers.js)
 * @returns {{ route(method: string, pathname: string): { op, allow, params } | { reply } }}
 */
function createRouter(doc, operations, handlers) {
  const byPath = new Map(); // path as written in the document -> { methods, allow }
  for (const op of operations) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`openapi.yaml has ${op.operationId} but the sandbox has no handler for it`);
    if (!byPath.has(op.path)) byPath.set(op.path, { methods: new Map(), allow: allowedMethods(doc.paths[op.path]) });
    byPath.get(op.path).methods.set(op.method, { ...op, handler });
  }
  // Most requests go to a concrete path: one Map lookup. Templates are tried only after.
  const concrete = new Map([...byPath].filter(([routePath]) => !routePath.includes('{')));
  const templates = [...byPath]
    .filter(([routePath]) => routePath.includes('{'))
    .map(([routePath, route]) => ({ route, match: templateMatcher(routePath) }));

  function find(pathname) {
    const route = concrete.get(pathname);
    if (route) return { route, params: NO_PARAMS };
    for (const template of templates) {
      const params = template.match(pathname);
      if (params) return { route: template.route, params };
    }
    return null;
  }

  /** The operation a method and path reach, with the path's parameters, or the 404 or 405 reply. */
  function route(method, pathname) {
    const found = find(pathname);
    if (!found) return { reply: errorReply(404, 'NOT_FOUND', `No resource at ${pathname}.`) };
    const { methods, allow } = found.route;
    // RFC 9110 9.3.2: HEAD is GET without the body (Node leaves the body out).
    const op = methods.get(method) || (method === 'HEAD' ? methods.get('GET') : undefined);
    if (!op) return { reply: errorReply(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}.`, { headers: { Allow: allow } }) };
    return { op, allow, params: found.params };
  }

  return { route };
}

/**
 * The path's values as the handler gets them (a plain number for an integer or number schema:
 * openapi.js `pathValueReader`), or the 404 RESOURCE_NOT_FOUND reply for a value its parameter's
 * schema refuses (such a value names nothing). Applied after the token check, so that a request
 * without the token learns nothing about what the values may be.
 * @returns {{ params: object } | { reply: object }}
 */
function readPathParams(op, params) {
  if (!op.pathParams.length) return { params };
  const read = {};
  for (const param of op.pathParams) {
    const text = params[param.name];
    const { value, errors } = param.read(text);
    if (errors) {
      const why = errors.map((error) => error.message).join(', ');
      return { reply: resourceNotFoundReply(`No resource has ${param.name} "${text}": a ${param.name} ${why}.`) };
    }
    read[param.name] = value;
  }
  return { params: read };
}

module.exports = { createRouter, readPathParams };
