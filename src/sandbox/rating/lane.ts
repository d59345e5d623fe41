/**
 * A lane between two ZIP or postal codes: where both ends are, the road miles, the terminals
 * that serve them and the standard service days. Rate quotes, transit times and bills of lading
 * all price and plan from this one place, so a quote's ServiceDays, a transit-time answer and
 * the trace of the shipment agree.
 */
import { distanceMiles, locate, normalizeCountry, type CountryIso3, type Place } from '../data/geography';
import { breakbulkFor, findTerminalsFor, type Terminal } from '../data/terminals';

export interface LaneEnd {
  readonly place: Place;
  readonly country: CountryIso3;
  readonly terminal: Terminal;
}

export interface Lane {
  readonly origin: LaneEnd;
  readonly destination: LaneEnd;
  readonly miles: number;
  readonly serviceDays: number;
  /** Terminals the freight passes, origin first. */
  readonly route: readonly Terminal[];
}

/** The end of a lane, or undefined when the code is not a real ZIP/postal code of that country. */
export function laneEnd(zip: string | undefined, country: string | undefined): LaneEnd | undefined {
  const iso = normalizeCountry(country);
  if (!iso || !zip) return undefined;
  const place = locate(zip, iso);
  const terminal = findTerminalsFor(zip, iso, 1)[0];
  return place && terminal ? { place, country: iso, terminal } : undefined;
}

const offshore = (e: LaneEnd) => e.place.state === 'AK' || e.place.state === 'HI' || e.place.country === 'PRI' || e.place.country === 'VIR';

/**
 * Standard service days by distance, plus about a week for an ocean or barge leg (AK, HI, PR)
 * and a day for customs across the border. The same rule the seeded history plans with.
 */
export function serviceDaysFor(miles: number, origin: LaneEnd, destination: LaneEnd): number {
  const base = miles <= 450 ? 1 : miles <= 900 ? 2 : miles <= 1400 ? 3 : miles <= 1900 ? 4 : miles <= 2500 ? 5 : 6;
  const crossBorder = (origin.country === 'CAN') !== (destination.country === 'CAN');
  return base + (offshore(origin) || offshore(destination) ? 5 : 0) + (crossBorder ? 1 : 0);
}

export function laneBetween(origin: LaneEnd, destination: LaneEnd): Lane {
  const miles = distanceMiles(origin.place, destination.place);
  const a = origin.terminal;
  const b = destination.terminal;
  // Short moves run direct; longer ones are sorted at the breakbulks on either end.
  const via = a === b || miles < 300 ? [] : [breakbulkFor(a), breakbulkFor(b)];
  const route: Terminal[] = [];
  for (const t of [a, ...via, b]) if (route[route.length - 1] !== t) route.push(t);
  return { origin, destination, miles, serviceDays: serviceDaysFor(miles, origin, destination), route };
}
