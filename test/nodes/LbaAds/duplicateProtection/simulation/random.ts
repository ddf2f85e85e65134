/**
 * The one source of choices of a schedule: every latency, pause, fault and draw of the code under
 * test comes from a generator seeded once, so a seed replays a schedule exactly.
 */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0 || 0x9e3779b9;
	}

	/** mulberry32: small, fast, and good enough to spread schedules. */
	next(): number {
		let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** A child generator: one per process, so that one process's draws do not shift another's. */
	fork(): Random {
		return new Random(Math.floor(this.next() * 2 ** 32));
	}

	between(min: number, max: number): number {
		return min + this.next() * (max - min);
	}

	int(min: number, max: number): number {
		return Math.floor(this.between(min, max + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.next() * values.length)];
	}

	/** Pareto: mostly near `scale`, sometimes far above (slow statements), cut at `max`. */
	heavyTail(scale: number, shape: number, max: number): number {
		return Math.min(max, scale / Math.pow(1 - this.next(), 1 / shape));
	}
}
