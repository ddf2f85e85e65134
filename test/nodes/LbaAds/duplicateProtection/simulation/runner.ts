/**
 * Runs one schedule: builds the world its plan describes, runs every process's runs on the virtual
 * clock until nothing is left to do, and checks the invariants over the whole history.
 */
import { VirtualClock } from './clock';
import { checkInvariants, type Verdict } from './invariants';
import { Random } from './random';
import { drawPlan, type Plan, type Timings } from './schedule';
import { StoreModel, type StatementKind, type StatementSource } from './store';
import { createRun, Service, SimProcess, taskContext, WORKFLOW_ID, type LockTask, type RunRecord } from './world';

export interface History {
	plan: Plan;
	store: StoreModel;
	service: Service;
	runs: RunRecord[];
	tasks: LockTask[];
	faultsFired: Array<{ time: number; process: number; kind: string; ms: number }>;
	clock: VirtualClock;
}

export interface ScheduleResult extends Verdict {
	seed: number;
	processes: number;
	statements: number;
	faults: number;
	events: number;
	virtualMs: number;
	history: History;
	trace: () => string;
}

export async function runSchedule(seed: number, timings: Timings): Promise<ScheduleResult> {
	return await runPlan(drawPlan(seed, timings));
}

/** Runs one plan (drawn from a seed, or made for one question such as the residual race). */
export async function runPlan(plan: Plan): Promise<ScheduleResult> {
	const { seed, timings } = plan;
	const random = new Random(seed ^ 0x5bd1e995);
	const clock = new VirtualClock();
	const store = new StoreModel(clock);
	const tasks: LockTask[] = [];
	const runs: RunRecord[] = [];
	const faultsFired: History['faultsFired'] = [];
	const serviceRandom = random.fork();
	const service = new Service(clock, serviceRandom, plan.outcomes, () => serviceRandom.heavyTail(timings.service.scale, timings.service.shape, timings.service.max));

	if (plan.leftOver) {
		const row = `${WORKFLOW_ID}|`;
		store.rows.set(row, plan.leftOver.mode === 'entries' ? { mode: 'entries', data: ['a-remove-duplicates-entry'] } : { mode: plan.leftOver.mode, data: plan.leftOver.value });
	}

	const processes = Array.from({ length: plan.processes }, (_, id) => {
		const process = new SimProcess(id, clock, random.fork(), tasks, (guard, lock) => {
			Object.assign(lock.lockTiming, timings.lock);
			Object.assign(guard.twinWait, timings.twin);
		});
		return process;
	});

	const statementsOf = new Map<number, number>();
	const executedOf = new Map<number, number>();
	const latencyRandom = random.fork();
	const sourceFor = (process: SimProcess): StatementSource => ({
		process,
		latency: (kind: StatementKind) => {
			const count = (statementsOf.get(process.id) ?? 0) + 1;
			statementsOf.set(process.id, count);
			const { scale, shape, max } = timings.statement;
			let toDatabase = latencyRandom.heavyTail(scale, shape, max);
			for (const fault of plan.faults) {
				if (fault.process === process.id && fault.kind === 'freeze' && fault.afterStatement === count) {
					toDatabase += fault.ms; // the connection froze with this statement in it, then delivered
					faultsFired.push({ time: clock.now, process: process.id, kind: `freeze (${kind})`, ms: fault.ms });
				}
			}
			return { toDatabase, back: latencyRandom.heavyTail(scale, shape, max) };
		},
		sender: () => taskContext.getStore(),
		onExecuted: () => {
			const count = (executedOf.get(process.id) ?? 0) + 1;
			executedOf.set(process.id, count);
			for (const fault of plan.faults) {
				if (fault.process !== process.id || fault.afterStatement !== count || process.killed) continue;
				if (fault.kind === 'pause') {
					process.pausedUntil = Math.max(process.pausedUntil, clock.now + fault.ms);
					faultsFired.push({ time: clock.now, process: process.id, kind: 'pause', ms: fault.ms });
				} else if (fault.kind === 'kill') {
					process.killed = true;
					faultsFired.push({ time: clock.now, process: process.id, kind: 'kill', ms: 0 });
					for (const run of runs) if (run.process === process.id && run.ended === undefined) run.crashed = true;
				}
			}
		},
	});

	const whenEnded = new Map<number, () => void>();
	const startRun = (id: number) => {
		const runPlan = plan.runs[id];
		const process = processes[runPlan.process];
		if (process.killed) return;
		const run: RunRecord = {
			id,
			process: process.id,
			kind: runPlan.kind,
			items: runPlan.items,
			forgets: runPlan.forgets,
			started: clock.now,
			ends: new Map(),
			hints: [],
			claimedAt: new Map(),
			settleStartedAt: new Map(),
		};
		runs.push(run);
		const ctx = process.context(store, sourceFor(process), run);
		const work =
			runPlan.kind === 'forget'
				? process.guard.forgetCampaigns(ctx, runPlan.forgets!).then(
						() => undefined,
						(error: Error) => void run.hints.push(`forget failed: ${error.message}`),
					)
				: createRun(process, ctx, run, service, runPlan.waveSize, () => clock.now);
		void work.then(() => {
			if (process.killed) return;
			run.ended = clock.now;
			whenEnded.get(id)?.();
		});
	};
	plan.runs.forEach((runPlan, id) => {
		const process = processes[runPlan.process];
		if (runPlan.retries === undefined) clock.at(runPlan.start, process, 'timer', () => startRun(id));
		// A Retry: once the execution it retries has ended (n8n refuses to retry a crashed one).
		else whenEnded.set(runPlan.retries, () => clock.at(clock.now + runPlan.start, process, 'timer', () => startRun(id)));
	});

	if (plan.cleanDatabaseAt !== undefined) {
		const cleaner: StatementSource = { latency: () => ({ toDatabase: 0, back: 0 }) };
		clock.at(plan.cleanDatabaseAt, undefined, 'timer', () => {
			faultsFired.push({ time: clock.now, process: -1, kind: 'Clean Database (Remove Duplicates, scope workflow)', ms: 0 });
			void store.clearAllProcessedItems(cleaner, 'workflow', { workflow: { id: WORKFLOW_ID } } as never);
		});
	}

	await clock.run(timings.lock.giveUpAfterMs * 20);

	const history: History = { plan, store, service, runs, tasks, faultsFired, clock };
	const verdict = checkInvariants(history);
	return {
		...verdict,
		seed,
		processes: plan.processes,
		statements: store.statements,
		faults: faultsFired.length + (plan.leftOver ? 1 : 0) + (plan.cleanDatabaseAt !== undefined ? 1 : 0),
		events: clock.events,
		virtualMs: clock.now,
		history,
		trace: () => traceOf(history),
	};
}

