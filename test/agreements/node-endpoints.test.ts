/**
 * Every request the node's code makes (`path: '/…'` in nodes/, a `${…}` standing for one
 * segment) goes to a path and method sandbox/openapi.yaml serves, so the sandbox, the e2e
 * tests and the reliability suite can answer it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { expectAgreement, REPO, servedMethods } from './openapi';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
	);
}

/** `method: 'GET', path: '/io/products'` or `method: 'GET', path: `/lba/campaign/${id}``, in either order. */
const REQUEST = /method: '([A-Z]+)',\s*path: ['`]([^'`]+)['`]|path: ['`]([^'`]+)['`],\s*method: '([A-Z]+)'/g;

function fits(template: string, requestPath: string): boolean {
	const parts = template.split('/');
	const segments = requestPath.split('/');
	return parts.length === segments.length && parts.every((part, i) => part === segments[i] || (/^\{[^{}]+\}$/.test(part) && /^\$\{[^}]+\}$/.test(segments[i])));
}

describe("the node's requests", () => {
	it('go to paths and methods openapi.yaml serves', () => {
		const served = servedMethods();
		const problems: string[] = [];
		let found = 0;
		for (const file of sourceFiles(path.join(REPO, 'nodes'))) {
			for (const match of readFileSync(file, 'utf8').matchAll(REQUEST)) {
				const [method, requestPath] = match[1] ? [match[1], match[2]] : [match[4], match[3]];
				found++;
				const route = Object.keys(served).find((template) => fits(template, requestPath));
				if (!route || !served[route].includes(method)) problems.push(`${path.relative(REPO, file)}: ${method} ${requestPath} is not served by openapi.yaml`);
			}
		}
		expect(found).toBeGreaterThanOrEqual(4);
		expectAgreement(
			problems,
			'Add the path (a {name} segment for each ${…}) and method to sandbox/openapi.yaml with its answers, and a handler named by its ' +
				'operationId in sandbox/handlers.js (see ARCHITECTURE.md, "Where to add what").',
		);
	});
});
