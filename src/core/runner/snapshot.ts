/**
 * Reply snapshots (docs/collections.md#snapshots): a reply kept beside its request file in
 * `__snapshots__/`, one `path = value` line per value of the parsed reply, and later replies held
 * against it path by path. The parsed reply (read along the catalog, src/core/reply/parse.ts) is
 * the input, so namespace prefixes and the XML's whitespace never show; a reply in another
 * namespace is a contract error whatever the snapshot says (docs/collections.md#contract-findings).
 *
 * Volatile values are masked along the catalog: dateTime fields and the string fields it gives a
 * date or time format, the fields named in VOLATILE_FIELDS, and documents (kept as their type and
 * page count). A file's `snapshot.ignore` masks more. Files are read and written only through the
 * context's `files` (src/core/context.ts).
 */
import * as path from 'node:path';
import { findShape, getRecord } from '../catalog';
import type { FieldDef, RecordDef } from '../catalog/types';
import type { CoreFiles } from '../context';
import type { DecodedDocument, Exchange } from '../exchange';
import { isObject } from '../objects';
import type { ReplyPath } from './replyPath';
import type { Failure, PlannedTest, SnapshotOutcome, SnapshotStatus, SourceLocation } from './types';

/**
 * Fields whose values change from one reply to the next for the same request: the numbers the
 * carrier hands out (PRO, bill of lading, quote, pickup). The one list; dates and times are
 * found by their catalog type or format instead (maskOf).
 */
export const VOLATILE_FIELDS: ReadonlySet<string> = new Set([
  'WebProNumber',
  'ProNumber',
  'BolID',
  'BolNumber',
  'QuoteNumber',
  'ExpeditedQuoteNumber',
  'PickupRequestID',
  'PickupRequestNumber',
  'ShipmentNumber',
  'PickupDate',
  'ReadyTime',
  'CloseTime',
]);

/** A file's `snapshot`, compiled (compileExpect.ts compileSnapshot). */
export interface CompiledSnapshot {
  /** `"snapshot": false`: never snapshotted, not even under --update-snapshots. */
  readonly off?: boolean;
  readonly ignore: readonly ReplyPath[];
  /** The `snapshot` key: where its failures point. */
  readonly location: SourceLocation;
}

/** What the run does with snapshots (`carrier run --update-snapshots`, `--ci`). */
export interface SnapshotOptions {
  readonly files: Pick<CoreFiles, 'exists' | 'list' | 'readBounded' | 'writeTextAtomically'>;
  /** Write every test's reply as its snapshot (differences are accepted, not failed). */
  readonly update?: boolean;
  /** A missing snapshot fails rather than being written. */
  readonly ci?: boolean;
}

/** What judging a snapshot needs: where it lives, the run's options and the file's own `snapshot`. */
export interface SnapshotInput extends SnapshotOptions {
  readonly file: string;
  /** The first line of the snapshot: what it is of. */
  readonly title: string;
  readonly compiled?: CompiledSnapshot;
  /** Where failures point when the file has no `snapshot` key. */
  readonly fileLocation?: SourceLocation;
  /** The run's `run.*` values: written in the snapshot as their names. */
  readonly runValues?: RunValues;
}

/** Snapshots are small; a larger file is not one of ours. */
const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;
/** Differences said one by one; past this they are counted. */
const MAX_DIFFERENCES = 20;
const SEP = ' = ';

/** `__snapshots__/<request file>.<binding>[.row-N].snap`, beside the request file. */
export function snapshotFileOf(test: PlannedTest, binding: string): string {
  const row = test.row ? `.row-${test.row.index}` : '';
  return path.join(path.dirname(test.file), '__snapshots__', `${path.basename(test.file)}.${binding}${row}.snap`);
}

/**
 * The snapshot files of each `__snapshots__` folder a run has looked in, by run (its options):
 * one listing per folder rather than a look for each test's file, which a run of thousands of
 * tests without snapshots would otherwise pay on every one.
 */