/** A short account of a schedule: its plan, its faults, each run's items, the lock's tasks. */
function traceOf(history: History): string {
	const { plan, runs, tasks, faultsFired, service } = history;
	const lines = [
		`seed ${plan.seed} (${plan.timings.name} timings): ${plan.processes} processes, ${plan.runs.length} runs, left-over row ${JSON.stringify(plan.leftOver ?? null)}, outcomes ${JSON.stringify(plan.outcomes)}`,
		...faultsFired.map((f) => `  ${f.time.toFixed(2)} ms: process ${f.process}: ${f.kind}${f.ms ? ` ${f.ms.toFixed(1)} ms` : ''}`),
		...runs.map(
			(run) =>
				`  run ${run.id} on process ${run.process} (${run.kind}) ${run.started.toFixed(2)}–${run.ended?.toFixed(2) ?? (run.crashed ? 'killed' : 'never ended')} ms: ` +
				(run.kind === 'forget'
					? `forget ${JSON.stringify(run.forgets)}`
					: run.items.map((item, i) => `${item.key.replace('content:v2:', '')}${item.resend ? '(resend)' : ''}→${describe(run.ends.get(i))}`).join(', ')) +
				(run.hints.length ? `; hints: ${run.hints.map((h) => h.slice(0, 90)).join(' | ')}` : ''),
		),
		`  lock tasks: ${tasks.map((t) => `p${t.process}/r${t.run} ${t.started.toFixed(2)}–${t.ended?.toFixed(2) ?? '…'}`).join(', ')}`,
		`  creations: ${service.creations.map((c) => `${c.key.replace('content:v2:', '')}@${c.time.toFixed(2)} (run ${c.run})`).join(', ')}`,
	];
	return lines.join('\n');
}

function describe(end: RunRecord['ends'] extends Map<number, infer E> ? E | undefined : never): string {
	if (!end) return 'none';
	if (end.kind === 'skipped') return `skipped(${String(end.json.earlierOutcome)})`;
	if (end.kind === 'failed') return `failed(${end.outcome})`;
	if (end.kind === 'error') return `error(${end.message.slice(0, 60)})`;
	return end.kind;
}
