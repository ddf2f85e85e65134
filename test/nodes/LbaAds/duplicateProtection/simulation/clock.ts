/**
 * Virtual time: one queue of events, run in order of (time, phase, sequence). Real promises run
 * between two events (the microtask queue drains before the next macrotask), so the code under
 * test runs unchanged; only its timers and its database answers come from here.
 *
 * Events belong to a process. A paused process's events wait until it resumes, its timers first
 * (Node runs the timers phase before I/O callbacks); a killed process's events are dropped.
 */
export interface SimProcessState {
	id: number;
	pausedUntil: number;
	killed: boolean;
}

/** Timers run before I/O callbacks of the same moment, as in Node's event loop. */
export type Phase = 'timer' | 'io';

interface SimEvent {
	time: number;
	phase: number;
	seq: number;
	owner: SimProcessState | undefined;
	fire: () => void;
}

export class VirtualClock {
	now = 0;
	events = 0;
	private seq = 0;
	private readonly heap: SimEvent[] = [];

	/** Runs `fire` at `time`; as `owner`'s event when given (held while it is paused, dropped once it is killed). */
	at(time: number, owner: SimProcessState | undefined, phase: Phase, fire: () => void): void {
		this.push({ time: Math.max(time, this.now), phase: phase === 'timer' ? 0 : 1, seq: this.seq++, owner, fire });
	}

	sleep(owner: SimProcessState | undefined, ms: number): Promise<void> {
		return new Promise((resolve) => this.at(this.now + Math.max(0, ms), owner, 'timer', resolve));
	}

	/** Runs events until none is left or `limit` (virtual ms) is reached. */
	async run(limit: number): Promise<void> {
		for (;;) {
			await drainMicrotasks();
			const event = this.pop();
			if (!event) return;
			if (event.time > limit) {
				this.push(event);
				return;
			}
			const owner = event.owner;
			if (owner?.killed) continue;
			if (owner && owner.pausedUntil > event.time) {
				// Held until the process resumes; re-queued behind what was already due then.
				this.push({ ...event, time: owner.pausedUntil, seq: this.seq++ });
				continue;
			}
			this.now = event.time;
			this.events++;
			event.fire();
		}
	}

	pending(): number {
		return this.heap.length;
	}

	private before(a: SimEvent, b: SimEvent): boolean {
		return a.time !== b.time ? a.time < b.time : a.phase !== b.phase ? a.phase < b.phase : a.seq < b.seq;
	}

	private push(event: SimEvent): void {
		const heap = this.heap;
		heap.push(event);
		let i = heap.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!this.before(heap[i], heap[parent])) break;
			[heap[i], heap[parent]] = [heap[parent], heap[i]];
			i = parent;
		}
	}

	private pop(): SimEvent | undefined {
		const heap = this.heap;
		const top = heap[0];
		const last = heap.pop();
		if (heap.length && last) {
			heap[0] = last;
			let i = 0;
			for (;;) {
				const left = 2 * i + 1;
				const right = left + 1;
				let smallest = i;
				if (left < heap.length && this.before(heap[left], heap[smallest])) smallest = left;
				if (right < heap.length && this.before(heap[right], heap[smallest])) smallest = right;
				if (smallest === i) break;
				[heap[i], heap[smallest]] = [heap[smallest], heap[i]];
				i = smallest;
			}
		}
		return top;
	}
}

/**
 * Every promise reaction queued so far (and every one those queue) runs before this resolves: Node
 * runs the next-tick queue only once the microtask queue is empty. No turn of the event loop is
 * needed, which makes an event a few microseconds; every 5,000 events one real turn lets the test
 * runner's own timers run.
 */
let sinceTurn = 0;
function drainMicrotasks(): Promise<void> {
	if (++sinceTurn >= 5_000) {
		sinceTurn = 0;
		return new Promise((resolve) => setImmediate(resolve));
	}
	return new Promise((resolve) => process.nextTick(resolve));
}
