// The sandbox's router on a small document of its own: concrete paths, path templates, 404 and 405.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRouter } = require('../../sandbox/router');

const ok = { responses: { '200': {} } };
const doc = {
  paths: {
    '/lba/campaign': { post: ok, get: { responses: { '405': {} } } },
    '/lba/campaign/{campaignId}': { get: ok, delete: ok },
    '/lba/campaign/latest': { get: ok },
    '/lba/campaign/{campaignId}/result': { get: ok },
  },
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => ({ path, method: method.toUpperCase(), operationId: `${method} ${path}` })),
);
const handlers = Object.fromEntries(operations.map((op) => [op.operationId, () => null]));
const router = createRouter(doc, operations, handlers);

const reached = (method: string, pathname: string) => {
  const { op, params, reply } = router.route(method, pathname);
  return reply ? reply.status : { operationId: op.operationId, params };
};

describe('sandbox router', () => {
  it('routes a concrete path with no parameters', () => {
    expect(reached('POST', '/lba/campaign')).toEqual({ operationId: 'post /lba/campaign', params: {} });
  });

  it('routes a template, giving the segment as the parameter', () => {
    expect(reached('GET', '/lba/campaign/3F9A1C0B7D2E4A65')).toEqual({
      operationId: 'get /lba/campaign/{campaignId}',
      params: { campaignId: '3F9A1C0B7D2E4A65' },
    });
    expect(reached('GET', '/lba/campaign/AB/result')).toEqual({ operationId: 'get /lba/campaign/{campaignId}/result', params: { campaignId: 'AB' } });
  });

  it('prefers a concrete path to a template that also matches it', () => {
    expect(reached('GET', '/lba/campaign/latest')).toEqual({ operationId: 'get /lba/campaign/latest', params: {} });
  });

  it('does not let a parameter be empty or span segments', () => {
    expect(reached('GET', '/lba/campaign/')).toBe(404);
    expect(reached('GET', '/lba/campaign/a/b')).toBe(404);
    expect(reached('GET', '/lba/campaign/a%2Fb')).toEqual({ operationId: 'get /lba/campaign/{campaignId}', params: { campaignId: 'a%2Fb' } });
  });

  it('answers 405 with the methods the template serves, HEAD as GET', () => {
    const { reply } = router.route('PUT', '/lba/campaign/X');
    expect(reply.status).toBe(405);
    expect(reply.headers.Allow).toBe('GET, HEAD, DELETE');
    expect(reached('HEAD', '/lba/campaign/X')).toEqual({ operationId: 'get /lba/campaign/{campaignId}', params: { campaignId: 'X' } });
    expect(router.route('GET', '/lba/campaign').op.operationId).toBe('get /lba/campaign');
  });

  it('refuses to start when an operation of the document has no handler', () => {
    expect(() => createRouter(doc, operations, {})).toThrow(/has no handler/);
  });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compileOperations, createAjv } = require('../../sandbox/openapi');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readPathParams } = require('../../sandbox/router');

describe("a path template's parameters", () => {
  const campaignId = { name: 'campaignId', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9A-F]{16}$' } };
  const notFound = { $ref: '#/components/responses/ResourceNotFound' };
  const templated = (operation: object, item: object = {}) => {
    const document = { paths: { '/lba/campaign/{campaignId}/result': { ...item, get: { responses: { '200': {}, '404': notFound }, ...operation } } }, security: [] };
    return compileOperations(document, createAjv(document));
  };

  it("are checked against their schema: a value it refuses gets 404 RESOURCE_NOT_FOUND naming the rule; one it takes reaches the handler", () => {
    for (const [op] of [templated({ parameters: [campaignId] }), templated({}, { parameters: [campaignId] })]) {
      const { reply } = readPathParams(op, { campaignId: 'x' });
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body.toString())).toEqual({
        success: false,
        error: { code: 'RESOURCE_NOT_FOUND', message: 'No resource has campaignId "x": a campaignId must match pattern "^[0-9A-F]{16}$".' },
      });
      expect(readPathParams(op, { campaignId: '3F9A1C0B7D2E4A65' })).toEqual({ params: { campaignId: '3F9A1C0B7D2E4A65' } });
    }
  });

  it('for an integer or number schema, a number written plainly is that number (as OpenAPI servers read a path); "0123", "1e3", "+1" are refused', () => {
    const document = {
      paths: {
        '/lba/locations/{locationId}': {
          get: { parameters: [{ name: 'locationId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }], responses: { '200': {}, '404': notFound } },
        },
        '/lba/scores/{score}': {
          get: { parameters: [{ name: 'score', in: 'path', required: true, schema: { type: 'number' } }], responses: { '200': {}, '404': notFound } },
        },
      },
      security: [],
    };
    const [location, score] = compileOperations(document, createAjv(document));
    const read = (op: object, value: string) => {
      const result = readPathParams(op, { [op === location ? 'locationId' : 'score']: value });
      return result.reply ? JSON.parse(result.reply.body.toString()).error.message : result.params;
    };
    expect(read(location, '3273')).toEqual({ locationId: 3273 });
    expect(read(score, '-1.5')).toEqual({ score: -1.5 });
    expect(read(location, '0123')).toBe('No resource has locationId "0123": a locationId must be a number written plainly (123, not 0123).');
    expect(read(location, '1e3')).toBe('No resource has locationId "1e3": a locationId must be a number written plainly (1000, not 1e3).');
    expect(read(location, '+1')).toMatch(/must be a number written plainly \(1, not \+1\)/);
    expect(read(location, '1.5')).toBe('No resource has locationId "1.5": a locationId must be integer.');
    expect(read(location, '0')).toBe('No resource has locationId "0": a locationId must be >= 1.');
    expect(read(location, 'x')).toBe('No resource has locationId "x": a locationId must be integer.');
  });

  it('the sandbox refuses to start on a {name} without its in: path parameter, or a template without a 404 answer', () => {
    expect(() => templated({})).toThrow(/GET \/lba\/campaign\/\{campaignId\}\/result has \{campaignId\} but no parameter \{ name: campaignId, in: path/);
    expect(() => templated({ parameters: [campaignId], responses: { '200': {} } })).toThrow(
      /has a path template but no 404 answer: add '404': \{ \$ref: '#\/components\/responses\/ResourceNotFound' \}/,
    );
  });
});
