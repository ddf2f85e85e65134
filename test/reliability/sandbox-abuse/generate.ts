/**
 * Random requests for the sandbox (fast-check, fixed seed): paths and query strings with
 * percent-encoding, unicode, dot and empty segments, very long paths and characters that are
 * legal to send but odd, every method, with and without a token, with assorted bodies and
 * content types. Every request-target is one Node's client sends and Node's parser accepts
 * (ASCII 0x21-0x7E); malformed HTTP is tried separately, over bare sockets.
 */
import * as http from 'node:http';
import fc from 'fast-check';
import { validCampaign } from '../../sandbox/helpers';
import { CLIENT_ID, CLIENT_SECRET, Probe, ROUTES, TOKEN } from './oracle';

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const SUB_DELIMS = "!$&'()*+,;=:@";
/** Not allowed by RFC 3986 but sent unencoded by real clients (WHATWG URL leaves them); taken literally. */
const LENIENT = '"<>\\^`{|}[]';

/** Percent-encodes a byte, hex digits in either case. */
const percent = fc
	.tuple(fc.integer({ min: 0, max: 255 }), fc.boolean())
	.map(([byte, upper]) => `%${byte.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`);

/** Unicode text, percent-encoded as UTF-8 (raw non-ASCII bytes are not valid in a request line). */
const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }).map((text) => encodeURIComponent(text));

const pathChar = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom(...UNRESERVED) },
	{ weight: 2, arbitrary: fc.constantFrom(...SUB_DELIMS) },
	{ weight: 1, arbitrary: fc.constantFrom(...LENIENT) },
	{ weight: 2, arbitrary: percent },
	{ weight: 1, arbitrary: unicode },
);

const segment = fc.oneof(
	{ weight: 6, arbitrary: fc.array(pathChar, { maxLength: 12 }).map((chars) => chars.join('')) },
	{ weight: 1, arbitrary: fc.constantFrom('', '.', '..', '%2e%2E', '.%2e', '%2F', 'lba', 'io', 'campaign', '_sandbox') },
);

const randomPath = fc.array(segment, { maxLength: 8 }).map((segments) => `/${segments.join('/')}`);

const TEMPLATE_SEGMENT = /^\{[^{}]+\}$/;
/**
 * What the generator puts in a `{name}` path segment, besides random segments: an id of the
 * campaign id's form (16 upper-case hex digits) and two that are not. None names anything the
 * sandbox holds (its ids are random), so the oracle expects 404 RESOURCE_NOT_FOUND for them.
 */
export const TEMPLATE_VALUES = ['3F9A1C0B7D2E4A65', '1', 'x'];
const templateValue = fc.oneof(fc.constantFrom(...TEMPLATE_VALUES), segment);

/** `template` with its `{name}` segments filled in, in order, from `values`. */
function fillTemplate(template: string, values: string[]): string {
	let next = 0;
	return template
		.split('/')
		.map((part) => (TEMPLATE_SEGMENT.test(part) ? values[next++] : part))
		.join('/');
}

/** A path of ROUTES with each `{name}` template segment filled in (an id-like value or a random segment). */
const filledRoute = fc.constantFrom(...Object.keys(ROUTES)).chain((template) => {
	const parts = template.split('/');
	const count = parts.filter((part) => TEMPLATE_SEGMENT.test(part)).length;
	if (count === 0) return fc.constant(template);
	return fc.array(templateValue, { minLength: count, maxLength: count }).map((values) => fillTemplate(template, values));
});

/** A real path, unchanged or changed in a way that keeps or loses its identity. */
const knownPath = fc.tuple(filledRoute, fc.integer({ min: 0, max: 2 ** 30 })).chain(([path, salt]) =>
	fc.oneof(
		{ weight: 6, arbitrary: fc.constant(path) },
		{
			// Percent-encode some unreserved characters (the same resource, RFC 3986 6.2.2.2).
			weight: 3,
			arbitrary: fc.array(fc.boolean(), { minLength: path.length, maxLength: path.length }).map((flags) =>
				[...path]
					.map((char, i) => {
						if (!flags[i] || char === '/') return char;
						const hex = char.charCodeAt(0).toString(16);
						return `%${(salt >> i) & 1 ? hex.toUpperCase() : hex}`;
					})
					.join(''),
			),
		},
		{
			weight: 3,
			arbitrary: fc.constantFrom(
				path.toUpperCase(),
				`${path}/`,
				`/${path}`,
				path.replace('/', '//'),
				path.replace(/\/([^/]*)$/, '//$1'),
				`/${path.slice(1).replace(/\//g, '%2F')}`,
				path.replace(/\/([^/]*)$/, '/./$1'),
				path.replace(/\/([^/]*)$/, '/x/../$1'),
				`${path}/..`,
				`${path};v=1`,
				`${path}%00`,
				`${path}%20`,
				`${path}/extra`,
				path.slice(0, -1),
				`${path}${path}`,
			),
		},
	),
);

