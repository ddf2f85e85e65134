'use strict';
// For tests (startSandbox({ checkAnswers: true })): each handler's answer is checked against the
// response openapi.yaml documents for its operation and status, so a test that runs the node
// against the sandbox also proves the sandbox keeps to its document. An answer that does not
// becomes a 500 naming what is wrong (and is printed), so the test fails there.

const { errorReply } = require('./http-util');
const { pointerTo } = require('./openapi');

/** `#/components/responses/X` -> ['components', 'responses', 'X']. */
const refSegments = (ref) => ref.replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** @returns {(op, reply) => reply} the reply itself, or the 500 that replaces an undocumented one */
function createAnswerCheck(doc, ajv) {
  function problem(op, reply) {
    const method = op.method.toLowerCase();
    const status = String(reply.status);
    const response = doc.paths[op.path][method].responses[status];
    if (!response) return `answered ${status}, which openapi.yaml does not list for it`;
    const at = response.$ref ? refSegments(response.$ref) : ['paths', op.path, method, 'responses', status];
    const validate = ajv.getSchema(pointerTo(...at, 'content', 'application/json', 'schema'));
    if (!validate) return null;
    let body;
    try {
      body = JSON.parse(reply.body.toString('utf8'));
    } catch {
      return `answered ${status} with a body that is not JSON`;
    }
    return validate(body) ? null : `answered ${status} with a body openapi.yaml does not allow: ${ajv.errorsText(validate.errors)}`;
  }

  return function checkAnswer(op, reply) {
    const wrong = problem(op, reply);
    if (!wrong) return reply;
    const message = `The sandbox's ${op.operationId} (${op.method} ${op.path}) ${wrong}. Fix its handler in sandbox/handlers.js or its answers in sandbox/openapi.yaml.`;
    console.error(`LBA sandbox: ${message}`);
    return errorReply(500, 'INTERNAL_ERROR', message);
  };
}

module.exports = { createAnswerCheck };
