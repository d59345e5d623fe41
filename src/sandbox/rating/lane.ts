/**
 * A lane between two ZIP or postal codes: where both ends are, the road miles, the terminals
 * that serve them and the standard service days. Rate quotes, transit times and bills of lading
 * all price and plan from this one place, so a quote's ServiceDays, a transit-time answer and
 * the trace of the shipment agree.
 */
import { distanceMiles, locate, normalizeCountry, type CountryIso3, type Place } from '../data/geography';
import { standardServiceDays } from '../data/serviceDays';
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

export function serviceDaysFor(miles: number, origin: LaneEnd, destination: LaneEnd): number {
  return standardServiceDays(miles, { state: origin.place.state, country: origin.country }, { state: destination.place.state, country: destination.country });
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
