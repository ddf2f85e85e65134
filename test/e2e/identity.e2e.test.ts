// The identity matrix of docs/duplicate-protection.md, each row proven in a real n8n 2.40.7 with
// the packed package and the sandbox. The rule: a Retry at any depth never re-sends what the
// execution it retries created; a new execution never re-sends the same campaign by meaning; a
// changed campaign is sent.
//
// Each row runs three times, once per way of writing the campaign's dates: fixed dates, `$now`
// dates (every evaluation, a Retry's too, gives later ones) and the trigger's timestamp (carried
// by the items as `at`). What each item must become is computed from the sandbox's journal
// (what the retried execution created; what was created before, by meaning) and compared with
// the node's output; the journal must then hold exactly the items sent. One n8n for the file.
import * as e2e from './lib';

type Json = Record<string, any>;
type Style = 'fixed' | 'now' | 'trigger';
type Campaign = e2e.JournalCampaign;

const STYLES: Style[] = ['fixed', 'now', 'trigger'];
const COUNT = 6;
const LBA = 'Create campaigns';
const CODE = 'Campaigns to send';
const SUB = 'Run sub-workflow';
const MESSAGE = 'Promo!';
const TRIGGER_DATES = { startDate: '={{ DateTime.fromISO($json.at).plus({ minutes: 5 }) }}', endDate: '={{ DateTime.fromISO($json.at).plus({ days: 3 }) }}' };
const DATES: Record<Style, { startDate: string; endDate: string }> = { fixed: e2e.FIXED_DATES, now: e2e.NOW_DATES, trigger: TRIGGER_DATES };
/** The node's Retry On Fail: two tries, more than a second apart (so that `$now` moves). */
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1100 };
/**
 * What a webhook caller sends twice, and the schedule trigger's output pinned for two runs: 08:00 WIB
 * two days from now (from the clock, so the trigger style's three-day window is never over).
 */
const CALLER_AT = `${new Date(Date.now() + (7 + 48) * 3600_000).toISOString().slice(0, 10)}T08:00:00.000+07:00`;

const lbaParameters = (style: Style, message = MESSAGE) =>
	e2e.createCampaignParameters({ channels: { channel: [e2e.channel({ ...DATES[style], message })] } });

/** The trigger: a Schedule Trigger where the dates come from its timestamp, else a Manual Trigger. */
function trigger(id: string, style: Style) {
	if (style !== 'trigger') return e2e.manualTrigger(`${id}-start`);
	return e2e.node(`${id}-start`, 'Start', 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'hours', hoursInterval: 1 }] } });
}

/** "Campaigns to send": six items, each with the trigger's timestamp as `at` for the trigger style. */
function campaignsNode(id: string, prefix: string, style: Style, at = "$('Start').first().json.timestamp", extraItems: string[] = []) {
	const items = e2e.namedItems(prefix, COUNT);
	if (style !== 'trigger' && !extraItems.length) return e2e.itemsNode(`${id}-code`, CODE, items);
	const atLine = style === 'trigger' ? `const at = ${at};` : 'const at = undefined;';
	return e2e.node(`${id}-code`, CODE, 'n8n-nodes-base.code', 2, {
		jsCode: `${atLine}\nreturn [...${JSON.stringify(items)}, ${extraItems.join(', ')}].map((json) => ({ json: { ...json, at } }));`,
	});
}

const subWorkflowNode = e2e.executeWorkflowNode;
const subWorkflowTrigger = (id: string) => e2e.executeWorkflowTrigger(`${id}-trigger`);

const idOf = (row: string, style: Style) => `idt${row}${style[0].toUpperCase()}${style.slice(1)}`;
const prefixOf = (row: string, style: Style) => `${row}-${style}`;

/** Start -> Campaigns to send -> [between] -> the LBA node. */
function straight(row: string, style: Style, { lbaSettings = {}, between = [] as e2e.WorkflowNode[] } = {}) {
	const id = idOf(row, style);
	const nodes = [trigger(id, style), campaignsNode(id, prefixOf(row, style), style), ...between, e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style), lbaSettings)];
	return e2e.workflow(id, `Identity: ${row} (${style})`, nodes, e2e.chain(...nodes.map((each) => each.name)));
}

