/**
 * The carrier clock: the sandbox's "now", which may run faster than real time so a shipment's
 * whole life (pickup, linehaul, delivery, paper) can be watched in minutes
 * (docs/sandbox-model.md#shipments-move-on-the-carrier-clock). It is a pure function of where it
 * started, its rate and the real time elapsed, so a test that hands in a fake real clock gets the
 * same readings, and so the same answers, every time.
 */

/** The most carrier time one real second may hold: a carrier day. Beyond it a poll would skip whole days. */
export const MAX_CLOCK_RATE = 86_400;

/** Why a rate is refused, in words for a flag or a setting; undefined when it is a usable rate. */
export function clockRateProblem(rate: number): string | undefined {
  if (!Number.isFinite(rate) || rate <= 0) return 'must be a positive number (1 is real time, 60 a carrier hour per real minute)';
  if (rate > MAX_CLOCK_RATE) return `must be at most ${MAX_CLOCK_RATE.toLocaleString('en-US')} (a carrier day per real second)`;
  return undefined;
}

/** The carrier instant `realElapsedMs` of real time after a start at `startMs`, at `rate` times real time. */
export function carrierInstant(startMs: number, rate: number, realElapsedMs: number): Date {
  return new Date(startMs + Math.round(rate * realElapsedMs));
}

export interface CarrierClockOptions {
  /** The real clock it runs from (read once now, as its start, and at every reading). */
  readonly real: () => Date;
  /** Carrier time per real time; 1 by default. */
  readonly rate?: number;
  /** The carrier clock's reading at start; the real clock's at start otherwise. */
  readonly start?: Date;
}

/** A carrier clock started now. At rate 1 from the real clock's own reading it is that clock itself. */
export function carrierClock(options: CarrierClockOptions): () => Date {
  const rate = options.rate ?? 1;
  const problem = clockRateProblem(rate);
  if (problem) throw new RangeError(`clock rate ${rate} ${problem}`);
  if (rate === 1 && !options.start) return options.real;
  const realStart = options.real().getTime();
  const startMs = options.start?.getTime() ?? realStart;
  return () => carrierInstant(startMs, rate, options.real().getTime() - realStart);
}