const longPath = fc
	.tuple(fc.integer({ min: 1000, max: 7000 }), fc.constantFrom('a', '%41', '/', '%C3%A9', '..', 'lba/campaign/'))
	.map(([length, piece]) => `/${piece.repeat(Math.ceil(length / piece.length))}`);

const path = fc.oneof({ weight: 5, arbitrary: randomPath }, { weight: 8, arbitrary: knownPath }, { weight: 1, arbitrary: longPath });

const coordinate = (limit: number) =>
	fc
		.tuple(fc.double({ min: -limit, max: limit, noNaN: true }), fc.integer({ min: 0, max: 9 }), fc.constantFrom('', '+', ' ', '  ', '\t'))
		.map(([value, digits, prefix]) => {
			const text = value.toFixed(digits);
			return prefix === '+' && !text.startsWith('-') ? `+${text}` : `${prefix}${text}`;
		});

const latlngValue = fc.oneof(
	{ weight: 6, arbitrary: fc.tuple(coordinate(100), coordinate(200), fc.constantFrom(',', ' ,', ', ', ' , ')).map(([lat, lng, comma]) => `${lat}${comma}${lng}`) },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			'-6.9175,107.6191',
			'90,180',
			'-90,-180',
			'90.0000001,0',
			'0,180.0000001',
			'-0,-0',
			'1.,2.',
			'.5,.5',
			'-5,110',
			'abc',
			'',
			',',
			'1,',
			',1',
			'1,2,3',
			'1;2',
			'1 2',
			'NaN,NaN',
			'Infinity,0',
			'1e1,2',
			'0x10,5',
			'\u0661,\u0662',
			'\uff11,\uff12',
			'1\uff0c2',
			'-6.9,107.6\u0000',
			'1..2,3',
			'--1,2',
			'+-1,2',
			'.,.',
			`${'1'.repeat(99)},1`,
			`1,${'0'.repeat(98)}`,
			`${' '.repeat(60)}1,2${' '.repeat(60)}`,
		),
	},
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

/** How a query value is written: form-encoded, every byte encoded, or raw where that is legal. */
const encodeValue = (value: string, how: number): string => {
	if (how === 0) return encodeURIComponent(value);
	if (how === 1) return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
	if (how === 2) return encodeURIComponent(value).replace(/%20/g, '+');
	// Raw where the character may be sent raw; "+" stays "+" (so reads as a space).
	return [...value].map((char) => (/^[\x21-\x7e]$/.test(char) && !'#&'.includes(char) ? char : encodeURIComponent(char))).join('');
};

const param = fc.oneof(
	{
		weight: 5,
		arbitrary: fc
			.tuple(fc.constantFrom('latlng', 'latlng', 'latlng', 'lat%6Cng', 'LATLNG', 'latlng[]', 'lat'), latlngValue, fc.integer({ min: 0, max: 3 }))
			.map(([key, value, how]) => `${key}=${encodeValue(value, how)}`),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(fc.array(pathChar, { maxLength: 8 }), fc.array(pathChar, { maxLength: 16 }))
			.map(([key, value]) => `${key.join('')}=${value.join('')}`),
	},
	{ weight: 1, arbitrary: fc.constantFrom('', '=', '==', 'latlng', 'latlng=', '&', '?', '%', '%zz', '%E0%A4%A', `x=${'y'.repeat(900)}`) },
);

const query = fc.oneof(
	{ weight: 2, arbitrary: fc.constant('') },
	{ weight: 1, arbitrary: fc.constant('?') },
	{ weight: 6, arbitrary: fc.tuple(fc.array(param, { minLength: 1, maxLength: 5 }), fc.constantFrom('&', '&', '&&', ';')).map(([ps, sep]) => `?${ps.join(sep)}`) },
);

