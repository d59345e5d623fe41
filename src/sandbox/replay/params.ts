/**
 * A request's parameters as a flat list of leaves (`request.Items[0].Weight` → `1500`), so two
 * calls compare leaf by leaf and a difference can be named by its path. The walk keeps its own
 * stack: a recording is input from outside, and its nesting must not become the call stack's.
 */

/** Leaves a recording's parameters may have; the service's largest requests hold a few thousand. */
export const MAX_LEAVES = 100_000;

export class TooManyLeaves extends Error {}

/** Leaf path → the leaf's JSON text. Empty arrays and objects are leaves too, so `[]` differs from absent. */
export type Leaves = ReadonlyMap<string, string>;

const PLAIN = /^[^.[\]\s"*]+$/u;
const member = (parent: string, name: string) => (PLAIN.test(name) ? (parent ? `${parent}.${name}` : name) : `${parent}[${JSON.stringify(name)}]`);

/** The APIKey is never compared: a recording holds it masked, and a replay carries its own. */
export function leavesOf(params: unknown, ignore: IgnoreRules): Leaves {
  const out = new Map<string, string>();
  const stack: Array<[string, unknown]> = [['', params]];
  while (stack.length) {
    const [at, value] = stack.pop()!;
    if (at && ignore.ignores(at)) continue;
    if (Array.isArray(value) && value.length) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([`${at}[${i}]`, value[i]]);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, v] = entries[i]!;
        if (at === '' && name === 'APIKey') continue;
        stack.push([member(at, name), v]);
      }
    } else if (at) {
      out.set(at, JSON.stringify(value) ?? 'null');
      if (out.size > MAX_LEAVES) throw new TooManyLeaves(`more than ${MAX_LEAVES.toLocaleString('en-US')} parameter values`);
    }
  }
  return out;
}

/** One text for the leaves, the same for the same leaves in any order: the key a recording is found by. */
export function leavesKey(leaves: Leaves): string {
  return JSON.stringify([...leaves].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The paths whose values differ between two calls (present on one side only included), in path order. */
export function differingPaths(a: Leaves, b: Leaves): string[] {
  const out = new Set<string>();
  for (const [k, v] of a) if (b.get(k) !== v) out.add(k);
  for (const k of b.keys()) if (!a.has(k)) out.add(k);
  return [...out].sort();
}

/**
 * replay.json's `ignore`: paths of parameter names as request files write them. A pattern matches
 * where a path ends at a name boundary — `PickupDate` every PickupDate at any depth,
 * `Items[*].Weight` every item's Weight under `request` — and everything beneath what it matches;
 * `[*]` is any position, `*` any one name.
 */
export class IgnoreRules {
  static readonly NONE = new IgnoreRules([]);
  private readonly patterns: readonly RegExp[];

  constructor(readonly sources: readonly string[]) {
    this.patterns = sources.map(compile);
  }

  ignores(path: string): boolean {
    for (const p of this.patterns) if (p.test(path)) return true;
    return false;
  }
}

/** Why a pattern cannot be used, or undefined. */
export function ignoreProblem(pattern: string): string | undefined {
  if (!pattern.trim()) return 'is empty';
  if (pattern.length > 1_000) return 'is longer than 1,000 characters';
  if (!/^(?:[^.[\]\s]+|\[(?:\d+|\*)\])(?:\.[^.[\]\s]+|\[(?:\d+|\*)\])*$/u.test(pattern))
    return 'is not a path of names and [*] or [N] positions, such as "PickupDate" or "Items[*].Weight"';
  return undefined;
}

function compile(pattern: string): RegExp {
  let re = '';
  for (const m of pattern.matchAll(/\[(\d+|\*)\]|\.?([^.[\]]+)/gu)) {
    if (m[1] !== undefined) re += m[1] === '*' ? '\\[\\d+\\]' : `\\[${m[1]}\\]`;
    else re += `${re ? '\\.' : ''}${m[2] === '*' ? '[^.[\\]]+' : m[2]!.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}`;
  }
  // Starts at the path's start or after a dot (never inside a name), ends at a name's end.
  return new RegExp(`(?:^|\\.)${re}(?:$|[.[])`, 'u');
}
