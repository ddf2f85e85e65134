import { createHash } from 'crypto';
/**
 * Golden keys: fixed inputs give fixed key strings. A refactor of the body, the canonical JSON or
 * the dates that changed a key would make every campaign of a re-run after an upgrade go out
 * again, so each format is pinned here; a deliberate change gets a new version prefix.
 */
import { contentKey, customKey, forgetKeysOf, keysFromUser, retryKey, serviceTarget } from '../../../../nodes/LbaAds/duplicateProtection/keys';
import { utcInstant } from '../../../../nodes/LbaAds/helpers/dates';

const channel = { sender: 'MYBRAND', locationId: 161, smsQty: 1000, message: 'Promo hari ini!', telcoId: 'tsel' };
const bodyAsSent = {
	name: 'Bandung weekend promo',
	description: 'Weekend discounts',
	categoryId: 10,
	channels: [{ ...channel, startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-07T21:00:00+07:00' }],
};
/** The campaign as its key sees it: dates as UTC instants. */
const asInstants = (body: typeof bodyAsSent) => ({
	...body,
	channels: body.channels.map((c) => ({ ...c, startDate: utcInstant(c.startDate), endDate: utcInstant(c.endDate) })),
});

describe('duplicate protection keys', () => {
	it('content:v2 is pinned: the campaign with UTC instants and the target', () => {
		expect(contentKey(asInstants(bodyAsSent), serviceTarget('https://api.example.co.id'))).toBe(
			'content:v2:240c0bc26d3cc733ffd62d984d4cf11417fdac2a6aef741a4a33b05bb53e1f01',
		);
	});

	it('the same instants in any offset give the same key; another instant or another target does not', () => {
		const target = serviceTarget('https://api.example.co.id');
		const inUtc = { ...bodyAsSent, channels: [{ ...channel, startDate: '2026-12-01T02:00:00+00:00', endDate: '2026-12-07T14:00:00+00:00' }] };
		const inWita = { ...bodyAsSent, channels: [{ ...channel, startDate: '2026-12-01T10:00:00+08:00', endDate: '2026-12-07T22:00:00+08:00' }] };
		const anHourLater = { ...bodyAsSent, channels: [{ ...channel, startDate: '2026-12-01T10:00:00+07:00', endDate: '2026-12-07T21:00:00+07:00' }] };
		const key = contentKey(asInstants(bodyAsSent), target);
		expect(contentKey(asInstants(inUtc), target)).toBe(key);
		expect(contentKey(asInstants(inWita), target)).toBe(key);
		expect(contentKey(asInstants(anHourLater), target)).not.toBe(key);
		expect(contentKey(asInstants(bodyAsSent), serviceTarget('http://127.0.0.1:8080'))).not.toBe(key);
	});

	it('the target is the base URL as a URL: case of the host, a default port and trailing slashes do not count', () => {
		expect(serviceTarget('HTTPS://API.Example.co.id:443/')).toBe('https://api.example.co.id');
		expect(serviceTarget('http://127.0.0.1:8080//')).toBe('http://127.0.0.1:8080');
		expect(serviceTarget('https://gw.example.co.id/lba-v1/')).toBe('https://gw.example.co.id/lba-v1');
		expect(serviceTarget('http://127.0.0.1:8080')).not.toBe(serviceTarget('http://127.0.0.1:8081'));
	});

	it('custom:v2 and retry:v4 are pinned (retry:v4 is the SHA-256 of the canonical JSON, written out here by hand)', () => {
		expect(customKey(' A-17 ', 'https://api.example.co.id')).toBe('custom:v2:https://api.example.co.id A-17');
		expect(customKey('  ', 'https://api.example.co.id')).toBeUndefined();
		const shape = { name: 'x', channels: [{ locationId: 3273 }] };
		// As itemOrigin.ts gives its parts: the execution, the campaign without its dates and its number (no run index since v4).
		const canonical = '{"execution":"execution 5f0c","ordinal":0,"shape":{"channels":[{"locationId":3273}],"name":"x"},"target":"https://api.example.co.id"}';
		const key = retryKey({ target: 'https://api.example.co.id', shape, ordinal: 0, execution: 'execution 5f0c' });
		expect(key).toBe(`retry:v4:${createHash('sha256').update(canonical).digest('hex')}`);
		expect(key).toBe('retry:v4:393579e374dc17a6fe6d52d2fc8dd48ee58e8c337a89073e1efa019ddfe4624e');
		// Keys in another order, the same key.
		expect(retryKey({ execution: 'execution 5f0c', ordinal: 0, shape: { channels: shape.channels, name: 'x' }, target: 'https://api.example.co.id' })).toBe(key);
	});

	it('Forget Sent takes an output\'s forgetKeys (its retry key, then its own key), one key, a list, or a custom key\'s text', () => {
		const content = `content:v2:${'a'.repeat(64)}`;
		const retry = `retry:v2:${'b'.repeat(64)}`;
		const custom = 'custom:v2:https://x Promo A, Jakarta';
		expect(forgetKeysOf(content, retry)).toBe(`${retry} ${content}`);
		expect(keysFromUser(forgetKeysOf(content, retry), 'https://x')).toEqual([retry, content]);
		expect(keysFromUser(forgetKeysOf(custom, retry), 'https://x')).toEqual([retry, custom]);
		expect(keysFromUser(`${retry},${custom}`, 'https://x')).toEqual([retry, custom]);
		expect(keysFromUser([retry, content], 'https://x')).toEqual([retry, content]);
		expect(keysFromUser(content, 'https://x')).toEqual([content]);
		expect(keysFromUser(' Promo A, Jakarta ', 'https://x')).toEqual([custom]);
		expect(keysFromUser('A-17', undefined)).toEqual([]);
		expect(keysFromUser('', 'https://x')).toEqual([]);
	});

	it('a custom key typed in NFD or NFC is one key, and Forget takes either', () => {
		const nfc = 'Café-17';
		const nfd = 'Cafe\u0301-17';
		expect(nfd).not.toBe(nfc);
		expect(customKey(nfd, 'https://x')).toBe(customKey(nfc, 'https://x'));
		expect(keysFromUser(nfd, 'https://x')).toEqual([customKey(nfc, 'https://x')]);
		expect(keysFromUser(`custom:v2:https://x ${nfd}`, 'https://x')).toEqual([customKey(nfc, 'https://x')]);
	});
});
