// GET /io/location (spec 4.2, 2.5): Google-format reverse geocoding from offline data.

import { Sandbox, call, expectSchema, startTestSandbox } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sharedGeocoder, KdTree, toUnitVector } = require('../../sandbox/geocode');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LandMask } = require('../../sandbox/land');

interface Component {
  long_name: string;
  short_name: string;
  types: string[];
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

function locate(latlng: string) {
  return call(sandbox, 'GET', `/io/location?latlng=${encodeURIComponent(latlng)}`);
}

function componentOf(components: Component[], type: string): Component | undefined {
  return components.find((c) => c.types.includes(type));
}

describe('cities name the right city and province', () => {
  // City-centre coordinates; the expected names are facts about Indonesia, not sandbox output.
  const cities: [string, string, string][] = [
    ['-6.1754,106.8272', 'Jakarta', 'DKI Jakarta'],
    ['-6.2088,106.8456', 'Jakarta', 'DKI Jakarta'],
    ['-6.9175,107.6191', 'Bandung', 'Jawa Barat'],
    ['-7.2575,112.7521', 'Surabaya', 'Jawa Timur'],
    ['3.5952,98.6722', 'Medan', 'Sumatera Utara'],
    ['-8.6705,115.2126', 'Denpasar', 'Bali'],
    ['-5.1477,119.4327', 'Makassar', 'Sulawesi Selatan'],
    ['-2.5337,140.7181', 'Jayapura', 'Papua'],
  ];

  test.each(cities)('%s is in %s, %s', async (latlng, city, province) => {
    const reply = await locate(latlng);
    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe('OK');
    const first = reply.json.results[0];
    const components: Component[] = first.address_components;
    expect(componentOf(components, 'administrative_area_level_1')?.long_name).toBe(province);
    expect(componentOf(components, 'country')).toMatchObject({ long_name: 'Indonesia', short_name: 'ID' });
    const cityNames = [componentOf(components, 'locality'), componentOf(components, 'administrative_area_level_2')]
      .filter(Boolean)
      .map((c) => c!.long_name);
    expect(cityNames.some((name) => name.includes(city))).toBe(true);
    expect(first.formatted_address).toContain(province);
    expect(first.formatted_address).toMatch(/Indonesia$/);
  });

  test('results run from the place to the country, each with geometry inside its viewport', async () => {
    const reply = await locate('-6.9175,107.6191');
    const results = reply.json.results;
    expect(results.map((r: { types: string[] }) => r.types[0])).toEqual([
      'locality',
      'administrative_area_level_2',
      'administrative_area_level_1',
      'country',
    ]);
    for (const result of results) {
      const { location, viewport } = result.geometry;
      expect(location.lat).toBeGreaterThanOrEqual(viewport.southwest.lat);
      expect(location.lat).toBeLessThanOrEqual(viewport.northeast.lat);
      expect(location.lng).toBeGreaterThanOrEqual(viewport.southwest.lng);
      expect(location.lng).toBeLessThanOrEqual(viewport.northeast.lng);
    }
    // The place found is near the query point (Bandung's centre).
    expect(Math.abs(results[0].geometry.location.lat - -6.9175)).toBeLessThan(0.1);
    expect(Math.abs(results[0].geometry.location.lng - 107.6191)).toBeLessThan(0.1);
    expect(new Set(results.map((r: { place_id: string }) => r.place_id)).size).toBe(results.length);
  });

  test('place_id is stable across calls and sandboxes', async () => {
    const first = (await locate('-8.6705,115.2126')).json.results[0].place_id;
    const other = await startTestSandbox();
    try {
      const again = await call(other, 'GET', '/io/location?latlng=-8.6705,115.2126');
      expect(again.json.results[0].place_id).toBe(first);
    } finally {
      await other.close();
    }
  });

  test('nearby points in the same city share the place; other cities do not', async () => {
    const a = (await locate('3.5952,98.6722')).json.results[0].place_id;
    const b = (await locate('3.5960,98.6730')).json.results[0].place_id;
    const c = (await locate('-5.1477,119.4327')).json.results[0].place_id;
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  test('points outside Indonesia are answered too, with their own country', async () => {
    const reply = await locate('48.8566,2.3522');
    expect(reply.json.status).toBe('OK');
    expect(componentOf(reply.json.results[0].address_components, 'country')?.short_name).toBe('FR');
  });
});

describe('sea and bad input', () => {
  test.each([
    ['the Java Sea', '-5,110'],
    ['the Indian Ocean south of Java', '-10,100'],
    ['the Banda Sea', '-6.5,127'],
    ['the Pacific north of Papua', '0,135'],
    ['the middle of the Atlantic', '0,-30'],
  ])('a point in %s gets ZERO_RESULTS with HTTP 200', async (_label, latlng) => {
    const reply = await locate(latlng);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: 'ZERO_RESULTS', results: [] });
  });

  test.each([
    ['not numbers', 'abc'],
    ['one number', '-6.9'],
    ['three numbers', '1,2,3'],
    ['empty', ''],
    ['latitude over 90', '90.5,100'],
    ['latitude under -90', '-91,100'],
    ['longitude over 180', '0,180.01'],
    ['longitude under -180', '0,-200'],
    ['numbers with words', '-6.9 south,107.6 east'],
    ['exponent notation', '1e1,2'],
  ])('latlng %s -> 400 INVALID_REQUEST with error_message', async (_label, latlng) => {
    const reply = await locate(latlng);
    expect(reply.status).toBe(400);
    expect(reply.json.status).toBe('INVALID_REQUEST');
    expect(reply.json.results).toEqual([]);
    expect(reply.json.error_message).toMatch(/latlng/);
  });

  test('a missing latlng -> 400 INVALID_REQUEST', async () => {
    const reply = await call(sandbox, 'GET', '/io/location');
    expect(reply.status).toBe(400);
    expect(reply.json.status).toBe('INVALID_REQUEST');
    expect(reply.json.error_message).toMatch(/Missing/);
  });

  test('spaces around the numbers and a leading plus are accepted', async () => {
    const reply = await locate(' -6.9175 , +107.6191 ');
    expect(reply.json.status).toBe('OK');
  });

  test('the boundaries themselves are valid coordinates', async () => {
    for (const latlng of ['90,180', '-90,-180']) expect((await locate(latlng)).status).toBe(200);
  });
});

describe('the spatial index', () => {
  const geocoder = sharedGeocoder();

  test('the k-d tree finds the same nearest place as a full scan', () => {
    const places = geocoder.places as { lat: number; lng: number }[];
    const vectors = new Float64Array(places.length * 3);
    places.forEach((p, i) => vectors.set(toUnitVector(p.lat, p.lng), i * 3));
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 100; i++) {
      // Half the points over Indonesia, half anywhere (poles and antimeridian included).
      const lat = i % 2 ? -11 + random() * 17 : -90 + random() * 180;
      const lng = i % 2 ? 95 + random() * 46 : -180 + random() * 360;
      const [qx, qy, qz] = toUnitVector(lat, lng);
      let best = Infinity;
      for (let o = 0; o < vectors.length; o += 3) {
        const dx = vectors[o] - qx;
        const dy = vectors[o + 1] - qy;
        const dz = vectors[o + 2] - qz;
        const squared = dx * dx + dy * dy + dz * dz;
        if (squared < best) best = squared;
      }
      const found = geocoder.tree.nearest([qx, qy, qz], 2);
      expect(found.chord).toBeCloseTo(Math.sqrt(best), 12);
    }
  });

  test('a small tree answers like a full scan', () => {
    const points = [[0, 0], [10, 10], [-10, 170], [-10, -170], [89, 0]];
    const tree = new KdTree(Float64Array.from(points.flatMap(([lat, lng]) => toUnitVector(lat, lng))));
    expect(tree.nearest(toUnitVector(-10, 179), 2).id).toBe(2);
    expect(tree.nearest(toUnitVector(-10, -179), 2).id).toBe(3);
    expect(tree.nearest(toUnitVector(80, 100), 2).id).toBe(4);
    expect(tree.nearest(toUnitVector(45, 45), 0.01).id).toBe(-1);
  });

  test('each of 20,000 lookups compares under 1% of the places (an index, not a scan over every place)', () => {
    let most = 0;
    for (let i = 0; i < 20000; i++) {
      const before = geocoder.tree.examined;
      geocoder.reverse(-11 + (i % 170) / 10, 95 + (i % 460) / 10);
      most = Math.max(most, geocoder.tree.examined - before);
    }
    // Above 0: reverse() asks the tree. The most seen over this grid is about 870 of ~171,000.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(geocoder.places.length / 100);
  });
});

