/**
 * CI cannot expire (issue 58): a suite that runs the node against the real clock (real n8n, queue
 * mode, n8n 1.x, the bench, the shipped examples) refuses a window that is over, so a literal date
 * written there turns a green CI red the day it passes. Such files compute their dates from the
 * clock, or write them ten years ahead. The node tests (test/nodes, test/reliability) run on a
 * fixed clock (test/nodes/LbaAds/setup.ts, TEST_NOW), so their literal dates mean the same every year.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** Where the node meets the real clock. */
const REAL_CLOCK = ['test/e2e', 'test/queue', 'test/n8n1', 'test/harness', 'bench', 'examples', 'scripts'];
const YEAR_MS = 365.25 * 24 * 3600_000;
/** Far enough either side that the date cannot become "soon" or "just over" within five years. */
const SAFE_DISTANCE_MS = 5 * YEAR_MS;
const DATE = /\b(\d{4})-(\d{2})-(\d{2})/g;

/** The literal dates of a text within five years of `now`, with their line numbers; comments are not read. */
export function expiringDates(text: string, now: number): Array<{ line: number; date: string }> {
	return text.split('\n').flatMap((line, index) => {
		if (/^\s*(\/\/|\*|\/\*|#)/.test(line)) return [];
		return [...line.matchAll(DATE)]
			.filter(([date]) => {
				const at = Date.parse(`${date}T00:00:00Z`);
				return Number.isFinite(at) && Math.abs(at - now) < SAFE_DISTANCE_MS;
			})
			.map(([date]) => ({ line: index + 1, date }));
	});
}

function realClockFiles(): string[] {
	const listed = execFileSync('git', ['ls-files', ...REAL_CLOCK], { cwd: ROOT, encoding: 'utf8' }).split('\n');
	return listed.filter((file) => /\.(ts|js|mjs|json)$/.test(file) && !file.startsWith('bench/results/'));
}

describe('test dates do not expire', () => {
	it('finds a date within five years, either side, and skips comments and far dates (the check itself)', () => {
		const now = Date.parse('2026-12-06T00:00:00Z');
		const text = ["const a = '2026-12-01T08:00:00+07:00';", '// seen on 2026-11-23', "const b = '2036-12-01';", "const c = '2020-01-01';", "const d = '2031-12-01';"].join('\n');
		expect(expiringDates(text, now)).toEqual([
			{ line: 1, date: '2026-12-01' },
			{ line: 5, date: '2031-12-01' },
		]);
	});

	it('no file that runs against the real clock writes a date within five years of today (compute it from the clock, or write it ten years ahead)', () => {
		const found = realClockFiles().flatMap((file) =>
			expiringDates(readFileSync(path.join(ROOT, file), 'utf8'), Date.now()).map(({ line, date }) => `${file}:${line}: ${date}`),
		);
		expect(found).toEqual([]);
	});
});
