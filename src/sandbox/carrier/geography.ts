/**
 * Where a ZIP or postal code is, well enough for distance-based rates, transit days, the
 * nearest terminal and the local time there. US ZIPs resolve by their 3-digit prefix
 * (zip-prefixes.ts); Canadian postal codes by their first letter (the province or region),
 * refined for the large metros where one letter spans a whole province.
 */
import { HIGHEST_US_ZIP, US_ZIP_PREFIXES } from './zip-prefixes';

export type CountryIso3 = 'USA' | 'CAN' | 'PRI' | 'VIR';

export interface Place {
  readonly lat: number;
  readonly lon: number;
  /** Two-letter state, province or territory. */
  readonly state: string;
  readonly country: CountryIso3;
  /** IANA time zone of the place's wall clock. */
  readonly zone: string;
}

/** Both ISO forms; what a request may spell is the model's rule in places.ts (ISO3 only). */
const COUNTRY_ALIASES: Readonly<Record<string, CountryIso3>> = {
  USA: 'USA',
  US: 'USA',
  CAN: 'CAN',
  CA: 'CAN',
  PRI: 'PRI',
  PR: 'PRI',
  VIR: 'VIR',
  VI: 'VIR',
};

/** `us`, ` USA `, `Ca` -> ISO3; undefined for anything else. */
export function normalizeCountry(code: string | undefined): CountryIso3 | undefined {
  return COUNTRY_ALIASES[(code ?? '').trim().toUpperCase()];
}

const US_BY_PREFIX: ReadonlyMap<number, Place> = (() => {
  const byPrefix = new Map<number, Place>();
  for (const [first, last, state, lat, lon] of US_ZIP_PREFIXES) {
    // Territories keep their own ISO3, as the carrier's CountryCode values do.
    const country: CountryIso3 = state === 'PR' ? 'PRI' : state === 'VI' ? 'VIR' : 'USA';
    const place = { lat, lon, state, country, zone: zoneOf(state, lat, lon) };
    for (let p = first; p <= last; p++) byPrefix.set(p, place);
  }
  return byPrefix;
})();

/**
 * The zone of a place: one per state or province, split by longitude (or latitude) where a
 * state spans two zones, along the lines the zones really follow near the places the sandbox
 * knows (Burns TN is Central, Knoxville Eastern; the Florida panhandle west of the Apalachicola
 * is Central; El Paso is Mountain; Arizona, Hawaii, Puerto Rico and Saskatchewan keep standard
 * time all year, which their IANA zones already say).
 */
export function zoneOf(state: string, lat: number, lon: number): string {
  const east = 'America/New_York';
  const central = 'America/Chicago';
  const mountain = 'America/Denver';
  const pacific = 'America/Los_Angeles';
  switch (state) {
    case 'TN':
      return lon < -85.4 ? central : east;
    case 'FL':
      return lon < -85.0 ? central : east;
    case 'KY':
      return lon < -86.0 ? central : east;
    case 'IN':
      return lon < -87.0 ? central : 'America/Indiana/Indianapolis';
    case 'MI':
      return lon < -87.5 ? central : 'America/Detroit';
    case 'TX':
      return lon < -104.5 ? mountain : central;
    case 'KS':
    case 'NE':
      return lon < -101.2 ? mountain : central;
    case 'ND':
    case 'SD':
      return lon < -100.6 ? mountain : central;
    case 'ID':
      return lat > 45.5 ? pacific : 'America/Boise';
    case 'OR':
      return lon > -117.3 ? 'America/Boise' : pacific;
    case 'AZ':
      return 'America/Phoenix';
    case 'HI':
      return 'Pacific/Honolulu';
    case 'AK':
      return 'America/Anchorage';
    case 'PR':
      return 'America/Puerto_Rico';
    case 'VI':
      return 'America/St_Thomas';
    case 'NL':
      return 'America/St_Johns';
    case 'NS':
    case 'NB':
    case 'PE':
      return 'America/Halifax';
    case 'QC':
      return 'America/Toronto';
    case 'ON':
      return lon < -90 ? 'America/Winnipeg' : 'America/Toronto';
    case 'MB':
      return 'America/Winnipeg';
    case 'SK':
      return 'America/Regina';
    case 'AB':
      return 'America/Edmonton';
    case 'BC':
      return 'America/Vancouver';
    case 'YT':
      return 'America/Whitehorse';
    case 'NT':
      return 'America/Yellowknife';
  }
  if (['CT', 'DE', 'DC', 'GA', 'ME', 'MD', 'MA', 'NH', 'NJ', 'NY', 'NC', 'OH', 'PA', 'RI', 'SC', 'VT', 'VA', 'WV'].includes(state)) return east;
  if (['AL', 'AR', 'IL', 'IA', 'LA', 'MN', 'MS', 'MO', 'OK', 'WI'].includes(state)) return central;
  if (['CO', 'MT', 'NM', 'UT', 'WY'].includes(state)) return mountain;
  if (['CA', 'NV', 'WA'].includes(state)) return pacific;
  return east;
}