const keptByRun = new WeakMap<SnapshotOptions, Map<string, ReadonlySet<string>>>();

/** The snapshot files kept beside request files of `dir` (its `__snapshots__` folder), listed once a run. */
function keptBeside(options: SnapshotOptions, dir: string): ReadonlySet<string> {
  let folders = keptByRun.get(options);
  if (!folders) keptByRun.set(options, (folders = new Map()));
  let names = folders.get(dir);
  if (!names) {
    let listed: ReadonlySet<string> = new Set();
    const folder = path.join(dir, '__snapshots__');
    try {
      if (options.files.exists(folder)) listed = new Set(options.files.list(folder).map((e) => e.name));
    } catch {
      // A folder that cannot be read holds no snapshot this run can compare with.
    }
    folders.set(dir, (names = listed));
  }
  return names;
}

/**
 * The test's snapshot file when it is held to one in this run — its file asks, the run updates, or
 * one is kept — else undefined; in a folder with no snapshots, without making a path.
 */
export function wantedSnapshotFile(options: SnapshotOptions, compiled: CompiledSnapshot | undefined, test: PlannedTest, binding: string): string | undefined {
  if (compiled?.off) return undefined;
  if (options.update !== true && compiled === undefined) {
    const kept = keptBeside(options, path.dirname(test.file));
    if (!kept.size) return undefined;
    const file = snapshotFileOf(test, binding);
    return kept.has(path.basename(file)) ? file : undefined;
  }
  return snapshotFileOf(test, binding);
}

const HEADER = [
  '# One line per value of the reply: path = value (JSON). Masked: <dateTime>, <date>, <time> and <volatile> by the catalog,',
  '# <ignored> by the file\'s "snapshot": { "ignore": [...] }, documents as their type and pages, the run\'s own values as {{run.id}}.',
  '# Accept a changed reply with: carrier run --update-snapshots',
];

/** The snapshot text of a reply: a title, the header, then one line per value. */
export function snapshotText(exchange: Exchange, title: string, ignore: readonly ReplyPath[] = [], runValues?: RunValues): string | undefined {
  const lines = snapshotLines(exchange, ignore, runValues);
  if (!lines) return undefined;
  return [`# Carrier snapshot: ${title}`, ...HEADER, ...lines.map(([p, v]) => `${p}${SEP}${v}`), ''].join('\n');
}

/** The run's own values by name (`run.id` → `37c5c736`, runVariables.ts): what a request made from them differs on every run. */
export type RunValues = Readonly<Record<string, string>>;

/** Run values too short to stand for themselves (a one-digit day) would mask ordinary text. */
const MIN_RUN_VALUE = 6;

/** The run values worth looking for, longest first (a timestamp before the date inside it). */
function runValueMasks(values: RunValues | undefined): Array<[string, string]> {
  if (!values) return [];
  return Object.entries(values)
    .filter(([, v]) => v.length >= MIN_RUN_VALUE)
    .sort((a, b) => b[1].length - a[1].length)
    .map(([name, v]) => [v, `{{${name}}}`]);
}

/**
 * A reply's text with each run value the request put in it written as its variable: a bill of
 * lading echoes `PO-{{run.id}}`, a new value on every run, and the snapshot keeps what it means.
 */
function withRunNames(text: string, named: ReadonlyArray<[string, string]>): string {
  let out = text;
  for (const [value, name] of named) if (out.includes(value)) out = out.split(value).join(name);
  return out;
}

/** An ignore path as a pattern over concrete paths: names literal, [*] and [?] any index. */
function ignorePattern(p: ReplyPath): RegExp {
  let source = '';
  for (const step of p.steps) {
    if (step.kind === 'key') source += `${source ? '\\.' : ''}${step.name.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}`;
    else if (step.kind === 'index') source += `\\[${step.index}\\]`;
    else source += '\\[\\d+\\]';
  }
  return new RegExp(`^${source}$`);
}

const join = (at: string, name: string) => (at ? `${at}.${name}` : name);

