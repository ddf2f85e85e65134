'use strict';
// Loads openapi.yaml once and compiles its schemas with ajv, so the server validates
// requests against the very document it publishes.

const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const DOC_FILE = path.join(__dirname, 'openapi.yaml');
const DOC_KEY = 'openapi.yaml';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function loadDocument() {
  return YAML.parse(fs.readFileSync(DOC_FILE, 'utf8'));
}

/** An ajv instance holding the whole document, so `$ref`s inside it resolve. */
function createAjv(doc) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  // Keys of the OpenAPI document that are not JSON Schema; ajv only compiles the
  // fragments we ask for, but it must not reject these as unknown keywords.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'example']);
  ajv.addSchema(doc, DOC_KEY);
  return ajv;
}

function pointerTo(...segments) {
  return DOC_KEY + '#/' + segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/**
 * Every operation of the document with its compiled request validators:
 * { path, method (upper case), operationId, needsToken, bodyTypes, validateBody, queryParams, pathParams }.
 */
function compileOperations(doc, ajv) {
  const operations = [];
  for (const [routePath, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const content = (op.requestBody && op.requestBody.content) || {};
      const bodyTypes = Object.keys(content);
      const validateBody = bodyTypes.length
        ? ajv.getSchema(pointerTo('paths', routePath, method, 'requestBody', 'content', bodyTypes[0], 'schema'))
        : null;
      const parameters = (op.parameters || []).map((p, index) => ({
        in: p.in,
        name: p.name,
        required: Boolean(p.required),
        validate: ajv.getSchema(pointerTo('paths', routePath, method, 'parameters', index, 'schema')),
      }));
      const security = op.security || doc.security;
      operations.push({
        path: routePath,
        method: method.toUpperCase(),
        operationId: op.operationId,
        needsToken: security.some((requirement) => 'bearerAuth' in requirement),
        bodyTypes,
        validateBody,
        queryParams: parameters.filter((p) => p.in === 'query'),
        pathParams: parameters.filter((p) => p.in === 'path'),
      });
    }
  }
  return operations;
}

module.exports = { DOC_FILE, loadDocument, createAjv, compileOperations, pointerTo };
