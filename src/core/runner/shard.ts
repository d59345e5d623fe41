/**
 * `--shard i/n`: the part of a run one of n CI machines runs, so that together they run every
 * test exactly once. Every machine plans the same run (the same files give the same plan), cuts
 * it into units the same way and deals the units out the same way, so no machine needs to hear
 * from another.
 *
 * A unit is what must run in one process: a chain of tests that use each other's captures (row
 * by row in a data-driven collection, so its rows spread over the shards) and everything under a
 * collection whose order matters (collection.json `order` or `"keepTogether": true`). Units are
 * dealt largest first to the shard with the least so far (by test count, or by the durations of
 * an earlier report), which keeps shards within one unit of each other.
 */
import type { PlannedRun } from './plan';
import type { PlannedTest, ShardInfo } from './types';

export interface ShardSpec {
  readonly index: number;
  readonly total: number;
}

/** `2/4` → { index: 2, total: 4 }; a string says what is wrong. */
export function parseShard(text: string): ShardSpec | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return `--shard needs i/n (for example 2/4), not "${text}"`;
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || index < 1 || index > total) return `--shard ${text}: i must be from 1 to n, and n at least 1`;
  return { index, total };
}

/** The units of a plan, each in plan order, the units ordered by their first test. */
export function shardUnits(tests: readonly PlannedTest[]): PlannedTest[][] {
  const parent = tests.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root];
    // Path compression keeps the next finds short.
    while (parent[i] !== root) {
      const next = parent[i];
      parent[i] = root;
      i = next;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const index = new Map(tests.map((t, i) => [t.id, i]));
  const together = new Map<string, number>();
  tests.forEach((t, i) => {
    for (const d of t.dependsOn) {
      const j = index.get(d);
      if (j !== undefined) union(i, j);
    }
    const group = t.collection.together;
    if (group !== undefined) {
      const first = together.get(group);
      if (first === undefined) together.set(group, i);
      else union(i, first);
    }
  });
  const units = new Map<number, PlannedTest[]>();
  tests.forEach((t, i) => {
    const root = find(i);
    const unit = units.get(root);
    if (unit) unit.push(t);
    else units.set(root, [t]);
  });
  return [...units.values()];
}

export interface ShardOptions {
  /** A test's expected duration in ms (from an earlier report); undefined: not known. */
  readonly duration?: (test: PlannedTest) => number | undefined;
}

/** Which shard (0-based) each unit goes to: largest first, to the least loaded, ties to the lowest index. */
export function dealUnits(weights: readonly number[], total: number): number[] {
  const order = weights.map((w, i) => ({ w, i })).sort((a, b) => b.w - a.w || a.i - b.i);
  const load = new Array<number>(total).fill(0);
  const shardOf = new Array<number>(weights.length);
  for (const { w, i } of order) {
    let best = 0;
    for (let s = 1; s < total; s++) if (load[s] < load[best]) best = s;
    load[best] += w;
    shardOf[i] = best;
  }
  return shardOf;
}

/** The weight of each test: its earlier duration, else the mean of the known ones, never below 1 ms. */
function weigher(tests: readonly PlannedTest[], options: ShardOptions): (t: PlannedTest) => number {
  if (!options.duration) return () => 1;
  const known = new Map<string, number>();
  for (const t of tests) {
    const d = options.duration(t);
    if (d !== undefined && Number.isFinite(d) && d > 0) known.set(t.id, d);
  }
  const mean = known.size ? [...known.values()].reduce((a, b) => a + b, 0) / known.size : 1;
  return (t) => Math.max(1, known.get(t.id) ?? mean);
}

export interface ShardedRun {
  readonly plan: PlannedRun;
  readonly info: ShardInfo;
  /** Units in the whole run, and in this shard. */
  readonly units: number;
  readonly unitsHere: number;
}

export function shardPlan(plan: PlannedRun, spec: ShardSpec, options: ShardOptions = {}): ShardedRun {
  const units = shardUnits(plan.tests);
  const weight = weigher(plan.tests, options);
  const shardOf = dealUnits(
    units.map((u) => u.reduce((sum, t) => sum + weight(t), 0)),
    spec.total,
  );
  const keep = new Set<string>();
  let unitsHere = 0;
  units.forEach((u, i) => {
    if (shardOf[i] !== spec.index - 1) return;
    unitsHere++;
    for (const t of u) keep.add(t.id);
  });
  return {
    plan: { ...plan, tests: plan.tests.filter((t) => keep.has(t.id)) },
    info: { index: spec.index, total: spec.total, tests: plan.tests.length },
    units: units.length,
    unitsHere,
  };
}