/** Why a value is masked by the catalog; undefined when it is kept. */
function maskOf(name: string, field: FieldDef | undefined): string | undefined {
  if (field?.type === 'dateTime') return '<dateTime>';
  if (field?.format === 'MM/DD/YYYY') return '<date>';
  if (field?.format === 'hh:mm AM/PM') return '<time>';
  if (VOLATILE_FIELDS.has(name)) return '<volatile>';
  return undefined;
}

function documentText(doc: DecodedDocument | undefined): string {
  if (!doc) return '<document: not decoded>';
  const type = doc.mediaType === 'application/pdf' ? 'pdf' : 'binary';
  if (doc.inspected === false) return `<document: ${type}, not inspected>`;
  return `<document: ${type}${doc.pages !== undefined ? `, ${doc.pages} page${doc.pages === 1 ? '' : 's'}` : ''}>`;
}

interface Visit {
  readonly value: unknown;
  readonly at: string;
  readonly name: string;
  readonly field?: FieldDef;
  /** The record the value is read as; undefined where the catalog does not describe it. */
  readonly record?: RecordDef;
  /** An item of a list field (its own path ends in [i]). */
  readonly item?: boolean;
}

/**
 * The reply's values as `[path, value]`, in reply order (catalog order within a record), walked
 * with a stack: a reply can be deep. Undefined when the reply was not read.
 */
export function snapshotLines(exchange: Exchange, ignore: readonly ReplyPath[] = [], runValues?: RunValues): Array<[string, string]> | undefined {
  const named = runValueMasks(runValues);
  if (exchange.parsed === undefined || !exchange.operation) return undefined;
  const shape = findShape(exchange.operation, exchange.version);
  const ignored = ignore.map(ignorePattern);
  const documents = new Map(exchange.documents.map((d) => [d.path, d]));
  const out: Array<[string, string]> = [];
  const stack: Visit[] = [{ value: exchange.parsed, at: '', name: '', ...(shape ? { record: getRecord(shape.result) } : {}) }];
  while (stack.length) {
    const v = stack.pop()!;
    const { value, at } = v;
    if (at && ignored.some((r) => r.test(at))) {
      out.push([at, '<ignored>']);
      continue;
    }
    // A list's items share its field; its own name masks them all.
    const mask = value === null || value === undefined ? undefined : maskOf(v.name, v.field?.record ? undefined : v.field);
    if (v.field?.document && typeof value === 'string') {
      out.push([at, documentText(documents.get(at))]);
      continue;
    }
    if (Array.isArray(value)) {
      out.push([at || '$', `[${value.length} item${value.length === 1 ? '' : 's'}]`]);
      const next: Visit[] = value.map((item, i) => ({
        value: item,
        at: `${at}[${i}]`,
        name: v.name,
        ...(v.field ? { field: v.field } : {}),
        ...(v.record ? { record: v.record } : {}),
        item: true,
      }));
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
      continue;
    }
    if (isObject(value)) {
      const keys = Object.keys(value);
      if (!keys.length) {
        out.push([at || '$', '{}']);
        continue;
      }
      const record = v.record;
      const known = record && !record.open ? record.fields : [];
      const ordered = [...known.filter((f) => f.name in value).map((f) => f.name), ...keys.filter((k) => !known.some((f) => f.name === k))];
      const next: Visit[] = ordered.map((k) => {
        const field = known.find((f) => f.name === k);
        const inner = field?.record ? getRecord(field.record) : undefined;
        return { value: value[k], at: join(at, k), name: k, ...(field ? { field } : {}), ...(inner ? { record: inner } : {}) };
      });
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
      continue;
    }
    if (mask) out.push([at, mask]);
    else if (typeof value === 'string' && named.length) out.push([at || '$', JSON.stringify(withRunNames(value, named))]);
    else out.push([at || '$', value === null || value === undefined ? 'nil' : JSON.stringify(value)]);
  }
  return out;
}