const OTHER_METHODS = http.METHODS.filter((method) => !['GET', 'POST', 'CONNECT'].includes(method));
const method = fc.oneof(
	{ weight: 6, arbitrary: fc.constant('GET') },
	{ weight: 4, arbitrary: fc.constant('POST') },
	{ weight: 2, arbitrary: fc.constantFrom('HEAD', 'DELETE', 'PUT', 'PATCH', 'OPTIONS') },
	{ weight: 2, arbitrary: fc.constantFrom(...OTHER_METHODS) },
);

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const authorization = fc.oneof(
	{ weight: 6, arbitrary: fc.constant(`Bearer ${TOKEN}`) },
	{ weight: 3, arbitrary: fc.constant(undefined) },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			`bearer ${TOKEN}`,
			`BEARER  ${TOKEN}`,
			`Bearer ${TOKEN}  `,
			`Bearer\t${TOKEN}`,
			`Bearer ${TOKEN.toUpperCase()}`,
			`Bearer ${TOKEN}x`,
			`Bearer ${TOKEN} ${TOKEN}`,
			'Bearer wrong-token',
			'Bearer',
			'',
			`Token ${TOKEN}`,
			basic(CLIENT_ID, CLIENT_SECRET),
			basic(CLIENT_ID, 'nope'),
		),
	},
);

interface Body {
	bytes?: Buffer;
	/** The body's own Content-Type, used when the request "matches" its body. */
	type?: string;
	/** Whether the bytes are a valid campaign (hand-labelled from the spec). */
	campaign: boolean;
}
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const form = (text: string): Body => ({ bytes: Buffer.from(text), type: 'application/x-www-form-urlencoded', campaign: false });
const BODIES: Body[] = [
	{ campaign: false },
	{ bytes: json(validCampaign()), type: 'application/json', campaign: true },
	{ bytes: json(validCampaign({ name: 'Promo \u65e5\u672c \ud83c\udf89 caf\u00e9' })), type: 'application/json', campaign: true },
	{ bytes: json(validCampaign({ channels: [] })), type: 'application/json', campaign: false },
	{ bytes: json(validCampaign({ categoryId: '10' })), type: 'application/json', campaign: false },
	{ bytes: json({}), type: 'application/json', campaign: false },
	{ bytes: Buffer.from('{"name":'), type: 'application/json', campaign: false },
	{ bytes: Buffer.alloc(0), type: 'application/json', campaign: false },
	form(`grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`),
	form(`grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=wrong`),
	form(`client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`),
	form(`grant_type=password&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`),
	form('grant_type=client_credentials'),
];
// Random bytes of at most 64: far too short to be a campaign (a valid one needs over 150 bytes).
const body = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom(...BODIES) },
	{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): Body => ({ bytes: Buffer.from(bytes), campaign: false })) },
);

const contentType = fc.constantFrom(
	'match',
	'match',
	'match',
	'none',
	'application/json',
	'application/json; charset=utf-8',
	'APPLICATION/JSON',
	'text/plain',
	'application/x-www-form-urlencoded',
	'multipart/form-data; boundary=x',
	'application/vnd.api+json',
	'',
);

export const randomRequest: fc.Arbitrary<Probe> = fc
	.record({ method, path, query, authorization, body, contentType })
	.map(({ method: verb, path: routePath, query: search, authorization: auth, body: sent, contentType: type }) => {
		const headers: Record<string, string> = {};
		if (auth !== undefined) headers.authorization = auth;
		const chosenType = type === 'match' ? sent.type : type === 'none' ? undefined : type;
		if (chosenType !== undefined) headers['content-type'] = chosenType;
		return { method: verb, target: `${routePath}${search}`, headers, body: sent.bytes, campaign: sent.campaign };
	});

/** `count` random requests, the same ones for the same seed. */
export function randomRequests(count: number, seed: number): Probe[] {
	return fc.sample(randomRequest, { numRuns: count, seed });
}

/**
 * Every route with every method it serves (and HEAD for GET, and a method it does not serve),
 * each `{name}` filled with each of TEMPLATE_VALUES, with and without the token, with no body and
 * with a valid campaign: the fast smoke of `npm test` (test/agreements/oracle.test.ts).
 */
export function probesForEveryRoute(): Probe[] {
	const campaign = Buffer.from(JSON.stringify(validCampaign()));
	const probes: Probe[] = [];
	for (const [template, methods] of Object.entries(ROUTES)) {
		const count = template.split('/').filter((part) => TEMPLATE_SEGMENT.test(part)).length;
		const targets = count ? TEMPLATE_VALUES.map((value) => fillTemplate(template, Array<string>(count).fill(value))) : [template];
		const verbs = [...Object.keys(methods), ...(methods.GET ? ['HEAD'] : []), 'PATCH'];
		for (const target of targets)
			for (const verb of verbs)
				for (const auth of [{ authorization: `Bearer ${TOKEN}` }, {}] as Array<Record<string, string>>) {
					probes.push({ method: verb, target, headers: auth, campaign: false });
					probes.push({ method: verb, target, headers: { ...auth, 'content-type': 'application/json' }, body: campaign, campaign: true });
				}
	}
	return probes;
}
