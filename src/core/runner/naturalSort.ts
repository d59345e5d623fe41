/**
 * File-name order as people read it: `2-trace` before `10-documents`. Digit runs compare as
 * numbers, everything else case-insensitively; ties fall back to plain code-point order so the
 * result never depends on the platform's locale.
 */
const CHUNK = /(\d+)|(\D+)/g;

export function naturalCompare(a: string, b: string): number {
  const ca = a.match(CHUNK) ?? [];
  const cb = b.match(CHUNK) ?? [];
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i];
    const y = cb[i];
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = x.replace(/^0+(?=\d)/, '');
      const ny = y.replace(/^0+(?=\d)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      continue;
    }
    if (dx !== dy) return dx ? -1 : 1;
    const lx = x.toLowerCase();
    const ly = y.toLowerCase();
    if (lx !== ly) return lx < ly ? -1 : 1;
  }
  if (ca.length !== cb.length) return ca.length - cb.length;
  return a === b ? 0 : a < b ? -1 : 1;
}

export function naturalSort(names: readonly string[]): string[] {
  return [...names].sort(naturalCompare);
}
