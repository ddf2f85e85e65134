/**
 * The harness drives n8n-core's real engine: loading, errors, continueOnFail,
 * timezone, sleep. No HTTP here (see auth.test.ts).
 */
import type { INode } from 'n8n-workflow';

import { chain, errorOf, loadPackageNodes, manualTrigger, type Harness } from '../harness';
import { FIXTURE_PACKAGE, PROBE_TYPE, probeWorkflow } from './helpers';

let n8n: Harness;
beforeAll(async () => {
	n8n = await loadPackageNodes(FIXTURE_PACKAGE);
});

describe('loadPackageNodes', () => {
	test('loads nodes and credentials from the package.json n8n section under n8n names', () => {
		expect(n8n.packageNames).toEqual(['n8n-nodes-harness-fixture']);
		expect(Object.keys(n8n.nodeTypes.types)).toEqual(
			expect.arrayContaining([PROBE_TYPE, 'n8n-nodes-base.manualTrigger', 'n8n-nodes-base.noOp']),
		);
		expect(n8n.credentialTypes.recognizes('harnessBearerApi')).toBe(true);
		expect(n8n.credentialTypes.getParentTypes('harnessOAuth2Api')).toEqual(['oAuth2Api']);
		expect(n8n.credentialTypes.getSupportedNodes('harnessBearerApi')).toEqual([PROBE_TYPE]);
	});

	test('fails clearly for a folder without a package', async () => {
		await expect(loadPackageNodes(__dirname)).rejects.toThrow(/package\.json/);
	});

	test('an unknown node type is refused before anything runs', async () => {
		const wf = probeWorkflow({ action: 'timezone' });
		wf.nodes[1].type = 'n8n-nodes-harness-fixture.nope';
		await expect(n8n.runWorkflow(wf)).rejects.toThrow(/nope/);
	});

	test('a missing required parameter is refused before anything runs, as in n8n', async () => {
		const run = n8n.runWorkflow(probeWorkflow({ action: 'request', path: '' }));
		await expect(run).rejects.toMatchObject({ name: 'WorkflowHasIssuesError' });
		await expect(n8n.runWorkflow(probeWorkflow({ action: 'timezone', path: '' }))).resolves.toBeDefined();
	});
});

describe('runWorkflow', () => {
	test('runs the trigger, then the node, and returns its items with pairedItem', async () => {
		const result = await n8n.runWorkflow(probeWorkflow({ action: 'fail' }, {}, [{ a: 1 }, { a: 2 }]));
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('success');
		expect(result.executedNodes).toEqual(['Start', 'Items', 'Probe']);
		expect(result.output('Probe')).toEqual([
			{ json: { ok: 0 }, pairedItem: { item: 0 } },
			{ json: { ok: 1 }, pairedItem: { item: 1 } },
		]);
	});

	test('a node error stops the run and surfaces message, description and node', async () => {
		const result = await n8n.runWorkflow(
			probeWorkflow({ action: 'fail' }, {}, [{ fail: false }, { fail: true }, { fail: false }]),
		);
		expect(result.run.status).toBe('error');
		expect(errorOf(result)).toMatchObject({
			name: 'NodeOperationError',
			message: 'Item 1 asked to fail',
			description: 'The field "fail" of item 1 is set',
			node: 'Probe',
		});
		expect(result.output('Probe')).toEqual([]);
		// n8n also records it on the node's task data, as the editor shows it
		expect(result.run.data.resultData.runData.Probe[0].error?.message).toBe('Item 1 asked to fail');
		expect(() => result.output('Nope')).toThrow(/Nope/);
	});

	test.each([
		['onError: continueRegularOutput', { onError: 'continueRegularOutput' }],
		['continueOnFail: true (older workflows)', { continueOnFail: true }],
	] as Array<[string, Partial<INode>]>)('%s turns a failing item into an error item', async (_label, extra) => {
		const result = await n8n.runWorkflow(
			probeWorkflow({ action: 'fail' }, extra, [{ fail: false }, { fail: true }, { fail: false }]),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Probe')).toEqual([
			{ json: { ok: 0 }, pairedItem: { item: 0 } },
			{ json: { error: 'Item 1 asked to fail' }, pairedItem: { item: 1 } },
			{ json: { ok: 2 }, pairedItem: { item: 2 } },
		]);
	});

	test('onError: continueErrorOutput routes error items to the error output', async () => {
		const result = await n8n.runWorkflow(
			probeWorkflow({ action: 'fail' }, { onError: 'continueErrorOutput' }, [{ fail: true }, { fail: false }]),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Probe', 0)).toEqual([{ json: { ok: 1 }, pairedItem: { item: 1 } }]);
		// n8n moves items whose json has `error` to the error output, merged with the
		// input item's json (hence `fail: true`).
		expect(result.output('Probe', 1)).toEqual([
			{ json: { fail: true, error: 'Item 0 asked to fail' }, pairedItem: { item: 0 } },
		]);
	});

	test('this.getTimezone(): workflow setting, else the option, else n8n default', async () => {
		const wf = probeWorkflow({ action: 'timezone' });
		const tz = async (settings: object | undefined, timezone?: string) => {
			const r = await n8n.runWorkflow({ ...wf, settings }, { timezone });
			return r.output('Probe')[0].json.timezone;
		};
		expect(await tz({ timezone: 'Asia/Jakarta' }, 'Europe/Berlin')).toBe('Asia/Jakarta');
		expect(await tz(undefined, 'Europe/Berlin')).toBe('Europe/Berlin');
		// n8n hands a workflow zone saved as Default to the node as the text (its expressions then fail).
		expect(await tz({ timezone: 'DEFAULT' }, 'Asia/Makassar')).toBe('DEFAULT');
		expect(await tz(undefined)).toBe('America/New_York');
	});

	test('expressions see the workflow timezone too ($now)', async () => {
		const wf = probeWorkflow({ action: 'timezone', note: "={{ $now.toFormat('ZZ') }}" });
		const note = async (timezone: string) =>
			(await n8n.runWorkflow({ ...wf, settings: { timezone } })).output('Probe')[0].json.note;
		expect(await note('Asia/Jakarta')).toBe('+07:00');
		expect(await note('Asia/Jayapura')).toBe('+09:00');
	});

	test('items pinned on the trigger feed the next node; expressions resolve per item', async () => {
		const wf = probeWorkflow({ action: 'timezone', note: '={{ $json.name }} #{{ $itemIndex }}' });
		const result = await n8n.runWorkflow({
			...wf,
			pinData: { Start: [{ json: { name: 'a' } }, { json: { name: 'b' } }] },
		});
		expect(result.output('Start')).toHaveLength(2);
		expect(result.output('Probe').map((item) => item.json.note)).toEqual(['a #0', 'b #1']);
	});

	test('sleep from n8n-workflow works inside a node', async () => {
		const result = await n8n.runWorkflow(probeWorkflow({ action: 'sleep', ms: 120 }));
		expect(result.error).toBeUndefined();
		const slept = result.output('Probe')[0].json.slept as number;
		expect(slept).toBeGreaterThanOrEqual(115);
	});

	test('the caller’s workflow and credentials objects are not mutated', async () => {
		const wf = probeWorkflow({ action: 'timezone' });
		const before = JSON.stringify(wf);
		const credentials = { harnessBearerApi: { baseUrl: 'http://x', accessToken: 't' } };
		await n8n.runWorkflow(wf, { credentials });
		expect(JSON.stringify(wf)).toBe(before);
		expect(credentials).toEqual({ harnessBearerApi: { baseUrl: 'http://x', accessToken: 't' } });
	});
});
