/**
 * Indonesia's three time zones and the zone of each of its 38 provinces (since the four Papua
 * provinces of 2022): what "09:00" means to a channel's recipients. Indonesia keeps no daylight
 * saving time, so a zone is one offset all year.
 */

export interface IndonesianZone {
	/** WIB, WITA or WIT: what Indonesians call the zone. */
	abbreviation: 'WIB' | 'WITA' | 'WIT';
	/** The IANA zone the node reads dates in. */
	zone: 'Asia/Jakarta' | 'Asia/Pontianak' | 'Asia/Makassar' | 'Asia/Jayapura';
}

const WIB: IndonesianZone = { abbreviation: 'WIB', zone: 'Asia/Jakarta' };
/** West and Central Kalimantan: WIB, under tzdb's own name. */
const WIB_KALIMANTAN: IndonesianZone = { abbreviation: 'WIB', zone: 'Asia/Pontianak' };
const WITA: IndonesianZone = { abbreviation: 'WITA', zone: 'Asia/Makassar' };
const WIT: IndonesianZone = { abbreviation: 'WIT', zone: 'Asia/Jayapura' };

/** The 38 provinces, by their Indonesian names, and their zones. */
export const PROVINCE_ZONES: Readonly<Record<string, IndonesianZone>> = {
	// Sumatra and its islands (WIB)
	Aceh: WIB,
	'Sumatera Utara': WIB,
	'Sumatera Barat': WIB,
	Riau: WIB,
	'Kepulauan Riau': WIB,
	Jambi: WIB,
	'Sumatera Selatan': WIB,
	'Kepulauan Bangka Belitung': WIB,
	Bengkulu: WIB,
	Lampung: WIB,
	// Java (WIB)
	'DKI Jakarta': WIB,
	Banten: WIB,
	'Jawa Barat': WIB,
	'Jawa Tengah': WIB,
	'DI Yogyakarta': WIB,
	'Jawa Timur': WIB,
	// West and Central Kalimantan (WIB)
	'Kalimantan Barat': WIB_KALIMANTAN,
	'Kalimantan Tengah': WIB_KALIMANTAN,
	// Bali, Nusa Tenggara, South, East and North Kalimantan, Sulawesi (WITA)
	Bali: WITA,
	'Nusa Tenggara Barat': WITA,
	'Nusa Tenggara Timur': WITA,
	'Kalimantan Selatan': WITA,
	'Kalimantan Timur': WITA,
	'Kalimantan Utara': WITA,
	'Sulawesi Utara': WITA,
	Gorontalo: WITA,
	'Sulawesi Tengah': WITA,
	'Sulawesi Barat': WITA,
	'Sulawesi Selatan': WITA,
	'Sulawesi Tenggara': WITA,
	// Maluku and Papua (WIT)
	Maluku: WIT,
	'Maluku Utara': WIT,
	Papua: WIT,
	'Papua Barat': WIT,
	'Papua Barat Daya': WIT,
	'Papua Tengah': WIT,
	'Papua Pegunungan': WIT,
	'Papua Selatan': WIT,
};

/** The IANA zones Indonesia uses, with their abbreviation. */
export const INDONESIAN_ZONES: Readonly<Record<string, IndonesianZone['abbreviation']>> = {
	'Asia/Jakarta': 'WIB',
	'Asia/Pontianak': 'WIB',
	'Asia/Makassar': 'WITA',
	'Asia/Jayapura': 'WIT',
};

/** Other ways a province's name is written: "Provinsi Jawa Barat", "Sumatra Utara", "Daerah Istimewa Yogyakarta". */
function normalised(name: string): string {
	return name
		.toLowerCase()
		.replace(/[.\-_,]/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.replace(/^provinsi /, '')
		.replace(/\bsumatra\b/g, 'sumatera')
		.replace(/^(d k i|dki|dkj|daerah khusus ibukota|daerah khusus ibu kota|daerah khusus) jakarta$/, 'jakarta')
		.replace(/^(d i|di|diy|daerah istimewa) yogyakarta$/, 'yogyakarta')
		.replace(/^bangka belitung$/, 'kepulauan bangka belitung');
}

const BY_NORMALISED = new Map<string, IndonesianZone>(
	Object.entries(PROVINCE_ZONES).map(([province, zone]) => [normalised(province), zone]),
);
BY_NORMALISED.set('jakarta', WIB);
BY_NORMALISED.set('yogyakarta', WIB);

/** The zone of a province named as Indonesian address data names it; undefined for a name it does not know. */
export function provinceZone(province: unknown): IndonesianZone | undefined {
	return typeof province === 'string' ? BY_NORMALISED.get(normalised(province)) : undefined;
}
