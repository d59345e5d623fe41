/**
 * A pickup's own life on the carrier clock: pending from the request until the terminal
 * dispatches a driver, dispatched until the driver has the freight, then picked up. The pickup
 * reply's TaskStatus and the trace of the bill of lading it collects (its DS and PU events) are
 * both read from these times, so they never contradict each other.
 */

/** The pickup result's TaskStatus values (the contract leaves them open: docs/carrier-facts.md#pickup-requests). */
export type PickupTaskStatus = 'Pending' | 'Dispatched' | 'Picked Up';

/** A request reaches the terminal's dispatch board and is assigned to a route in about a quarter hour. */
export const DISPATCH_AFTER_REQUEST_MINUTES = 15;
/** A driver is sent from the route about 45 minutes before reaching the dock. */
export const DISPATCH_BEFORE_PICKUP_MINUTES = 45;

const MINUTE = 60_000;

export interface PickupTimes {
  readonly requestedAt: Date;
  readonly dispatchedAt: Date;
  readonly pickupAt: Date;
}

/** When the driver is dispatched for a pickup requested at `requestedAt` and planned for `pickupAt`. */
export function pickupTimes(requestedAt: Date, pickupAt: Date): PickupTimes {
  const dispatched = Math.max(requestedAt.getTime() + DISPATCH_AFTER_REQUEST_MINUTES * MINUTE, pickupAt.getTime() - DISPATCH_BEFORE_PICKUP_MINUTES * MINUTE);
  // A pickup planned sooner than the usual lead still has its driver sent before it is made.
  return { requestedAt, dispatchedAt: new Date(Math.min(dispatched, pickupAt.getTime())), pickupAt };
}

export function pickupStatusAt(times: PickupTimes, now: Date): PickupTaskStatus {
  const t = now.getTime();
  if (t >= times.pickupAt.getTime()) return 'Picked Up';
  if (t >= times.dispatchedAt.getTime()) return 'Dispatched';
  return 'Pending';
}
