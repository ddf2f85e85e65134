/**
 * Two rules of the guard, each in one scripted schedule on the virtual clock at production timings
 * (the simulation's random schedules count their failures apart or not at all).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ApiRequestError } from '../../../../../nodes/shared/transport';
import { VirtualClock } from './clock';
import { Random } from './random';
import { PRODUCTION } from './schedule';
import { StoreModel, type Executed, type StatementSource } from './store';
import { createRun, Service, SimProcess, type ItemPlan, type LockTask, type RunRecord } from './world';

/** The service, answering each send as the test says (by item key and resend). */
class ScriptedService extends Service {
	constructor(
		private readonly simClock: VirtualClock,
		private readonly answer: (item: ItemPlan) => 'created' | 'refused',
	) {
		super(simClock, new Random(1), { refused: 0, unknownCreated: 0, unknownNotCreated: 0 }, () => 50);
	}

	override async create(owner: SimProcess, run: number, item: ItemPlan): Promise<void> {
		await this.simClock.sleep(owner, 50);
		if (this.answer(item) === 'refused') {
			const error = Object.create(ApiRequestError.prototype) as ApiRequestError;
			throw Object.assign(error, { message: 'Bad request', failureClass: { outcome: 'refused' } });
		}
		this.creations.push({ key: item.key, retryKey: item.retryKey, time: this.simClock.now, run, resend: item.resend });
	}
}

function world(answer: (item: ItemPlan) => 'created' | 'refused', onExecuted?: (process: SimProcess, executed: Executed) => void) {
	const clock = new VirtualClock();
	const store = new StoreModel(clock);
	const tasks: LockTask[] = [];
	const random = new Random(7);
	const service = new ScriptedService(clock, answer);
	const procs = [0, 1, 2].map(
		(id) =>
			new SimProcess(id, clock, random.fork(), tasks, (guard, lock) => {
				Object.assign(lock.lockTiming, PRODUCTION.lock);
				Object.assign(guard.twinWait, PRODUCTION.twin);
			}),
	);
	const source = (process: SimProcess): StatementSource => ({ process, latency: () => ({ toDatabase: 1, back: 1 }), onExecuted: (executed) => onExecuted?.(process, executed) });
	const run = (id: number, process: SimProcess, items: ItemPlan[]): { record: RunRecord; ctx: IExecuteFunctions } => {
		const record: RunRecord = { id, process: process.id, kind: 'create', items, started: clock.now, ends: new Map(), hints: [], claimedAt: new Map(), settleStartedAt: new Map() };
		return { record, ctx: process.context(store, source(process), record) };
	};
	/** Starts a run; its record is complete once the clock has run. */
	const start = (id: number, process: SimProcess, items: ItemPlan[]) => {
		const { record, ctx } = run(id, process, items);
		void createRun(process, ctx, record, service, 4, () => clock.now).then(() => (record.ended = clock.now));
		return record;
	};
	const create = async (id: number, process: SimProcess, items: ItemPlan[]) => {
		const record = start(id, process, items);
		await clock.run(Infinity);
		return record;
	};
	return { clock, procs, service, start, create };
}

const item = (key: string, execution: number, index: number, resend = false): ItemPlan => ({ key, retryKey: `retry:v1:E${execution}:${index}`, resend });

