/**
 * Indonesia's 38 provinces (since the four new Papua provinces of 2022) and their zones, checked
 * against a list written here from public sources: BPS (Statistics Indonesia) province codes and
 * names, and the zones of Indonesian law (Keppres 41/1987): WIB, UTC+7 (Sumatra, Java, West and
 * Central Kalimantan); WITA, UTC+8 (Bali, Nusa Tenggara, South, East and North Kalimantan,
 * Sulawesi); WIT, UTC+9 (Maluku, Papua). And every place of the sandbox's Location list mapped.
 */
import { DateTime } from 'luxon';

import { INDONESIAN_ZONES, PROVINCE_ZONES, provinceZone } from '../../../../nodes/LbaAds/helpers/indonesianZones';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Locations } = require('../../../../sandbox/locations.js') as {
	Locations: new () => { all: Array<{ locationId: number; name: string; province: string | null }> };
};

/** BPS code, name, zone: the 38 provinces. */
const PUBLIC_LIST: Array<[number, string, 'WIB' | 'WITA' | 'WIT']> = [
	[11, 'Aceh', 'WIB'],
	[12, 'Sumatera Utara', 'WIB'],
	[13, 'Sumatera Barat', 'WIB'],
	[14, 'Riau', 'WIB'],
	[15, 'Jambi', 'WIB'],
	[16, 'Sumatera Selatan', 'WIB'],
	[17, 'Bengkulu', 'WIB'],
	[18, 'Lampung', 'WIB'],
	[19, 'Kepulauan Bangka Belitung', 'WIB'],
	[21, 'Kepulauan Riau', 'WIB'],
	[31, 'DKI Jakarta', 'WIB'],
	[32, 'Jawa Barat', 'WIB'],
	[33, 'Jawa Tengah', 'WIB'],
	[34, 'DI Yogyakarta', 'WIB'],
	[35, 'Jawa Timur', 'WIB'],
	[36, 'Banten', 'WIB'],
	[51, 'Bali', 'WITA'],
	[52, 'Nusa Tenggara Barat', 'WITA'],
	[53, 'Nusa Tenggara Timur', 'WITA'],
	[61, 'Kalimantan Barat', 'WIB'],
	[62, 'Kalimantan Tengah', 'WIB'],
	[63, 'Kalimantan Selatan', 'WITA'],
	[64, 'Kalimantan Timur', 'WITA'],
	[65, 'Kalimantan Utara', 'WITA'],
	[71, 'Sulawesi Utara', 'WITA'],
	[72, 'Sulawesi Tengah', 'WITA'],
	[73, 'Sulawesi Selatan', 'WITA'],
	[74, 'Sulawesi Tenggara', 'WITA'],
	[75, 'Gorontalo', 'WITA'],
	[76, 'Sulawesi Barat', 'WITA'],
	[81, 'Maluku', 'WIT'],
	[82, 'Maluku Utara', 'WIT'],
	[91, 'Papua Barat', 'WIT'],
	[92, 'Papua Barat Daya', 'WIT'],
	[94, 'Papua', 'WIT'],
	[95, 'Papua Selatan', 'WIT'],
	[96, 'Papua Tengah', 'WIT'],
	[97, 'Papua Pegunungan', 'WIT'],
];

const OFFSET_HOURS = { WIB: 7, WITA: 8, WIT: 9 };

describe('Indonesian provinces and their zones', () => {
	it('maps exactly the 38 provinces of the public list, each to its zone', () => {
		expect(PUBLIC_LIST).toHaveLength(38);
		expect(Object.keys(PROVINCE_ZONES).sort()).toEqual(PUBLIC_LIST.map(([, name]) => name).sort());
		for (const [, name, abbreviation] of PUBLIC_LIST) {
			expect([name, PROVINCE_ZONES[name].abbreviation]).toEqual([name, abbreviation]);
		}
	});

	it('each zone is the IANA zone of its offset all year (Indonesia keeps no daylight saving time)', () => {
		for (const [zone, abbreviation] of Object.entries(INDONESIAN_ZONES)) {
			for (const month of [1, 7]) {
				expect([zone, DateTime.fromObject({ year: 2026, month }, { zone }).offset / 60]).toEqual([zone, OFFSET_HOURS[abbreviation]]);
			}
		}
		expect(PROVINCE_ZONES['Kalimantan Barat'].zone).toBe('Asia/Pontianak');
		expect(PROVINCE_ZONES['Sulawesi Selatan'].zone).toBe('Asia/Makassar');
		expect(PROVINCE_ZONES['Papua Pegunungan'].zone).toBe('Asia/Jayapura');
	});

	it('every place of the sandbox\'s Location list has a mapped province, in the zone its BPS code says', () => {
		const places = new Locations().all;
		const provinces = new Set(places.map(({ province }) => province));
		expect(provinces.size).toBe(38);
		const zoneOfCode = new Map(PUBLIC_LIST.map(([code, , zone]) => [code, zone]));
		for (const { locationId, name, province } of places) {
			const zone = provinceZone(province);
			expect([name, province, zone !== undefined]).toEqual([name, province, true]);
			// A regency's code starts with its province's (Kemendagri numbers the new Papua provinces 9x too: all WIT).
			const prefix = Math.floor(locationId / 100);
			const byCode = zoneOfCode.get(prefix) ?? (prefix >= 91 && prefix <= 97 ? 'WIT' : undefined);
			expect([name, zone?.abbreviation]).toEqual([name, byCode]);
		}
	});

	it.each([
		['Provinsi Jawa Barat', 'WIB'],
		['Sumatra Utara', 'WIB'],
		['D.K.I. Jakarta', 'WIB'],
		['Daerah Khusus Ibukota Jakarta', 'WIB'],
		['Daerah Istimewa Yogyakarta', 'WIB'],
		['bangka belitung', 'WIB'],
		['  sulawesi  selatan ', 'WITA'],
	])('reads "%s" as written in address data (%s)', (name, abbreviation) => {
		expect(provinceZone(name)?.abbreviation).toBe(abbreviation);
	});

	it.each([[null], [undefined], [''], ['West Java'], ['Selangor']])('knows no zone for %p', (name) => {
		expect(provinceZone(name)).toBeUndefined();
	});
});
