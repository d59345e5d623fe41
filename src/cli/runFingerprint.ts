/**
 * What a `carrier run` ran, as its report.json records it (`run`, RunFingerprint in
 * src/core/runner/types.ts): the commit of the repository its tests live in, a short hash of the
 * operation catalog this carrier judges replies by, and the options that change what is run or
 * judged. `carrier report` (src/core/runner/merge.ts) compares them across the reports it merges:
 * shards of different runs do not add up to one.
 *
 * Nothing is spawned: the commit is read from `.git` (HEAD, then a loose ref or packed-refs),
 * else from a CI's variable in the environment the CLI was given.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { catalog, relativeTo, type RunFingerprint, type RunOptionsFingerprint } from '../core';

/** Variables in which CI services give the commit they build, asked in this order when `.git` does not answer. */
export const CI_COMMIT_VARIABLES = ['GITHUB_SHA', 'CI_COMMIT_SHA', 'BUILD_SOURCEVERSION', 'CIRCLE_SHA1', 'BITBUCKET_COMMIT', 'GIT_COMMIT'] as const;

/** A SHA-1 or SHA-256 object name. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** HEAD and a ref are a line; packed-refs of a large repository a few MB. Anything bigger is not git's. */
const MAX_GIT_FILE = 64 * 1024 * 1024;

/** A regular file's text; undefined when it is missing, not a file (a FIFO would block) or too big. */
function readSmall(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size <= MAX_GIT_FILE ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The git folder of the repository holding `start`: `.git`, or where a `.git` file (worktree, submodule) points. */
function gitDirFrom(start: string): string | undefined {
  let at = path.resolve(start);
  for (;;) {
    const dotGit = path.join(at, '.git');
    let stat: fs.Stats | undefined;
    // `start` may be a file (ENOTDIR below it) or a folder this user cannot read.
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const m = /^gitdir: (.+)$/m.exec(readSmall(dotGit) ?? '');
      return m ? path.resolve(at, m[1].trim()) : undefined;
    }
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/** The commit HEAD names in the repository holding `start`, when git's files say it plainly. */
export function repositoryCommit(start: string): string | undefined {
  const gitDir = gitDirFrom(start);
  if (!gitDir) return undefined;
  const head = readSmall(path.join(gitDir, 'HEAD'))?.trim();
  if (!head) return undefined;
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  // A ref is a name under refs/, never a way out of the git folder.
  if (!ref || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
  // A linked worktree keeps its branches in the main repository's git folder (its `commondir`).
  const common = readSmall(path.join(gitDir, 'commondir'))?.trim();
  const refsDir = common ? path.resolve(gitDir, common) : gitDir;
  for (const dir of new Set([gitDir, refsDir])) {
    const loose = readSmall(path.join(dir, ...ref.split('/')))?.trim();
    if (loose && COMMIT.test(loose)) return loose;
  }
  for (const line of (readSmall(path.join(refsDir, 'packed-refs')) ?? '').split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && COMMIT.test(sha)) return sha;
  }
  return undefined;
}

/** The repository's commit, else the first CI variable holding one. */
export function runCommit(start: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const found = repositoryCommit(start);
  if (found) return found;
  for (const name of CI_COMMIT_VARIABLES) {
    const value = env[name]?.trim().toLowerCase();
    if (value && COMMIT.test(value)) return value;
  }
  return undefined;
}

/** Documentation in the catalog changes nothing sent or judged. */
const PROSE = new Set(['doc', 'description', 'source']);

/** JSON with every object's keys sorted and prose left out: the same catalog always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => !PROSE.has(k) && (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

let catalogHash: string | undefined;

/** 16 hex digits of a SHA-256 over every operation shape, record and enumeration; computed once. */
export function catalogFingerprint(): string {
  // Code-unit order, not a locale's: every machine must sort alike.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byName = <T extends { readonly name: string }>(items: Iterable<T>) => [...items].sort((a, b) => order(a.name, b.name));
  catalogHash ??= createHash('sha256')
    .update(
      canonical({
        operations: [...catalog.operations].sort((a, b) => order(a.operation, b.operation) || order(a.version, b.version)),
        records: byName(catalog.records.values()),
        enumerations: byName(catalog.enumerations.values()),
      }),
    )
    .digest('hex')
    .slice(0, 16);
  return catalogHash;
}

/** The options of a run as `carrier run` read them (its RunSettings fit). */
export interface RunOptionsGiven {
  readonly environment?: string;
  readonly binding?: string;
  /** --data as given, relative to `cwd`. */
  readonly data?: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly strictContract?: boolean;
  readonly shard?: { readonly total: number };
}

export function runFingerprint(
  options: RunOptionsGiven,
  where: { readonly repository: string; readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> },
): RunFingerprint {
  const commit = runCommit(where.repository, where.env);
  const fingerprint: RunOptionsFingerprint = {
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
    ...(options.binding !== undefined ? { binding: options.binding } : {}),
    ...(options.data !== undefined ? { data: relativeTo(where.cwd)(path.resolve(where.cwd, options.data)) } : {}),
    // Names only: a value may be a secret, and a report must never hold one.
    variables: Object.keys(options.variables).sort(),
    strictContract: options.strictContract === true,
    shards: options.shard?.total ?? 1,
  };
  return { ...(commit ? { commit } : {}), catalog: catalogFingerprint(), options: fingerprint };
}