/** A snapshot's lines, the header and blank lines left out. */
export function readSnapshotLines(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const at = line.indexOf(SEP);
    out.push(at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + SEP.length)]);
  }
  return out;
}

/** Every node of a side: each path and each of its prefixes (at `.` and `[`). */
function nodesOf(entries: ReadonlyMap<string, string>): Set<string> {
  const nodes = new Set<string>();
  for (const p of entries.keys()) {
    nodes.add(p);
    for (let i = 1; i < p.length; i++) if (p[i] === '.' || p[i] === '[') nodes.add(p.slice(0, i));
  }
  return nodes;
}

/** The shortest prefix of `p` (at `.` or `[`) the other side lacks: where a whole added or removed part is said once. */
function topAbsent(p: string, other: ReadonlySet<string>): string {
  for (let i = 1; i < p.length; i++) if ((p[i] === '.' || p[i] === '[') && !other.has(p.slice(0, i))) return p.slice(0, i);
  return p;
}

/** Each list item's lines as one text, by the item's path (`Result.ServiceLevels[2]`). */
function itemTexts(entries: ReadonlyMap<string, string>): Map<string, string[]> {
  const items = new Map<string, string[]>();
  for (const [p, value] of entries) {
    for (let i = p.indexOf('['); i >= 0; i = p.indexOf('[', i + 1)) {
      const end = p.indexOf(']', i);
      if (end < 0) break;
      const item = p.slice(0, end + 1);
      let list = items.get(item);
      if (!list) items.set(item, (list = []));
      list.push(`${p.slice(end + 1)}${SEP}${value}`);
    }
  }
  return items;
}

const COUNT = /^\[(\d+) items?\]$/;

/** The differences of a reply from its snapshot, by reply path: changed, added, removed, reordered. */
export function snapshotDifferences(snapshot: ReadonlyArray<[string, string]>, reply: ReadonlyArray<[string, string]>, location?: SourceLocation): Failure[] {
  const before = new Map(snapshot);
  const after = new Map(reply);
  const failures: Failure[] = [];
  const at = location ? { location } : {};
  // Lists holding the same items in another order: said once, their insides not compared line by line.
  const reordered: string[] = [];
  const itemsBefore = itemTexts(before);
  const itemsAfter = itemTexts(after);
  const lists = [...before].filter(([p, v]) => COUNT.test(v) && after.get(p) === v).map(([p]) => p);
  lists.sort((a, b) => a.length - b.length);
  const under = (p: string) => reordered.some((l) => p.startsWith(`${l}[`));
  for (const list of lists) {
    if (under(list)) continue;
    const n = Number(COUNT.exec(before.get(list)!)![1]);
    const prefix = list === '$' ? '' : list;
    const a: string[] = [];
    const b: string[] = [];
    for (let i = 0; i < n; i++) {
      a.push((itemsBefore.get(`${prefix}[${i}]`) ?? []).join('\n'));
      b.push((itemsAfter.get(`${prefix}[${i}]`) ?? []).join('\n'));
    }
    if (a.every((t, i) => t === b[i])) continue;
    if ([...a].sort().join('\0') !== [...b].sort().join('\0')) continue;
    const moves = a.map((t, i) => [i, b.indexOf(t)] as const).filter(([i, j]) => i !== j);
    reordered.push(prefix);
    failures.push({
      kind: 'snapshot',
      message: `${list}: the same ${n} items in another order (${moves
        .slice(0, 3)
        .map(([i, j]) => `snapshot item ${i} is reply item ${j}`)
        .join(', ')}${moves.length > 3 ? ', …' : ''})`,
      path: list,
      expected: 'the snapshot order',
      actual: `items moved: ${moves.map(([i, j]) => `${i}→${j}`).join(', ')}`,
      ...at,
    });
  }
  const nodesBefore = nodesOf(before);
  const nodesAfter = nodesOf(after);
  const said = new Set<string>();
  for (const [p, value] of before) {
    if (under(p)) continue;
    const now = after.get(p);
    if (now === undefined) {
      const top = topAbsent(p, nodesAfter);
      if (said.has(top)) continue;
      said.add(top);
      failures.push({
        kind: 'snapshot',
        message: top === p ? `${p}: in the snapshot (${value}), not in the reply` : `${top}: in the snapshot, not in the reply`,
        path: top,
        expected: top === p ? value : 'present',
        actual: 'absent',
        ...at,
      });
    } else if (now !== value) {
      const count = COUNT.exec(value);
      const nowCount = COUNT.exec(now);
      failures.push({
        kind: 'snapshot',
        message: count && nowCount ? `${p}: snapshot ${count[1]} items, reply ${nowCount[1]}` : `${p}: snapshot ${value}, reply ${now}`,
        path: p,
        expected: value,
        actual: now,
        expectedValue: value,
        ...at,
      });
    }
  }
  for (const [p, value] of after) {
    if (before.has(p) || under(p)) continue;
    const top = topAbsent(p, nodesBefore);
    if (said.has(`+${top}`)) continue;
    said.add(`+${top}`);
    failures.push({
      kind: 'snapshot',
      message: top === p ? `${p}: in the reply (${value}), not in the snapshot` : `${top}: in the reply, not in the snapshot`,
      path: top,
      expected: 'absent',
      actual: top === p ? value : 'present',
      ...at,
    });
  }
  if (failures.length <= MAX_DIFFERENCES) return failures;
  const more = failures.length - MAX_DIFFERENCES;
  return [
    ...failures.slice(0, MAX_DIFFERENCES),
    { kind: 'snapshot', message: `…and ${more} more difference${more === 1 ? '' : 's'} from the snapshot`, ...at },
  ];
}

