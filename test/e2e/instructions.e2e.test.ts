// Issue 51, "every instruction is a journey": each refusal's advice followed to the letter in real
// n8n, with dates from $now (a new run is then a new campaign, the adversary of every "run again"),
// counting campaigns per name in the sandbox journal. Each journey reads the advice from the
// execution's own error (message and description), does what it says, and runs as it says. The
// list of every instruction and its journey is docs/instructions.md (test/docs/instructions.test.ts
// fails when an instruction has none).
import * as e2e from './lib';

type Json = Record<string, any>;

const LBA = 'Create campaigns';
const NOW_CHANNEL = (overrides: Json = {}) => e2e.channel({ ...e2e.NOW_DATES, ...overrides });
const parameters = (overrides: Json = {}, channel: Json = {}) =>
	e2e.createCampaignParameters({ channels: { channel: [NOW_CHANNEL(channel)] }, ...overrides });

const FIX_IN_PANEL = e2e.campaignWorkflow('insFix', 'Instructions: fix in the panel', e2e.namedItems('fix', 3), {
	lbaParameters: parameters({}, { message: "={{ $json.name === 'fix-2' ? 'x'.repeat(189) : 'Promo!' }}" }),
});
/** The same refusal with On Error → Continue: the other items are sent in the same run. */
const FIX_CONTINUE = e2e.campaignWorkflow('insFixGoOn', 'Instructions: fix in the panel, On Error Continue', e2e.namedItems('goon', 3), {
	lbaParameters: parameters({}, { message: "={{ $json.name === 'goon-2' ? 'x'.repeat(189) : 'Promo!' }}" }),
	lbaSettings: { onError: 'continueRegularOutput' },
});
const KEY_MISSING = e2e.campaignWorkflow('insKey', 'Instructions: custom key', e2e.namedItems('key', 3), {
	lbaParameters: parameters({ duplicateProtection: 'customKey', idempotencyKey: "={{ $json.storeId + '-' + $today.toISODate() }}" }),
});
const MAX_SMS = e2e.campaignWorkflow('insSms', 'Instructions: max SMS', e2e.namedItems('sms', 1), {
	lbaParameters: parameters({ options: { concurrency: 1, maxSmsPerCampaign: 400 } }, { smsQty: 500 }),
});
const MAX_CAMPAIGNS = e2e.campaignWorkflow('insMax', 'Instructions: max campaigns', e2e.namedItems('max', 3), {
	lbaParameters: parameters({ options: { concurrency: 1, maxCampaignsPerExecution: 2 } }),
});
const WINDOW_OVER = e2e.campaignWorkflow('insOver', 'Instructions: window over', e2e.namedItems('over', 1), {
	lbaParameters: parameters({}, { startDate: '={{ $now.minus({ days: 8 }) }}', endDate: '={{ $now.minus({ days: 7 }) }}' }),
});
/** A workflow on UTC whose dates have no offset, against a service that lists no places. */
const NO_PLACES = e2e.campaignWorkflow('insZone', 'Instructions: zone', e2e.namedItems('zone', 1), {
	lbaParameters: parameters({}, { locationId: 7371, startDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 09:00') }}", endDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 18:00') }}" }),
});
NO_PLACES.settings = { ...NO_PLACES.settings, timezone: 'UTC' };
const UNKNOWN_PLACE = e2e.campaignWorkflow('insPlace', 'Instructions: unknown place', e2e.namedItems('place', 1), {
	lbaParameters: parameters({}, { locationId: { __rl: true, mode: 'id', value: 999999 } }),
});
const PREVIEW = e2e.campaignWorkflow('insPreview', 'Instructions: preview', e2e.namedItems('preview', 1), {
	lbaParameters: parameters({ runMode: 'preview' }),
});
const BAD_ZONE = e2e.campaignWorkflow('insBadZone', 'Instructions: bad zone', e2e.namedItems('badzone', 1), {
	lbaParameters: parameters({ options: { concurrency: 1, timezone: 'Asia/Jakrta' } }, { startDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 09:00') }}", endDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 18:00') }}" }),
});
BAD_ZONE.settings = { ...BAD_ZONE.settings, timezone: 'Asia/Jakarta' };
const BUSY = e2e.campaignWorkflow('insBusy', 'Instructions: 429', e2e.namedItems('busy', 1), { lbaParameters: parameters() });
const SLOW = e2e.campaignWorkflow('insSlow', 'Instructions: timeout', e2e.namedItems('slow', 1), {
	lbaParameters: parameters({ options: { concurrency: 1, timeoutMs: 1000 } }),
});
const ON_PURPOSE = e2e.campaignWorkflow('insAgain', 'Instructions: again on purpose', e2e.namedItems('again', 2), { lbaParameters: e2e.createCampaignParameters() });
const ORIGINAL = e2e.campaignWorkflow('insOriginal', 'Instructions: original', e2e.namedItems('copy', 3), { lbaParameters: e2e.createCampaignParameters() });
const NO_ENDPOINT = e2e.campaignWorkflow('insEndpoint', 'Instructions: no endpoint', e2e.namedItems('endpoint', 1), { lbaParameters: parameters() });
/** The OAuth2 credential (client credentials against the suite's sandbox), with a secret of the test's choosing. */
const OAUTH2 = { id: 'insOAuth2', name: 'LBA sandbox (OAuth2)' };
const oauth2Credential = (sandboxUrl: string, clientSecret: string) => ({
	...OAUTH2,
	type: 'lbaAdsOAuth2Api',
	data: { baseUrl: sandboxUrl, clientId: 'lba-sandbox-client', clientSecret, grantType: 'clientCredentials', accessTokenUrl: `${sandboxUrl}/oauth/token`, scope: '', authQueryParameters: '', authentication: 'header' },
});
const WRONG_SECRET = e2e.campaignWorkflow('insOAuth', 'Instructions: OAuth2 secret', e2e.namedItems('oauth', 2), {
	lbaParameters: parameters({ authentication: 'oAuth2' }),
	lbaSettings: { credentials: { lbaAdsOAuth2Api: OAUTH2 } },
});
/** A Code node emitting `count` items named `<prefix>-1` … (10,001 items do not fit a test's JSON). */
const countedItems = (id: string, prefix: string, count: number) =>
	e2e.node(id, 'Campaigns to send', 'n8n-nodes-base.code', 2, { jsCode: `return Array.from({ length: ${count} }, (_, index) => ({ json: { name: '${prefix}-' + (index + 1) } }));` });