describe('the guard in scripted schedules', () => {
	it('a repeat of a campaign in its run is that campaign, Resend or not: sent once', async () => {
		const { procs, service, create } = world(() => 'created');
		const first = await create(0, procs[0], [item('content:v2:C0', 0, 0, true), item('content:v2:C0', 0, 1, true)]);
		expect([0, 1].map((index) => first.ends.get(index)?.kind)).toEqual(['created', 'skipped']);
		expect(first.ends.get(1)).toMatchObject({ json: { sameAsItem: 0, earlierOutcome: 'sameRun' } });
		expect(service.creations).toHaveLength(1);
	});

	it('a Resend of a created campaign, refused by the service, does not erase its "created" record', async () => {
		const { procs, service, create } = world((sent) => (sent.resend ? 'refused' : 'created'));
		const first = await create(0, procs[0], [item('content:v2:C0', 0, 0)]);
		expect([...first.ends.values()].map((end) => end.kind)).toEqual(['created']);
		const resent = await create(1, procs[1], [item('content:v2:C0', 1, 0, true)]);
		expect([...resent.ends.values()].map((end) => end.kind)).toEqual(['failed']);
		const again = await create(2, procs[2], [item('content:v2:C0', 2, 0)]);
		expect(again.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'created' } });
		expect(service.creations.filter((c) => !c.resend)).toHaveLength(1);
	});

	it('a Resend of a campaign an earlier run created, refused by the service, keeps that run\'s record: a later run does not send it again', async () => {
		const { procs, service, create } = world((sent) => (sent.resend ? 'refused' : 'created'));
		await create(0, procs[0], [item('content:v2:C0', 0, 0)]);
		const resend = await create(1, procs[1], [item('content:v2:C0', 1, 0, true)]);
		expect(resend.ends.get(0)).toMatchObject({ kind: 'failed' });
		const later = await create(2, procs[2], [item('content:v2:C0', 2, 0)]);
		expect(later.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'created' } });
		expect(service.creations.map((c) => c.run)).toEqual([0]);
	});

	it('a Retry\'s item that waited for another execution sending its campaign, refused, stays held back by its retry key: the execution it retries created it', async () => {
		// Execution 0 created C0; its Retry has $now moved (key C0b) while execution 1 sends C0b and is refused.
		const { clock, procs, service, start } = world((sent) => (sent.retryKey === 'retry:v1:E1:0' ? 'refused' : 'created'));
		start(0, procs[0], [item('content:v2:C0', 0, 0)]);
		await clock.run(Infinity);
		const twin = start(1, procs[1], [item('content:v2:C0b', 1, 0)]);
		let retry: RunRecord | undefined;
		clock.at(clock.now + 15, undefined, 'timer', () => (retry = start(2, procs[2], [item('content:v2:C0b', 0, 0)])));
		await clock.run(Infinity);
		expect(twin.ends.get(0)).toMatchObject({ kind: 'failed' });
		expect(retry!.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'created', reason: expect.stringMatching(/^Created by the execution this one retries/) } });
		expect(service.creations.map((c) => c.run)).toEqual([0]);
		// What the Retry recorded while it waited is taken out: a new execution sends C0b.
		const later = start(3, procs[0], [item('content:v2:C0b', 3, 0)]);
		await clock.run(Infinity);
		expect(later.ends.get(0)).toMatchObject({ kind: 'created' });
	});

	it('a "sending" mark a killed run left holds the campaign as "being sent right now" until that run\'s time is over (never read as lost while it may be live), then as "may have been created"', async () => {
		const { clock, procs, start, create, service } = world(() => 'created');
		// Process 0 claims C0 and is killed while sending it (before its answer): its claim and its "sending" mark stay.
		const killed = start(0, procs[0], [item('content:v2:C0', 0, 0)]);
		clock.at(30, undefined, 'timer', () => (procs[0].killed = true));
		await clock.run(Infinity);
		expect(killed.claimedAt.has(0)).toBe(true);
		expect(service.creations).toEqual([]);
		const second = await create(1, procs[1], [item('content:v2:C0', 1, 0)]);
		expect(second.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'sending', howToResend: expect.stringMatching(/Do not run the workflow again for it/) } });
		expect(second.ended! - second.started).toBeGreaterThanOrEqual(10_000);
		// The killed run's time (4 requests at the 30 s Timeout, and the lock's waits: 5 minutes, to the end of a 5-minute slot) passes.
		clock.at(clock.now + 11 * 60_000, undefined, 'timer', () => undefined);
		await clock.run(Infinity);
		const third = await create(2, procs[2], [item('content:v2:C0', 2, 0)]);
		expect(third.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'unknown', howToResend: expect.stringMatching(/look for it in LBA Ads/) } });
		expect(third.ended! - third.started).toBeLessThan(1_000);
		expect(service.creations).toEqual([]);
	});

	it('a claim killed between asking whether a campaign was created and taking the question out leaves no "created" answer behind', async () => {
		const createdC0 = StoreModel.hash('created:content:v2:C0');
		const holds = (row: Executed['after'], hash: string) => Array.isArray(row?.data) && row.data.includes(hash);
		// Process 1 is killed the moment its question about C0 lands in the history.
		const { clock, procs, start, create, service } = world(
			() => 'created',
			(process, executed) => {
				if (process.id === 1 && holds(executed.after, createdC0) && !holds(executed.before, createdC0)) process.killed = true;
			},
		);
		// Process 0 is killed while sending C0: its claim stays, so the next run asks whether C0 was created.
		start(0, procs[0], [item('content:v2:C0', 0, 0)]);
		clock.at(30, undefined, 'timer', () => (procs[0].killed = true));
		await clock.run(Infinity);
		start(1, procs[1], [item('content:v2:C0', 1, 0)]);
		await clock.run(Infinity);
		expect(procs[1].killed).toBe(true);
		// Past process 0's time (5 minutes at the default Timeout, to the end of its 5-minute slot): its mark is a dead run's.
		clock.at(clock.now + 11 * 60_000, undefined, 'timer', () => undefined);
		await clock.run(Infinity);
		const later = await create(2, procs[2], [item('content:v2:C0', 2, 0)]);
		expect(later.ends.get(0)).toMatchObject({ kind: 'skipped', json: { earlierOutcome: 'unknown' } });
		expect(service.creations).toEqual([]);
	});
});
