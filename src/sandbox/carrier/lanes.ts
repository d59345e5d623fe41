/**
 * A lane between two ZIP or postal codes: where both ends are, the terminals that serve them,
 * the road miles, the terminals the freight passes and the standard service days. Every answer
 * that depends on a lane (a quote's price and days, a transit time, a bill of lading's plan, a
 * trace) asks here, so none can route or count differently from another.
 */
import { breakbulkFor, findTerminalsFor, type Terminal } from './terminals';
import { distanceMiles, locate, type CountryIso3, type Place } from './geography';

export interface LaneEnd {
  readonly place: Place;
  /** The country code the request named (a Puerto Rico ZIP may be sent with USA). */
  readonly country: CountryIso3;
  /** The terminal that picks up or delivers there. */
  readonly terminal: Terminal;
}

export interface Lane {
  readonly origin: LaneEnd;
  readonly destination: LaneEnd;
  readonly miles: number;
  /** Terminals the freight passes, origin first, destination last (one when both ends share it). */
  readonly route: readonly Terminal[];
  /** Business days of standard service. */
  readonly standardDays: number;
  /** Both ends on the carrier's own linehaul (the contiguous US): where guarantees and expedited trucks run. */
  readonly contiguous: boolean;
}

/** The end of a lane, or undefined when the code is not a real ZIP or postal code of that country. */
export function laneEnd(zip: string | undefined, country: CountryIso3 | undefined): LaneEnd | undefined {
  if (!country || !zip) return undefined;
  const place = locate(zip, country);
  const terminal = findTerminalsFor(zip, country, 1)[0];
  return place && terminal ? { place, country, terminal } : undefined;
}

const offshore = (p: Place) => p.state === 'AK' || p.state === 'HI' || p.country === 'PRI' || p.country === 'VIR';
const contiguousUs = (e: LaneEnd) => e.country === 'USA' && e.place.country === 'USA' && !offshore(e.place);

/** Days by distance, plus about a week for an ocean or barge leg (AK, HI, PR) and a day for customs at the border. */
export function standardServiceDays(miles: number, origin: Place, destination: Place): number {
  const base = miles <= 450 ? 1 : miles <= 900 ? 2 : miles <= 1400 ? 3 : miles <= 1900 ? 4 : miles <= 2500 ? 5 : 6;
  const crossBorder = (origin.country === 'CAN') !== (destination.country === 'CAN');
  return base + (offshore(origin) || offshore(destination) ? 5 : 0) + (crossBorder ? 1 : 0);
}

function routeLength(list: readonly Terminal[]): number {
  let sum = 0;
  for (let i = 1; i < list.length; i++) sum += distanceMiles(list[i - 1]!, list[i]!);
  return sum;
}

/**
 * Short moves run direct; longer ones are sorted at breakbulks, but only where that is on the
 * way: a breakbulk that adds more than a quarter to the trip is skipped, as a linehaul plan would.
 */
function routeBetween(a: Terminal, b: Terminal, miles: number): Terminal[] {
  if (a === b) return [a];
  const direct = [a, b];
  if (miles < 300) return direct;
  const dedupe = (list: Terminal[]): Terminal[] => list.filter((t, i) => i === 0 || list[i - 1] !== t);
  const candidates = [dedupe([a, breakbulkFor(a), breakbulkFor(b), b]), dedupe([a, breakbulkFor(a), b]), dedupe([a, breakbulkFor(b), b])];
  return candidates.find((c) => routeLength(c) <= routeLength(direct) * 1.25) ?? direct;
}

export function laneBetween(origin: LaneEnd, destination: LaneEnd): Lane {
  const miles = distanceMiles(origin.place, destination.place);
  return {
    origin,
    destination,
    miles,
    route: routeBetween(origin.terminal, destination.terminal, miles),
    standardDays: standardServiceDays(miles, origin.place, destination.place),
    contiguous: contiguousUs(origin) && contiguousUs(destination),
  };
}
