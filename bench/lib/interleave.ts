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

export async function interleave(runs: number, a: () => Promise<number> | number, b: () => Promise<number> | number, warmup = 1): Promise<Paired> {
  for (let i = 0; i < warmup; i++) { await a(); await b(); }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) { as.push(await a()); bs.push(await b()); }
    else { bs.push(await b()); as.push(await a()); }
  }
  return { a: as, b: bs, medianA: median(as), medianB: median(bs), ratio: pairedRatio(as, bs), runs };
}
