/**
 * Every request the node's code makes goes to a path and method sandbox/openapi.yaml serves, so
 * the sandbox, the e2e tests and the reliability suite can answer it. Each call is read from the
 * source (TypeScript's parser): `<transport>.request({ method: 'GET', path: '/io/products', … })`,
 * the method a string literal and the path a literal or a template whose every `${…}` is a whole
 * segment. A call this test cannot read fails, naming the call and how to write it; so does a
 * request made past the transport, with n8n's HTTP helpers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../../nodes/LbaAds/actions/engine/operation';
import { RESOURCES } from '../../nodes/LbaAds/actions/resources';
import { expectAgreement, REPO, servedMethods } from './openapi';

const NODES = path.join(REPO, 'nodes');
/** The one file that may call n8n's HTTP helpers (ARCHITECTURE.md: "the one HTTP path"). */
const TRANSPORT = path.join(NODES, 'shared/transport/index.ts');
const N8N_HTTP_HELPERS = /^(httpRequest|httpRequestWithAuthentication|requestWithAuthentication|requestOAuth2|request)$/;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
	);
}

export interface ReadRequest {
	where: string;
	/** `GET /lba/campaign/{…}/result`, or what made the call unreadable. */
	method?: string;
	path?: string;
	unreadable?: string;
}

/** A path literal, with each `${…}` as `{…}`; undefined when a `${…}` is not a whole segment. */
function pathOf(node: ts.Expression): string | undefined {
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	if (!ts.isTemplateExpression(node)) return undefined;
	let text = node.head.text;
	for (const span of node.templateSpans) {
		const wholeSegment = text.endsWith('/') && (span.literal.text === '' || span.literal.text.startsWith('/'));
		if (!wholeSegment) return undefined;
		text += `{…}${span.literal.text}`;
	}
	return text;
}