const TOO_MANY = e2e.workflow(
	'insTooMany',
	'Instructions: 10,001 items',
	[e2e.manualTrigger('insTooMany-start'), countedItems('insTooMany-code', 'many', 10_001), e2e.lbaNode('insTooMany-lba', LBA, parameters())],
	e2e.chain('Start', 'Campaigns to send', LBA),
);
/** The advice followed: the Create node in a sub-workflow, started once per part (Loop Over Items, Execute Workflow). */
const PART = e2e.workflow('insPart', 'Instructions: one part', [e2e.executeWorkflowTrigger('insPart-called'), e2e.lbaNode('insPart-lba', LBA, parameters())], e2e.chain('Called', LBA));
const PARTS_LOOP = e2e.node('insParts-loop', 'Parts', 'n8n-nodes-base.splitInBatches', 3, { batchSize: 3, options: {} });
const PARTS = e2e.workflow(
	'insParts',
	'Instructions: one execution per part',
	[e2e.manualTrigger('insParts-start'), countedItems('insParts-code', 'part', 5), PARTS_LOOP, e2e.executeWorkflowNode('insParts-call', 'One execution per part', PART.id)],
	e2e.connect(e2e.connect(e2e.chain('Start', 'Campaigns to send', 'Parts'), 'Parts', 'One execution per part', 1), 'One execution per part', 'Parts'),
);
/** Dates as the page writes them for "once a day": the day from the clock, the time as text. */
const ONCE_A_DAY = e2e.campaignWorkflow('insToday', 'Instructions: once a day', e2e.namedItems('today', 2), {
	lbaParameters: parameters(
		{},
		{ startDate: "={{ $now.setZone('Asia/Jakarta').plus({ days: 1 }).toISODate() }} 09:00", endDate: "={{ $now.setZone('Asia/Jakarta').plus({ days: 2 }).toISODate() }} 18:00" },
	),
});
/** Campaign Input JSON given the item's list of campaigns. */
const CAMPAIGN_LIST = e2e.workflow(
	'insJsonList',
	'Instructions: a list in Campaign (JSON)',
	[
		e2e.manualTrigger('insJsonList-start'),
		e2e.node('insJsonList-code', 'Campaigns to send', 'n8n-nodes-base.code', 2, {
			jsCode: `const channel = { sender: 'LBADEMO', locationId: 3273, smsQty: 100, message: 'Promo!', startDate: $now.plus({ minutes: 5 }).toISO(), endDate: $now.plus({ days: 3 }).toISO(), telcoId: 'tsel' };
return [{ json: { campaigns: ['list-1', 'list-2'].map((name) => ({ name, description: 'e2e', categoryId: 10, channels: [channel] })) } }];`,
		}),
		e2e.lbaNode('insJsonList-lba', LBA, e2e.createCampaignParameters({ campaignInput: 'json', campaignJson: '={{ $json.campaigns }}' })),
	],
	e2e.chain('Start', 'Campaigns to send', LBA),
);
/** A workflow in WIB whose channel is in Makassar (WITA), dates without an offset. */
const OTHER_ZONE = e2e.campaignWorkflow('insLocal', "Instructions: recipients' local time", e2e.namedItems('local', 1), {
	lbaParameters: parameters({}, { locationId: 7371, startDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 09:00') }}", endDate: "={{ $now.plus({ days: 1 }).toFormat('yyyy-MM-dd 18:00') }}" }),
});
OTHER_ZONE.settings = { ...OTHER_ZONE.settings, timezone: 'Asia/Jakarta' };
/** The campaign the marketer wanted from Custom API Call: its request body, with $now dates. */
const CUSTOM_CALL = e2e.workflow(
	'insCustomCall',
	'Instructions: Custom API Call',
	[
		e2e.manualTrigger('insCustomCall-start'),
		e2e.node('insCustomCall-code', 'Campaigns to send', 'n8n-nodes-base.code', 2, {
			jsCode: `return [{ json: { name: 'http-1', description: 'e2e', categoryId: 10, channels: [{ sender: 'LBADEMO', locationId: 3273, smsQty: 100, message: 'Promo!', startDate: $now.plus({ minutes: 5 }).toISO(), endDate: $now.plus({ days: 3 }).toISO(), telcoId: 'tsel' }] } }];`,
		}),
		e2e.lbaNode('insCustomCall-lba', 'LBA Ads', { resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }),
	],
	e2e.chain('Start', 'Campaigns to send', 'LBA Ads'),
);
/** Four stores, $now dates (a Retry computes them again): the campaign sent again on purpose (issue 60). */
const SEND_AGAIN = e2e.campaignWorkflow('insOneAgain', 'Instructions: send one again', e2e.namedItems('oneagain', 4), { lbaParameters: parameters() });
/** Issue 60: Resend left on when the workflow is published; the editor's Execute workflow and a webhook start the same campaign. */
const RESEND_LEFT_ON = (() => {
	const hook = e2e.node('insResend-hook', 'Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: 'instructions-resend', responseMode: 'lastNode', options: {} }, {
		webhookId: '00000000-0000-4000-8000-0000000000a1',
	});
	const nodes = [e2e.manualTrigger('insResend-start'), hook, e2e.node('insResend-code', 'Campaigns to send', 'n8n-nodes-base.code', 2, { jsCode: "return [{ json: { name: 'resendon-1' } }];" }), e2e.lbaNode('insResend-lba', LBA, e2e.createCampaignParameters())];
	return e2e.workflow('insResend', 'Instructions: Resend left on', nodes, e2e.connect(e2e.chain('Start', 'Campaigns to send', LBA), 'Webhook', 'Campaigns to send'));
})();
const WORKFLOWS = [
	RESEND_LEFT_ON,
	SEND_AGAIN,
	FIX_IN_PANEL,
	FIX_CONTINUE,
	KEY_MISSING,
	MAX_SMS,
	MAX_CAMPAIGNS,
	WINDOW_OVER,
	NO_PLACES,
	UNKNOWN_PLACE,
	PREVIEW,
	BAD_ZONE,
	BUSY,
	SLOW,
	ON_PURPOSE,
	ORIGINAL,
	NO_ENDPOINT,
	WRONG_SECRET,
	TOO_MANY,
	PART,
	PARTS,
	ONCE_A_DAY,
	CAMPAIGN_LIST,
	OTHER_ZONE,
	CUSTOM_CALL,
];

function countsOf(campaigns: e2e.JournalCampaign[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const campaign of campaigns) counts[campaign.request.name as string] = (counts[campaign.request.name as string] ?? 0) + 1;
	return counts;
}
const once = (prefix: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}-${index + 1}`, 1]));

e2e.describeE2E(`every instruction is a journey: refusals' advice followed to the letter in real n8n ${e2e.n8nVersion()}`, () => {
	let setup: e2e.LbaN8n | undefined;
	let steps: e2e.UserSteps;

	beforeAll(async () => {
		// The OAuth2 credential starts with a wrong secret: the first journey's mistake.
		setup = await e2e.startLbaN8n('instructions', { workflows: WORKFLOWS, shared: true, credentials: (sandboxUrl) => [oauth2Credential(sandboxUrl, 'a-wrong-secret')] });
		steps = e2e.userSteps(setup);
	}, 15 * 60 * 1000);
	afterAll(async () => {
		await setup?.close();
	});

	/** The run's refusal: its message and advice, and that it sent nothing. */
	async function refused(workflowId: string, prefix: string): Promise<{ message: string; advice: string }> {
		const run = await steps.run(workflowId);
		expect(run.status).toBe('error');
		const { message = '', description = '' } = (run.error ?? {}) as Json;
		expect(await steps.journal(prefix)).toEqual([]);
		return { message: String(message), advice: String(description) };
	}
	const setLba = (workflowId: string, change: (parameters: Json) => Json) =>
		steps.setNode(workflowId, LBA, (node: Json) => ({ ...node, parameters: change(node.parameters) }));

	test('a held campaign sent again on purpose after a Retry that succeeded ($now dates: no Retry offered, a new run would bill every store again): its howToResend followed in the editor, Mode Send One Again, Execute step: that campaign alone, once, as first sent; a key cut short is refused; Execute step again: nothing more (issue 60)', async () => {
		e2e.follows('sendOneAgain', 'toSendAgainOnPurpose', 'pasteWholeSendAgainKey', 'setModeBackToPublish', 'sendAgainNotice', 'pageIfMissingCopy', 'pageSendOneAgain');
		await steps.fault({ method: 'POST', path: '/lba/campaign', status: 503, skip: 2, times: 1 });
		const failed = await steps.run(SEND_AGAIN.id);
		await steps.clearFaults();
		expect(failed.status).toBe('error');
		const retried = await steps.retry(SEND_AGAIN.id, failed.executionId);
		expect(retried.status).toBe('success'); // n8n's editor offers no Retry of it now
		const held = retried.output(LBA)[0];
		expect(held).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		expect(held.howToResend).toBe(
			"To send it again on purpose (a second campaign, billed again): copy this item's sendAgainKey, set this node's Mode to Send One Again, paste it into Send Again Key, click Execute step, then set Mode back to Publish. Only this campaign is sent, once.",
		);
		const runData = { ...retried.run.resultData.runData };
		delete runData[LBA];
		// Half the key, as a hurried copy gives it: refused, nothing sent.
		await setLba(SEND_AGAIN.id, (p) => ({ ...p, runMode: 'sendAgain', sendAgainKey: String(held.sendAgainKey).slice(0, 40) }));
		const cut = await steps.executeStep(SEND_AGAIN.id, LBA, runData, [LBA]);
		expect(String(cut.error?.description)).toBe("Copy the whole sendAgainKey (it starts with again:v1:) of the held or failed item from this node's output, and paste it into Send Again Key.");
		// The whole key, as the description says.
		await setLba(SEND_AGAIN.id, (p) => ({ ...p, sendAgainKey: held.sendAgainKey }));
		const step = await steps.executeStep(SEND_AGAIN.id, LBA, runData, [LBA]);
		expect([step.status, step.error?.message]).toEqual(['success', undefined]);
		const sent = await steps.journal('oneagain');
		expect(countsOf(sent)).toEqual({ 'oneagain-1': 2, 'oneagain-2': 1, 'oneagain-3': 1, 'oneagain-4': 1 });
		const [first, second] = sent.filter((campaign) => campaign.request.name === 'oneagain-1');
		expect(second.request.channels).toEqual(first.request.channels); // its dates as first sent, not computed again
		// Left as it is: Execute step again sends nothing more, and says to set Mode back to Publish.
		const again = await steps.executeStep(SEND_AGAIN.id, LBA, runData, [LBA]);
		expect(again.output(LBA)[0]).toMatchObject({ skipped: true, howToResend: 'Nothing to do: this key sends its campaign once. Set Mode back to Publish.' });
		await setLba(SEND_AGAIN.id, (p) => ({ ...p, runMode: 'publish' }));
		expect(countsOf(await steps.journal('oneagain'))).toEqual({ 'oneagain-1': 2, 'oneagain-2': 1, 'oneagain-3': 1, 'oneagain-4': 1 });
	});

	test("Resend left on in a published workflow: the webhook's run is refused before sending; its advice followed (Resend off, saved, published): the next call sends nothing twice; 2 campaigns, the second sent on purpose from the editor (issue 60)", async () => {
		e2e.follows('resendOff', 'resendOffAfter', 'pageResendOff');
		const call = async () => {
			const before = (await setup!.rest.listExecutions(RESEND_LEFT_ON.id)).length;
			const res = await fetch(`${setup!.n8n!.baseUrl}/webhook/instructions-resend`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			for (let attempt = 0; ; attempt++) {
				const executions = await setup!.rest.listExecutions(RESEND_LEFT_ON.id);
				if (executions.length > before) return { status: res.status, execution: await steps.finished(String(executions[executions.length - 1].id)) };
				if (attempt > 100) throw new Error('no execution after the webhook answered');
				await new Promise((resolve) => setTimeout(resolve, 300));
			}
		};
		expect((await steps.run(RESEND_LEFT_ON.id)).status).toBe('success');
		// Sent again on purpose from the editor, with Resend on: the option's own use.
		await setLba(RESEND_LEFT_ON.id, (p) => ({ ...p, options: { ...p.options, resend: true } }));
		expect((await steps.run(RESEND_LEFT_ON.id)).status).toBe('success');
		expect(countsOf(await steps.journal('resendon'))).toEqual({ 'resendon-1': 2 });
		// Published with Resend still on: the webhook's run is refused, nothing billed.
		await setup!.rest.activateWorkflow(RESEND_LEFT_ON.id);
		const refused = await call();
		expect(refused.execution.status).toBe('error');
		expect(refused.execution.error?.message).toMatch(/^Options › Resend \(or Resend Keys\) would send item 1 again in this webhook execution; nothing was sent\./);
		expect(refused.execution.error?.description).toBe(
			"Turn Resend off and empty Resend Keys in the node's Options, then save (and publish) the workflow. To send one held campaign again, use Mode → Send One Again in the editor.",
		);
		expect(countsOf(await steps.journal('resendon'))).toEqual({ 'resendon-1': 2 });
		// Its advice: Resend off, saved, published again; the next call holds the campaign back.
		await setLba(RESEND_LEFT_ON.id, (p) => ({ ...p, options: { ...p.options, resend: false } }));
		await setup!.rest.activateWorkflow(RESEND_LEFT_ON.id);
		const next = await call();
		expect(next.execution.status).toBe('success');
		expect(next.execution.output(LBA)[0]).toMatchObject({ skipped: true, earlierOutcome: 'created' });
		expect(countsOf(await steps.journal('resendon'))).toEqual({ 'resendon-1': 2 });
	});

	test('"Fix it in the panel, then run again": a message too long in item 2 of 3, fixed, run again: 3 campaigns, each once', async () => {
		e2e.follows('fixInPanel', 'addChannel', 'pageFixOrCheck');
		const { message, advice } = await refused(FIX_IN_PANEL.id, 'fix');
		expect(message).toMatch(/^Item 2 › Channel 1 › Message: 189 of 160 characters/);
		expect(advice).toMatch(/^Fix it in the panel, then run again\./);
		await setLba(FIX_IN_PANEL.id, (p) => ({ ...p, channels: { channel: [{ ...p.channels.channel[0], message: 'Promo!' }] } }));
		expect((await steps.run(FIX_IN_PANEL.id)).status).toBe('success');
		expect(countsOf(await steps.journal('fix'))).toEqual(once('fix', 3));
	});

	test('On Error → Continue, a message too long in item 2 of 3, $now dates: items 1 and 3 are sent; its advice followed (fixed, run again with only its row): 3 campaigns, each once (issue 60: "then run again" would have billed items 1 and 3 twice)', async () => {
		e2e.follows('fixInPanelOnlyThis');
		const run = await steps.run(FIX_CONTINUE.id);
		expect(run.status).toBe('success');
		const [first, refusedItem, third] = run.output(LBA);
		expect([first.status, third.status]).toEqual(['Published', 'Published']);
		expect(String(refusedItem.error)).toMatch(/^Item 2 › Channel 1 › Message: 189 of 160 characters .*Not sent; the other items go on\.$/);
		expect(String(refusedItem.description)).toMatch(
			/^Fix it in the panel, then run the workflow again with only this item \(for example, its row alone in the input\): the other items of this run were sent, and a new run holds them back only if their dates come out the same\./,
		);
		expect(countsOf(await steps.journal('goon'))).toEqual({ 'goon-1': 1, 'goon-3': 1 });
		// Fixed in the panel, and the input reduced to its row, as the advice says; then run again.
		await setLba(FIX_CONTINUE.id, (p) => ({ ...p, channels: { channel: [{ ...p.channels.channel[0], message: 'Promo!' }] } }));
		await steps.setNode(FIX_CONTINUE.id, 'Campaigns to send', (node: Json) => ({ ...node, parameters: { ...node.parameters, jsCode: "return [{ json: { name: 'goon-2' } }];" } }));
		expect((await steps.run(FIX_CONTINUE.id)).status).toBe('success');
		expect(countsOf(await steps.journal('goon'))).toEqual(once('goon', 3));
	});

	test('a Custom Key with a missing field: "Use a field every item has (check its name in the input)": 3 campaigns, each once; run again: none more', async () => {
		e2e.follows('customKeyFieldExists', 'customKeyEveryItem');
		const { message, advice } = await refused(KEY_MISSING.id, 'key');
		expect(message).toMatch(/^Idempotency Key of item 1 is "undefined-.*": a part of it came out undefined; nothing was sent$/);
		expect(advice).toContain('Use a field every item has (check its name in the input)');
		// The input's field is `name`: the key the page's example meant, per store and day.
		await setLba(KEY_MISSING.id, (p) => ({ ...p, idempotencyKey: "={{ $json.name + '-' + $today.toISODate() }}" }));
		expect((await steps.run(KEY_MISSING.id)).status).toBe('success');
		expect((await steps.run(KEY_MISSING.id)).status).toBe('success');
		expect(countsOf(await steps.journal('key'))).toEqual(once('key', 3));
	});

	test('Max SMS per Campaign: "Lower the channels\' SMS Quantity to 400 in all": 1 campaign of 400', async () => {
		e2e.follows('lowerSmsQuantity');
		const { message, advice } = await refused(MAX_SMS.id, 'sms');
		expect(message).toContain('above the spending limit Max SMS per Campaign (400)');
		const lowered = /Lower the channels' SMS Quantity to ([\d,]+) in all/.exec(advice);
		expect(lowered).not.toBeNull();
		const quantity = Number(lowered![1].replace(/,/g, ''));
		await setLba(MAX_SMS.id, (p) => ({ ...p, channels: { channel: [{ ...p.channels.channel[0], smsQty: quantity }] } }));
		expect((await steps.run(MAX_SMS.id)).status).toBe('success');
		const sent = await steps.journal('sms');
		expect(countsOf(sent)).toEqual(once('sms', 1));
		expect(sent[0].request.channels[0].smsQty).toBe(400);
	});

	test('Max Campaigns per Execution: "Send at most 2 more campaigns in this execution, or fewer items per run": two runs of 2 and 1 items, each campaign once', async () => {
		e2e.follows('sendAtMost');
		const { advice } = await refused(MAX_CAMPAIGNS.id, 'max');
		expect(advice).toMatch(/^Send at most 2 more campaigns in this execution, or fewer items per run\./);
		const itemsOf = (items: Json[]) => (node: Json) => ({ ...node, parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` } });
		await steps.setNode(MAX_CAMPAIGNS.id, 'Campaigns to send', itemsOf(e2e.namedItems('max', 3).slice(0, 2)));
		expect((await steps.run(MAX_CAMPAIGNS.id)).status).toBe('success');
		await steps.setNode(MAX_CAMPAIGNS.id, 'Campaigns to send', itemsOf(e2e.namedItems('max', 3).slice(2)));
		expect((await steps.run(MAX_CAMPAIGNS.id)).status).toBe('success');
		expect(countsOf(await steps.journal('max'))).toEqual(once('max', 3));
	});

	test('a window that is over: "Give each channel a Send Until in the future and a Send From from 08:00 to 21:00 …, e.g. <tomorrow> 09:00": typed so, 1 campaign at 09:00 WIB', async () => {
		const { message, advice } = await refused(WINDOW_OVER.id, 'over');
		expect(message).toMatch(/^Item 1 › Channel 1 › Send Until: .* has passed/);
		const example = /^Give each channel a Send Until in the future and a Send From from 08:00 to 21:00 in its recipients' local time, e\.g\. (\d{4}-\d{2}-\d{2}) 09:00 \(typed so, it is read in the recipients' local time\), then run again/.exec(advice);
		expect(example).not.toBeNull();
		await setLba(WINDOW_OVER.id, (p) => ({ ...p, channels: { channel: [{ ...p.channels.channel[0], startDate: `${example![1]} 09:00`, endDate: `${example![1]} 18:00` }] } }));
		expect((await steps.run(WINDOW_OVER.id)).status).toBe('success');
		const sent = await steps.journal('over');
		expect(countsOf(sent)).toEqual(once('over', 1));
		expect(sent[0].request.channels[0].startDate).toBe(`${example![1]}T09:00:00+07:00`);
	});

	test('no list of places on a UTC workflow: "Set Options › Timezone to the zone the dates are written in": Asia/Makassar, 1 campaign at 09:00 WITA', async () => {
		e2e.follows('setTimezoneOption');
		await steps.fault({ path: '/lba/locations', status: 404, times: 100 });
		try {
			const { message, advice } = await refused(NO_PLACES.id, 'zone');
			expect(message).toContain("the workflow's timezone (UTC) is not WIB, WITA or WIT");
			expect(advice).toMatch(/^Set Options › Timezone to the zone the dates are written in \(Asia\/Jakarta for WIB, Asia\/Makassar for WITA/);
			// Written for Makassar: its zone.
			await setLba(NO_PLACES.id, (p) => ({ ...p, options: { ...p.options, timezone: 'Asia/Makassar' } }));
			const run = await steps.run(NO_PLACES.id);
			expect(run.status).toBe('success');
		} finally {
			await steps.clearFaults();
		}
		const sent = await steps.journal('zone');
		expect(countsOf(sent)).toEqual(once('zone', 1));
		expect(sent[0].request.channels[0].startDate).toMatch(/T09:00:00\+08:00$/);
	});

	test('an unknown Location ID: "Pick the place with Location ID → From List": Kota Bandung picked, 1 campaign there', async () => {
		e2e.follows('pickPlace');
		const { message, advice } = await refused(UNKNOWN_PLACE.id, 'place');
		expect(message).toContain('999999 is not a place LBA Ads knows, and no known ID is one typo away');
		expect(advice).toMatch(/^Pick the place with Location ID → From List/);
		// What From List stores when Kota Bandung, Jawa Barat (3273) is picked.
		await setLba(UNKNOWN_PLACE.id, (p) => ({ ...p, channels: { channel: [{ ...p.channels.channel[0], locationId: { __rl: true, mode: 'list', value: '3273', cachedResultName: 'Kota Bandung, Jawa Barat (3273)' } }] } }));
		expect((await steps.run(UNKNOWN_PLACE.id)).status).toBe('success');
		const sent = await steps.journal('place');
		expect(countsOf(sent)).toEqual(once('place', 1));
		expect(sent[0].request.channels[0].locationId).toBe(3273);
	});

	test('Options › Timezone not a zone: "Empty the option": read in the workflow\'s WIB, 1 campaign at 09:00+07:00', async () => {
		e2e.follows('timezoneIana', 'emptyTimezoneOption');
		const { message, advice } = await refused(BAD_ZONE.id, 'badzone');
		expect(message).toMatch(/^Item 1 › Options › Timezone: "Asia\/Jakrta" is not a timezone/);
		expect(advice).toMatch(/^Empty the option to read each channel's dates in the workflow's timezone/);
		await setLba(BAD_ZONE.id, (p) => ({ ...p, options: { ...p.options, timezone: '' } }));
		expect((await steps.run(BAD_ZONE.id)).status).toBe('success');
		const sent = await steps.journal('badzone');
		expect(countsOf(sent)).toEqual(once('badzone', 1));
		expect(sent[0].request.channels[0].startDate).toMatch(/T09:00:00\+07:00$/);
	});

	test('a 429 on the campaign: "try again later": run again, 1 campaign', async () => {
		e2e.follows('lowerConcurrency');
		await steps.fault({ method: 'POST', path: '/lba/campaign', status: 429, times: 1 });
		const { message, advice } = await refused(BUSY.id, 'busy');
		expect(message).toContain('the campaign was not created');
		expect(advice).toContain('Lower "Max Concurrent Requests" in the node\'s options or try again later.');
		await steps.clearFaults();
		await new Promise((resolve) => setTimeout(resolve, 1100)); // "later"; $now moves on
		expect((await steps.run(BUSY.id)).status).toBe('success');
		expect(countsOf(await steps.journal('busy'))).toEqual(once('busy', 1));
	});

	test('a campaign answered after the Timeout, $now dates: its advice followed (raise Timeout for the next runs, do not run again, look in LBA Ads: there), then a Retry: 1 campaign', async () => {
		e2e.follows('sendOneAgainWithKey', 'raiseTimeoutForNextRuns', 'waitThenLookIfMissingSend', 'raiseTimeout');
		await steps.fault({ method: 'POST', path: '/lba/campaign', latencyMs: 3000, times: 1 });
		const failed = await steps.run(SLOW.id);
		expect(failed.status).toBe('error');
		const { message = '', description = '' } = (failed.error ?? {}) as Json;
		expect(String(message)).toContain('the campaign may have been created, so do not send it again');
		expect(String(description)).toMatch(/^If the service is often slow, raise "Timeout" in the node's options for the next runs; do not run the workflow again for this campaign\./);
		expect(String(description)).toContain('Wait a few minutes, then look for it in LBA Ads; only if it is missing');
		await setLba(SLOW.id, (p) => ({ ...p, options: { ...p.options, timeoutMs: 20000 } }));
		// "Wait a few minutes, then look for it in LBA Ads": its late answer lands; it is there, so nothing more.
		for (const deadline = Date.now() + 30_000; !(await steps.journal('slow')).length; ) {
			if (Date.now() > deadline) throw new Error('the slow campaign never landed');
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		// The safe way the message names, taken anyway: a Retry holds it back.
		const retried = await steps.retry(SLOW.id, failed.executionId, true);
		expect(retried.status).toBe('success');
		expect(retried.output(LBA)[0]).toMatchObject({ skipped: true });
		expect(countsOf(await steps.journal('slow'))).toEqual(once('slow', 1));
	});

	test('a created campaign sent again on purpose, Options › Resend Keys as its description says (forgetKeys pasted, run once, emptied; fixed dates): 2 of that one, 1 of the other; a run after: none more', async () => {
		e2e.follows('resendKeysEmptyAfter');
		expect((await steps.run(ON_PURPOSE.id)).status).toBe('success');
		const held = (await steps.run(ON_PURPOSE.id)).output(LBA);
		expect(held.map((item: Json) => item.earlierOutcome)).toEqual(['created', 'created']);
		await setLba(ON_PURPOSE.id, (p) => ({ ...p, options: { ...p.options, resendKeys: held[0].forgetKeys } }));
		expect((await steps.run(ON_PURPOSE.id)).status).toBe('success');
		await setLba(ON_PURPOSE.id, (p) => ({ ...p, options: { ...p.options, resendKeys: '' } }));
		expect((await steps.run(ON_PURPOSE.id)).status).toBe('success');
		expect(countsOf(await steps.journal('again'))).toEqual({ 'again-1': 2, 'again-2': 1 });
	});

	test('a copied workflow, the page\'s advice followed (first run a Preview, remove from its rows what LBA Ads holds, then Publish): the new row once, the others never twice', async () => {
		e2e.follows('pageCopiedWorkflow');
		expect((await steps.run(ORIGINAL.id)).status).toBe('success');
		const original = await setup!.rest.getWorkflow(ORIGINAL.id);
		// The copy, with one row more: what Duplicate does, then the marketer's edit.
		const copy = await setup!.rest.call('POST', '/rest/workflows', { name: 'Instructions: copy', nodes: original.nodes, connections: original.connections, settings: original.settings });
		const rows = (items: Json[]) => (node: Json) => ({ ...node, parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` } });
		await steps.setNode(copy.id, 'Campaigns to send', rows(e2e.namedItems('copy', 4)));
		await steps.setNode(copy.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'preview' } }));
		const preview = await steps.run(copy.id);
		expect(preview.output(LBA).map((item: Json) => item.preview)).toEqual(Array(4).fill('Preview: nothing was sent or billed. Set Mode to Publish to send it.'));
		const inLbaAds = new Set((await steps.journal('copy')).map((campaign) => campaign.request.name));
		await steps.setNode(copy.id, 'Campaigns to send', rows(e2e.namedItems('copy', 4).filter(({ name }) => !inLbaAds.has(name))));
		await steps.setNode(copy.id, LBA, (node: Json) => ({ ...node, parameters: { ...node.parameters, runMode: 'publish' } }));
		expect((await steps.run(copy.id)).status).toBe('success');
		expect(countsOf(await steps.journal('copy'))).toEqual(once('copy', 4));
	});

	test('POST /lba/campaign answering 404 NOT_FOUND: "check the Base URL in the LBA Ads credential" (it is right), run again: 1 campaign', async () => {
		e2e.follows('checkBaseUrlAndId', 'checkBaseUrl');
		await steps.fault({ method: 'POST', path: '/lba/campaign', status: 404, times: 1, body: { success: false, error: { code: 'NOT_FOUND', message: 'No such path' } } });
		const { message } = await refused(NO_ENDPOINT.id, 'endpoint');
		expect(message).toMatch(/has no endpoint POST \/lba\/campaign \(HTTP 404\): check the Base URL in the LBA Ads credential; the campaign was not created$/);
		await steps.clearFaults();
		expect((await steps.run(NO_ENDPOINT.id)).status).toBe('success');
		expect(countsOf(await steps.journal('endpoint'))).toEqual(once('endpoint', 1));
	});

	test('Preview: "Set Mode to Publish to send it": nothing, then 1 campaign', async () => {
		e2e.follows('publishAfterPreview');
		const preview = await steps.run(PREVIEW.id);
		expect(preview.status).toBe('success');
		const [item] = preview.output(LBA);
		expect(item.preview).toBe('Preview: nothing was sent or billed. Set Mode to Publish to send it.');
		expect(await steps.journal('preview')).toEqual([]);
		await setLba(PREVIEW.id, (p) => ({ ...p, runMode: 'publish' }));
		expect((await steps.run(PREVIEW.id)).status).toBe('success');
		expect(countsOf(await steps.journal('preview'))).toEqual(once('preview', 1));
	});

	test('OAuth2 with a wrong Client Secret: "Check the Client ID and Client Secret in the LBA Ads OAuth2 credential" (the secret fixed there), run again: 2 campaigns, each once', async () => {
		e2e.follows('checkClientSecret', 'checkCredential', 'useOauth2');
		const before = Date.now();
		const { message, advice } = await refused(WRONG_SECRET.id, 'oauth');
		expect(message).toBe(
			'The LBA service refused the OAuth2 client credentials: Unknown client or wrong secret; the campaign was not created (nothing is sent before Location IDs are checked)',
		);
		expect(advice).toBe('Nothing was sent to GET /lba/locations. Check the Client ID and Client Secret in the LBA Ads OAuth2 credential.');
		// Only the token request reached the sandbox: no list, no campaign.
		const sent = (await steps.requests()).filter((request) => Date.parse(request.at) >= before);
		expect(sent.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['POST /oauth/token 401']);
		// The Client ID is the one the account has; the secret was mistyped: fixed in the credential, saved (the editor's PATCH).
		const fixed = oauth2Credential(setup!.sandbox.url, 'lba-sandbox-secret');
		await setup!.rest.call('PATCH', `/rest/credentials/${setup!.credentialId(OAUTH2.id)}`, { name: fixed.name, type: fixed.type, data: fixed.data });
		expect((await steps.run(WRONG_SECRET.id)).status).toBe('success');
		expect(countsOf(await steps.journal('oauth'))).toEqual(once('oauth', 2));
		expect((await steps.requests()).filter((request) => request.path === '/oauth/token').map(({ status }) => status)).toEqual([401, 200]);
	});

	test('10,001 items: "Give this node at most 10,000 items per execution: … start one execution per part with Execute Workflow": refused, nothing sent; the parts (Loop Over Items, Execute Workflow) each an execution: each campaign once', async () => {
		e2e.follows('atMostItems');
		const started = Date.now();
		const { message, advice } = await refused(TOO_MANY.id, 'many');
		const refusalMs = Date.now() - started;
		expect(message).toBe('This run has 10,001 campaigns, more than the 10,000 duplicate protection remembers; nothing was sent');
		expect(advice).toContain('Give this node at most 10,000 items per execution: for example, split the list and start one execution per part with Execute Workflow.');
		// The advice's path, at a size that proves it (5 items in parts of 3: two executions of the
		// sub-workflow). In full (10,001 in parts of 5,001) it took 39 to 40 s more here (docs/instructions.md).
		expect((await steps.run(PARTS.id)).status).toBe('success');
		const parts = await setup!.rest.listExecutions(PART.id);
		expect(parts.map(({ status }) => status)).toEqual(['success', 'success']);
		expect(countsOf(await steps.journal('part'))).toEqual(once('part', 5));
		console.log(`[e2e] instructions: 10,001 items refused in ${(refusalMs / 1000).toFixed(1)} s`);
	});

	test('the day from the clock and the time as text, as the page says to make "once a day" mean once a day, on n8n\'s default zone: two runs the same day, each campaign once, at 09:00 WIB', async () => {
		e2e.follows('oncePerDay', 'pageOncePerDay');
		expect((await steps.run(ONCE_A_DAY.id)).status).toBe('success');
		await new Promise((resolve) => setTimeout(resolve, 1100)); // $now moves on; the day in WIB does not
		const again = await steps.run(ONCE_A_DAY.id);
		expect(again.status).toBe('success');
		expect(again.output(LBA).map((item: Json) => item.earlierOutcome)).toEqual(['created', 'created']);
		const sent = await steps.journal('today');
		expect(countsOf(sent)).toEqual(once('today', 2));
		// Bandung's recipients' 09:00 and 18:00, whatever n8n's zone (the instance's, America/New_York, here).
		for (const campaign of sent) expect(campaign.request.channels[0].startDate).toMatch(/T09:00:00\+07:00$/);
		for (const campaign of sent) expect(campaign.request.channels[0].endDate).toMatch(/T18:00:00\+07:00$/);
	});

	test('Campaign (JSON) given a list: "For several campaigns, give one item per campaign": a Split Out node before it, run again: 2 campaigns, each once', async () => {
		e2e.follows('oneItemPerCampaign', 'severalCampaigns');
		const { message, advice } = await refused(CAMPAIGN_LIST.id, 'list');
		expect(message).toMatch(/^Item 1 › Campaign \(JSON\): an array of 2, not one campaign object/);
		expect(advice).toMatch(/^For several campaigns, give one item per campaign\./);
		const splitOut = e2e.node('insJsonList-split', 'One item per campaign', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'campaigns', include: 'noOtherFields', options: {} });
		await steps.saveWorkflow(CAMPAIGN_LIST.id, ({ nodes }) => ({
			nodes: [...nodes.map((node) => (node.name === LBA ? { ...node, parameters: { ...node.parameters, campaignJson: '={{ $json }}' } } : node)), splitOut],
			connections: e2e.chain('Start', 'Campaigns to send', splitOut.name, LBA),
		}));
		expect((await steps.run(CAMPAIGN_LIST.id)).status).toBe('success');
		expect(countsOf(await steps.journal('list'))).toEqual(once('list', 2));
	});

	test('a WIB workflow, a channel in Makassar: the panel\'s "For channels in another zone, turn on Options › Recipients\' Local Time" followed: 1 campaign at 09:00 WITA', async () => {
		e2e.follows('recipientsLocalTime');
		// The hint the panel shows before a run (n8n evaluates its condition in the workflow's timezone, Asia/Jakarta here).
		const types = (await setup!.rest.request('GET', '/types/nodes.json')).body as Array<{ name: string; hints?: Array<{ message: string; displayCondition: string }> }>;
		const hints = types.find((type) => type.name === e2e.LBA_NODE_TYPE)!.hints ?? [];
		const wib = hints.find(({ displayCondition }) => displayCondition.includes("$now.zoneName === 'Asia/Jakarta'"));
		expect(wib?.message).toBe(
			"Send From and Send Until without an offset are read in WIB (Asia/Jakarta), this workflow's timezone. For channels in another zone, turn on Options › Recipients' Local Time.",
		);
		await setLba(OTHER_ZONE.id, (p) => ({ ...p, options: { ...p.options, recipientsLocalTime: true } }));
		expect((await steps.run(OTHER_ZONE.id)).status).toBe('success');
		const sent = await steps.journal('local');
		expect(countsOf(sent)).toEqual(once('local', 1));
		expect(sent[0].request.channels[0].startDate).toMatch(/T09:00:00\+08:00$/);
	});

	test('Custom API Call: "In an HTTP Request node, set Authentication to Predefined Credential Type, pick LBA Ads API and your credential, and give the full URL": 1 campaign', async () => {
		e2e.follows('useHttpRequest', 'httpRequestSteps');
		const { message, advice } = await refused(CUSTOM_CALL.id, 'http');
		expect(message).toBe('Custom API Call is not available in the LBA Ads node: use the HTTP Request node with the LBA Ads credential');
		expect(advice).toBe(
			'Nothing was sent. In an HTTP Request node, set Authentication to "Predefined Credential Type", pick "LBA Ads API" (or "LBA Ads OAuth2 API") and your credential, and give the full URL (your Base URL plus the path).',
		);
		// The LBA Ads node replaced by an HTTP Request node, as the advice says.
		const http = e2e.node(
			'insCustomCall-http',
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'POST',
				url: `${setup!.sandbox.url}/lba/campaign`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'lbaAdsApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify($json) }}',
				options: {},
			},
			{ credentials: { lbaAdsApi: { id: setup!.credentialId(e2e.SANDBOX_CREDENTIAL_ID), name: e2e.SANDBOX_CREDENTIAL_NAME } } },
		);
		await steps.saveWorkflow(CUSTOM_CALL.id, ({ nodes }) => ({ nodes: [...nodes.filter((node) => node.name !== 'LBA Ads'), http], connections: e2e.chain('Start', 'Campaigns to send', http.name) }));
		const run = await steps.run(CUSTOM_CALL.id);
		expect(run.status).toBe('success');
		expect(run.output(http.name)[0]).toMatchObject({ success: true, status: 'Published' });
		expect(countsOf(await steps.journal('http'))).toEqual(once('http', 1));
	});
});
