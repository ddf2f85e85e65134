import { parseRetryAfter, RETRY, retryDelayMs } from '../../nodes/LbaAds/transport';
import { readableSize } from '../../nodes/LbaAds/helpers/products';

describe('retry policy (pure)', () => {
	it('retries 429 and 5xx and connection resets with growing, bounded delays', () => {
		for (const status of [429, 500, 502, 503, 504]) {
			const delays = [0, 1, 2, 3].map((attempt) => retryDelayMs({ status }, attempt));
			expect(delays.slice(0, RETRY.maxRetries).every((delay) => delay !== undefined && delay <= RETRY.maxDelayMs)).toBe(true);
			expect(delays[1]!).toBeGreaterThan(delays[0]!);
			expect(delays[RETRY.maxRetries]).toBeUndefined();
		}
		expect(retryDelayMs({ networkCode: 'ECONNRESET' }, 0)).toBe(RETRY.firstDelayMs);
	});

	it('does not retry client errors, 501 (never implemented) or unknown network codes', () => {
		for (const status of [400, 401, 404, 501]) expect(retryDelayMs({ status }, 0)).toBeUndefined();
		expect(retryDelayMs({ networkCode: 'ENOTFOUND' }, 0)).toBeUndefined();
	});

	it('honours Retry-After, but not beyond the cap', () => {
		expect(retryDelayMs({ status: 429, retryAfterMs: 2000 }, 0)).toBe(2000);
		expect(retryDelayMs({ status: 429, retryAfterMs: RETRY.maxRetryAfterMs + 1 }, 0)).toBeUndefined();
	});

	it('parses Retry-After as seconds or as an HTTP date', () => {
		const now = Date.UTC(2026, 10, 22, 12, 0, 0);
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
	});
});

describe('readable quota sizes', () => {
	it('uses 1024-based units', () => {
		expect(readableSize(10 * 1024 ** 3)).toBe('10 GB');
		expect(readableSize(1536 * 1024 ** 2)).toBe('1.5 GB');
		expect(readableSize(500 * 1024 ** 2)).toBe('500 MB');
		expect(readableSize(0)).toBe('0 B');
		expect(readableSize(null)).toBeNull();
	});
});
