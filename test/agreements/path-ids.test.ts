/**
 * The node and the sandbox agree on numeric ids in a path: whatever the node accepts as an id
 * (nodes/shared/parameterValues.ts `idInPath`), it sends in a form the sandbox's path reading
 * (sandbox/openapi.js, a `{ type: integer, minimum: 1 }` path parameter) takes as the same
 * number; "03273" is sent as 3273, not as the "03273" a path schema refuses (404).
 */
import { digitsToNumber, idInPath } from '../../nodes/shared/parameterValues';
import { expectAgreement } from './openapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compileOperations, createAjv } = require('../../sandbox/openapi');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readPathParams } = require('../../sandbox/router');

const document = {
	paths: {
		'/lba/locations/{locationId}': {
			get: {
				parameters: [{ name: 'locationId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
				responses: { '200': {}, '404': { description: 'none' } },
			},
		},
	},
	security: [],
};
const [op] = compileOperations(document, createAjv(document));

const VALUES: unknown[] = ['3273', ' 3273 ', '03273', '0003273', 3273, '1e3', '+5', '-1', '0', '12.5', 'abc', '', ' ', '9007199254740993', '0x1F', 3273.5, null, undefined];

describe('a numeric id in a path', () => {
	it('the node sends every id it accepts in the form the sandbox reads as the same number', () => {
		const problems = VALUES.flatMap((value) => {
			const segment = idInPath(value);
			if (segment === undefined) return [];
			const read = readPathParams(op, { locationId: segment });
			if (read.reply) return [`idInPath(${JSON.stringify(value)}) gives "${segment}", which the sandbox refuses: ${read.reply.body.toString()}`];
			return read.params.locationId === digitsToNumber(value) ? [] : [`idInPath(${JSON.stringify(value)}) gives "${segment}", read as ${read.params.locationId}, not ${digitsToNumber(value)}`];
		});
		expectAgreement(
			problems,
			'Write a numeric id into a path with idInPath (nodes/shared/parameterValues.ts): the number written plainly, no leading zero, sign, exponent or spaces ' +
				'(sandbox/openapi.js `pathValueReader` reads a path value as OpenAPI servers do).',
		);
	});

	it('"03273" is sent as 3273; what is no whole number above 0 is refused before sending', () => {
		expect(idInPath('03273')).toBe('3273');
		expect(idInPath(' 3273 ')).toBe('3273');
		expect(['1e3', '+5', '-1', '0', '12.5', 'abc', '', '0x1F', 3273.5, null].map(idInPath)).toEqual(Array(10).fill(undefined));
		// Sent as written, the sandbox refuses the leading zero, as the real service would.
		expect(readPathParams(op, { locationId: '03273' }).reply.status).toBe(404);
	});
});
