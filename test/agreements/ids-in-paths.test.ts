/**
 * Issue 58, the fourth newcomer mistake: a sandbox handler that answers the same for every id (a
 * 404 for all, or one record for any). Each read of sandbox/openapi.yaml with an id in its path
 * gives that parameter an `example` the sandbox holds; the real sandbox must find the example
 * (2xx) and not a made-up id (404). A document without such a path has nothing to check yet (the
 * first read by id, ARCHITECTURE.md's Location → Get, adds one); the check itself is proven on
 * handlers that make the mistake.
 */
import { openapi } from './openapi';
import { startTestSandbox, type Sandbox } from '../sandbox/helpers';

interface PathParameter {
	name: string;
	in: string;
	example?: unknown;
	schema?: { type?: string; example?: unknown };
}
interface IdRead {
	route: string;
	parameter: string;
	example: unknown;
	madeUp: string;
}

/** Every GET with a parameter in its path, with the example the document gives it. */
export function idReads(document: { paths: Record<string, Record<string, { parameters?: PathParameter[] }>> }): IdRead[] {
	return Object.entries(document.paths).flatMap(([route, item]) =>
		(item.get?.parameters ?? [])
			.filter((parameter) => parameter.in === 'path')
			.map((parameter) => ({
				route,
				parameter: parameter.name,
				example: parameter.example ?? parameter.schema?.example,
				madeUp: parameter.schema?.type === 'integer' ? '987654321' : 'no-such-id-0000',
			})),
	);
}

type Get = (path: string) => Promise<{ status: number; body: string }>;

/** What is wrong with each read (none: it tells one id from another), each with its fix. */
export async function idProblems(reads: IdRead[], get: Get): Promise<string[]> {
	const problems: string[] = [];
	for (const { route, parameter, example, madeUp } of reads) {
		if (example === undefined) {
			problems.push(`${route}: give the path parameter ${parameter} an example the sandbox holds (example: in sandbox/openapi.yaml)`);
			continue;
		}
		const at = (id: string) => route.replace(`{${parameter}}`, encodeURIComponent(id));
		const found = await get(at(String(example)));
		const missing = await get(at(madeUp));
		if (found.status >= 300) problems.push(`${route}: the example ${String(example)} is answered ${found.status}; the handler must find the record by its id (sandbox/handlers.js)`);
		if (missing.status !== 404) problems.push(`${route}: the made-up id ${madeUp} is answered ${missing.status}, not 404; the handler must look the id up, not answer the same for every id`);
		else if (found.status < 300 && found.body === missing.body) problems.push(`${route}: the example and a made-up id get the same answer`);
	}
	return problems;
}

describe('a sandbox read by id tells one id from another', () => {
	const read: IdRead = { route: '/lba/locations/{locationId}', parameter: 'locationId', example: 3273, madeUp: '987654321' };

	it('finds the mistake: a handler answering 404 for every id, one answering the same record for any, an id without an example', async () => {
		const notFoundForAll: Get = async () => ({ status: 404, body: '{"code":"RESOURCE_NOT_FOUND"}' });
		const sameForAll: Get = async () => ({ status: 200, body: '{"locationId":3273}' });
		const looksUp: Get = async (path) => (path.endsWith('/3273') ? { status: 200, body: '{"locationId":3273}' } : { status: 404, body: '{"code":"RESOURCE_NOT_FOUND"}' });
		expect(await idProblems([read], notFoundForAll)).toEqual(['/lba/locations/{locationId}: the example 3273 is answered 404; the handler must find the record by its id (sandbox/handlers.js)']);
		expect(await idProblems([read], sameForAll)).toEqual([
			'/lba/locations/{locationId}: the made-up id 987654321 is answered 200, not 404; the handler must look the id up, not answer the same for every id',
		]);
		expect(await idProblems([{ ...read, example: undefined }], looksUp)).toEqual([
			'/lba/locations/{locationId}: give the path parameter locationId an example the sandbox holds (example: in sandbox/openapi.yaml)',
		]);
		expect(await idProblems([read], looksUp)).toEqual([]);
	});

	it('reads the document: a path parameter and its example', () => {
		const document = { paths: { '/io/products/{uuid}': { get: { parameters: [{ name: 'uuid', in: 'path', schema: { type: 'string', example: 'p-1' } }] } } } };
		expect(idReads(document)).toEqual([{ route: '/io/products/{uuid}', parameter: 'uuid', example: 'p-1', madeUp: 'no-such-id-0000' }]);
	});

	describe('the real sandbox, for every read by id in sandbox/openapi.yaml', () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startTestSandbox();
		});
		afterAll(async () => await sandbox.close());

		it('finds each example and no made-up id', async () => {
			const get: Get = async (path) => {
				const res = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } });
				return { status: res.status, body: await res.text() };
			};
			expect(await idProblems(idReads(openapi as never), get)).toEqual([]);
		});
	});
});
