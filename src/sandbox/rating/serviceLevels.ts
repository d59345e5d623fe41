/**
 * The service levels a lane offers, with their days and price on top of standard service
 * (codes and titles from service-facts §6.4). Rate quotes and transit times both list them from
 * here, so the two answers agree.
 */
import type { Lane, LaneEnd } from './lane';

export interface ServiceLevelOffer {
  readonly code: 'STD' | 'GSDS' | 'GSAM' | 'GSHW' | 'EXPD';
  readonly title: string;
  readonly serviceDays: number;
  /** Added to the standard net charge, percent. */
  readonly surchargePercent: number;
  /** Delivery window, for the hourly-window guarantee. */
  readonly hourlyWindow?: { readonly Start: string; readonly End: string };
}

/** Guarantees and expedited trucks run only where the carrier's own linehaul does. */
const contiguous = (e: LaneEnd) => e.country === 'USA' && e.place.country === 'USA' && e.place.state !== 'AK' && e.place.state !== 'HI';

export function serviceLevelsFor(lane: Lane): ServiceLevelOffer[] {
  const days = lane.serviceDays;
  const offers: ServiceLevelOffer[] = [{ code: 'STD', title: 'Standard Service', serviceDays: days, surchargePercent: 0 }];
  if (contiguous(lane.origin) && contiguous(lane.destination)) {
    offers.push(
      { code: 'GSDS', title: 'Guaranteed Service', serviceDays: days, surchargePercent: 18 },
      { code: 'GSAM', title: 'Guaranteed AM Service', serviceDays: days, surchargePercent: 28 },
      { code: 'GSHW', title: 'Guaranteed HW Service', serviceDays: days, surchargePercent: 35, hourlyWindow: { Start: '01:00 PM', End: '03:00 PM' } },
      // Team drivers run straight through: about half the standard days.
      { code: 'EXPD', title: 'Expedited Service', serviceDays: Math.max(1, Math.ceil(days / 2)), surchargePercent: 65 },
    );
  }
  return offers;
}
