/**
 * Whether an address hangs together: the country code, the ZIP or postal code, the state and
 * the city. The ZIP decides where freight goes (rates, terminals, transit days); a State that
 * contradicts it would print one place on the labels and route the freight to another, so
 * documents the freight moves on (bills of lading, pickups) refuse it, and lookups (quotes,
 * transit times) answer by the ZIP with a warning. Cities are checked only where the model
 * knows the city: one it knows to lie far from the ZIP gets a warning, never a refusal, because
 * carriers accept local names (Mont-Royal for a Montreal postal code) and route by the ZIP.
 */
import { distanceMiles, locate, type CountryIso3, type Place } from './geography';
import { TERMINALS } from './terminals';

/** The country codes the carrier serves, as the interface's ISO3Country and CountryCode fields spell them. */
export const SERVED_COUNTRIES: readonly CountryIso3[] = ['USA', 'CAN', 'PRI'];

const ISO2: Readonly<Record<string, CountryIso3>> = { US: 'USA', CA: 'CAN', PR: 'PRI' };

/**
 * The served country a code names, or why it names none. Only the three-letter ISO 3166 code is
 * accepted, in every operation alike: the fields are ISO3 by name, and the carrier's own
 * clients map US, CA and PR to USA, CAN and PRI before sending (docs/carrier-facts.md).
 */
export function countryOf(code: string): { country: CountryIso3 } | { problem: string } {
  const c = code.trim().toUpperCase();
  if ((SERVED_COUNTRIES as readonly string[]).includes(c)) return { country: c as CountryIso3 };
  const iso3 = ISO2[c];
  if (iso3) return { problem: `${code.trim()} is a two-letter code: use the three-letter ISO code ${iso3}` };
  return { problem: `${code.trim()} is not served: the carrier serves ${SERVED_COUNTRIES.join(', ')}` };
}

/** Where a ZIP is, when it is a real code of that served country. */
export function placeOf(zip: string, country: CountryIso3): Place | undefined {
  return locate(zip, country);
}

type CityRow = readonly [city: string, state: string, lat: number, lon: number];

/**
 * Cities the model knows the position of: every terminal's city, the cities of the sample data
 * and the larger metros. Cities only, no ZIPs: enough to notice "Seattle" written under a Tampa
 * ZIP, and nothing to say about a town it has never heard of.
 */
// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
const CITY_ROWS: readonly CityRow[] = [
  ['Burns', 'TN', 36.05, -87.31], ['Nashville', 'TN', 36.16, -86.78], ['Memphis', 'TN', 35.15, -90.05], ['Knoxville', 'TN', 35.96, -83.92], ['Chattanooga', 'TN', 35.05, -85.31],
  ['Tampa', 'FL', 27.95, -82.46], ['New Port Richey', 'FL', 28.24, -82.72], ['Miami', 'FL', 25.76, -80.19], ['Doral', 'FL', 25.82, -80.36], ['Orlando', 'FL', 28.54, -81.38], ['Jacksonville', 'FL', 30.33, -81.66],
  ['Dayton', 'OH', 39.76, -84.19], ['Columbus', 'OH', 39.96, -83.0], ['Cleveland', 'OH', 41.5, -81.69], ['Cincinnati', 'OH', 39.1, -84.51],
  ['Lenexa', 'KS', 38.95, -94.73], ['Kansas City', 'KS', 39.11, -94.63], ['Kansas City', 'MO', 39.1, -94.58], ['Wichita', 'KS', 37.69, -97.34], ['Warren', 'AR', 33.61, -92.06], ['Little Rock', 'AR', 34.75, -92.29],
  ['Lincoln', 'NE', 40.81, -96.7], ['Omaha', 'NE', 41.26, -95.93], ['Denver', 'CO', 39.74, -104.99], ['Chicago', 'IL', 41.88, -87.63], ['Atlanta', 'GA', 33.75, -84.39], ['Savannah', 'GA', 32.08, -81.09],
  ['Dallas', 'TX', 32.78, -96.8], ['Houston', 'TX', 29.76, -95.37], ['San Antonio', 'TX', 29.42, -98.49], ['Austin', 'TX', 30.27, -97.74], ['El Paso', 'TX', 31.76, -106.49], ['Fort Worth', 'TX', 32.76, -97.33],
  ['Phoenix', 'AZ', 33.45, -112.07], ['Tucson', 'AZ', 32.22, -110.97], ['Elizabeth', 'NJ', 40.66, -74.21], ['Newark', 'NJ', 40.74, -74.17], ['Richmond', 'VA', 37.54, -77.44], ['Norfolk', 'VA', 36.85, -76.29],
  ['Los Angeles', 'CA', 34.05, -118.24], ['Commerce', 'CA', 34.0, -118.16], ['San Diego', 'CA', 32.72, -117.16], ['San Francisco', 'CA', 37.77, -122.42], ['Oakland', 'CA', 37.8, -122.27], ['San Jose', 'CA', 37.34, -121.89], ['Sacramento', 'CA', 38.58, -121.49], ['Fresno', 'CA', 36.74, -119.79],
  ['Seattle', 'WA', 47.61, -122.33], ['Kent', 'WA', 47.38, -122.23], ['Tacoma', 'WA', 47.25, -122.44], ['Spokane', 'WA', 47.66, -117.43], ['Portland', 'OR', 45.52, -122.68], ['Eugene', 'OR', 44.05, -123.09],
  ['Boise', 'ID', 43.62, -116.2], ['Salt Lake City', 'UT', 40.76, -111.89], ['Las Vegas', 'NV', 36.17, -115.14], ['Reno', 'NV', 39.53, -119.81], ['Albuquerque', 'NM', 35.08, -106.65], ['Billings', 'MT', 45.78, -108.5],
  ['Minneapolis', 'MN', 44.98, -93.27], ['Saint Paul', 'MN', 44.95, -93.09], ['Fargo', 'ND', 46.88, -96.79], ['Sioux Falls', 'SD', 43.54, -96.73], ['Des Moines', 'IA', 41.59, -93.62], ['Milwaukee', 'WI', 43.04, -87.91],
  ['Detroit', 'MI', 42.33, -83.05], ['Grand Rapids', 'MI', 42.96, -85.67], ['Indianapolis', 'IN', 39.77, -86.16], ['Fort Wayne', 'IN', 41.08, -85.14], ['Louisville', 'KY', 38.25, -85.76], ['St. Louis', 'MO', 38.63, -90.2],
  ['Oklahoma City', 'OK', 35.47, -97.52], ['Tulsa', 'OK', 36.15, -95.99], ['New Orleans', 'LA', 29.95, -90.07], ['Baton Rouge', 'LA', 30.45, -91.15], ['Jackson', 'MS', 32.3, -90.18], ['Birmingham', 'AL', 33.52, -86.8], ['Mobile', 'AL', 30.69, -88.04],
  ['Charlotte', 'NC', 35.23, -80.84], ['Greensboro', 'NC', 36.07, -79.79], ['Raleigh', 'NC', 35.78, -78.64], ['Columbia', 'SC', 34.0, -81.03], ['Charleston', 'SC', 32.78, -79.93],
  ['Philadelphia', 'PA', 39.95, -75.17], ['Pittsburgh', 'PA', 40.44, -80.0], ['Harrisburg', 'PA', 40.27, -76.88], ['Baltimore', 'MD', 39.29, -76.61], ['Washington', 'DC', 38.91, -77.04],
  ['New York', 'NY', 40.71, -74.01], ['Brooklyn', 'NY', 40.68, -73.94], ['Buffalo', 'NY', 42.89, -78.88], ['Albany', 'NY', 42.65, -73.76], ['Syracuse', 'NY', 43.05, -76.15], ['Boston', 'MA', 42.36, -71.06], ['Hartford', 'CT', 41.76, -72.69], ['Providence', 'RI', 41.82, -71.41],
  ['Anchorage', 'AK', 61.22, -149.9], ['Fairbanks', 'AK', 64.84, -147.72], ['Honolulu', 'HI', 21.31, -157.86], ['San Juan', 'PR', 18.47, -66.11],
  ['Toronto', 'ON', 43.65, -79.38], ['Mississauga', 'ON', 43.59, -79.64], ['Etobicoke', 'ON', 43.65, -79.57], ['Ottawa', 'ON', 45.42, -75.69], ['London', 'ON', 42.98, -81.25],
  ['Montreal', 'QC', 45.5, -73.57], ['Mont-Royal', 'QC', 45.52, -73.65], ['Quebec', 'QC', 46.81, -71.21], ['Calgary', 'AB', 51.05, -114.07], ['Edmonton', 'AB', 53.55, -113.49],
  ['Vancouver', 'BC', 49.28, -123.12], ['Victoria', 'BC', 48.43, -123.37], ['Winnipeg', 'MB', 49.9, -97.14], ['Regina', 'SK', 50.45, -104.61], ['Saskatoon', 'SK', 52.13, -106.67], ['Halifax', 'NS', 44.65, -63.58],
];

