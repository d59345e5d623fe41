/**
 * The two sides the lean dispatcher's tests send through (lean-dispatcher*.test.ts): undici's
 * pool and the lean one, each its own NodeDispatchers with its socket timings, and sendHttp's
 * options for either.
 */
import type { HttpSendOptions } from '../../src/core/transport';
import { NodeDispatchers } from '../../src/host';

export const SIDES = ['undici', 'lean'] as const;
export type Side = (typeof SIDES)[number];

export function transports(timeoutMs = 5000) {
  const pools = { undici: new NodeDispatchers({ lean: false }), lean: new NodeDispatchers() };
  const options = (side: Side, extra: Partial<HttpSendOptions> = {}): HttpSendOptions => ({
    dispatcher: pools[side].dispatcherFor({ connectTimeoutMs: 5000 }),
    expectSocket: (waiter) => pools[side].expectSocket(waiter),
    timeoutMs,
    connectTimeoutMs: 5000,
    maxReplyBytes: 1 << 20,
    ...extra,
  });
  return { pools, options, close: () => Promise.all([pools.undici.close(), pools.lean.close()]) };
}
