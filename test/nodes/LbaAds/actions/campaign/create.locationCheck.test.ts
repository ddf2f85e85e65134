/**
 * Create refuses a channel whose Location ID the service does not list (GET /lba/locations, one
 * request per run) before any campaign of the run is sent, dry runs included; a service without
 * the list is not checked against (a warning says so); a list that fails for a moment sends nothing.
 */
import { errorOf } from '../../../../harness';
import { campaigns, channel, createParameters, fault, requests, runNode, useSandbox } from '../../setup';

const context = useSandbox();

/** Three campaigns; item 2's first channel targets 999999, which the sandbox does not list. */
const parameters = createParameters({ name: '={{ $json.name }}' }, [channel({ locationId: { __rl: true, mode: 'id', value: '={{ $json.locationId }}' } }), channel({ telcoId: 'xl' })]);
const items = [
	{ name: 'Bandung', locationId: '3273' },
	{ name: 'Typo', locationId: '999999' },
	{ name: 'Surabaya', locationId: '3578' },
];
const UNKNOWN =
	'Item 2 › Channel 1 › Location ID: 999999 is not a place LBA Ads knows, and no known ID is one typo away (API: channels[0].locationId 999999 is not in GET /lba/locations).';

function hintsOf(result: Awaited<ReturnType<typeof runNode>>): string[] {
	return (result.run.data.resultData.runData.LBA?.[0]?.hints ?? []).map((hint) => hint.message);
}

describe('Campaign > Create: unknown Location IDs are refused before anything is sent', () => {
	it('stops the run naming the item, the channel and the nearest known places; no POST reaches the service', async () => {
		const result = await runNode(context, parameters, items);
		const error = errorOf(result);
		expect(error?.message).toBe(`${UNKNOWN} Nothing was sent.`);
		expect(error?.description).toBe(
			"Pick the place with Location ID → From List, or look its ID up with Location → Find Targeting Location. Item 2 is the 2nd input item (n8n's error details show Item Index 1).",
		);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
		// One look-up for the whole run, not one per item.
		expect((await requests(context)).map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /lba/locations']);
	});

	it('with continueOnFail, the item becomes an error item and the others are published', async () => {
		const result = await runNode(context, parameters, items, { node: { onError: 'continueRegularOutput' } });
		expect(result.items.map((item) => item.json.status ?? item.json.error)).toEqual(['Published', `${UNKNOWN} Not sent; the other items go on.`, 'Published']);
		expect((await campaigns(context)).map((campaign) => campaign.request.name)).toEqual(['Bandung', 'Surabaya']);
		expect(await requests(context, { path: '/lba/locations' })).toHaveLength(1);
	});

	it('names every unknown channel of a campaign, a typo with the places one digit away', async () => {
		const result = await runNode(context, createParameters({}, [channel({ locationId: 3237 }), channel({ locationId: 3273 }), channel({ locationId: 161 })]));
		expect(errorOf(result)?.message).toBe(
			'Item 1 › Channel 1 › Location ID: 3237 is not a place LBA Ads knows; did you mean 3217 Kabupaten Bandung Barat, 3207 Kabupaten Ciamis, 3273 Kota Bandung (API: channels[0].locationId 3237 is not in GET /lba/locations). ' +
				'Item 1 › Channel 3 › Location ID: 161 is not a place LBA Ads knows; did you mean 1601 Kabupaten Ogan Komering Ulu, 1610 Kabupaten Ogan Ilir, 1611 Kabupaten Empat Lawang (API: channels[2].locationId 161 is not in GET /lba/locations). Nothing was sent.',
		);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('a dry run checks too: the preview says what publishing would refuse', async () => {
		const result = await runNode(context, { ...parameters, options: { dryRun: true } }, items);
		expect(errorOf(result)?.message).toBe(`${UNKNOWN} Nothing was sent.`);
		expect(await requests(context, { path: '/lba/locations' })).toHaveLength(1);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it.each([
		['404 (the API document lists no locations)', { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'No such path' } } }, 'GET /lba/locations answered HTTP 404'],
		['an answer that is not a list', { status: 200, body: { locations: [] } }, 'GET /lba/locations did not answer with a list of places'],
	])('a service without the list (%s): the campaigns go out with their IDs as given, and a warning says so', async (_name, answer, why) => {
		await fault(context, { path: '/lba/locations', times: 10, ...answer });
		// Dates without an offset in an Indonesian workflow zone: no place's zone is needed (sendWindows.test.ts).
		const result = await runNode(context, parameters, items, { timezone: 'Asia/Jakarta' });
		expect(errorOf(result)).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(['Published', 'Published', 'Published']);
		expect(hintsOf(result)).toContain(
			`Location IDs not checked: this LBA service does not list its places (${why}), so each Location ID is used as given. Check them with your LBA account manager.`,
		);
	});

	it.each([
		['401 (n8n sends a request again once after a 401, so twice)', { status: 401, times: 2 }],
		['403 (a credential that may not read the list)', { status: 403 }],
	])('a list the credential may not read (%s) is a failure of this run, not a service without the list: nothing is sent, no Location ID billed unchecked', async (_name, answer) => {
		await fault(context, { path: '/lba/locations', times: 1, body: { success: false, error: { code: 'FORBIDDEN', message: 'Not allowed' } }, ...answer });
		const result = await runNode(context, parameters, items, { node: { onError: 'continueRegularOutput' } });
		expect(result.items.map((item) => item.json.error)).toEqual(items.map(() => expect.stringMatching(/; the campaign was not created \(nothing is sent before Location IDs are checked\)$/)));
		expect(hintsOf(result)).toEqual([]);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});

	it('a list that fails for a moment (after the retries) sends nothing, and says to run again', async () => {
		await fault(context, { path: '/lba/locations', status: 503, times: 10, body: { message: 'busy' } });
		const result = await runNode(context, parameters, items, { node: { onError: 'continueRegularOutput' } });
		expect(result.items.map((item) => item.json.error)).toEqual(
			items.map(() => expect.stringMatching(/^Items 1-3 › Location ID: could not be checked, as GET \/lba\/locations failed \(.*503.*\)\. Nothing was sent\.$/)),
		);
		expect(result.items[0].json.description).toMatch(/no campaign is billed for a place that does not exist\. In a moment, Retry this execution/);
		expect(await requests(context, { method: 'POST' })).toHaveLength(0);
	});
});
