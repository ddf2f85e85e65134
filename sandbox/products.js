'use strict';
// The data package catalogue of GET /io/products (spec 2.6): realistic Indonesian
// packages, prices in whole rupiah, quotas in bytes as numeric text (1 GB = 1024^3 bytes).

const crypto = require('node:crypto');

const MIB = 1024 * 1024;

// [uuid, name, days of validity, main MB, night MB (01:00-06:00), apps MB per day, price IDR]
const CATALOGUE = [
  ['0b391969-0073-4cf9-952b-3f503bb02555', 'Internet Harian 500 MB', 1, 500, 0, 0, 3000],
  ['1a9c943e-122d-43de-90c6-769fbc24c3e4', 'Internet Harian 1 GB', 1, 1024, 0, 0, 5000],
  ['72bb9bae-23df-43d5-8273-91d082a54ac1', 'Internet 3 Hari 2,5 GB', 3, 2560, 0, 0, 10000],
  ['b9fbe33a-6235-49ed-bd12-b7fdc580e25f', 'Internet Mingguan 4 GB', 7, 3072, 1024, 0, 15000],
  ['77406c84-4ec3-439d-984a-76aba536d6fa', 'Internet Mingguan 7 GB', 7, 5120, 2048, 0, 25000],
  ['c94b0579-c5ca-481f-b0ca-8d6b4eb50c28', 'Internet Bulanan 10 GB', 30, 8192, 2048, 0, 50000],
  ['a2563d5f-ff23-4333-963f-49b2c813358a', 'Internet Bulanan 20 GB', 30, 15360, 5120, 1024, 75000],
  ['9328ffdb-416f-4082-b15d-adb09eca2f89', 'Internet Bulanan 35 GB', 30, 25600, 10240, 2048, 100000],
  ['cd81f3ad-9c14-4602-ac7b-1ce0ec4c07d4', 'Internet Bulanan 60 GB', 30, 40960, 20480, 2048, 150000],
  ['576e3006-7b36-40a2-a780-9b1b52f4c25e', 'Keluarga 100 GB', 30, 76800, 25600, 3072, 200000],
  ['af69144d-4d90-4a63-a691-2a7553cafebb', 'Kuota Malam 16 GB', 30, 1024, 15360, 0, 20000],
  ['a38098f8-728e-4cc3-af64-a33b37f3ed84', 'Sosmed Sepuasnya', 30, 512, 0, 2048, 25000],
  ['807faa80-c548-44c8-bdd5-e918c9be6bff', 'Belajar Online', 30, 2048, 0, 1024, 35000],
  ['99a3953f-7396-4b2e-9cfb-2716804a9886', 'Gamer 12 GB', 30, 8192, 0, 4096, 65000],
];

function sizeText(mb) {
  return mb % 1024 === 0 ? `${mb / 1024} GB` : mb > 1024 ? `${(mb / 1024).toFixed(1).replace('.', ',')} GB` : `${mb} MB`;
}

function describe(days, mainMb, nightMb, appsMb) {
  const parts = [`Kuota utama ${sizeText(mainMb)}`];
  if (nightMb) parts.push(`kuota malam ${sizeText(nightMb)} (01.00-06.00)`);
  if (appsMb) parts.push(`kuota aplikasi ${sizeText(appsMb)} per hari`);
  return `${parts.join(', ')}. Masa aktif ${days} hari.`;
}

function product([uuid, name, days, mainMb, nightMb, appsMb, price]) {
  return {
    uuid,
    name,
    description: describe(days, mainMb, nightMb, appsMb),
    details: {
      data: {
        mainQuota: String(mainMb * MIB),
        nightQuota: String(nightMb * MIB),
        appsQuota: String(appsMb * MIB),
      },
    },
    price: { amount: price, currency: 'IDR' },
  };
}

/** A stable UUID (version 5 layout) for copy `n` of a product, so scaled catalogues stay unique. */
function copyUuid(uuid, n) {
  const hex = crypto.createHash('sha1').update(`${uuid}#${n}`).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The catalogue repeated `scale` times (for memory benchmarks); scale 1 is the real list. */
function buildProducts(scale = 1) {
  const base = CATALOGUE.map(product);
  const products = [...base];
  for (let n = 1; n < scale; n++) {
    for (const item of base) products.push({ ...item, uuid: copyUuid(item.uuid, n) });
  }
  return products;
}

/**
 * The catalogue GET /io/products answers, which the control API can change. The reply is built
 * once per change, not per request (the benchmarks read it thousands of times a second).
 */
class Catalogue {
  constructor(scale, makeReply) {
    this.scale = scale;
    this.makeReply = makeReply;
    this.reset();
  }

  reset() {
    this.products = buildProducts(this.scale);
    this.cached = undefined;
    return this.products.length;
  }

  /** Adds or replaces (same uuid, same place) the `upsert` products, then drops the `remove` uuids. */
  change({ upsert = [], remove = [] }) {
    for (const product of upsert) {
      const index = this.products.findIndex((existing) => existing.uuid === product.uuid);
      if (index === -1) this.products.push(product);
      else this.products[index] = product;
    }
    const removed = new Set(remove);
    this.products = this.products.filter((product) => !removed.has(product.uuid));
    this.cached = undefined;
    return this.products.length;
  }

  reply() {
    this.cached ??= this.makeReply({ success: true, totalResults: this.products.length, results: this.products });
    return this.cached;
  }
}

module.exports = { buildProducts, Catalogue, CATALOGUE };