function readSnapshot(input: SnapshotInput): string | undefined {
  if (!input.files.exists(input.file)) return undefined;
  const read = input.files.readBounded(input.file, MAX_SNAPSHOT_BYTES);
  if (read.refused) throw new Error(read.refused === 'too-large' ? `is ${read.size} bytes, more than a snapshot holds` : 'is not a file');
  return new TextDecoder().decode(read.bytes);
}

/**
 * A test's reply against its snapshot: the differences as `snapshot` failures, or the snapshot
 * written (missing, or --update-snapshots) when nothing else failed. `failed`: the test's other
 * failures — a reply that failed them is not worth keeping as what is right.
 */
export function judgeSnapshot(exchange: Exchange, input: SnapshotInput, failed: boolean): { failures: Failure[]; outcome?: SnapshotOutcome } {
  const ignore = input.compiled?.ignore ?? [];
  const location = input.compiled?.location ?? input.fileLocation;
  const at = location ? { location } : {};
  const text = snapshotText(exchange, input.title, ignore, input.runValues);
  if (text === undefined) return { failures: [] };
  let kept: string | undefined;
  try {
    kept = readSnapshot(input);
  } catch (e) {
    return { failures: [{ kind: 'snapshot', message: `snapshot ${input.file} cannot be read: ${(e as Error).message}`, ...at }] };
  }
  const outcome = (status: SnapshotStatus): SnapshotOutcome => ({ file: input.file, status });
  if (kept === text) return { failures: [], outcome: outcome('matched') };
  if (kept === undefined && input.ci && !input.update) {
    return {
      failures: [
        {
          kind: 'snapshot',
          message: `no snapshot ${input.file}: in CI a missing snapshot fails; write it with carrier run --update-snapshots and commit it`,
          ...at,
        },
      ],
      outcome: outcome('missing'),
    };
  }
  if (kept === undefined || input.update) {
    if (failed) return { failures: [] };
    input.files.writeTextAtomically(input.file, text);
    return { failures: [], outcome: outcome(kept === undefined ? 'written' : 'updated') };
  }
  const failures = snapshotDifferences(readSnapshotLines(kept), readSnapshotLines(text), location);
  // Only the header differs (an older wording): the values are the same.
  return failures.length ? { failures, outcome: { ...outcome('differs'), text } } : { failures: [], outcome: outcome('matched') };
}
