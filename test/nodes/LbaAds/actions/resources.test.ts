/**
 * One registry: every operation file is listed once in its resource's index, and what the
 * panel offers is exactly what the router runs. An operation file that is not registered, or a
 * selector entry without an operation behind it, fails here.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

import { findOperation, RESOURCES, resourceProperties } from '../../../../nodes/LbaAds/actions/resources';
import { expectAgreement } from '../../../agreements/openapi';

const ACTIONS = path.resolve(__dirname, '../../../../nodes/LbaAds/actions');

function operationFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? operationFiles(path.join(dir, entry.name)) : entry.name.endsWith('.operation.ts') ? [path.join(dir, entry.name)] : [],
	);
}

function fixFor(file: string): string {
	const [resource, ...rest] = file.split(path.sep);
	const base = path.basename(rest.join('/'), '.operation.ts');
	return `import its OperationModule in actions/${resource}/index.ts (\`import { ${base} } from './${rest.join('/').replace(/\.ts$/, '')}';\`) and list it once in that resource's \`operations\``;
}

describe('the operation registry', () => {
	it('lists every *.operation.ts file exactly once, under the resource whose folder holds it', () => {
		const files = operationFiles(ACTIONS);
		expect(files.length).toBeGreaterThan(0);
		const registered = RESOURCES.flatMap((resource) => resource.operations.map((module) => ({ resource: resource.value, module })));
		const problems: string[] = [];
		for (const file of files) {
			const relative = path.relative(ACTIONS, file);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = Object.values(require(file));
			const listed = registered.filter(({ module }) => exported.includes(module));
			const folder = relative.split(path.sep)[0];
			if (listed.length === 0) problems.push(`nodes/LbaAds/actions/${relative} is not registered: ${fixFor(relative)}`);
			else if (listed.length > 1) problems.push(`nodes/LbaAds/actions/${relative} is registered ${listed.length} times: list it once, in actions/${folder}/index.ts`);
			else if (listed[0].resource !== folder) problems.push(`nodes/LbaAds/actions/${relative} is registered under ${listed[0].resource}: move the file to actions/${listed[0].resource}/ or its line to actions/${folder}/index.ts`);
		}
		if (registered.length !== files.length && !problems.length) {
			problems.push(`${registered.length} operations are registered but ${files.length} *.operation.ts files exist: each operation is exported from its own <name>.operation.ts`);
		}
		expectAgreement(problems, 'Each operation is one file nodes/LbaAds/actions/<resource>/<name>.operation.ts with its one line in actions/<resource>/index.ts (ARCHITECTURE.md, "Where to add what").');
	});

	it('each resource selector offers exactly its registered operations, and each of them is found by the router', () => {
		const selectors = resourceProperties().filter((property) => property.name === 'operation');
		expect(selectors).toHaveLength(RESOURCES.length);
		const problems: string[] = [];
		for (const resource of RESOURCES) {
			const selector = selectors.find((property) => property.displayOptions?.show?.resource?.[0] === resource.value)!;
			const values = (selector.options as Array<{ value: string }>).map((option) => option.value);
			if (!values.includes(String(selector.default))) {
				problems.push(`actions/${resource.value}/index.ts: defaultOperation "${String(selector.default)}" is none of its operations (${values.join(', ')}): name one of them`);
			}
			const repeated = values.filter((value, index) => values.indexOf(value) !== index);
			if (repeated.length) problems.push(`actions/${resource.value}: option.value ${repeated.join(', ')} is used by two operations: give each operation its own \`option.value\``);
			for (const value of values) {
				if (findOperation(resource.value, value)?.option.value !== value) problems.push(`${resource.value} → ${value}: the router does not find it`);
			}
		}
		expectAgreement(problems, "Fix the resource's index.ts or the operation's `option` as each line says.");
		expect(findOperation('campaign', 'nosuch')).toBeUndefined();
	});

	it("every operation's fields are shown for its own resource and operation only", () => {
		const problems: string[] = [];
		for (const resource of RESOURCES) {
			for (const module of resource.operations) {
				for (const property of module.description) {
					const show = property.displayOptions?.show ?? {};
					const wanted = { resource: [resource.value], operation: [module.option.value] };
					if (JSON.stringify({ resource: show.resource, operation: show.operation }) !== JSON.stringify(wanted)) {
						problems.push(
							`${resource.name} → ${module.option.name}: field "${property.name}" has displayOptions.show ${JSON.stringify({ resource: show.resource, operation: show.operation })}`,
						);
					}
				}
			}
		}
		expectAgreement(
			problems,
			`Give each field of an operation displayOptions: { show: { resource: ['<resource>'], operation: ['<option.value>'] } }, its own resource and operation only.`,
		);
	});
});
