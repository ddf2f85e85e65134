export {}; // a module, so its names do not meet those of the other script-style sandbox tests
// The sandbox's answer check for tests (sandbox/answer-check.js, startSandbox({ checkAnswers: true })),
// on a small document of its own: a documented answer passes unchanged; an undocumented status or body becomes a 500 naming it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createAnswerCheck } = require('../../sandbox/answer-check');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createAjv } = require('../../sandbox/openapi');

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const doc = {
  paths: {
    '/lba/campaign/{campaignId}/result': {
      get: {
        responses: {
          '200': { description: 'ok', ...json({ type: 'object', required: ['smsSent'], properties: { smsSent: { type: 'integer' } } }) },
          '404': { $ref: '#/components/responses/ResourceNotFound' },
        },
      },
    },
  },
  components: { responses: { ResourceNotFound: { description: 'none', ...json({ type: 'object', required: ['error'], properties: { error: { type: 'object' } } }) } } },
};
const op = { path: '/lba/campaign/{campaignId}/result', method: 'GET', operationId: 'getCampaignResult' };
const reply = (status: number, body: unknown) => ({ status, headers: {}, body: Buffer.from(JSON.stringify(body)) });

describe("the sandbox's answer check (tests only)", () => {
  const check = createAnswerCheck(doc, createAjv(doc));
  let printed: jest.SpyInstance;
  beforeEach(() => (printed = jest.spyOn(console, 'error').mockImplementation(() => undefined)));
  afterEach(() => printed.mockRestore());

  it('lets a documented answer through unchanged, a $ref response included', () => {
    for (const answer of [reply(200, { smsSent: 0 }), reply(404, { error: {} })]) expect(check(op, answer)).toBe(answer);
    expect(printed).not.toHaveBeenCalled();
  });

  it('turns an undocumented status or body into a 500 that names the operation, what is wrong and where to fix it', () => {
    const message = (answer: object) => JSON.parse(check(op, answer).body.toString()).error.message;
    expect(message(reply(200, { smsSent: 'none' }))).toBe(
      "The sandbox's getCampaignResult (GET /lba/campaign/{campaignId}/result) answered 200 with a body openapi.yaml does not allow: data/smsSent must be integer. " +
        'Fix its handler in sandbox/handlers.js or its answers in sandbox/openapi.yaml.',
    );
    expect(message(reply(400, {}))).toMatch(/answered 400, which openapi.yaml does not list for it/);
    expect(check(op, reply(400, {})).status).toBe(500);
    expect(printed).toHaveBeenCalledTimes(3);
  });
});
