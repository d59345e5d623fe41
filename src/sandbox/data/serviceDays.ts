/**
 * Standard service days of a lane: the one rule quotes, transit times, created bills of lading
 * and the seeded history all plan with, so a quote's ServiceDays and the trace agree.
 */
export interface LanePoint {
  /** State or province abbreviation. */
  readonly state: string;
  /** ISO3 country code. */
  readonly country: string;
}

const offshore = (p: LanePoint) => p.state === 'AK' || p.state === 'HI' || p.country === 'PRI' || p.country === 'VIR';

/** Days by distance, plus about a week for an ocean or barge leg (AK, HI, PR) and a day for customs at the border. */
export function standardServiceDays(miles: number, origin: LanePoint, destination: LanePoint): number {
  const base = miles <= 450 ? 1 : miles <= 900 ? 2 : miles <= 1400 ? 3 : miles <= 1900 ? 4 : miles <= 2500 ? 5 : 6;
  const crossBorder = (origin.country === 'CAN') !== (destination.country === 'CAN');
  return base + (offshore(origin) || offshore(destination) ? 5 : 0) + (crossBorder ? 1 : 0);
}
