/**
 * Golden keys: fixed inputs give fixed key strings. A refactor of the body, the canonical JSON or
 * the dates that changed a key would make every campaign of a re-run after an upgrade go out
 * again, so each format is pinned here; a deliberate change gets a new version prefix.
 */
import { contentKey, customKey, keysFromUser, legacyKey, retryKey, serviceTarget } from '../../../../nodes/LbaAds/duplicateProtection/keys';
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

	it('the key 0.1.0 recorded is pinned (the same string the code of 0.1.0 gives for this body)', () => {
		// Computed by nodes/LbaAds/duplicateProtection/keys.ts at da1def2 (contentKey), the last version before v2.
		expect(legacyKey('content', bodyAsSent)).toBe('content:eca3d9faec1e324bfdea9bd25a127b941668b5813a7a0534ceede6c20823b95d');
		expect(legacyKey('customKey', bodyAsSent, ' A-17 ')).toBe('custom:A-17');
	});

	it('custom:v2 and retry:v1 are pinned', () => {
		expect(customKey(' A-17 ', 'https://api.example.co.id')).toBe('custom:v2:https://api.example.co.id A-17');
		expect(customKey('  ', 'https://api.example.co.id')).toBeUndefined();
		expect(
			retryKey({
				target: 'https://api.example.co.id',
				parameters: { name: '={{ $json.name }}' },
				input: { name: 'x' },
				itemIndex: 0,
				runIndex: 0,
				execution: 'started 1700000000000',
			}),
		).toBe('retry:v1:6143cd47199ce57be87ccba54f585784a1b856fab1aa588e1b643275db53f217');
	});

	it('Forget Sent: a full key stays as it is; a custom key text gives its key for the target and the key 0.1.0 recorded', () => {
		expect(keysFromUser('content:v2:abc', 'https://x')).toEqual(['content:v2:abc']);
		expect(keysFromUser('content:abc', 'https://x')).toEqual(['content:abc']);
		expect(keysFromUser(' A-17 ', 'https://x')).toEqual(['custom:v2:https://x A-17', 'custom:A-17']);
		expect(keysFromUser('A-17', undefined)).toEqual(['custom:A-17']);
		expect(keysFromUser('', 'https://x')).toEqual([]);
	});
});
