/**
 * Runs two measurements alternately — A, B, A, B … — never all of one then all of the other, so
 * that a noisy neighbour, a CPU frequency change or a GC-heavy phase hits both sides alike. The
 * order within a pair flips each round so neither side always runs on the other's heels.
 */
import { pairedRatio, median } from './stats';

export interface Paired {
  readonly a: number[];
  readonly b: number[];
  readonly medianA: number;
  readonly medianB: number;
  /** median(a[i] / b[i]) */
  readonly ratio: number;
  readonly runs: number;
}

/** The interleaved runs' own samples, warm-up runs left out: for a side that measures more than one figure per run. */
export async function interleaveSamples<A, B>(runs: number, a: () => Promise<A> | A, b: () => Promise<B> | B, warmup = 1): Promise<{ a: A[]; b: B[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const as: A[] = [];
  const bs: B[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return { a: as, b: bs };
}

export function paired(a: number[], b: number[]): Paired {
  return { a, b, medianA: median(a), medianB: median(b), ratio: pairedRatio(a, b), runs: a.length };
}

export async function interleave(runs: number, a: () => Promise<number> | number, b: () => Promise<number> | number, warmup = 1): Promise<Paired> {
  const s = await interleaveSamples(runs, a, b, warmup);
  return paired(s.a, s.b);
}
