/**
 * Part 1 of issue 6: generated bad (and good) input, run through the node in n8n's engine
 * against the sandbox. fast-check with a fixed seed produces campaign, coordinate and limit
 * inputs; an independent predicate (spec-predicate.ts) says which are valid and what must
 * be sent. Items go in batches with "continue on error", so each case is one item.
 *
 * Figures: cases tried, node crashes (0), requests sent for invalid input (0), valid inputs
 * wrongly rejected (0), sent bodies that differ from the predicate's (0).
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { campaigns, channel, control, createParameters, requests, runNode, useSandbox } from '../nodes/LbaAds/setup';
import { figure } from './figures';
import * as spec from './spec-predicate';

// Fixed, so a run is repeatable; LBA_FUZZ_SEED explores others.
const SEED = Number(process.env.LBA_FUZZ_SEED ?? 20261122);
const CAMPAIGN_CASES = 6000;
const CAMPAIGN_FIELD_CASES = 2000;
const COORDINATE_CASES = 2000;
const LIMIT_CASES = 500;
const STRICT_SAMPLES = 150;
const BATCH = 250;
const WORKFLOW_ZONE = 'Asia/Jakarta';
const SECTION = 'Generated bad input';

const context = useSandbox({}, { realRetryWaits: true });

/**
 * A fresh sandbox that, as the API document describes the service, lists no locations (404 for
 * GET /lba/locations): the node then sends the Location IDs as given, and the predicate, which
 * knows only the document's rules, stays the judge of what is valid.
 */
async function resetAsDocumented() {
	await control(context, 'POST', '/_sandbox/reset');
	await control(context, 'POST', '/_sandbox/faults', { path: '/lba/locations', status: 404, times: 1_000_000, body: { success: false, error: { code: 'NOT_FOUND', message: 'No such path' } } });
}

// ---- generators -------------------------------------------------------------------------

/** NaN and ±Infinity cannot travel in item JSON; items carry { special } and the expression decodes it. */
const special = fc.constantFrom({ special: 'NaN' }, { special: 'Infinity' }, { special: '-Infinity' });
const decode = (path: string) => `={{ $json.${path}?.special !== undefined ? Number($json.${path}.special) : $json.${path} }}`;

const anyJson = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.constant({}),
	fc.constant([]),
	fc.array(fc.integer(), { maxLength: 2 }),
	fc.object({ maxDepth: 1, maxKeys: 2 }),
);

function textAround(max: number) {
	const unit = fc.oneof(
		{ weight: 6, arbitrary: fc.constantFrom('a', 'Z', '9', ' ', '%', 'é') },
		{ weight: 2, arbitrary: fc.constantFrom('😀', '👍🏽', '\u00A0', '\uFEFF', '\t', '\n', '\u200B', '"', '\\', '{{', '}}') },
		{ weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
	);
	return fc.oneof(
		{ weight: 4, arbitrary: fc.string({ unit, minLength: 1, maxLength: 12 }) },
		{ weight: 2, arbitrary: fc.integer({ min: max - 3, max: max + 3 }).chain((length) => fc.string({ unit, minLength: length, maxLength: length })) },
		{ weight: 1, arbitrary: fc.constantFrom('', ' ', '   \t\n', '\u00A0\uFEFF') },
		{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: max + 2 }) },
		{ weight: 1, arbitrary: anyJson },
	);
}

