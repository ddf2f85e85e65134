'use strict';
// Indonesian names of Indonesia's 38 provinces, keyed by GeoNames admin1 code. GeoNames
// names them in English ("West Java"); Indonesian address data says "Jawa Barat".

const INDONESIAN_PROVINCES = {
  '01': 'Aceh',
  '02': 'Bali',
  '03': 'Bengkulu',
  '04': 'DKI Jakarta',
  '05': 'Jambi',
  '07': 'Jawa Tengah',
  '08': 'Jawa Timur',
  '10': 'DI Yogyakarta',
  '11': 'Kalimantan Barat',
  '12': 'Kalimantan Selatan',
  '13': 'Kalimantan Tengah',
  '14': 'Kalimantan Timur',
  '15': 'Lampung',
  '17': 'Nusa Tenggara Barat',
  '18': 'Nusa Tenggara Timur',
  '21': 'Sulawesi Tengah',
  '22': 'Sulawesi Tenggara',
  '24': 'Sumatera Barat',
  '26': 'Sumatera Utara',
  '28': 'Maluku',
  '29': 'Maluku Utara',
  '30': 'Jawa Barat',
  '31': 'Sulawesi Utara',
  '32': 'Sumatera Selatan',
  '33': 'Banten',
  '34': 'Gorontalo',
  '35': 'Kepulauan Bangka Belitung',
  '36': 'Papua',
  '37': 'Riau',
  '38': 'Sulawesi Selatan',
  '39': 'Papua Barat',
  '40': 'Kepulauan Riau',
  '41': 'Sulawesi Barat',
  '42': 'Kalimantan Utara',
  PD: 'Papua Barat Daya',
  PT: 'Papua Tengah',
  PE: 'Papua Pegunungan',
  PS: 'Papua Selatan',
};

// GeoNames' populated places hold only three points in Jakarta and none is the seat of
// one of its five administrative cities, so points there would name Bekasi or Depok.
// These approximate centres (hand-entered, degrees) fill the gap.
const JAKARTA_CITIES = [
  { name: 'Jakarta Pusat', lat: -6.1864, lng: 106.8341, admin2: '3173' },
  { name: 'Jakarta Utara', lat: -6.138, lng: 106.863, admin2: '3175' },
  { name: 'Jakarta Barat', lat: -6.1683, lng: 106.7589, admin2: '3174' },
  { name: 'Jakarta Selatan', lat: -6.2615, lng: 106.8106, admin2: '3171' },
  { name: 'Jakarta Timur', lat: -6.225, lng: 106.9004, admin2: '3172' },
].map((city) => ({ ...city, country: 'ID', admin1: '04' }));

module.exports = { INDONESIAN_PROVINCES, JAKARTA_CITIES };