/** First letter of a Canadian postal code -> province and a position inside its population. */
const CANADA_BY_LETTER: Readonly<Record<string, Omit<Place, 'country' | 'zone'>>> = {
  A: { state: 'NL', lat: 47.56, lon: -52.71 },
  B: { state: 'NS', lat: 44.65, lon: -63.58 },
  C: { state: 'PE', lat: 46.24, lon: -63.13 },
  E: { state: 'NB', lat: 46.09, lon: -64.77 },
  G: { state: 'QC', lat: 46.81, lon: -71.21 },
  H: { state: 'QC', lat: 45.5, lon: -73.57 },
  J: { state: 'QC', lat: 45.7, lon: -72.9 },
  K: { state: 'ON', lat: 44.6, lon: -76.3 },
  L: { state: 'ON', lat: 43.6, lon: -79.8 },
  M: { state: 'ON', lat: 43.7, lon: -79.42 },
  N: { state: 'ON', lat: 43.0, lon: -81.2 },
  P: { state: 'ON', lat: 46.49, lon: -80.99 },
  R: { state: 'MB', lat: 49.9, lon: -97.14 },
  S: { state: 'SK', lat: 51.0, lon: -105.5 },
  T: { state: 'AB', lat: 52.3, lon: -113.8 },
  V: { state: 'BC', lat: 49.28, lon: -123.12 },
  X: { state: 'NT', lat: 62.45, lon: -114.37 },
  Y: { state: 'YT', lat: 60.72, lon: -135.06 },
};

/** Letter + digit overrides where one letter covers cities far apart (same province). */
const CANADA_BY_LETTER_DIGIT: Readonly<Record<string, { lat: number; lon: number }>> = {
  K1: { lat: 45.42, lon: -75.69 },
  K2: { lat: 45.35, lon: -75.75 },
  K7: { lat: 44.23, lon: -76.49 },
  N6: { lat: 42.98, lon: -81.25 },
  N8: { lat: 42.3, lon: -83.0 },
  N9: { lat: 42.3, lon: -83.0 },
  P3: { lat: 46.49, lon: -80.99 },
  P7: { lat: 48.38, lon: -89.25 },
  J8: { lat: 45.48, lon: -75.7 },
  J9: { lat: 45.48, lon: -75.7 },
  J1: { lat: 45.4, lon: -71.9 },
  S4: { lat: 50.45, lon: -104.61 },
  S7: { lat: 52.13, lon: -106.67 },
  T1: { lat: 49.69, lon: -112.84 },
  T2: { lat: 51.05, lon: -114.07 },
  T3: { lat: 51.05, lon: -114.07 },
  T5: { lat: 53.55, lon: -113.49 },
  T6: { lat: 53.52, lon: -113.5 },
  V1: { lat: 49.88, lon: -119.49 },
  V2: { lat: 49.05, lon: -122.3 },
  V8: { lat: 48.43, lon: -123.37 },
  V9: { lat: 48.8, lon: -123.7 },
};

const US_ZIP = /^(\d{5})(?:-?\d{4})?$/;
// Canada Post never uses D, F, I, O, Q, U; W and Z are never first letters.
const CA_POSTAL = /^([ABCEGHJKLMNPRSTVXY])(\d)[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/;

function clean(code: string | undefined): string {
  return (code ?? '').trim().toUpperCase();
}

/**
 * The place of a ZIP (5 or ZIP+4, with or without the dash) or a Canadian postal code
 * (`K1A 0B1` or `K1A0B1`), or undefined when the code is malformed, unassigned, or does not
 * belong to the country. A Puerto Rico or Virgin Islands ZIP is accepted with country USA as
 * well as with its own code, since the USPS system treats them as domestic; a mainland ZIP
 * with country PRI is a mismatch.
 */
export function locate(zip: string, country: string): Place | undefined {
  const iso = normalizeCountry(country);
  const code = clean(zip);
  if (iso === 'CAN') {
    const m = CA_POSTAL.exec(code);
    if (!m) return undefined;
    const region = CANADA_BY_LETTER[m[1]!]!;
    const refined = CANADA_BY_LETTER_DIGIT[m[1]! + m[2]!];
    const at = { ...region, ...refined };
    return { ...at, country: 'CAN', zone: zoneOf(at.state, at.lat, at.lon) };
  }
  if (iso === undefined) return undefined;
  const m = US_ZIP.exec(code);
  if (!m || Number(m[1]) > HIGHEST_US_ZIP) return undefined;
  const place = US_BY_PREFIX.get(Number(m[1]!.slice(0, 3)));
  if (!place) return undefined;
  if (iso !== 'USA' && iso !== place.country) return undefined;
  return place;
}

export function isValidZip(zip: string, country: string): boolean {
  return locate(zip, country) !== undefined;
}

const EARTH_RADIUS_MILES = 3958.8;
/** Trucks do not fly: a typical US/Canada road distance is about 18 % over the great circle. */
const ROAD_FACTOR = 1.18;

/** Road miles between two points (great-circle distance times the road factor), 1 decimal. */
export function distanceMiles(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  const greatCircle = 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(greatCircle * ROAD_FACTOR * 10) / 10;
}