function wholeNumberAround(min: number, max: number) {
	return fc.oneof(
		{ weight: 6, arbitrary: fc.integer({ min, max: Math.min(max, min + 5000) }) },
		{ weight: 2, arbitrary: fc.constantFrom(min - 1, min, max, max + 1, 0, -1, -0, 1.5, 2 ** 53, 1e21) },
		{ weight: 2, arbitrary: fc.constantFrom(' 161 ', '0010', '1e3', '1.0', '-5', '', 'abc', '0x10', `${max}`, `${max + 1}`, '99999999999999999999') },
		{ weight: 1, arbitrary: special },
		{ weight: 1, arbitrary: anyJson },
	);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

const isoDate = fc
	.record({
		year: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 2024, max: 2030 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 50, 1000, 1999, 9999) }),
		month: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 13) }),
		day: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 28 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 29, 30, 31, 32) }),
		hour: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 23 }) }, { weight: 1, arbitrary: fc.constant(24) }),
		minute: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constant(60) }),
		second: fc.option(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constant(60) }), { freq: 5 }),
		fraction: fc.option(fc.constantFrom('.0', '.1', '.5', '.999', '.123456789'), { freq: 3 }),
		offset: fc.oneof(
			{ weight: 3, arbitrary: fc.constantFrom('+07:00', '+08:00', '+09:00', 'Z', '-05:00', '+00:00', '-00:00') },
			{ weight: 2, arbitrary: fc.constant('') }, // no offset: read in the timezone
			{ weight: 1, arbitrary: fc.constantFrom('+0700', '+07', '+05:45', '+14:00', '-12:00', '+18:00', '-18:00', '+18:01', '+19:00', '+23:59', '+24:00', '+99:00', '+07:60') },
		),
	})
	.map(({ year, month, day, hour, minute, second, fraction, offset }) => {
		const time = `${pad2(hour)}:${pad2(minute)}${second === null ? '' : `:${pad2(second)}${fraction ?? ''}`}`;
		return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${time}${offset}`;
	});

/** Local times inside the DST gaps and overlaps of Berlin and New York. */
const dstEdge = fc.constantFrom(
	'2026-03-29T02:30:00', // Berlin gap
	'2026-10-25T02:30:00', // Berlin overlap
	'2026-03-08T02:30:00', // New York gap
	'2026-11-01T01:30:00', // New York overlap
	'2026-03-29T01:59:59',
	'2026-03-29T03:00:00',
);

const dateInput = fc.oneof(
	{ weight: 6, arbitrary: isoDate },
	{ weight: 2, arbitrary: dstEdge },
	{ weight: 1, arbitrary: fc.integer({ min: 2024, max: 2030 }).map((year) => `${year}-12-0${1 + (year % 9)}`) }, // plain date
	{ weight: 1, arbitrary: fc.integer({ min: 0, max: 23 }).map((hour) => `2026-12-01 ${pad2(hour)}:30`) }, // SQL style
	{
		weight: 2,
		arbitrary: fc.oneof(
			fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), // epoch ms, 2023-2030
			fc.constantFrom(0, 1, 1_764_547_200, 999_999_999_999, 1_000_000_000_000, -1_000_000_000_000, -1_100_000_000_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, 8.64e15 + 1),
			fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }).map(String), // digit string
		),
	},
	{ weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((text) => `${text}¿`) }, // never a date
	{ weight: 1, arbitrary: fc.oneof(special, fc.constantFrom('', ' ', null, true, {}, [], '2026', 'tomorrow')) },
);

const telcoInput = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom('isat', 'xl', 'tsel') },
	{ weight: 2, arbitrary: fc.constantFrom(' TSEL ', 'Xl', 'ISAT', 'telkomsel', 'tsel.', '', 'İSAT', 'x l') },
	{ weight: 1, arbitrary: anyJson },
);

const channelInput = fc.record(
	{
		sender: textAround(spec.BOUNDS.sender),
		locationId: wholeNumberAround(1, spec.BOUNDS.locationId),
		smsQty: wholeNumberAround(1, spec.BOUNDS.smsQty),
		message: textAround(spec.BOUNDS.message),
		startDate: dateInput,
		endDate: dateInput,
		telcoId: telcoInput,
	},
	{ requiredKeys: [] },
);

/** Mostly-valid channels, so plenty of cases get as far as the request. */
const plausibleChannel = fc.record({
	sender: fc.constantFrom('LBADEMO', 'WARUNG', ' Toko 99 '),
	locationId: fc.integer({ min: 1, max: 500 }),
	smsQty: fc.integer({ min: 1, max: 100_000 }),
	message: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 160 }),
	startDate: fc.constantFrom('2026-12-01T09:00:00+07:00', '2026-12-01T09:00:00', 1_796_086_800_000, '2026-12-01'),
	endDate: fc.constantFrom('2026-12-07T21:00:00+07:00', '2026-12-07', '2026-12-01T09:00:01+07:00', '2026-12-01T09:00:00.999+07:00'),
	telcoId: fc.constantFrom('isat', 'xl', 'tsel', 'TSEL'),
});

const channelsInput = fc.oneof(
	{ weight: 5, arbitrary: fc.array(fc.oneof(plausibleChannel, channelInput), { minLength: 1, maxLength: 3 }) },
	{ weight: 2, arbitrary: fc.array(channelInput, { minLength: 0, maxLength: 2 }) },
	{ weight: 1, arbitrary: plausibleChannel.map((c) => [{ ...c, colour: 'red' }]) },
	{ weight: 1, arbitrary: fc.constantFrom(99, 100).map((count) => Array.from({ length: count }, () => ({ sender: 'A', locationId: 1, smsQty: 1, message: 'm', startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-02T09:00:00+07:00', telcoId: 'xl' }))) },
	{ weight: 1, arbitrary: fc.array(plausibleChannel, { minLength: 1, maxLength: 2 }).map((list) => JSON.stringify(list)) }, // JSON text
	{ weight: 1, arbitrary: fc.oneof(fc.constantFrom('[', '{"a":1}', 'null', '', '[]'), anyJson) },
);

const zoneInput = fc.oneof(
	{ weight: 6, arbitrary: fc.constant('') },
	{ weight: 3, arbitrary: fc.constantFrom('Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura', 'UTC', 'Europe/Berlin', 'America/New_York', 'asia/jakarta', ' Asia/Jayapura ') },
	{ weight: 1, arbitrary: fc.constantFrom('Mars/Olympus', 'Asia/Bandung', 'WIB') },
);

const campaignInput = fc.record({
	name: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('Promo', '  Promo akhir tahun  ') }, { weight: 2, arbitrary: textAround(spec.BOUNDS.name) }),
	description: fc.oneof({ weight: 3, arbitrary: fc.constant('Diskon 50%') }, { weight: 2, arbitrary: textAround(spec.BOUNDS.description) }),
	categoryId: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 3, max: 26 }) }, { weight: 2, arbitrary: wholeNumberAround(1, 30) }),
	channels: channelsInput,
	zone: zoneInput,
});

/** Campaigns that are valid unless a generated detail says otherwise: to test what gets sent. */
const plausibleCampaign = fc.record({
	name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 255 }),
	description: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1000 }),
	categoryId: fc.oneof(fc.integer({ min: 3, max: 26 }), fc.integer({ min: 3, max: 26 }).map(String)),
	channels: fc.array(plausibleChannel, { minLength: 1, maxLength: 4 }),
	zone: zoneInput,
});

const anyCampaign = fc.oneof({ weight: 2, arbitrary: campaignInput }, { weight: 1, arbitrary: plausibleCampaign });

const coordinateInput = fc.oneof(
	{ weight: 4, arbitrary: fc.double({ min: -200, max: 200, noNaN: true }) },
	{ weight: 2, arbitrary: fc.constantFrom(90, -90, 180, -180, 90.0000001, -180.0000001, 0, -0, 1e-7, -1.5e-9, 5e-324) },
	{ weight: 2, arbitrary: fc.constantFrom('-6.9', ' 107.6 ', '+1.5', '.5', '5.', '1e1', '1E-7', '0x10', '0b1', '1,5', '', ' ', 'abc', 'Infinity', '-0', '91') },
	{ weight: 1, arbitrary: special },
	{ weight: 1, arbitrary: fc.oneof(anyJson, fc.constant(undefined)) },
);

const limitInput = fc.oneof(
	{ weight: 3, arbitrary: fc.integer({ min: -2, max: 20 }) },
	{ weight: 2, arbitrary: fc.constantFrom(1.5, '5', ' 3 ', '', 'abc', '-1', '1e1', 2 ** 53) },
	{ weight: 1, arbitrary: special },
	{ weight: 1, arbitrary: anyJson },
);

// ---- tallies ----------------------------------------------------------------------------

const tally = {
	cases: 0,
	crashes: 0,
	sentForInvalid: 0,
	wronglyRejected: 0,
	bodyMismatches: 0,
	refusedBySandbox: 0,
	ambiguous: 0,
	strictRuns: 0,
	strictFailures: 0,
};
const validBy = { campaign: 0, coordinates: 0, limit: 0 };
/** Up to 3 examples of each kind of broken promise, for the failure message. */
const examples: string[] = [];
const kinds: Record<string, number> = {};
const note = (kind: string, detail: unknown) => {
	kinds[kind] = (kinds[kind] ?? 0) + 1;
	if (kinds[kind] > 3) return;
	const text = JSON.stringify(detail, (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value));
	examples.push(`${kind}: ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`);
};

/** An error a user can act on, not a JavaScript failure leaking through. */
function looksLikeCrash(message: unknown): boolean {
	return typeof message !== 'string' || message === '' || /TypeError|RangeError|ReferenceError|SyntaxError|Cannot read|is not a function|undefined|\[object Object\]|Internal error/i.test(message);
}

function checkItems(items: INodeExecutionData[], count: number) {
	if (items.length !== count) {
		tally.crashes += Math.abs(count - items.length);
		note('item count', { expected: count, got: items.length });
	}
	items.forEach((item, index) => {
		if ((item.pairedItem as { item: number } | undefined)?.item !== index) {
			tally.crashes++;
			note('pairedItem', { index, pairedItem: item.pairedItem });
		}
	});
}

const decodeSpecial = (value: unknown): unknown =>
	value && typeof value === 'object' && 'special' in (value as object) ? Number((value as { special: string }).special) : value;

// ---- campaign batches -------------------------------------------------------------------

type Mode = 'json' | 'fields';

function campaignParameters(mode: Mode): IDataObject {
	if (mode === 'json') {
		return createParameters({
			name: '={{ $json.name }}',
			campaignDescription: '={{ $json.description }}',
			categoryId: decode('categoryId'),
			channelsInput: 'json',
			channelsJson: '={{ $json.channels }}',
			// The oracle (spec-predicate.ts) judges the API's rules; the node's own night rule is
			// create.scheduledLaunch.test.ts's, so generated dates may start at night here.
			options: { timezone: '={{ $json.zone }}', allowNightStart: true },
		});
	}
	const field = (key: string) => decode(`channel.${key}`).replace(/\$json\.channel\./g, '$json.channel?.');
	return createParameters(
		{ name: '={{ $json.name }}', campaignDescription: '={{ $json.description }}', categoryId: decode('categoryId'), options: { timezone: '={{ $json.zone }}', allowNightStart: true } },
		[channel(Object.fromEntries(['sender', 'locationId', 'smsQty', 'message', 'startDate', 'endDate', 'telcoId'].map((key) => [key, field(key)])))],
	);
}

/** What the node sees of a case once the expressions ran. */
function predicateInput(input: IDataObject, mode: Mode) {
	const channels = mode === 'json' ? input.channels : [Object.fromEntries(Object.entries((input.channel ?? {}) as IDataObject).map(([k, v]) => [k, decodeSpecial(v)]))];
	return {
		name: input.name,
		description: input.description,
		categoryId: decodeSpecial(input.categoryId),
		channels,
	};
}

/** A fresh sandbox journal, one run with "continue on error"; undefined when the whole run failed (a crash). */
async function runBatch(parameters: IDataObject, inputs: IDataObject[]): Promise<INodeExecutionData[] | undefined> {
	await resetAsDocumented();
	const result = await runNode(context, parameters, inputs, { node: { onError: 'continueRegularOutput' }, timezone: WORKFLOW_ZONE });
	tally.cases += inputs.length;
	if (result.error) {
		tally.crashes += inputs.length;
		note('run failed', result.error.message);
		return undefined;
	}
	return result.items;
}

async function runCampaignBatch(inputs: IDataObject[], mode: Mode) {
	const verdicts = inputs.map((input) => {
		const zone = String(input.zone ?? '').trim() || WORKFLOW_ZONE;
		return spec.campaign(predicateInput(input, mode), zone);
	});
	const items = await runBatch(campaignParameters(mode), inputs);
	if (!items) return;
	checkItems(items, inputs.length);

	const createdByItem = new Map<string, number>();
	items.forEach((item, index) => {
		const verdict = verdicts[index];
		const ambiguous = !verdict.ok && verdict.why.endsWith('(skip)');
		if (ambiguous) tally.ambiguous++;
		else if (verdict.ok) validBy.campaign++;
		const error = item.json.error;
		if (error !== undefined) {
			if (looksLikeCrash(error)) {
				tally.crashes++;
				note('crash', { input: inputs[index], error });
			} else if (verdict.ok) {
				tally.wronglyRejected++;
				note('valid rejected', { input: inputs[index], error, description: item.json.description });
			}
			return;
		}
		if (typeof item.json.campaignId === 'string') createdByItem.set(item.json.campaignId, index);
		if (!verdict.ok && !ambiguous) {
			tally.sentForInvalid++;
			note('invalid sent', { input: inputs[index], why: verdict.why });
		}
	});

	const sent = await requests(context, { method: 'POST', path: '/lba/campaign' });
	const refused = sent.filter((request) => request.status !== 200);
	tally.refusedBySandbox += refused.length;
	tally.sentForInvalid += refused.length;
	for (const request of refused) note('sandbox refused', { body: request.body, status: request.status });

	for (const created of await campaigns(context)) {
		const index = createdByItem.get(created.campaignId);
		if (index === undefined) {
			tally.sentForInvalid++;
			note('campaign without an output item', created.request);
			continue;
		}
		const verdict = verdicts[index];
		if (!verdict.ok) continue; // counted above (or ambiguous)
		const differences = spec.bodyDifferences(created.request, verdict.value);
		if (differences.length > 0) {
			tally.bodyMismatches++;
			note('body differs', { input: inputs[index], differences });
		}
	}
}

// ---- coordinate and limit batches ---------------------------------------------------------

async function runCoordinateBatch(inputs: IDataObject[]) {
	const items = await runBatch(
		{ resource: 'location', operation: 'reverseGeocode', latitude: decode('lat'), longitude: decode('lng'), output: 'raw' },
		inputs,
	);
	if (!items) return;
	checkItems(items, inputs.length);
	const expected: Array<string | null> = inputs.map((input) => {
		const lat = spec.coordinate(decodeSpecial(input.lat), 90);
		const lng = spec.coordinate(decodeSpecial(input.lng), 180);
		return lat.ok && lng.ok ? `${lat.value},${lng.value}` : null;
	});
	items.forEach((item, index) => {
		const error = item.json.error;
		if (expected[index] !== null) validBy.coordinates++;
		if (error !== undefined) {
			if (looksLikeCrash(error)) {
				tally.crashes++;
				note('crash', { input: inputs[index], error });
			} else if (expected[index] !== null) {
				tally.wronglyRejected++;
				note('valid coordinates rejected', { input: inputs[index], error });
			}
		} else if (expected[index] === null) {
			tally.sentForInvalid++;
			note('invalid coordinates sent', inputs[index]);
		}
	});
	// Every request must be one the service accepts, for coordinates the predicate accepted, in input order.
	const sent = await requests(context, { path: '/io/location' });
	const wanted = expected.filter((value): value is string => value !== null);
	for (const request of sent.filter((r) => r.status !== 200)) {
		tally.refusedBySandbox++;
		tally.sentForInvalid++;
		note('sandbox refused latlng', request.query);
	}
	const sentValues = sent.map((request) => String(request.query.latlng).split(',').map(Number));
	const wantedValues = wanted.map((value) => value.split(',').map(Number));
	const sameNumbers = (a: number[], b: number[]) => a.length === 2 && a.every((v, i) => Math.abs(v - b[i]) <= 1e-12);
	const matched = wantedValues.filter((value) => sentValues.some((s) => sameNumbers(s, value))).length;
	if (sent.length !== wanted.length || matched !== wanted.length) {
		tally.bodyMismatches += Math.max(1, Math.abs(sent.length - wanted.length));
		note('latlng sent', { sent: sent.map((r) => r.query.latlng).slice(0, 5), wanted: wanted.slice(0, 5) });
	}
}

async function runLimitBatch(inputs: IDataObject[]) {
	const items = await runBatch({ resource: 'product', operation: 'getMany', returnAll: false, limit: decode('limit'), simplify: false }, inputs);
	if (!items) return;
	const catalogue = 14; // sandbox/README.md: the 14-product catalogue
	let expectedItems = 0;
	let expectedRequests = 0;
	const verdicts = inputs.map((input) => spec.limit(decodeSpecial(input.limit)));
	for (const verdict of verdicts) {
		if (verdict.ok) {
			validBy.limit++;
			expectedRequests++;
			expectedItems += Math.min(verdict.value, catalogue);
		} else expectedItems += 1; // one error item
	}
	if (items.length !== expectedItems) {
		tally.crashes++;
		note('product items', { expected: expectedItems, got: items.length });
	}
	const byItem = new Map<number, INodeExecutionData[]>();
	for (const item of items) {
		const index = (item.pairedItem as { item: number }).item;
		byItem.set(index, [...(byItem.get(index) ?? []), item]);
	}
	verdicts.forEach((verdict, index) => {
		const out = byItem.get(index) ?? [];
		const error = out.length === 1 ? out[0].json.error : undefined;
		if (error !== undefined && looksLikeCrash(error)) {
			tally.crashes++;
			note('crash', { input: inputs[index], error });
		} else if (verdict.ok && error !== undefined) {
			tally.wronglyRejected++;
			note('valid limit rejected', { input: inputs[index], error });
		} else if (!verdict.ok && error === undefined) {
			tally.sentForInvalid++;
			note('invalid limit used', { input: inputs[index], items: out.length });
		}
	});
	const sent = await requests(context, { path: '/io/products' });
	if (sent.length !== expectedRequests) {
		tally.sentForInvalid += Math.max(0, sent.length - expectedRequests);
		note('product requests', { expected: expectedRequests, sent: sent.length });
	}
}

function batches<T>(cases: T[]): T[][] {
	return Array.from({ length: Math.ceil(cases.length / BATCH) }, (_, index) => cases.slice(index * BATCH, (index + 1) * BATCH));
}

/** Items carry only JSON; `undefined` means "key absent". */
function asItem(value: Record<string, unknown>): IDataObject {
	return JSON.parse(JSON.stringify(value)) as IDataObject;
}

describe('generated bad input through the node in the engine', () => {
	it(`campaign, coordinate and limit cases (seed ${SEED})`, async () => {
		const campaignCases = fc.sample(anyCampaign, { seed: SEED, numRuns: CAMPAIGN_CASES });
		for (const batch of batches(campaignCases)) await runCampaignBatch(batch.map((c) => asItem(c)), 'json');

		const fieldCases = fc.sample(fc.record({ name: campaignInput.map((c) => c.name), description: fc.constant('Diskon'), categoryId: wholeNumberAround(1, 30), channel: channelInput, zone: zoneInput }), {
			seed: SEED + 1,
			numRuns: CAMPAIGN_FIELD_CASES,
		});
		for (const batch of batches(fieldCases)) await runCampaignBatch(batch.map((c) => asItem(c)), 'fields');

		const coordinateCases = fc.sample(fc.record({ lat: coordinateInput, lng: coordinateInput }), { seed: SEED + 2, numRuns: COORDINATE_CASES });
		for (const batch of batches(coordinateCases)) await runCoordinateBatch(batch.map((c) => asItem(c)));

		const limitCases = fc.sample(fc.record({ limit: limitInput }), { seed: SEED + 3, numRuns: LIMIT_CASES });
		for (const batch of batches(limitCases)) await runLimitBatch(batch.map((c) => asItem(c)));

		const results = [
			figure(SECTION, 'cases tried (campaign JSON / campaign fields / coordinates / limit)', `${tally.cases} (${CAMPAIGN_CASES} / ${CAMPAIGN_FIELD_CASES} / ${COORDINATE_CASES} / ${LIMIT_CASES})`, '>= 10,000', tally.cases >= 10_000),
			figure(SECTION, 'cases the predicate judged valid (campaign / coordinates / limit)', `${validBy.campaign} / ${validBy.coordinates} / ${validBy.limit}`, 'info'),
			figure(SECTION, 'node crashes (run failed, item lost, or a JavaScript error as message)', tally.crashes, '= 0', tally.crashes === 0),
			figure(SECTION, 'requests sent for invalid input (incl. refused by the sandbox)', tally.sentForInvalid, '= 0', tally.sentForInvalid === 0),
			figure(SECTION, 'valid inputs wrongly rejected', tally.wronglyRejected, '= 0', tally.wronglyRejected === 0),
			figure(SECTION, 'sent requests that differ from the predicate', tally.bodyMismatches, '= 0', tally.bodyMismatches === 0),
			figure(SECTION, 'cases left unjudged (end vs start hinges on a DST reading)', tally.ambiguous, 'info'),
		];
		expect({ allMet: results.every(Boolean), kinds, examples }).toEqual({ allMet: true, kinds: {}, examples: [] });
	});

	it('without "continue on error", one bad campaign stops the run with its item index and nothing is sent', async () => {
		const invalid = fc
			.sample(campaignInput, { seed: SEED + 4, numRuns: 3000 })
			.map((c) => asItem(c))
			.filter((input) => {
				const zone = String(input.zone ?? '').trim() || WORKFLOW_ZONE;
				return !spec.campaign(predicateInput(input, 'json'), zone).ok;
			})
			.slice(0, STRICT_SAMPLES);
		const good = asItem({ name: 'Good', description: 'Valid', categoryId: 10, channels: [{ sender: 'LBADEMO', locationId: 1, smsQty: 1, message: 'Hi', startDate: '2026-12-01T09:00:00+07:00', endDate: '2026-12-02T09:00:00+07:00', telcoId: 'xl' }], zone: '' });
		for (const bad of invalid) {
			await resetAsDocumented();
			const result = await runNode(context, campaignParameters('json'), [good, bad, good], { timezone: WORKFLOW_ZONE });
			tally.strictRuns++;
			const error = result.error as (Error & { context?: { itemIndex?: number } }) | undefined;
			const sent = await requests(context, { method: 'POST' });
			if (!error || error.context?.itemIndex !== 1 || looksLikeCrash(error.message) || sent.length !== 0) {
				tally.strictFailures++;
				note('strict run', { bad, message: error?.message, itemIndex: error?.context?.itemIndex, sent: sent.length });
			}
		}
		const met = figure(SECTION, 'runs without continue-on-error: bad item 2 of 3 named, nothing sent', `${tally.strictRuns - tally.strictFailures} of ${tally.strictRuns}`, '= all', tally.strictFailures === 0 && tally.strictRuns > 0);
		expect({ met, kinds, examples }).toEqual({ met: true, kinds: {}, examples: [] });
	});
});
