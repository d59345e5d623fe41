/**
 * A small seeded PRNG (mulberry32) so the sandbox's sample data is the same on every run and
 * every machine: tests and request files can name a PRO and get the same shipment back.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Integer in [min, max]. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** Digits only, fixed width: reference numbers keep their leading zeros. */
export function digits(random: Random, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) out += String(Math.floor(random() * 10));
  return out;
}
