// sandbox/geocode-cache.js: the geocoder read back from disk answers as the one just built, a file
// cut short is built again, and the file's name covers every source the build reads.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Geocoder, toUnitVector } = require('../../sandbox/geocode');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cachedBuild, cacheFile, SOURCES } = require('../../sandbox/geocode-cache');

// Built once (about 1.5 s): the reference for the one read back.
const built = Geocoder.build();
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lba-geocode-cache-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the geocoder read from the cache is the one built: same places, names, bounds, tree, land and answers', () => {
  cachedBuild(() => built.parts(), dir); // what Geocoder.load() does when the file is not there yet
  expect(fs.readdirSync(dir)).toEqual([path.basename(cacheFile(dir))]);
  const read = Geocoder.load(dir);

  // As JSON: toEqual over 171,000 places takes seconds.
  const rows = (g: typeof built) => JSON.stringify(g.places.map((p: Record<string, unknown>) => [p.name, p.lat, p.lng, p.country, p.admin1, p.admin2]));
  expect(rows(read)).toEqual(rows(built));
  const entries = (map: Map<string, unknown>) => JSON.stringify([...map]);
  for (const key of ['admin1Names', 'admin2Names']) expect(entries(read[key])).toEqual(entries(built[key]));
  expect(entries(read.bounds.boxes)).toEqual(entries(built.bounds.boxes));
  // Typed arrays read by v8.deserialize are Node's, not the test's realm's: compared as arrays.
  const plain = (o: Record<string, ArrayLike<number>>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Array.from(v)]));
  expect(plain({ ids: read.tree.ids, coords: read.tree.coords })).toEqual(plain({ ids: built.tree.ids, coords: built.tree.coords }));
  expect(plain({ ...read.land })).toEqual(plain({ ...built.land }));
  // Points spread over the globe and thick over Indonesia (seeded, so a failure can be replayed).
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const points = Array.from({ length: 4000 }, (_, i) =>
    i % 2 ? [random() * 180 - 90, random() * 360 - 180] : [random() * 17 - 11, random() * 46 + 95],
  );
  const answers = (g: typeof built) => points.map(([lat, lng]) => g.reverse(lat, lng));
  const fromCache = answers(read);
  expect(JSON.stringify(fromCache)).toEqual(JSON.stringify(answers(built)));
  expect(fromCache.filter((a) => a.status === 'OK').length).toBeGreaterThan(500); // not only ZERO_RESULTS compared
  expect(read.tree.nearest(toUnitVector(-6.2, 106.8), 0.1).id).toBe(built.tree.nearest(toUnitVector(-6.2, 106.8), 0.1).id);
});

test('a file cut short (a process killed while another wrote, a full disk) is built again and rewritten', () => {
  const parts = built.parts();
  const build = jest.fn(() => parts);
  cachedBuild(build, dir);
  const file = cacheFile(dir);
  const whole = fs.statSync(file).size;
  fs.truncateSync(file, 1000);
  cachedBuild(build, dir);
  expect(build).toHaveBeenCalledTimes(2);
  expect(fs.statSync(file).size).toBe(whole);
  expect(fs.readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  cachedBuild(build, dir);
  expect(build).toHaveBeenCalledTimes(2);
});

test('LBA_SANDBOX_CACHE_DIR=off builds every time and writes nothing', () => {
  const build = jest.fn(() => ({}));
  cachedBuild(build, 'off');
  cachedBuild(build, 'off');
  expect(build).toHaveBeenCalledTimes(2);
  expect(fs.existsSync(path.join(process.cwd(), 'off'))).toBe(false);
});

test("the file's name covers every sandbox module the geocoder requires (a source left out would serve a stale geocoder)", () => {
  const required = new Set<string>();
  const visit = (file: string) => {
    if (required.has(file)) return;
    required.add(file);
    for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/require\('(\.\/[^']+)'\)/g)) {
      visit(require.resolve(path.join(path.dirname(file), name)));
    }
  };
  visit(require.resolve('../../sandbox/geocode'));
  expect([...required].sort()).toEqual([...SOURCES].sort());
});
