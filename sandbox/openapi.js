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
      // Parameters of the path item apply to each of its operations (OpenAPI 3.1 "Path Item Object").
      const parameters = [
        ...(item.parameters || []).map((p, index) => compileParameter(ajv, p, pointerTo('paths', routePath, 'parameters', index, 'schema'))),
        ...(op.parameters || []).map((p, index) => compileParameter(ajv, p, pointerTo('paths', routePath, method, 'parameters', index, 'schema'))),
      ];
      const pathParams = parameters.filter((p) => p.in === 'path');
      checkTemplate(routePath, method, op, pathParams);
      const security = op.security || doc.security;
      operations.push({
        path: routePath,
        method: method.toUpperCase(),
        operationId: op.operationId,
        needsToken: security.some((requirement) => 'bearerAuth' in requirement),
        bodyTypes,
        validateBody,
        queryParams: parameters.filter((p) => p.in === 'query'),
        pathParams,
      });
    }
  }
  return operations;
}

function compileParameter(ajv, parameter, schemaPointer) {
  const validate = ajv.getSchema(schemaPointer);
  const compiled = { in: parameter.in, name: parameter.name, required: Boolean(parameter.required), validate };
  if (parameter.in === 'path') compiled.read = pathValueReader(validate);
  return compiled;
}

// A number written plainly: what an OpenAPI server reads as a number in a path (style: simple).
// "0123", "+1", "1e3", " 12" and "0x1F" are text, not numbers: a client sends 123, not 0123.
const PLAIN_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/**
 * A path value is text. For a schema of type integer or number, OpenAPI servers read a number
 * written plainly as that number, so `{ type: integer }` (the natural schema of a numeric id)
 * takes "3273" and gives the handler 3273. `read(text)` -> { value } or { errors } (ajv's).
 */
function pathValueReader(validate) {
  return (text) => {
    if (validate(text)) return { value: text };
    const errors = validate.errors;
    const number = Number(text);
    if (PLAIN_NUMBER.test(text)) {
      if (validate(number)) return { value: number };
      // A number the schema's type takes but another rule refuses (say minimum): that rule.
      if (!validate.errors.some((error) => error.keyword === 'type')) return { errors: validate.errors };
      return { errors };
    }
    if (text.trim() !== '' && Number.isFinite(number) && validate(number)) {
      return { errors: [{ message: `must be a number written plainly (${number}, not ${text})` }] };
    }
    return { errors };
  };
}

/**
 * A path template's every `{name}` has its `in: path` parameter (whose schema the sandbox applies),
 * and an operation on a template documents the 404 of a value that names nothing.
 */
function checkTemplate(routePath, method, op, pathParams) {
  const names = [...routePath.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
  const where = `openapi.yaml: ${method.toUpperCase()} ${routePath}`;
  for (const name of names) {
    if (!pathParams.some((p) => p.name === name)) {
      throw new Error(`${where} has {${name}} but no parameter { name: ${name}, in: path, required: true, schema: … }`);
    }
  }
  const served = Object.keys(op.responses || {}).some((status) => status.startsWith('2'));
  if (names.length && served && !(op.responses || {})['404']) {
    throw new Error(`${where} has a path template but no 404 answer: add '404': { $ref: '#/components/responses/ResourceNotFound' }`);
  }
}

module.exports = { DOC_FILE, loadDocument, createAjv, compileOperations, pointerTo };
