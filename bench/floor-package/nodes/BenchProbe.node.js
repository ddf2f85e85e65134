'use strict';
// Memory probe for P2. "Start" collects garbage, records RSS and heap, and resets the
// kernel's peak-RSS mark (/proc/self/clear_refs, Linux >= 4.0) so the peak read by "End"
// belongs to the nodes in between. Heap has no such mark: a 1 ms sampler records the
// highest heapUsed it sees whenever the event loop is free (a lower bound of the peak).
const fs = require('node:fs');

const STATE = Symbol.for('lba-bench-probe');

function kib(field) {
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
	return match ? Number(match[1]) * 1024 : null;
}

class BenchProbe {
	constructor() {
		this.description = {
			displayName: 'Bench Probe',
			name: 'benchProbe',
			group: ['transform'],
			version: 1,
			description: 'Memory probe',
			defaults: { name: 'Bench Probe' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					default: 'start',
					options: [{ name: 'Start', value: 'start' }, { name: 'End', value: 'end' }],
				},
			],
		};
	}

	async execute() {
		const mode = this.getNodeParameter('mode', 0);
		if (mode === 'start') {
			if (typeof global.gc === 'function') global.gc();
			const state = { rss0: process.memoryUsage().rss, heap0: process.memoryUsage().heapUsed, peakHeap: 0 };
			state.peakHeap = state.heap0;
			state.timer = setInterval(() => {
				const heap = process.memoryUsage().heapUsed;
				if (heap > state.peakHeap) state.peakHeap = heap;
			}, 1);
			fs.writeFileSync('/proc/self/clear_refs', '5');
			global[STATE] = state;
			return [this.getInputData()];
		}
		const state = global[STATE];
		clearInterval(state.timer);
		const peakRss = kib('VmHWM');
		const heapNow = process.memoryUsage().heapUsed;
		// After a full GC what is left is what n8n keeps: the nodes' output items.
		if (typeof global.gc === 'function') global.gc();
		const heapLive = process.memoryUsage().heapUsed;
		const result = {
			inputItems: this.getInputData().length,
			peakRssBytes: peakRss,
			rssBeforeBytes: state.rss0,
			peakRssDeltaBytes: peakRss - state.rss0,
			heapBeforeBytes: state.heap0,
			peakHeapDeltaBytes: Math.max(state.peakHeap, heapNow) - state.heap0,
			retainedHeapDeltaBytes: heapLive - state.heap0,
		};
		return [[{ json: result, pairedItem: { item: 0 } }]];
	}
}

module.exports = { BenchProbe };
