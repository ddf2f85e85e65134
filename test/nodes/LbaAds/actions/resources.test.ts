/**
 * One registry: every operation file is listed once in its resource's index, and what the
 * panel offers is exactly what the router runs. An operation file that is not registered, or a
 * selector entry without an operation behind it, fails here.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

import { findOperation, RESOURCES, resourceProperties } from '../../../../nodes/LbaAds/actions/resources';

const ACTIONS = path.resolve(__dirname, '../../../../nodes/LbaAds/actions');

function operationFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? operationFiles(path.join(dir, entry.name)) : entry.name.endsWith('.operation.ts') ? [path.join(dir, entry.name)] : [],
	);
}

describe('the operation registry', () => {
	it('lists every *.operation.ts file exactly once, under the resource whose folder holds it', () => {
		const files = operationFiles(ACTIONS);
		expect(files.length).toBeGreaterThan(0);
		const registered = RESOURCES.flatMap((resource) => resource.operations.map((module) => ({ resource: resource.value, module })));
		for (const file of files) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = Object.values(require(file));
			const listed = registered.filter(({ module }) => exported.includes(module));
			expect({ file: path.relative(ACTIONS, file), listed: listed.length }).toEqual({ file: path.relative(ACTIONS, file), listed: 1 });
			expect(path.relative(ACTIONS, file).split(path.sep)[0]).toBe(listed[0].resource);
		}
		expect(registered).toHaveLength(files.length);
	});

	it('each resource selector offers exactly its registered operations, and each of them is found by the router', () => {
		const selectors = resourceProperties().filter((property) => property.name === 'operation');
		expect(selectors).toHaveLength(RESOURCES.length);
		for (const resource of RESOURCES) {
			const selector = selectors.find((property) => property.displayOptions?.show?.resource?.[0] === resource.value)!;
			const values = (selector.options as Array<{ value: string }>).map((option) => option.value);
			expect(values).toEqual(resource.operations.map((module) => module.option.value));
			expect(values).toContain(selector.default);
			for (const value of values) expect(findOperation(resource.value, value)?.option.value).toBe(value);
		}
		expect(findOperation('campaign', 'nosuch')).toBeUndefined();
	});

	it("every operation's fields are shown for its own resource and operation only", () => {
		for (const resource of RESOURCES) {
			for (const module of resource.operations) {
				for (const property of module.description) {
					const show = property.displayOptions?.show ?? {};
					expect({ name: property.name, resource: show.resource, operation: show.operation }).toEqual({ name: property.name, resource: [resource.value], operation: [module.option.value] });
				}
			}
		}
	});
});
