/**
 * What a `carrier load` was as a whole, as its load-report.json records it (`run`,
 * LoadRunFingerprint in src/core/load/report.ts): the commit and catalog as runFingerprint.ts
 * records them for runs, the plan's files with a hash of their contents, and the whole load's
 * options — the same on every shard of one load, so `carrier report` (src/core/load/merge.ts)
 * knows a shard of another load when it meets one.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { relativeTo, type LoadRunFingerprint, type PlannedRun } from '../core';
import { catalogFingerprint, runCommit } from './runFingerprint';

/** The whole load's options as `carrier load` read them. */
export interface LoadOptionsGiven {
  readonly vus: number;
  readonly ratePerSecond?: number;
  readonly durationMs?: number;
  readonly iterations?: number;
  readonly rampMs: number;
  readonly thresholds: readonly string[];
  readonly environment?: string;
  /** --data as given, relative to `cwd`. */
  readonly data?: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly tags?: readonly string[];
  readonly strictContract: boolean;
  readonly shards: number;
}

/** The files a plan reads: its request files, its data files and its collections' collection.json, in plan order. */
export function planFiles(plan: PlannedRun): string[] {
  const files: string[] = [];
  const add = (f: string) => {
    if (!files.includes(f)) files.push(f);
  };
  for (const t of plan.tests) {
    const config = path.join(t.collection.folder, 'collection.json');
    if (fs.existsSync(config)) add(config);
    add(t.file);
  }
  for (const d of plan.dataFiles) add(d);
  return files;
}

export function loadFingerprint(
  plan: PlannedRun,
  options: LoadOptionsGiven,
  where: { readonly repository: string; readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> },
): LoadRunFingerprint {
  const rel = relativeTo(where.cwd);
  const files = planFiles(plan);
  const hash = createHash('sha256');
  for (const f of files) {
    // Name and length first: two files' contents can never run into each other.
    let body: Buffer;
    try {
      body = fs.readFileSync(f);
    } catch {
      body = Buffer.alloc(0);
    }
    hash.update(`${rel(f)}\0${body.length}\0`).update(body);
  }
  const commit = runCommit(where.repository, where.env);
  return {
    ...(commit ? { commit } : {}),
    catalog: catalogFingerprint(),
    files: files.map(rel),
    filesHash: hash.digest('hex').slice(0, 16),
    options: {
      vus: options.vus,
      ...(options.ratePerSecond !== undefined ? { ratePerSecond: options.ratePerSecond } : {}),
      ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
      ...(options.iterations !== undefined ? { iterations: options.iterations } : {}),
      rampMs: options.rampMs,
      thresholds: [...options.thresholds],
      ...(options.environment !== undefined ? { environment: options.environment } : {}),
      ...(options.data !== undefined ? { data: rel(path.resolve(where.cwd, options.data)) } : {}),
      // Names only: a value may be a secret, and a report must never hold one.
      variables: Object.keys(options.variables).sort(),
      ...(options.tags?.length ? { tags: [...options.tags] } : {}),
      strictContract: options.strictContract,
      shards: options.shards,
    },
  };
}