/** The child (Called -> the LBA node), or with `grandchild` a child that calls that one. */
function child(row: string, style: Style, { lbaSettings = {}, grandchild = '' } = {}) {
	const id = `${idOf(row, style)}Child${grandchild ? 'Mid' : ''}`;
	const last = grandchild ? subWorkflowNode(`${id}-sub`, SUB, grandchild) : e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style), lbaSettings);
	return e2e.workflow(id, `Identity: ${row} (${style}), ${grandchild ? 'middle ' : ''}sub-workflow`, [subWorkflowTrigger(id), last], e2e.chain('Called', last.name));
}

/** The parent: Start -> Campaigns to send -> Run sub-workflow (and a second call when `twice`). */
function parent(row: string, style: Style, childId: string, { subSettings = {}, twice = false } = {}) {
	const id = idOf(row, style);
	const nodes = [trigger(id, style), campaignsNode(id, prefixOf(row, style), style), subWorkflowNode(`${id}-sub`, SUB, childId, subSettings)];
	const connections = e2e.chain('Start', CODE, SUB);
	if (twice) {
		// The second call a few seconds later, so that `$now` gives other dates than the first call's.
		nodes.push(e2e.node(`${id}-wait`, 'Later', 'n8n-nodes-base.wait', 1.1, { amount: 2, unit: 'seconds' }), subWorkflowNode(`${id}-sub2`, `${SUB} again`, childId));
		e2e.connect(connections, CODE, 'Later');
		e2e.connect(connections, 'Later', `${SUB} again`);
	}
	return e2e.workflow(id, `Identity: ${row} (${style})`, nodes, connections);
}

/** Start -> Campaigns to send -> Loop Over Items (2 at a time) -> the LBA node -> back to the loop. */
function loop(row: string, style: Style) {
	const id = idOf(row, style);
	const loopNode = e2e.node(`${id}-loop`, 'Two at a time', 'n8n-nodes-base.splitInBatches', 3, { batchSize: 2, options: {} });
	const nodes = [trigger(id, style), campaignsNode(id, prefixOf(row, style), style), loopNode, e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style))];
	const connections = e2e.chain('Start', CODE, loopNode.name);
	e2e.connect(connections, loopNode.name, LBA, 1);
	e2e.connect(connections, LBA, loopNode.name);
	return e2e.workflow(id, `Identity: ${row} (${style})`, nodes, connections);
}

/** The editor case: Start -> Config (Set: the message) -> Prepare -> the LBA node using Config's message. */
function editor(row: string, style: Style) {
	const id = idOf(row, style);
	const config = e2e.node(`${id}-config`, 'Config', 'n8n-nodes-base.set', 3.4, {
		assignments: { assignments: [{ id: 'message', name: 'message', value: 'Promo A', type: 'string' }] },
		options: {},
	});
	const prepare = { ...campaignsNode(id, prefixOf(row, style), style), name: 'Prepare' };
	const lba = e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style, "={{ $('Config').first().json.message }}"));
	return e2e.workflow(id, `Identity: ${row} (${style})`, [trigger(id, style), config, prepare, lba], e2e.chain('Start', 'Config', 'Prepare', LBA));
}

/** A published webhook (answers when the LBA node is done) whose caller sends `at`. */
function webhook(row: string, style: Style) {
	const id = idOf(row, style);
	const hook = e2e.node(`${id}-start`, 'Start', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: `identity-${style}`, responseMode: 'lastNode', options: {} }, {
		webhookId: `00000000-0000-4000-8000-00000000000${STYLES.indexOf(style)}`,
	});
	const nodes = [hook, campaignsNode(id, prefixOf(row, style), style, "$('Start').first().json.body.at"), e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style))];
	return e2e.workflow(id, `Identity: ${row} (${style})`, nodes, e2e.chain(...nodes.map((each) => each.name)));
}