describe('land mask', () => {
  const land = LandMask.fromWorldAtlas();

  test.each([
    ['central Borneo', 1, 114, true],
    ['the Papua highlands', -4, 138.5, true],
    ['central Australia', -25, 135, true],
    ['Siberia', 60, 100, true],
    ['Antarctica on the antimeridian', -85, 179.9, true],
    ['Antarctica west of the antimeridian', -85, -179.9, true],
    ['Chukotka east of the antimeridian', 67.5, 179.9, true],
    ['Chukotka west of the antimeridian', 67.5, -179.9, true],
    ['Vanua Levu (Fiji) across the antimeridian', -16.6, 179.9, true],
    ['the Java Sea', -5, 110, false],
    ['the Pacific on the equator at 180', 0, 179.9, false],
    ['the Arctic Ocean near the pole', 89, 0, false],
    ['the Southern Ocean', -60, 0, false],
  ])('%s -> land %s', (_label, lat, lng, expected) => {
    expect(land.contains(lat, lng)).toBe(expected);
  });
});

describe('GET /lba/locations (beyond the API document)', () => {
  test('lists regencies and cities with the BPS code as locationId, filtered by name; the journal names each channel\'s place', async () => {
    const all = await call(sandbox, 'GET', '/lba/locations');
    expect(all.status).toBe(200);
    expectSchema(all.json, 'components', 'schemas', 'LocationList');
    expect(all.json.totalResults).toBeGreaterThan(500);
    const bandung = await call(sandbox, 'GET', '/lba/locations?name=BANDUNG');
    expect(bandung.json.results).toEqual([
      { locationId: 3204, name: 'Kabupaten Bandung', type: 'regency', province: 'Jawa Barat' },
      { locationId: 3217, name: 'Kabupaten Bandung Barat', type: 'regency', province: 'Jawa Barat' },
      { locationId: 3273, name: 'Kota Bandung', type: 'city', province: 'Jawa Barat' },
    ]);
    expect((await call(sandbox, 'GET', '/lba/locations', { token: null })).status).toBe(401);

    // Every city the geocoder names is a location, under the same name.
    const geocoded = await call(sandbox, 'GET', '/io/location?latlng=-7.2575,112.7521');
    const city = geocoded.json.results[0].address_components.find((part: { types: string[] }) => part.types.includes('administrative_area_level_2')).long_name;
    expect(all.json.results.filter((location: { name: string }) => location.name === city)).toHaveLength(1);
  });
});

describe("the locations store's lookup by id (what a handler of a path template uses)", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Locations } = require('../../sandbox/locations');
  const locations = new Locations();

  test('get(id) gives the location as GET /lba/locations lists it, null for an id it does not hold', () => {
    expect(locations.get(3273)).toEqual({ locationId: 3273, name: 'Kota Bandung', type: 'city', province: 'Jawa Barat' });
    expect(locations.get(1)).toBeNull();
    expect(locations.place('3273')).toBe('Kota Bandung');
  });
});
