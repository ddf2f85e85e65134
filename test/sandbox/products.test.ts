// GET /io/products (spec 4.3, 2.6).

import { Sandbox, call, startTestSandbox } from './helpers';

interface Product {
  uuid: string;
  name: string;
  details: { data: { mainQuota: string; nightQuota: string; appsQuota: string } };
  price: { amount: number; currency: string };
}

describe('GET /io/products', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  test('lists at least 12 products and totalResults equals the number of results', async () => {
    const reply = await call(sandbox, 'GET', '/io/products');
    expect(reply.status).toBe(200);
    expect(reply.json.success).toBe(true);
    expect(reply.json.results.length).toBeGreaterThanOrEqual(12);
    expect(reply.json.totalResults).toBe(reply.json.results.length);
  });

  test('products have unique UUIDs, names, IDR prices and byte quotas as numeric text', async () => {
    const products: Product[] = (await call(sandbox, 'GET', '/io/products')).json.results;
    expect(new Set(products.map((p) => p.uuid)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.name)).size).toBe(products.length);
    for (const product of products) {
      expect(product.price.currency).toBe('IDR');
      expect(Number.isInteger(product.price.amount)).toBe(true);
      expect(product.price.amount).toBeGreaterThan(0);
      const quotas = Object.values(product.details.data);
      for (const quota of quotas) expect(quota).toMatch(/^\d+$/);
      // Real packages are sold in whole megabytes at least.
      expect(BigInt(product.details.data.mainQuota) % 1048576n).toBe(0n);
      expect(BigInt(product.details.data.mainQuota)).toBeGreaterThan(0n);
    }
    expect(products.some((p) => p.details.data.nightQuota !== '0')).toBe(true);
    expect(products.some((p) => p.details.data.appsQuota !== '0')).toBe(true);
  });

  test('a bigger package costs more than a smaller one of the same validity', async () => {
    const products: Product[] = (await call(sandbox, 'GET', '/io/products')).json.results;
    const monthly = products.filter((p) => /^Internet Bulanan/.test(p.name));
    expect(monthly.length).toBeGreaterThan(1);
    const byQuota = [...monthly].sort((a, b) => Number(BigInt(a.details.data.mainQuota) - BigInt(b.details.data.mainQuota)));
    const byPrice = [...monthly].sort((a, b) => a.price.amount - b.price.amount);
    expect(byQuota.map((p) => p.uuid)).toEqual(byPrice.map((p) => p.uuid));
  });
});

describe('productsScale', () => {
  test('repeats the catalogue N times with unique UUIDs and a matching totalResults', async () => {
    const base = await startTestSandbox();
    const scaled = await startTestSandbox({ productsScale: 3 });
    try {
      const one = (await call(base, 'GET', '/io/products')).json;
      const three = (await call(scaled, 'GET', '/io/products')).json;
      expect(three.results).toHaveLength(one.results.length * 3);
      expect(three.totalResults).toBe(three.results.length);
      expect(new Set(three.results.map((p: Product) => p.uuid)).size).toBe(three.results.length);
      expect(three.results.slice(0, one.results.length)).toEqual(one.results);
    } finally {
      await base.close();
      await scaled.close();
    }
  });

  test('rejects a scale below 1', async () => {
    await expect(startTestSandbox({ productsScale: 0 })).rejects.toThrow(/productsScale/);
  });
});