const cityKey = (city: string, state: string) =>
  `${city
    .trim()
    .toUpperCase()
    .replace(/^ST\.? /, 'SAINT ')
    .replace(/\s+/g, ' ')}|${state.trim().toUpperCase()}`;

const CITIES: ReadonlyMap<string, { lat: number; lon: number }> = (() => {
  const m = new Map<string, { lat: number; lon: number }>();
  for (const [city, state, lat, lon] of CITY_ROWS) m.set(cityKey(city, state), { lat, lon });
  for (const t of TERMINALS) {
    const k = cityKey(t.TerminalMailingCity, t.TerminalMailingState);
    if (!m.has(k)) m.set(k, { lat: t.lat, lon: t.lon });
  }
  return m;
})();

/** A known city further than this from the ZIP's sectional center is not where the ZIP is. */
export const CITY_TOLERANCE_MILES = 150;

export interface AddressCheck {
  /** The ZIP's place; undefined when the ZIP is not a real code of the country (a problem says so). */
  readonly place?: Place;
  /** What makes the address unusable (a document refuses it; a lookup may warn). */
  readonly problems: readonly string[];
  /** What a carrier would only warn about. */
  readonly warnings: readonly string[];
}

/**
 * The ZIP against its country, and the State and City (when given) against the ZIP. `label`
 * names the address in the messages (`Consignee`, `Destination 2`).
 */
export function checkAddress(
  label: string,
  input: { zip: string; country: CountryIso3; state?: string; city?: string; zipField?: string; stateField?: string; cityField?: string },
): AddressCheck {
  const zipField = input.zipField ?? 'ZipCode';
  const place = placeOf(input.zip, input.country);
  if (!place) return { problems: [`${label} ${zipField} ${input.zip} is not a valid postal code for ${input.country}.`], warnings: [] };
  const problems: string[] = [];
  const warnings: string[] = [];
  const state = (input.state ?? '').trim().toUpperCase();
  if (state && state !== place.state) {
    problems.push(
      `${label} ${input.stateField ?? 'State'} ${input.state!.trim()} does not match ZIP ${input.zip} (${place.state}): the ZIP decides where the freight goes.`,
    );
  }
  const city = (input.city ?? '').trim();
  if (city) {
    const known = CITIES.get(cityKey(city, place.state));
    if (known && distanceMiles(known, place) > CITY_TOLERANCE_MILES) {
      warnings.push(`${label} ${input.cityField ?? 'City'} ${city} is not near ZIP ${input.zip} (${place.state}); the freight is routed by the ZIP.`);
    }
  }
  return { place, problems, warnings };
}