/** Every `.request(…)` call in one file, read or with the reason it could not be. */
export function requestsIn(file: string, source = readFileSync(file, 'utf8')): ReadRequest[] {
	const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
	const found: ReadRequest[] = [];
	const visit = (node: ts.Node) => {
		const where = `${path.relative(REPO, file)}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
		if (ts.isPropertyAccessExpression(node) && N8N_HTTP_HELPERS.test(node.name.text) && /\bhelpers$/.test(node.expression.getText()) && file !== TRANSPORT) {
			found.push({ where, unreadable: `${node.getText()} calls n8n's HTTP helper past the transport` });
		}
		if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'request' && !/\bhelpers$/.test(node.expression.expression.getText())) {
			const [options] = node.arguments;
			const properties = options && ts.isObjectLiteralExpression(options) ? options.properties : undefined;
			const property = (name: string) =>
				properties?.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;
			const method = property('method');
			const requestPath = property('path');
			const readPath = requestPath && pathOf(requestPath);
			if (!properties) found.push({ where, unreadable: `its options are ${options ? `\`${options.getText().slice(0, 60)}\`` : 'missing'}, not an object written in the call` });
			else if (!method || !ts.isStringLiteral(method)) found.push({ where, unreadable: `its method is ${method ? `\`${method.getText()}\`` : 'missing'}, not a string literal` });
			else if (!readPath) found.push({ where, unreadable: `its path is ${requestPath ? `\`${requestPath.getText().slice(0, 80)}\`` : 'missing'}, not a literal whose every \${…} is a whole segment` });
			else found.push({ where, method: method.text, path: readPath });
		}
		ts.forEachChild(node, visit);
	};
	visit(tree);
	return found;
}

function fits(template: string, requestPath: string): boolean {
	const parts = template.split('/');
	const segments = requestPath.split('/');
	return parts.length === segments.length && parts.every((part, i) => part === segments[i] || (/^\{[^{}]+\}$/.test(part) && segments[i] === '{…}'));
}

/** The list methods of an operation's pickers (resourceLocators with a From List), top level or in a collection. */
function pickerLists(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		...(property.type === 'resourceLocator' ? (property.modes ?? []).flatMap((mode) => (mode.typeOptions?.searchListMethod ? [mode.typeOptions.searchListMethod] : [])) : []),
		...((property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((option) =>
			'values' in option && option.values ? pickerLists(option.values) : 'type' in option ? pickerLists([option as INodeProperties]) : [],
		),
	]);
}

/**
 * An operation that reads by an id the node can list (`GET /io/products/{…}` while the node also
 * sends `GET /io/products`) has a picker with its list function: a plain text field would make the
 * user type an id the panel could have offered.
 */
export function missingPickers(operations: Array<{ file: string; source: string; name: string; module: OperationModule }>, all: ReadRequest[]): string[] {
	const lists = new Map(all.filter((request) => request.method === 'GET' && request.path && !request.path.includes('{…}')).map((request) => [request.path!, request.where]));
	return operations.flatMap(({ file, source, name, module }) =>
		requestsIn(file, source)
			.filter((request) => request.path?.includes('/{…}'))
			.flatMap((request) => {
				const listPath = request.path!.slice(0, request.path!.indexOf('/{…}'));
				if (!lists.has(listPath)) return [];
				const pickers = pickerLists(module.description).filter((method) => typeof module.listSearch?.[method] === 'function');
				return pickers.length
					? []
					: [`${name} (${request.where}): ${request.method} ${request.path} takes an id the node can list (GET ${listPath}, ${lists.get(listPath)}), but the operation has no picker for it (a resourceLocator whose From List names a function of its listSearch)`];
			}),
	);
}

function operationFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? operationFiles(path.join(dir, entry.name)) : entry.name.endsWith('.operation.ts') ? [path.join(dir, entry.name)] : [],
	);
}

const PICKER_FIX =
	"Make the id field a picker: ...picker({ list: { search<Things> }, displayName, name, description, byId, displayOptions, tool: { key, description } }) from nodes/LbaAds/helpers/picker.ts, " +
	'and `listSearch: { search<Things> }` on the OperationModule, the list function in the operation file (ARCHITECTURE.md, "Where to add what", step 1).';

const HOW =
	"Write each request as transport.request({ method: 'GET', path: `/lba/campaign/${campaignId}/result`, … }): the method a string literal and " +
	'the path a literal or a template whose every ${…} is one whole segment, in the call itself (not a variable, a spread or a helper that builds it); ' +
	'and send every request through the transport (nodes/shared/transport), never with ctx.helpers.httpRequest*.';

describe("the node's requests", () => {
	const all = sourceFiles(NODES).flatMap((file) => requestsIn(file));

	it('can all be read: literal method and path, through the transport', () => {
		expect(all.filter((request) => request.path).length).toBeGreaterThan(0);
		expectAgreement(
			all.filter((request) => request.unreadable).map((request) => `${request.where}: cannot read this request: ${request.unreadable}`),
			HOW,
		);
	});

	it('go to paths and methods openapi.yaml serves', () => {
		const served = servedMethods();
		const problems = all
			.filter((request) => request.path)
			.filter((request) => {
				const route = Object.keys(served).find((template) => fits(template, request.path!));
				return !route || !served[route].includes(request.method!);
			})
			.map((request) => `${request.where}: ${request.method} ${request.path} is not served by openapi.yaml`);
		expectAgreement(
			problems,
			'Add the path (a {name} segment for each ${…}, with its `in: path` parameter) and method to sandbox/openapi.yaml with its answers, and a handler named by its ' +
				'operationId in sandbox/handlers.js (see ARCHITECTURE.md, "Where to add what").',
		);
	});

	it('an operation reading by an id the node can list has a picker for it, with its list function', () => {
		const modules = RESOURCES.flatMap((resource) => resource.operations.map((module) => ({ name: `${resource.name} → ${module.option.name}`, module })));
		const operations = operationFiles(path.join(NODES, 'LbaAds/actions')).flatMap((file) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = Object.values(require(file));
			return modules.filter(({ module }) => exported.includes(module)).map((entry) => ({ file, source: readFileSync(file, 'utf8'), ...entry }));
		});
		expect(operations.length).toBe(modules.length);
		expectAgreement(missingPickers(operations, all), PICKER_FIX);
	});

	it('a plain text id where the node can list the ids fails, naming the fix (the check itself)', () => {
		const file = path.join(NODES, 'LbaAds/actions/product/get.operation.ts');
		const source = 'const body = await transport.request({ method: "GET", path: `/io/products/${uuid}`, itemIndex, retry: true });';
		const field: INodeProperties = { displayName: 'Product', name: 'uuid', type: 'string', default: '' };
		const module = { option: { name: 'Get', value: 'get', action: 'Get a product' }, description: [field], operation: { checkAllBeforeSending: false, usesService: true, prepare: () => ({}) } };
		const problems = missingPickers([{ file, source, name: 'Product → Get', module }], all);
		expect(problems).toEqual([
			expect.stringMatching(/^Product → Get \(nodes\/LbaAds\/actions\/product\/get\.operation\.ts:1\): GET \/io\/products\/\{…\} takes an id the node can list \(GET \/io\/products, nodes\/shared\/api\/products\.ts:\d+\), but the operation has no picker for it \(a resourceLocator whose From List names a function of its listSearch\)$/),
		]);
		expect(() => expectAgreement(problems, PICKER_FIX)).toThrow(/nodes\/LbaAds\/helpers\/picker\.ts/);
		async function searchProducts() {
			return { results: [] };
		}
		const withPicker = { ...module, description: [{ ...field, type: 'resourceLocator' as const, modes: [{ displayName: 'From List', name: 'list', type: 'list' as const, typeOptions: { searchListMethod: 'searchProducts' } }] }] };
		expect(missingPickers([{ file, source, name: 'Product → Get', module: withPicker }], all)).toHaveLength(1);
		expect(missingPickers([{ file, source, name: 'Product → Get', module: { ...withPicker, listSearch: { searchProducts } } }], all)).toEqual([]);
	});

	it('a request it cannot read fails with the call and the reason (the check itself)', () => {
		const source = [
			"const where = '/io/products';",
			'await transport.request({ method: "GET", path: where, itemIndex, retry: true });',
			'await transport.request({ method: verb, path: "/io/products", itemIndex, retry: true });',
			'await transport.request(options);',
			'await transport.request({ method: "GET", path: `/lba/campaign-${id}`, itemIndex, retry: true });',
			'await transport.request({ method: "GET", path: `/lba/campaign/${id}/result`, itemIndex, retry: true });',
			'await ctx.helpers.httpRequest({ url });',
		].join('\n');
		const read = requestsIn(path.join(NODES, 'example.ts'), source).map(({ where, ...rest }) => ({ line: Number(where.split(':')[1]), ...rest }));
		expect(read).toEqual([
			{ line: 2, unreadable: 'its path is `where`, not a literal whose every ${…} is a whole segment' },
			{ line: 3, unreadable: 'its method is `verb`, not a string literal' },
			{ line: 4, unreadable: 'its options are `options`, not an object written in the call' },
			{ line: 5, unreadable: 'its path is ``/lba/campaign-${id}``, not a literal whose every ${…} is a whole segment' },
			{ line: 6, method: 'GET', path: '/lba/campaign/{…}/result' },
			{ line: 7, unreadable: "ctx.helpers.httpRequest calls n8n's HTTP helper past the transport" },
		]);
	});
});
