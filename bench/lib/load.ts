/** Throughput: `total` calls with at most `concurrency` in flight, as calls per second. */
import { performance } from 'node:perf_hooks';

export async function throughput(total: number, concurrency: number, call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++;
      await call();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return total / ((performance.now() - t0) / 1000);
}