/** A Schedule Trigger workflow whose trigger output is pinned: two runs see the same firing. */
function schedule(row: string, style: Style) {
	const id = idOf(row, style);
	const start = e2e.node(`${id}-start`, 'Start', 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'hours', hoursInterval: 1 }] } });
	const nodes = [start, campaignsNode(id, prefixOf(row, style), style), e2e.lbaNode(`${id}-lba`, LBA, lbaParameters(style))];
	return { ...e2e.workflow(id, `Identity: ${row} (${style})`, nodes, e2e.chain(...nodes.map((each) => each.name))), pinData: { Start: [{ json: { timestamp: CALLER_AT } }] } };
}

const perStyle = <T>(make: (style: Style) => T) => Object.fromEntries(STYLES.map((style) => [style, make(style)])) as Record<Style, T>;
const WORKFLOWS = [
	...STYLES.flatMap((style) => [
		straight('retryOriginal', style),
		straight('retrySaved', style),
		straight('retryOnFail', style, { lbaSettings: RETRY_ON_FAIL }),
		child('subRetried', style),
		parent('subRetried', style, child('subRetried', style).id),
		child('subTries', style),
		parent('subTries', style, child('subTries', style).id, { subSettings: RETRY_ON_FAIL }),
		child('subLbaTries', style, { lbaSettings: RETRY_ON_FAIL }),
		parent('subLbaTries', style, child('subLbaTries', style).id),
		child('subTwice', style),
		parent('subTwice', style, child('subTwice', style).id, { twice: true }),
		child('nested', style),
		child('nested', style, { grandchild: child('nested', style).id }),
		parent('nested', style, child('nested', style, { grandchild: 'x' }).id),
		loop('loop', style),
		straight('wait', style, { between: [e2e.node(`${idOf('wait', style)}-wait`, 'Wait', 'n8n-nodes-base.wait', 1.1, { amount: 2, unit: 'seconds' })] }),
		straight('editorTwice', style),
		editor('editorStep', style),
		webhook('webhook', style),
		schedule('schedule', style),
	]),
	straight('forget', 'now'),
	{ ...straight('resend', 'fixed'), nodes: straight('resend', 'fixed').nodes.map((each) => (each.name === CODE ? campaignsNode(idOf('resend', 'fixed'), prefixOf('resend', 'fixed'), 'fixed', '', ["{ name: 'resend-fixed-new-' + $execution.id }"]) : each)) },
];
/**
 * Published: the webhooks, and in n8n 2.x the sub-workflows, whose published version runs outside
 * the editor (a Retry); n8n 1.x runs the saved one and publishes no workflow without a trigger.
 */
const PUBLISHED = WORKFLOWS.filter((each) => (e2e.n8nVersion().startsWith('1.') ? /webhook/ : /Child|webhook/).test(each.id)).map((each) => each.id);

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const nameOf = (campaign: Campaign) => campaign.request.name;
const startOf = (campaign: Campaign) => seconds(campaign.request.channels[0].startDate);

/** What the rule needs of the campaign an item would send: its name, message and start (none for `$now`: it moves). */
interface Intended {
	name: string;
	message: string;
	start?: number;
}
function intended(names: string[], style: Style, at: string | undefined, message = MESSAGE): Intended[] {
	const start = style === 'fixed' ? seconds(e2e.FIXED_DATES.startDate) : style === 'trigger' ? seconds(at!) + 5 * 60 : undefined;
	return names.map((name) => ({ name, message, start }));
}
const names = (prefix: string, from = 0, to = COUNT) => Array.from({ length: to - from }, (_, index) => `${prefix}-${from + index + 1}`);

type Figure = { row: string; style: Style | '-'; executions: number; created: number; said: string; expected: string };
const figures: Figure[] = [];
const results: Array<{ test: string; style: Style; ok: boolean }> = [];

