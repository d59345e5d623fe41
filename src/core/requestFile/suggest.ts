/**
 * "Did you mean …?" for names and values: an exact match ignoring case first, then a candidate
 * that contains the input (or the reverse), then the smallest edit distance within reason.
 */

export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  if (needle === '') return undefined;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const score = distanceScore(needle, candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore === Infinity ? undefined : best;
}

function distanceScore(needle: string, candidate: string): number {
  if (needle === candidate) return 0;
  // A fragment of the right word ("Liftgate" for "OriginLiftgate") beats a typo-near other word.
  if (needle.length >= 3 && (candidate.includes(needle) || needle.includes(candidate))) return 1 + Math.abs(candidate.length - needle.length) / 100;
  // A shared stem ("parameters" for "params") is a likelier slip than a nearby spelling.
  const stem = commonPrefix(needle, candidate);
  if (stem >= 4 && stem * 2 >= Math.min(needle.length, candidate.length)) return 1.5 + Math.abs(candidate.length - needle.length) / 100;
  const d = levenshtein(needle, candidate);
  const allowed = Math.max(2, Math.floor(Math.max(needle.length, candidate.length) / 3));
  return d <= allowed ? 2 + d : Infinity;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** `— did you mean "X"?`, or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
}
