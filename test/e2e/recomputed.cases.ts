// The cases of issue 51 where the data before the LBA node is computed again in a sub-workflow,
// shared by the regular-mode suite (test/e2e/recomputed.e2e.test.ts, the editor's Execute workflow)
// and the queue-mode suite (test/queue/queue-mode.queue.test.ts, each parent a production execution
// on a worker, its Retry on any worker). A parent Retry, or Retry On Fail on an Execute Workflow
// node, runs the sub-workflow as a new execution: its Code nodes run again, its rows may have changed
// (here: the child edited and published, as when its sheet changed), nodes may be inserted or
// renamed. Each case counts campaigns per name in the sandbox's journal: a campaign created twice or
// never fails, even where the totals agree. Each failed on the lineage identity (retry:v2) this
// replaces.
import * as e2e from './lib';

type Json = Record<string, any>;

const LBA = 'Create campaigns';
const CODE = 'Rows';
const SUB = 'Run sub-workflow';
/** Dates that move with the clock: every evaluation, a Retry's too, gives later ones. */
const nowParameters = (channel: Json = {}) =>
	e2e.createCampaignParameters({ name: '={{ $json.name }}', channels: { channel: [e2e.channel({ ...e2e.NOW_DATES, ...channel })] }, options: { concurrency: 1 } });

/** A Code node returning `rows` (JavaScript that evaluates to an array of objects), without pairedItem. */
const rowsNode = (id: string, rows: string, name = CODE) =>
	e2e.node(id, name, 'n8n-nodes-base.code', 2, { jsCode: `return (${rows}).map((json) => ({ json }));` });

function child(id: string, rows: string, lbaParameters: Json) {
	const nodes = [e2e.executeWorkflowTrigger(`${id}-trigger`), rowsNode(`${id}-rows`, rows), e2e.lbaNode(`${id}-lba`, LBA, lbaParameters)];
	return e2e.workflow(id, `Recomputed: ${id}`, nodes, e2e.chain('Called', CODE, LBA));
}
function parent(id: string, childId: string, subSettings: Json = {}) {
	const nodes = [e2e.manualTrigger(`${id}-start`), e2e.executeWorkflowNode(`${id}-sub`, SUB, childId, subSettings)];
	return e2e.workflow(id, `Recomputed: ${id}`, nodes, e2e.chain('Start', SUB));
}

const rowsOf = (prefix: string, letters: string) => JSON.stringify(letters.split('').map((letter) => ({ name: `${prefix}-${letter}` })));
/**
 * Two campaigns per store, morning and evening, their start from DateTime.now() (the Code node's own
 * clock). A clock read has seconds: one that lands on :00 (1 in 60) is a whole minute, which the node
 * cannot tell from a sheet's 09:00 and holds as `unclear` (itemOrigin.ts), so the read moves off it.
 */
const twoPerStore = (prefix: string) =>
	`['A', 'B'].flatMap((store) => ['morning', 'evening'].map((slot) => { const now = DateTime.now(); return { name: '${prefix}-' + store, slot, startDate: (now.second ? now : now.plus({ seconds: 1 })).plus({ hours: slot === 'evening' ? 10 : 1 }).toISO() }; }))`;

const CHANGED = { child: child('recChangedChild', rowsOf('changed', 'ABCD'), nowParameters()), parent: parent('recChanged', 'recChangedChild') };
const EDITED = { child: child('recEditedChild', rowsOf('edited', 'ABCD'), nowParameters()), parent: parent('recEdited', 'recEditedChild') };
const TWO_PER_STORE = {
	child: child('recTwoChild', twoPerStore('two'), nowParameters({ startDate: '={{ $json.startDate }}', endDate: "={{ DateTime.fromISO($json.startDate).plus({ days: 2 }) }}" })),
	parent: parent('recTwo', 'recTwoChild', { retryOnFail: true, maxTries: 2, waitBetweenTries: 1100 }),
};
const TWO_CALLERS = (() => {
	const sub = child('recCallersChild', "[{ name: 'callers-' + $('Called').first().json.session }]", nowParameters());
	const nodes = [
		e2e.manualTrigger('recCallers-start'),
		e2e.node('recCallers-morning', 'Morning', 'n8n-nodes-base.set', 3.4, { assignments: { assignments: [{ id: 'm', name: 'session', value: 'morning', type: 'string' }] }, options: {} }),
		e2e.executeWorkflowNode('recCallers-sub', SUB, 'recCallersChild'),
		e2e.node('recCallers-evening', 'Evening', 'n8n-nodes-base.set', 3.4, { assignments: { assignments: [{ id: 'e', name: 'session', value: 'evening', type: 'string' }] }, options: {} }),
		e2e.executeWorkflowNode('recCallers-sub2', `${SUB} again`, 'recCallersChild'),
	];
	return { child: sub, parent: e2e.workflow('recCallers', 'Recomputed: two callers', nodes, e2e.chain('Start', 'Morning', SUB, 'Evening', `${SUB} again`)) };
})();
/**
 * The parent passes each row and $now (an unused requestedAt, and the send window) through Execute
 * Workflow's Workflow Inputs; the child's trigger declares them. A Retry evaluates $now again.
 */