e2e.describeE2E(`one execution as n8n means it, in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let rest: e2e.N8nRest;
	const started = Date.now();

	let steps: e2e.UserSteps;
	const journal = (prefix: string) => steps.journal(prefix);
	const fault = (spec: Json) => steps.fault(spec);
	const fault503AtItem4 = () => fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 3, times: 1 });
	const clearFaults = () => steps.clearFaults();
	/** Dates go out to the second: with `$now`, a later execution within the same second would send the same campaign. */
	const secondPasses = async (style: Style) => {
		if (style === 'now') await new Promise((resolve) => setTimeout(resolve, 1100));
	};

	type Finished = e2e.FinishedExecution;
	/** The editor's "Execute workflow". */
	const run = (id: string) => steps.run(id);
	/** The executions list's Retry: with the original workflow, or (`loadWorkflow`) the saved one. */
	const retry = (workflowId: string, executionId: string, loadWorkflow = false) => steps.retry(workflowId, executionId, loadWorkflow);
	/** The editor's Execute step on the LBA node: the run data of `previous`, after a save. */
	async function executeStep(id: string, previous: Finished, dirtyNodeNames: string[]) {
		const runData = { ...previous.run.resultData.runData };
		delete runData[LBA];
		return await steps.executeStep(id, LBA, runData, dirtyNodeNames);
	}
	const setNode = (id: string, name: string, change: (node: Json) => Json) => steps.setNode(id, name, change);
	/** The trigger timestamp the execution's items carry (the trigger style), from its Code node. */
	const atOf = (execution: Finished, code = CODE) => execution.output(code)[0]?.at as string | undefined;

	/**
	 * The rule for one run's output `items` (aligned with `want`): an item is held back when the
	 * execution it retries created it (`heldByRetry`) or when the same campaign by meaning is in
	 * `earlier`; every other item is sent, and `created` (the journal's new entries) holds exactly
	 * those. With `$now` no earlier campaign is the same: the sent ones must start later than all.
	 */
	function expectRule(row: string, style: Style | '-', executions: number, items: Json[], want: Intended[], earlier: Campaign[], created: Campaign[], heldByRetry = new Set<string>(), resend = false) {
		const sameEarlier = (item: Intended) =>
			item.start !== undefined && earlier.some((c) => nameOf(c) === item.name && c.request.channels[0].message === item.message && startOf(c) === item.start);
		const held = want.map((item) => heldByRetry.has(item.name) || (!resend && sameEarlier(item)));
		const said = summary(items);
		const expected = `${held.filter((h) => !h).length} sent, ${held.filter(Boolean).length} held back`;
		figures.push({ row, style, executions, created: created.length, said, expected });
		expect(items).toHaveLength(want.length);
		want.forEach((item, index) => {
			const out = items[index];
			if (held[index]) {
				expect({ item: item.name, ...out }).toMatchObject({ item: item.name, skipped: true, earlierOutcome: 'created', reason: expect.stringMatching(/not sent again/) });
				if (heldByRetry.has(item.name) && !sameEarlier(item)) expect({ item: item.name, reason: out.reason }).toEqual({ item: item.name, reason: expect.stringMatching(/retr/i) });
			} else {
				expect({ item: item.name, skipped: out.skipped, status: out.status }).toEqual({ item: item.name, skipped: undefined, status: 'Published' });
				expect(created.find((c) => c.campaignId === out.campaignId && nameOf(c) === item.name)).toBeDefined();
			}
		});
		expect(created.map(nameOf).sort()).toEqual(want.filter((_, index) => !held[index]).map((item) => item.name).sort());
		if (style === 'now') for (const c of created) for (const e of earlier) if (nameOf(e) === nameOf(c)) expect(startOf(c)).toBeGreaterThan(startOf(e));
	}
	/**
	 * Runs a row once per way of writing the dates, all three even when one fails, then fails with
	 * every style's error: the figures show each column.
	 */
	async function eachStyle(row: (style: Style) => Promise<void>) {
		const failures: string[] = [];
		for (const style of STYLES) {
			try {
				await row(style);
			} catch (error) {
				await clearFaults();
				failures.push(`${style} dates: ${(error as Error).message}`);
			}
			results.push({ test: expect.getState().currentTestName ?? '', style, ok: failures.every((f) => !f.startsWith(style)) });
		}
		if (failures.length) throw new Error(failures.join('\n\n'));
	}
	function summary(items: Json[]) {
		const counts = new Map<string, number>();
		for (const item of items) {
			const fate = item.skipped ? `skipped (${item.earlierOutcome}: "${item.reason}")` : item.status === 'Published' ? 'created' : `error: ${item.error ?? JSON.stringify(item)}`;
			counts.set(fate, (counts.get(fate) ?? 0) + 1);
		}
		return [...counts].map(([fate, count]) => `${count} ${fate}`).join('; ');
	}

	/** A 503 at item 4 fails the row's workflow after 3 campaigns; then a second passes (for `$now`). */
	async function failAtItem4(row: string, style: Style) {
		const prefix = prefixOf(row, style);
		await fault503AtItem4();
		const failed = await run(idOf(row, style));
		await clearFaults();
		expect(failed.status).toBe('error');
		const createdByFailed = await journal(prefix);
		expect(createdByFailed.map(nameOf)).toEqual(names(prefix, 0, 3));
		await secondPasses(style);
		return { prefix, failed, createdByFailed };
	}

	/**
	 * A 503 at item 4 fails the first execution (3 campaigns created), then `retryIt` re-runs it;
	 * `output` reads the retry's items (default: `node`'s) and their names.
	 */
	async function failThenRetry(row: string, style: Style, retryIt: (failed: Finished) => Promise<Finished>, node = LBA, retryHoldReaches = true) {
		const { prefix, failed, createdByFailed } = await failAtItem4(row, style);
		const retried = await retryIt(failed);
		expect(retried.status).toBe('success');
		const after = await journal(prefix);
		const heldByRetry = new Set(retryHoldReaches ? createdByFailed.map(nameOf) : []);
		expectRule(row, style, 2, retried.output(node), intended(names(prefix), style, atOf(failed)), createdByFailed, after.slice(createdByFailed.length), heldByRetry);
	}

	/** One execution whose node (or sub-workflow node) retries itself after a 503 at item 4. */
	async function retriesItself(row: string, style: Style, node: string) {
		const prefix = prefixOf(row, style);
		await fault503AtItem4();
		const result = await run(idOf(row, style));
		await clearFaults();
		expect(result.status).toBe('success');
		const created = await journal(prefix);
		const items = result.output(node);
		// The first try's campaigns: those in the journal the last try did not send (a held item names the campaign it holds).
		const firstTry = created.filter((c) => !items.some((item) => !item.skipped && item.campaignId === c.campaignId));
		expect(firstTry.map(nameOf)).toEqual(names(prefix, 0, 3));
		const lastTry = created.filter((c) => !firstTry.includes(c));
		expectRule(row, style, 1, items, intended(names(prefix), style, atOf(result)), firstTry, lastTry, new Set(firstTry.map(nameOf)));
	}

	/** Two new executions of the same campaigns, one after the other: the second sends only what changed. */
	async function twice(row: string, style: Style, runIt: () => Promise<Finished>, node = LBA) {
		const prefix = prefixOf(row, style);
		const first = await runIt();
		expect(first.status).toBe('success');
		const afterFirst = await journal(prefix);
		expectRule(row, style, 1, first.output(node), intended(names(prefix), style, atOf(first)), [], afterFirst);
		await secondPasses(style);
		const second = await runIt();
		expect(second.status).toBe('success');
		const afterSecond = await journal(prefix);
		expectRule(row, style, 2, second.output(node), intended(names(prefix), style, atOf(second)), afterFirst, afterSecond.slice(afterFirst.length));
	}

	beforeAll(async () => {
		setup = await e2e.startLbaN8n('identity', { workflows: WORKFLOWS, publish: PUBLISHED, shared: true });
		({ rest } = setup);
		steps = e2e.userSteps(setup);
	}, 15 * 60 * 1000);

	afterAll(async () => {
		await setup?.close();
		if (!figures.length) return;
		const outcomes = e2e.markdownTable<(typeof results)[number]>(
			[
				['row', (r) => r.test.replace(/^one execution as n8n means it, in real n8n \S+ /, '').replace(/:.*/, '')],
				['dates', (r) => r.style],
				['result', (r) => (r.ok ? 'pass' : 'FAIL')],
			],
			results,
		);
		const table = e2e.markdownTable<Figure>(
			[
				['row', (f) => f.row],
				['dates', (f) => f.style],
				['executions', (f) => f.executions],
				['campaigns created', (f) => f.created],
				['the node said', (f) => f.said],
				['the rule expects', (f) => f.expected],
			],
			figures,
		);
		e2e.writeReport('identity', `The identity matrix in real n8n ${e2e.n8nVersion()}`, `${outcomes}\n\n${table}\n\nThe file took ${Math.round((Date.now() - started) / 1000)} s.`, { print: true });
	});

	test('executions-list Retry (original workflow): the campaigns the failed execution created are held back, the rest sent once', async () => {
		await eachStyle(async (style) => {
			await failThenRetry('retryOriginal', style, (failed) => retry(idOf('retryOriginal', style), failed.executionId));
		});
	});

	test('executions-list Retry (saved workflow): a saved change of a send-only option (Timeout) changes nothing held back', async () => {
		await eachStyle(async (style) => {
			await failThenRetry('retrySaved', style, async (failed) => {
				await setNode(idOf('retrySaved', style), LBA, (node) => ({ ...node, parameters: { ...node.parameters, options: { ...node.parameters.options, timeoutMs: 20_000 } } }));
				return await retry(idOf('retrySaved', style), failed.executionId, true);
			});
		});
	});

	test("node Retry On Fail: the second try holds back the first try's campaigns", async () => {
		await eachStyle(async (style) => {
			await retriesItself('retryOnFail', style, LBA);
		});
	});

	test('sub-workflow, parent retried: the new child execution holds back what the failed one created', async () => {
		await eachStyle(async (style) => {
			await failThenRetry('subRetried', style, (failed) => retry(idOf('subRetried', style), failed.executionId), SUB);
		});
	});

	test("sub-workflow, Retry On Fail on the parent's Execute Workflow node: the second child holds back the first child's campaigns", async () => {
		await eachStyle(async (style) => {
			await retriesItself('subTries', style, SUB);
		});
	});

	test("sub-workflow, Retry On Fail on the child's LBA node: the second try holds back the first try's campaigns", async () => {
		await eachStyle(async (style) => {
			await retriesItself('subLbaTries', style, SUB);
		});
	});

	// Issue 59: the first call returned its items, so its campaigns are its own: the second call holds
	// back only the same campaigns by meaning (fixed dates, the trigger's), and sends its $now ones.
	test('sub-workflow called twice in one parent execution: the second call holds back the same campaigns by meaning, none as the first call\'s Retry ($now dates: new campaigns, sent)', async () => {
		await eachStyle(async (style) => {
			const prefix = prefixOf('subTwice', style);
			const result = await run(idOf('subTwice', style));
			expect(result.status).toBe('success');
			const all = await journal(prefix);
			const firstCall = result.output(SUB);
			const byFirst = all.filter((c) => firstCall.some((item) => item.campaignId === c.campaignId));
			const want = intended(names(prefix), style, atOf(result));
			expectRule('subTwice (first call)', style, 1, firstCall, want, [], byFirst);
			expectRule('subTwice (second call)', style, 1, result.output(`${SUB} again`), want, byFirst, all.filter((c) => !byFirst.includes(c)));
		});
	});

	// A limit (docs/duplicate-protection.md): a sub-execution knows its caller's execution only, so
	// the grandchild's retry key is the middle execution's, new at every Retry of the top one.
	test('nested sub-workflow, top parent retried (limit: the retry hold reaches one level down; the grandchild holds back the same campaign by meaning, and with $now dates sends again)', async () => {
		e2e.follows('pageNestedDates');
		await eachStyle(async (style) => {
			await failThenRetry('nested', style, (failed) => retry(idOf('nested', style), failed.executionId), SUB, false);
		});
	});

	test('Loop Over Items failing mid-loop, then Retry: the loop goes on, each campaign once', async () => {
		await eachStyle(async (style) => {
			const row = 'loop';
			const { prefix, failed, createdByFailed } = await failAtItem4(row, style);
			const retried = await retry(idOf(row, style), failed.executionId);
			expect(retried.status).toBe('success');
			// The LBA node's runs made by the Retry (it keeps the failed execution's earlier ones): run r got items 2r+1, 2r+2.
			const runs: Array<{ startTime: number }> = retried.run.resultData.runData[LBA];
			const fresh = runs.map((task, runIndex) => ({ task, runIndex })).filter(({ task }) => task.startTime >= retried.startedAt);
			expect(fresh.map(({ runIndex }) => runIndex)).toEqual([1, 2]);
			const items = fresh.flatMap(({ runIndex }) => retried.output(LBA, runIndex));
			const want = intended(names(prefix, 2, COUNT), style, atOf(failed));
			const after = await journal(prefix);
			expectRule(row, style, 2, items, want, createdByFailed, after.slice(createdByFailed.length), new Set(createdByFailed.map(nameOf)));
			expect(after.map(nameOf).sort()).toEqual(names(prefix).sort());
		});
	});

	test('Wait node before the LBA node, then Retry: the Retry after the wait holds back what the failed execution created', async () => {
		await eachStyle(async (style) => {
			await failThenRetry('wait', style, (failed) => retry(idOf('wait', style), failed.executionId));
		});
	});

	test('editor Execute workflow twice: the second run sends only changed campaigns', async () => {
		await eachStyle(async (style) => {
			await twice('editorTwice', style, () => run(idOf('editorTwice', style)));
		});
	});

	const stepRuns: Partial<Record<Style, Finished>> = {};
	/** The editor's Execute step on the LBA node after `previous`, held to the rule against the journal. */
	async function checkedStep(row: string, style: Style, previous: Finished, dirtyNodeNames: string[]) {
		const prefix = prefixOf('editorStep', style);
		const before = await journal(prefix);
		await secondPasses(style);
		const step = await executeStep(idOf('editorStep', style), previous, dirtyNodeNames);
		stepRuns[style] = step;
		expect(step.status).toBe('success');
		const after = await journal(prefix);
		expectRule(row, style, 1, step.output(LBA), intended(names(prefix), style, atOf(step, 'Prepare'), 'Promo B'), before, after.slice(before.length));
	}

	test('Execute step after an upstream edit: the new message is sent', async () => {
		await eachStyle(async (style) => {
			const id = idOf('editorStep', style);
			const prefix = prefixOf('editorStep', style);
			const first = await run(id);
			expectRule('editorStep (Execute workflow)', style, 1, first.output(LBA), intended(names(prefix), style, atOf(first, 'Prepare'), 'Promo A'), [], await journal(prefix));
			await setNode(id, 'Config', (node) => ({ ...node, parameters: { ...node.parameters, assignments: { assignments: [{ id: 'message', name: 'message', value: 'Promo B', type: 'string' }] } } }));
			await checkedStep('Execute step after an upstream edit', style, first, ['Config']);
		});
	});

	test('Execute step again, unchanged: only changed campaigns are sent', async () => {
		await eachStyle(async (style) => {
			expect(stepRuns[style]).toBeDefined();
			await checkedStep('Execute step again, unchanged', style, stepRuns[style]!, []);
		});
	});

	test('webhook called twice (published, the same request body): the second call sends only changed campaigns', async () => {
		await eachStyle(async (style) => {
			const id = idOf('webhook', style);
			await twice('webhook', style, async () => {
				const before = (await rest.listExecutions(id)).length;
				const res = await fetch(`${setup!.n8n!.baseUrl}/webhook/identity-${style}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ at: CALLER_AT }) });
				expect(res.status).toBe(200);
				for (let attempt = 0; ; attempt++) {
					const executions = await rest.listExecutions(id);
					if (executions.length > before) return await steps.finished(String(executions[executions.length - 1].id));
					if (attempt > 100) throw new Error(`no execution of ${id} after the webhook answered`);
					await new Promise((resolve) => setTimeout(resolve, 300));
				}
			});
		});
	});

	test("schedule firing twice (staged: two runs of the Schedule Trigger workflow with the trigger's output pinned, one timestamp): the second sends only changed campaigns", async () => {
		await eachStyle(async (style) => {
			await twice('schedule', style, async () => {
				const result = await run(idOf('schedule', style));
				if (style === 'trigger') expect(atOf(result)).toBe(CALLER_AT);
				return result;
			});
		});
	});

	test("Forget Sent with the keys a failed item's error names, then Retry (the editor offers it: the execution failed): that campaign is sent again, the others stay held ($now dates)", async () => {
		e2e.follows('copyForgetKeysOwnHistory', 'useForgetKeys');
		const id = idOf('forget', 'now');
		const prefix = prefixOf('forget', 'now');
		// Item 2's request gets no answer (a 502): it may have been created. A failed run shows only its error.
		await fault({ method: 'POST', path: '/lba/campaign', status: 502, skip: 1, times: 1 });
		const failed = await run(id);
		await clearFaults();
		expect(failed.status).toBe('error');
		const keys = /Its keys, for Forget Sent: (.*?)\.$/.exec(String(failed.error?.description))?.[1];
		expect(keys).toMatch(/^retry:v4:[0-9a-f]{64} content:v2:[0-9a-f]{64}$/);
		const beforeForget = await journal(prefix);
		expect(beforeForget.map(nameOf)).toEqual(names(prefix, 0, 1));

		// Not in LBA Ads: the user frees it (Mode → Forget Sent Campaigns, Some Keys), then Retries.
		const saved = await rest.getWorkflow(id);
		const create = saved.nodes.find((node: Json) => node.name === LBA).parameters;
		// First a key of another node's (it matches nothing here): the output and its hint say where to copy from.
		await setNode(id, LBA, (node) => ({ ...node, parameters: { ...create, runMode: 'forget', forgetWhat: 'keys', forgetKeys: `retry:v4:${'0'.repeat(64)}` } }));
		const wrong = await run(id);
		expect(wrong.output(LBA)[0].message).toBe("No key matched anything in this node's history: nothing was forgotten. Copy forgetKeys from an item of this same node's output (each node keeps its own history).");
		expect(JSON.stringify(wrong.run.resultData.runData[LBA][0].hints ?? [])).toContain("Use forgetKeys from an item of this same node's output.");
		expect(await journal(prefix)).toEqual(beforeForget);
		await setNode(id, LBA, (node) => ({ ...node, parameters: { ...create, runMode: 'forget', forgetWhat: 'keys', forgetKeys: keys } }));
		expect((await run(id)).status).toBe('success');
		await setNode(id, LBA, (node) => ({ ...node, parameters: create }));
		await secondPasses('now');
		const again = await retry(id, failed.executionId);
		const after = await journal(prefix);
		expectRule('Forget Sent, then Retry', 'now', 3, again.output(LBA), intended(names(prefix), 'now', undefined), beforeForget, after.slice(beforeForget.length), new Set(names(prefix, 0, 1)));
	});

	test('Resend on, then "Retry with currently saved workflow" where the retried execution did not create them: sent', async () => {
		const id = idOf('resend', 'fixed');
		const prefix = prefixOf('resend', 'fixed');
		const first = await run(id);
		expect(first.status).toBe('success');
		const afterFirst = await journal(prefix);
		expect(afterFirst).toHaveLength(COUNT + 1);
		// The next run holds back the six and sends one new item, refused: it created nothing.
		await fault({ method: 'POST', path: '/lba/campaign', status: 503, times: 1 });
		const failed = await run(id);
		await clearFaults();
		expect(failed.status).toBe('error');
		expect(await journal(prefix)).toEqual(afterFirst);
		await setNode(id, LBA, (node) => ({ ...node, parameters: { ...node.parameters, options: { ...node.parameters.options, resend: true } } }));
		const retried = await retry(id, failed.executionId, true);
		expect(retried.status).toBe('success');
		const items = retried.output(CODE).map((item) => ({ name: item.name as string, message: MESSAGE, start: seconds(e2e.FIXED_DATES.startDate) }));
		const after = await journal(prefix);
		expectRule('Resend, then Retry with the saved workflow', 'fixed', 3, retried.output(LBA), items, afterFirst, after.slice(afterFirst.length), new Set(), true);
	});
});