const STAMPED = (() => {
	const fields = ['name', 'requestedAt', 'startDate', 'endDate'];
	const trigger = e2e.node('recStampChild-trigger', 'Called', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, {
		inputSource: 'workflowInputs',
		workflowInputs: { values: fields.map((name) => ({ name, type: 'string' })) },
	});
	const sub = e2e.workflow(
		'recStampChild',
		'Recomputed: recStampChild',
		[trigger, e2e.lbaNode('recStampChild-lba', LBA, nowParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' }))],
		e2e.chain('Called', LBA),
	);
	const inputs = {
		mappingMode: 'defineBelow',
		value: {
			name: '={{ $json.name }}',
			requestedAt: '={{ $now.toISO() }}',
			startDate: '={{ $now.plus({ minutes: 5 }).toISO() }}',
			endDate: '={{ $now.plus({ days: 3 }).toISO() }}',
		},
		matchingColumns: [],
		schema: fields.map((id) => ({ id, displayName: id, required: false, defaultMatch: false, display: true, canBeUsedToMatch: true, type: 'string', removed: false })),
		attemptToConvertTypes: false,
		convertFieldsToString: true,
	};
	const caller = (id: string, prefix: string, subSettings: Json = {}) => {
		const call = e2e.executeWorkflowNode(`${id}-sub`, SUB, 'recStampChild', subSettings);
		return e2e.workflow(
			id,
			`Recomputed: ${id}`,
			[e2e.manualTrigger(`${id}-start`), rowsNode(`${id}-rows`, rowsOf(prefix, 'ABCD')), { ...call, parameters: { ...call.parameters, workflowInputs: inputs } }],
			e2e.chain('Start', CODE, SUB),
		);
	};
	return { child: sub, retried: caller('recStamp', 'stamp'), retryOnFail: caller('recStampTries', 'tries', { retryOnFail: true, maxTries: 2, waitBetweenTries: 1100 }) };
})();
/** The child keeps the stores open by now ($now filter); store E opens between the first run and the Retry, listed first. */
const FILTERED = {
	child: e2e.workflow(
		'recFilterChild',
		'Recomputed: recFilterChild',
		[e2e.executeWorkflowTrigger('recFilterChild-trigger'), rowsNode('recFilterChild-rows', '[]'), e2e.lbaNode('recFilterChild-lba', LBA, nowParameters())],
		e2e.chain('Called', CODE, LBA),
	),
	parent: parent('recFilter', 'recFilterChild'),
};
/** Fixed rows, $now dates: the parent of the GET /lba/locations failure during a Retry. */
const LIST_DOWN = { child: child('recListChild', rowsOf('list', 'ABCD'), nowParameters()), parent: parent('recList', 'recListChild') };
/**
 * Two campaigns of one shape, morning and evening (the same name and message): the fixed-date
 * child's rows come from its Code node, the `$now` child's windows from each row's slot.
 */
const slotRows = (prefix: string, slots: string) =>
	JSON.stringify(
		slots.split(',').map((slot) => ({
			name: `${prefix}-A`,
			slot,
			startDate: slot === 'morning' ? '2036-12-01T09:00:00+07:00' : '2036-12-01T18:00:00+07:00',
			endDate: slot === 'morning' ? '2036-12-01T12:00:00+07:00' : '2036-12-01T21:00:00+07:00',
		})),
	);
const SLOTS_FIXED = {
	child: child('recSlotsChild', slotRows('slots', 'morning,evening'), nowParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' })),
	parent: parent('recSlots', 'recSlotsChild'),
};
const SLOTS_NOW = {
	child: child('recSlotsNowChild', slotRows('slotsnow', 'evening,morning'), nowParameters({ startDate: '={{ $now.plus({ hours: $json.slot === "evening" ? 10 : 1 }) }}' })),
	parent: parent('recSlotsNow', 'recSlotsNowChild'),
};
/**
 * Issue 59: the same promo on a grid of whole minutes (09:00 and 09:05, from the child's rows as a
 * sheet gives them), and another promo between them. The two of one shape differ by what the clock
 * could have moved in the seconds before a Retry (within its 10-minute tolerance).
 */
const gridRow = (name: string, start: string) => ({ name, startDate: `2036-12-10T${start}:00+07:00`, endDate: `2036-12-10T${start.replace(/^09/, '18')}:00+07:00` });
const gridRows = (rows: Array<[string, string]>) => JSON.stringify(rows.map(([name, start]) => gridRow(name, start)));
const GRID = {
	child: child(
		'recGridChild',
		gridRows([['grid-A', '09:00'], ['grid-B', '09:00'], ['grid-A', '09:05']]),
		nowParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' }),
	),
	parent: parent('recGrid', 'recGridChild'),
};
/**
 * Issue 59: the original retried a second time after its first Retry failed (n8n offers Retry on it
 * while no Retry of it succeeded); each Retry copies the original's context, so the second never
 * sees what the first sent. The same promo at 10:00, 10:10, then 10:20 and 10:05 added.
 */
const twiceRow = (name: string, start: string) => ({ name, startDate: `2036-12-11T${start}:00+07:00`, endDate: `2036-12-11T${start.replace(/^10/, '18')}:00+07:00` });
const twiceRows = (rows: Array<[string, string]>) => JSON.stringify(rows.map(([name, start]) => twiceRow(name, start)));
const TWICE_ROWS: Array<[string, string]> = [['twice-slot', '10:00'], ['twice-other', '10:05'], ['twice-slot', '10:10']];
const RETRIED_TWICE = {
	child: child('recTwiceChild', twiceRows(TWICE_ROWS), nowParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' })),
	parent: parent('recTwice', 'recTwiceChild'),
};
/** Issue 59: a parent that calls the child once per slot (Loop Over Items, batch 1, as n8n's notice advises). */
const PER_SLOT = (() => {
	const sub = e2e.workflow(
		'recPerSlotChild',
		'Recomputed: recPerSlotChild',
		[e2e.executeWorkflowTrigger('recPerSlotChild-trigger'), e2e.lbaNode('recPerSlotChild-lba', LBA, nowParameters({ startDate: '={{ $json.startDate }}', endDate: '={{ $json.endDate }}' }))],
		e2e.chain('Called', LBA),
	);
	const loop = e2e.node('recPerSlot-loop', 'One slot at a time', 'n8n-nodes-base.splitInBatches', 3, { batchSize: 1, options: {} });
	const nodes = [e2e.manualTrigger('recPerSlot-start'), rowsNode('recPerSlot-rows', gridRows([['slot-A', '09:00'], ['slot-A', '09:05']])), loop, e2e.executeWorkflowNode('recPerSlot-sub', SUB, 'recPerSlotChild')];
	const connections = e2e.connect(e2e.connect(e2e.chain('Start', CODE, loop.name), loop.name, SUB, 1), SUB, loop.name);
	return { child: sub, parent: e2e.workflow('recPerSlot', 'Recomputed: recPerSlot', nodes, connections) };
})();
/** Issue 59: Loop Over Items (two at a time) before the LBA node in the child, `$now` dates: the loop round is no part of who a campaign is. */
const LOOPED = (() => {
	const loop = e2e.node('recLoopChild-loop', 'Two at a time', 'n8n-nodes-base.splitInBatches', 3, { batchSize: 2, options: {} });
	const nodes = [e2e.executeWorkflowTrigger('recLoopChild-trigger'), rowsNode('recLoopChild-rows', rowsOf('looped', 'ABCD')), loop, e2e.lbaNode('recLoopChild-lba', LBA, nowParameters())];
	const connections = e2e.connect(e2e.connect(e2e.chain('Called', CODE, loop.name), loop.name, LBA, 1), LBA, loop.name);
	return { child: e2e.workflow('recLoopChild', 'Recomputed: recLoopChild', nodes, connections), parent: parent('recLoop', 'recLoopChild') };
})();
/**
 * Issue 59: two LBA nodes in the child, the same promo morning and evening (one shape: the same name and
 * message), `$now` dates; the second node's items name their row through `$('Rows')`.
 */
const TWO_NODES = (() => {
	const morning = e2e.lbaNode('recTwoNodesChild-morning', 'Morning', nowParameters({ startDate: '={{ $now.plus({ hours: 1 }) }}' }));
	const evening = e2e.lbaNode('recTwoNodesChild-evening', 'Evening', {
		...nowParameters({ startDate: '={{ $now.plus({ hours: 10 }) }}' }),
		name: "={{ $('Rows').item.json.name }}",
	});
	const nodes = [e2e.executeWorkflowTrigger('recTwoNodesChild-trigger'), rowsNode('recTwoNodesChild-rows', rowsOf('twonodes', 'ABC')), morning, evening];
	return { child: e2e.workflow('recTwoNodesChild', 'Recomputed: recTwoNodesChild', nodes, e2e.chain('Called', CODE, 'Morning', 'Evening')), parent: parent('recTwoNodes', 'recTwoNodesChild') };
})();
const ALL = [CHANGED, EDITED, TWO_PER_STORE, TWO_CALLERS, FILTERED, LIST_DOWN, SLOTS_FIXED, SLOTS_NOW, GRID, PER_SLOT, RETRIED_TWICE, LOOPED, TWO_NODES]
	.flatMap(({ child: c, parent: p }) => [c, p])
	.concat([STAMPED.child, STAMPED.retried, STAMPED.retryOnFail]);
export const WORKFLOWS = ALL;
/** The children, published (n8n 2.x runs a sub-workflow's published version; 1.x has no publishing). */
export const PUBLISHED = e2e.n8nVersion().startsWith('1.') ? [] : WORKFLOWS.filter((each) => /Child$/.test(each.id)).map((each) => each.id);
/** The parents: the workflows a user runs (queue mode: through a webhook, as production executions). */
export const PARENTS = WORKFLOWS.filter((each) => !/Child$/.test(each.id));

/** A campaign by its name and its first channel's start, as sent. */
const startOf = (campaign: e2e.JournalCampaign) => `${String(campaign.request.name)} ${String((campaign.request.channels as Json[])[0].startDate)}`;

/** Campaigns per name (and per slot where the name repeats), from the journal. */
function countsOf(campaigns: e2e.JournalCampaign[], key = (c: e2e.JournalCampaign) => c.request.name as string) {
	const counts: Record<string, number> = {};
	for (const campaign of campaigns) counts[key(campaign)] = (counts[key(campaign)] ?? 0) + 1;
	return counts;
}

/** Where the cases run: the suite's user steps, how it runs a parent, and how it publishes a child. */
export interface Deployment {
	steps: e2e.UserSteps;
	/** Runs parent `id` as its users do, once finished (regular mode: Execute workflow; queue mode: its webhook). */
	runParent(id: string): Promise<e2e.FinishedExecution>;
	/** Publishes child `id` again after a save (nothing on n8n 1.x). */
	publish(id: string): Promise<void>;
}

/** Runs parent `parentId` with the campaign request after the first `created` refused once (503). */
async function refuseOnceAfter({ steps, runParent }: Deployment, parentId: string, created: number) {
	await steps.fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: created, times: 1 });
	const run = await runParent(parentId);
	await steps.clearFaults();
	return run;
}
/** The same, and the parent's execution fails (no Retry On Fail). */
async function failAfter(deployment: Deployment, parentId: string, created: number) {
	const failed = await refuseOnceAfter(deployment, parentId, created);
	expect(failed.status).toBe('error');
	return failed;
}
/** Row C is refused (503): A and B created, the parent's execution fails. */
async function failAtRowC(deployment: Deployment, parentId: string, prefix: string) {
	const failed = await failAfter(deployment, parentId, 2);
	expect(countsOf(await deployment.steps.journal(prefix))).toEqual({ [`${prefix}-A`]: 1, [`${prefix}-B`]: 1 });
	return failed;
}
/** A save of the child whose Code node now returns `rows` (as when its sheet changed). */
const withRows =
	(rows: string): Parameters<e2e.UserSteps['saveWorkflow']>[1] =>
	({ nodes, connections }) => ({
		nodes: nodes.map((node) => (node.name === CODE ? { ...node, parameters: { jsCode: `return (${rows}).map((json) => ({ json }));` } } : node)),
		connections,
	});
/** The child saved with `change` and published (2.x runs a sub-workflow's published version), then the parent retried a second later. */
async function changeChildThenRetry({ steps, publish }: Deployment, workflows: typeof CHANGED, failed: e2e.FinishedExecution, change: Parameters<e2e.UserSteps['saveWorkflow']>[1]) {
	await steps.saveWorkflow(workflows.child.id, change);
	await publish(workflows.child.id);
	await new Promise((resolve) => setTimeout(resolve, 1100)); // $now moves on
	const retried = await steps.retry(workflows.parent.id, failed.executionId);
	expect(retried.status).toBe('success');
	return retried;
}

/** Each case: its title, and what it does on a deployment. */
export const RECOMPUTED_CASES: Array<[string, (deployment: Deployment) => Promise<void>]> = [
	[
		"the child's rows changed before the parent Retry (A marked sent and gone, a new row on top, the rest reversed): each campaign once, the new row sent",
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAtRowC(deployment, CHANGED.parent.id, 'changed');
			const retried = await changeChildThenRetry(deployment, CHANGED, failed, withRows(rowsOf('changed', 'NDCB')));
			expect(countsOf(await steps.journal('changed'))).toEqual({ 'changed-A': 1, 'changed-B': 1, 'changed-C': 1, 'changed-D': 1, 'changed-N': 1 });
			const [n, d, c, b] = retried.output(SUB);
			expect([n.status, d.status, c.status]).toEqual(['Published', 'Published', 'Published']);
			expect(b).toMatchObject({ skipped: true, earlierOutcome: 'created', campaignId: (await steps.journal('changed')).find((each) => each.request.name === 'changed-B')!.campaignId });
		},
	],
	[
		"issue 59: Loop Over Items (two at a time) before the LBA node in the child, $now dates; a row added on top and the sheet re-sorted before the parent Retry (every loop round shifted): each campaign once, A and B held as their own",
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAtRowC(deployment, LOOPED.parent.id, 'looped');
			const created = await steps.journal('looped');
			const retried = await changeChildThenRetry(deployment, LOOPED, failed, withRows(rowsOf('looped', 'NDCBA')));
			expect(countsOf(await steps.journal('looped'))).toEqual({ 'looped-A': 1, 'looped-B': 1, 'looped-C': 1, 'looped-D': 1, 'looped-N': 1 });
			// What the child returns (Loop Over Items' "done": the rounds' items, N D C B A): B and A held, each naming its own campaign.
			const idOf = (name: string) => created.find((each) => each.request.name === name)!.campaignId;
			expect(retried.output(SUB).map((item: Json) => (item.skipped ? `held as ${item.campaignId}` : item.status))).toEqual([
				'Published',
				'Published',
				'Published',
				`held as ${idOf('looped-B')}`,
				`held as ${idOf('looped-A')}`,
			]);
		},
	],
	[
		'issue 59: two LBA nodes in the child, the same promo morning and evening ($now dates); the evening node refused at its second item, the parent retried: each campaign once, the morning ones and the first evening one held',
		async (deployment) => {
			const { steps } = deployment;
			// Morning A, B, C created; evening A created; evening B refused (503): the child and its parent fail.
			const failed = await failAfter(deployment, TWO_NODES.parent.id, 4);
			expect(countsOf(await steps.journal('twonodes'))).toEqual({ 'twonodes-A': 2, 'twonodes-B': 1, 'twonodes-C': 1 });
			await new Promise((resolve) => setTimeout(resolve, 1100)); // $now moves on
			const retried = await steps.retry(TWO_NODES.parent.id, failed.executionId);
			expect(retried.status).toBe('success');
			// Evening: starting more than 5 hours after the service received it (10 hours on; morning, 1).
			const byStart = (campaign: e2e.JournalCampaign) => `${campaign.request.name} ${Date.parse(campaign.request.channels[0].startDate) - Date.parse(campaign.receivedAt) > 5 * 3_600_000 ? 'evening' : 'morning'}`;
			expect(countsOf(await steps.journal('twonodes'), byStart)).toEqual(
				Object.fromEntries(['A', 'B', 'C'].flatMap((letter) => [`twonodes-${letter} morning`, `twonodes-${letter} evening`]).map((name) => [name, 1])),
			);
			expect(retried.output(SUB).map((item: Json) => (item.skipped ? 'held' : item.status))).toEqual(['held', 'Published', 'Published']);
		},
	],
	[
		"a node inserted before the LBA node and the child's trigger renamed, then the parent Retry: A and B held, C and D sent once",
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAtRowC(deployment, EDITED.parent.id, 'edited');
			const retried = await changeChildThenRetry(deployment, EDITED, failed, ({ nodes }) => {
				const renamed = nodes.map((node) => (node.name === 'Called' ? { ...node, name: 'When called' } : node));
				const tag = e2e.node('recEdited-tag', 'Tag', 'n8n-nodes-base.set', 3.4, { assignments: { assignments: [{ id: 't', name: 'tag', value: 'x', type: 'string' }] }, includeOtherFields: true, options: {} });
				return { nodes: [...renamed, tag], connections: e2e.chain('When called', CODE, 'Tag', LBA) };
			});
			expect(countsOf(await steps.journal('edited'))).toEqual({ 'edited-A': 1, 'edited-B': 1, 'edited-C': 1, 'edited-D': 1 });
			expect(retried.output(SUB).map((item: Json) => item.status ?? item.earlierOutcome)).toEqual(['created', 'created', 'Published', 'Published']);
		},
	],
	[
		'a Code node builds two campaigns per store with DateTime.now() times (no pairedItem); Retry On Fail on the Execute Workflow node: 4 of 4, each hold on its own campaign',
		async (deployment) => {
			const { steps } = deployment;
			const result = await refuseOnceAfter(deployment, TWO_PER_STORE.parent.id, 3);
			expect(result.status).toBe('success');
			const created = await steps.journal('two');
			expect(countsOf(created)).toEqual({ 'two-A': 2, 'two-B': 2 });
			const items = result.output(SUB);
			// The last try: three held (each naming the campaign it was created as), one sent.
			const held = items.filter((item: Json) => item.skipped);
			expect(held.map((item: Json) => item.earlierOutcome)).toEqual(['created', 'created', 'created']);
			for (const item of held) expect(created.map((c) => c.campaignId)).toContain(item.campaignId);
			expect(new Set(held.map((item: Json) => item.campaignId)).size).toBe(3);
		},
	],
	[
		"the parent passes $now to the child through Execute Workflow's Workflow Inputs (an unused requestedAt, and the send window); the parent retried: 4 of 4",
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAtRowC(deployment, STAMPED.retried.id, 'stamp');
			await new Promise((resolve) => setTimeout(resolve, 1100)); // $now moves on
			const retried = await steps.retry(STAMPED.retried.id, failed.executionId);
			expect(retried.status).toBe('success');
			expect(countsOf(await steps.journal('stamp'))).toEqual({ 'stamp-A': 1, 'stamp-B': 1, 'stamp-C': 1, 'stamp-D': 1 });
		},
	],
	[
		"the parent passes $now through Workflow Inputs; Retry On Fail on the Execute Workflow node: 4 of 4",
		async (deployment) => {
			const { steps } = deployment;
			const result = await refuseOnceAfter(deployment, STAMPED.retryOnFail.id, 2);
			expect(result.status).toBe('success');
			expect(countsOf(await steps.journal('tries'))).toEqual({ 'tries-A': 1, 'tries-B': 1, 'tries-C': 1, 'tries-D': 1 });
		},
	],
	[
		'the child keeps the stores open by $now, and one more (listed first) opens before the parent Retry: 5 of 5, none twice',
		async (deployment) => {
			const { steps, publish } = deployment;
			const storesCode = (prefix: string, opensAt: string) =>
				`return ([{ name: '${prefix}-E', opensAt: '${opensAt}' }, ...['A', 'B', 'C', 'D'].map((letter) => ({ name: '${prefix}-' + letter, opensAt: '2020-01-01T00:00:00Z' }))].filter((store) => DateTime.fromISO(store.opensAt) <= $now)).map((json) => ({ json }));`;
			const saveAndPublish = async (prefix: string, opensAt: string) => {
				await steps.setNode(FILTERED.child.id, CODE, (node: Json) => ({ ...node, parameters: { jsCode: storesCode(prefix, opensAt) } }));
				await publish(FILTERED.child.id);
			};
			// Store E must open after the first run read $now and before the Retry. The margin is measured
			// from how long a save and a publish take on this machine now; when the first run still ended
			// after E opened (a loaded host: the case's premise did not hold, nothing was tested), the case
			// starts over under new names with twice the margin.
			for (let attempt = 1; ; attempt++) {
				const prefix = `filter${attempt}`;
				const started = Date.now();
				await saveAndPublish(prefix, '2099-01-01T00:00:00Z');
				const opensAt = new Date(Date.now() + 2 ** (attempt - 1) * (3 * (Date.now() - started) + 6_000)).toISOString();
				await saveAndPublish(prefix, opensAt);
				const failed = await failAfter(deployment, FILTERED.parent.id, 2);
				if (failed.stoppedAt >= Date.parse(opensAt) && attempt < 3) continue;
				expect(failed.stoppedAt).toBeLessThan(Date.parse(opensAt));
				expect(countsOf(await steps.journal(prefix))).toEqual({ [`${prefix}-A`]: 1, [`${prefix}-B`]: 1 });
				while (Date.now() < Date.parse(opensAt) + 500) await new Promise((resolve) => setTimeout(resolve, 200));
				const retried = await steps.retry(FILTERED.parent.id, failed.executionId);
				expect(retried.status).toBe('success');
				const letters = ['A', 'B', 'C', 'D', 'E'];
				expect(countsOf(await steps.journal(prefix))).toEqual(Object.fromEntries(letters.map((letter) => [`${prefix}-${letter}`, 1])));
				return;
			}
		},
	],
	[
		'GET /lba/locations fails (500) during the parent Retry; its advice followed ("In a moment, Retry this execution"): 4 of 4 with $now dates',
		async (deployment) => {
			e2e.follows('retryLocationsInAMoment');
			const { steps } = deployment;
			const failed = await failAtRowC(deployment, LIST_DOWN.parent.id, 'list');
			await steps.fault({ method: 'GET', path: '/lba/locations', status: 500, times: 4 });
			const retried = await steps.retry(LIST_DOWN.parent.id, failed.executionId);
			await steps.clearFaults();
			expect(retried.status).toBe('error');
			expect(String((retried.error as Json)?.description ?? '')).toContain('In a moment, Retry this execution (Executions > Retry)');
			expect(countsOf(await steps.journal('list'))).toEqual({ 'list-A': 1, 'list-B': 1 });
			await new Promise((resolve) => setTimeout(resolve, 1100)); // "in a moment"; $now moves on
			const again = await steps.retry(LIST_DOWN.parent.id, retried.executionId);
			expect(again.status).toBe('success');
			expect(countsOf(await steps.journal('list'))).toEqual({ 'list-A': 1, 'list-B': 1, 'list-C': 1, 'list-D': 1 });
		},
	],
	[
		"one sub-workflow called by two Execute Workflow nodes (morning, evening): the page's advice (the caller's session in the Campaign Name) sends both",
		async ({ steps, runParent }) => {
			const result = await runParent(TWO_CALLERS.parent.id);
			expect(result.status).toBe('success');
			expect(countsOf(await steps.journal('callers'))).toEqual({ 'callers-morning': 1, 'callers-evening': 1 });
		},
	],
	[
		'two campaigns of one shape, morning and evening (fixed dates): the morning one created, the evening one refused, the morning row gone before the parent Retry: the evening one sent, not held as the morning\'s',
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAfter(deployment, SLOTS_FIXED.parent.id, 1);
			const retried = await changeChildThenRetry(deployment, SLOTS_FIXED, failed, withRows(slotRows('slots', 'evening')));
			expect(retried.output(SUB).map((item: Json) => item.status ?? item.earlierOutcome)).toEqual(['Published']);
			expect(countsOf(await steps.journal('slots'), startOf)).toEqual({ 'slots-A 2036-12-01T09:00:00+07:00': 1, 'slots-A 2036-12-01T18:00:00+07:00': 1 });
		},
	],
	[
		'two campaigns of one shape with $now windows: the evening one created, the morning one refused and its row filtered out before the parent Retry: the evening one held, naming its campaign, not sent twice',
		async (deployment) => {
			const { steps } = deployment;
			const failed = await failAfter(deployment, SLOTS_NOW.parent.id, 1);
			const [created, ...others] = await steps.journal('slotsnow');
			expect(others).toEqual([]);
			const retried = await changeChildThenRetry(deployment, SLOTS_NOW, failed, withRows(slotRows('slotsnow', 'evening')));
			expect(retried.output(SUB)).toEqual([expect.objectContaining({ skipped: true, earlierOutcome: 'created', campaignId: created.campaignId })]);
			expect(await steps.journal('slotsnow')).toHaveLength(1);
		},
	],
	[
		'issue 59: the same promo at 09:00 and 09:05 from the child\'s rows, another promo refused between them; 09:00 marked sent, the parent retried: 09:05 is not held as 09:00\'s campaign; "If it is another" followed (Mode Send One Again in the child\'s editor): each campaign once',
		async (deployment) => {
			e2e.follows('lookForCampaign', 'ifThisCampaignNothing', 'ifAnother', 'pageUnclear');
			const { steps, runParent } = deployment;
			const failed = await failAfter(deployment, GRID.parent.id, 1);
			const first = await steps.journal('grid');
			expect(first.map(startOf)).toEqual(['grid-A 2036-12-10T09:00:00+07:00']);
			const retried = await changeChildThenRetry(deployment, GRID, failed, withRows(gridRows([['grid-B', '09:00'], ['grid-A', '09:05']])));
			const [b, a905] = retried.output(SUB);
			expect(b.status).toBe('Published');
			// Not "created": not sent, naming the campaign it may be (09:00's), with the way to send it.
			expect(a905).toMatchObject({ skipped: true, earlierOutcome: 'unclear', mayBeCampaignId: first[0].campaignId });
			expect(a905.campaignId).toBeUndefined();
			expect(a905.howToResend).toMatch(/^Look for campaign \S+ in LBA Ads\. If it is this campaign, do nothing\. If it is another: copy this item's sendAgainKey, set this node's Mode to Send One Again, paste it into Send Again Key, click Execute step, then set Mode back to Publish\./);
			// It is another (09:05, not 09:00): in the child's editor, Mode Send One Again with its key, Execute step, Mode back to Publish.
			await steps.setNode(GRID.child.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'sendAgain', sendAgainKey: a905.sendAgainKey } }));
			const stepped = await steps.run(GRID.child.id, 'Called');
			expect([stepped.status, stepped.error?.message]).toEqual(['success', undefined]);
			await steps.setNode(GRID.child.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'publish' } }));
			await deployment.publish(GRID.child.id);
			// Left as it is (Mode back to Publish), the next parent run sends nothing more.
			expect((await runParent(GRID.parent.id)).status).toBe('success');
			const counts = countsOf(await steps.journal('grid'), startOf);
			expect(counts).toEqual({ 'grid-A 2036-12-10T09:00:00+07:00': 1, 'grid-B 2036-12-10T09:00:00+07:00': 1, 'grid-A 2036-12-10T09:05:00+07:00': 1 });
		},
	],
	[
		'issue 59: the original retried again after its first Retry failed, a slot added before each: the slot the first Retry created is held, the new ones sent, each campaign once',
		async (deployment) => {
			e2e.follows('pageRetryAgain');
			const { steps, publish } = deployment;
			const failed = await failAfter(deployment, RETRIED_TWICE.parent.id, 1); // 10:00 created, the other promo refused
			// A 10:20 slot added; the first Retry creates the other promo and 10:10, and is refused at 10:20: it fails too.
			await steps.saveWorkflow(RETRIED_TWICE.child.id, withRows(twiceRows([...TWICE_ROWS, ['twice-slot', '10:20']])));
			await publish(RETRIED_TWICE.child.id);
			await steps.fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
			const firstRetry = await steps.retry(RETRIED_TWICE.parent.id, failed.executionId);
			await steps.clearFaults();
			expect(firstRetry.status).toBe('error');
			// A 10:05 slot added on top; the user retries the original again (the editor still offers it).
			const retried = await changeChildThenRetry(deployment, RETRIED_TWICE, failed, withRows(twiceRows([['twice-slot', '10:05'], ...TWICE_ROWS, ['twice-slot', '10:20']])));
			expect(retried.output(SUB).map((item: Json) => item.status ?? item.earlierOutcome)).toEqual(['Published', 'created', 'created', 'created', 'Published']);
			expect(countsOf(await steps.journal('twice'), startOf)).toEqual({
				'twice-slot 2036-12-11T10:00:00+07:00': 1,
				'twice-other 2036-12-11T10:05:00+07:00': 1,
				'twice-slot 2036-12-11T10:10:00+07:00': 1,
				'twice-slot 2036-12-11T10:20:00+07:00': 1,
				'twice-slot 2036-12-11T10:05:00+07:00': 1,
			});
		},
	],
	[
		'issue 59: a parent that calls the child once per slot (Loop Over Items, batch 1), the same promo at 09:00 and 09:05: the first run sends both, neither held as the other',
		async (deployment) => {
			const { steps, runParent } = deployment;
			const run = await runParent(PER_SLOT.parent.id);
			expect(run.status).toBe('success');
			const sent = await steps.journal('slot');
			expect(countsOf(sent, startOf)).toEqual({ 'slot-A 2036-12-10T09:00:00+07:00': 1, 'slot-A 2036-12-10T09:05:00+07:00': 1 });
		},
	],
];
