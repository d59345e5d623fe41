/**
 * The virtual carrier of `carrier sandbox --replay DIR…`: a request is read by core's recogniser
 * (the one the inspector recorded it with), found among the recordings by operation, version,
 * binding and parameters (the APIKey and replay.json's ignored paths left out), and answered with
 * the recorded status, headers and body bytes. Several recordings of one call answer in turn, the
 * last repeating. What matches nothing goes on to the emulator, or gets a fault naming the closest
 * recording and what differed (docs/sandbox.md#replaying-recordings).
 */
import * as path from 'node:path';
import { BINDING_LABELS, headerValue, recognizeRequest, type Binding, type Namespaces, type RecognizedRequest, type RequestInput } from '../../core';
import { textReply, type Reply } from '../http/reply';
import { soapFaultReply } from '../routes/soapRoute';
import { clientFault } from '../soap/fault';
import { loadRecordings, ReplayLoadError, type LoadedRecordings, type Recording } from './load';
import { differingPaths, leavesKey, leavesOf, TooManyLeaves, type Leaves } from './params';

export type ReplayFallback = 'emulate' | 'fault';
export const REPLAY_FALLBACKS: readonly ReplayFallback[] = ['emulate', 'fault'];

export interface ReplayAnswer {
  readonly reply: Reply;
  /** For the log: what was replayed. */
  readonly label: string;
}

interface Entry {
  readonly recording: Recording;
  readonly leaves: Leaves;
}

interface Sequence {
  readonly entries: Entry[];
  /** How many requests this call has had: the next one gets entries[min(next, last)]. */
  next: number;
}

const callOf = (operation: string, version: string, binding: Binding) => `${operation} ${version} ${BINDING_LABELS[binding]}`;
const keyOf = (folder: number, operation: string, version: string, binding: Binding, problems: readonly string[], leaves: Leaves) =>
  `${folder}\n${operation} ${version} ${binding}\n${problems.join(',')}\n${leavesKey(leaves)}`;

/** A value for a message: JSON, cut short. */
function shown(value: string | undefined): string {
  if (value === undefined) return 'absent';
  return value.length > 60 ? `${value.slice(0, 60)}…` : value;
}

/**
 * A request this much larger than every recording of a folder without ignore rules cannot be one
 * of them (the key, the only value never compared, is short): it goes to the fallback unread, so a
 * hostile 7 MB envelope is read once, by the emulator, not twice.
 */
const SIZE_SLACK_BYTES = 64 * 1024;

export class Replayer {
  private readonly sequences = new Map<string, Sequence>();
  private readonly entries: Entry[] = [];
  /** Per folder, the largest request a call of it could be; undefined where ignore rules make any size possible. */
  private readonly largest: Array<number | undefined>;

  private constructor(
    private readonly loaded: LoadedRecordings,
    readonly fallback: ReplayFallback,
  ) {
    this.largest = loaded.folders.map((f, i) =>
      f.ignore.sources.length ? undefined : 2 * Math.max(0, ...loaded.recordings.filter((r) => r.folder === i).map((r) => r.requestBytes)) + SIZE_SLACK_BYTES,
    );
    for (const recording of loaded.recordings) {
      let leaves: Leaves;
      try {
        leaves = leavesOf(recording.params, loaded.folders[recording.folder]!.ignore);
      } catch (e) {
        if (!(e instanceof TooManyLeaves)) throw e;
        throw new ReplayLoadError(recording.file, `its request has ${e.message}`);
      }
      const entry = { recording, leaves };
      this.entries.push(entry);
      const key = keyOf(recording.folder, recording.operation, recording.version, recording.binding, recording.problems, leaves);
      const sequence = this.sequences.get(key);
      if (sequence) sequence.entries.push(entry);
      else this.sequences.set(key, { entries: [entry], next: 0 });
    }
  }

  /** Reads the folders; a recording that does not read throws ReplayLoadError naming its file. */
  static async open(dirs: readonly string[], fallback: ReplayFallback = 'emulate'): Promise<Replayer> {
    return new Replayer(await loadRecordings(dirs), fallback);
  }

  /** For the start-up log: how much is replayed and what was left out. */
  summary(): string[] {
    const { recordings, skipped, folders } = this.loaded;
    const lines = [
      `replay: ${recordings.length} recorded call${recordings.length === 1 ? '' : 's'} (${this.sequences.size} distinct) from ${folders.map((f) => f.dir).join(', ')}; unmatched requests ${this.fallback === 'fault' ? 'get a fault' : 'are emulated'}`,
    ];
    for (const f of folders) if (f.ignore.sources.length) lines.push(`replay: ${f.dir} ignores ${f.ignore.sources.join(', ')}`);
    if (skipped.length) {
      const first = skipped.slice(0, 5).map((s) => `${path.basename(s.file)} (${s.why})`);
      lines.push(`replay: left out ${skipped.length}: ${first.join('; ')}${skipped.length > 5 ? `; … ${skipped.length - 5} more` : ''}`);
    }
    return lines;
  }

  /**
   * The recorded answer to a request, a fault (fallback `fault`), or undefined: the emulator
   * answers. A request that is no call of the catalog, or whose body was not read whole, is
   * always the emulator's.
   */
  answer(input: RequestInput, namespaces: Namespaces): ReplayAnswer | undefined {
    const size = Buffer.byteLength(input.body) + input.url.length;
    if (this.largest.every((most) => most !== undefined && size > most)) return this.tooLarge(size, input);
    const r = recognizeRequest(input, { namespaces });
    if (r.kind !== 'operation' || !r.params) return undefined;
    const problems = r.problems.map((p) => p.code).sort();
    const mine = new Map<number, Leaves>();
    for (const [folder, f] of this.loaded.folders.entries()) {
      let leaves: Leaves;
      try {
        leaves = leavesOf(r.params, f.ignore);
      } catch (e) {
        if (e instanceof TooManyLeaves) return this.unmatched(r, undefined);
        throw e;
      }
      mine.set(folder, leaves);
      const sequence = this.sequences.get(keyOf(folder, r.operation, r.version, r.binding, problems, leaves));
      if (!sequence) continue;
      const at = Math.min(sequence.next, sequence.entries.length - 1);
      sequence.next++;
      const rec = sequence.entries[at]!.recording;
      const of = sequence.entries.length > 1 ? ` (${at + 1} of ${sequence.entries.length})` : '';
      return { reply: recordedReply(rec), label: `${callOf(r.operation, r.version, r.binding)} replayed ${this.name(rec)}${of}` };
    }
    return this.unmatched(r, mine);
  }

  /** A request larger than any recording could be: emulated, or a fault saying so, without reading it. */
  private tooLarge(size: number, input: RequestInput): ReplayAnswer | undefined {
    if (this.fallback === 'emulate') return undefined;
    const most = Math.max(...this.largest.map((n) => n ?? 0));
    const message = `The replay has no recording of a request of ${size.toLocaleString('en-US')} bytes: none it holds could be larger than ${most.toLocaleString('en-US')}.`;
    // Not read, so its SOAP version is the one its Content-Type says.
    const type = (headerValue(input.headers, 'content-type') ?? '').toLowerCase();
    const reply = type.startsWith('application/soap+xml')
      ? soapFaultReply('1.2', clientFault(message))
      : type.startsWith('text/xml')
        ? soapFaultReply('1.1', clientFault(message))
        : textReply(500, message);
    return { reply, label: 'unmatched: too large for any recording' };
  }

  private name(rec: Recording): string {
    return this.loaded.folders.length > 1 ? rec.file : path.basename(rec.file);
  }

  private unmatched(r: RecognizedRequest, mine: ReadonlyMap<number, Leaves> | undefined): ReplayAnswer | undefined {
    if (this.fallback === 'emulate') return undefined;
    const call = callOf(r.operation, r.version, r.binding);
    const problems = r.problems
      .map((p) => p.code)
      .sort()
      .join(',');
    let best: { entry: Entry; rank: number[]; diff: string[] } | undefined;
    for (const entry of this.entries) {
      const rec = entry.recording;
      const diff = mine ? differingPaths(mine.get(rec.folder)!, entry.leaves) : [];
      const rank = [
        rec.operation === r.operation ? 0 : 1,
        rec.version === r.version ? 0 : 1,
        rec.binding === r.binding ? 0 : 1,
        rec.problems.join(',') === problems ? 0 : 1,
        diff.length,
      ];
      if (!best || lessThan(rank, best.rank)) best = { entry, rank, diff };
    }
    const message = `The replay has no recording of this ${call} call. ${best ? this.closest(r, best.entry, best.diff, mine) : ''}`.trim();
    const fault = clientFault(message);
    const reply = r.binding === 'soap11' ? soapFaultReply('1.1', fault) : r.binding === 'soap12' ? soapFaultReply('1.2', fault) : textReply(500, message);
    return { reply, label: `${call} unmatched: fault` };
  }

  private closest(r: RecognizedRequest, entry: Entry, diff: readonly string[], mine: ReadonlyMap<number, Leaves> | undefined): string {
    const rec = entry.recording;
    const differences: string[] = [];
    if (rec.operation !== r.operation) differences.push(`the operation (recorded ${rec.operation})`);
    if (rec.version !== r.version) differences.push(`the version (recorded ${rec.version})`);
    if (rec.binding !== r.binding) differences.push(`the binding (recorded ${BINDING_LABELS[rec.binding]})`);
    if (
      rec.problems.join(',') !==
      r.problems
        .map((p) => p.code)
        .sort()
        .join(',')
    )
      differences.push('what the service would refuse in it (its SOAP action or envelope)');
    if (!mine) differences.push('its parameters (too many to compare)');
    else if (rec.operation === r.operation) {
      const here = mine.get(rec.folder)!;
      const listed = diff.slice(0, 5).map((p) => `${p} (recorded ${shown(entry.leaves.get(p))}, here ${shown(here.get(p))})`);
      if (diff.length > 5) listed.push(`${diff.length - 5} more`);
      if (listed.length) differences.push(listed.join(', '));
    }
    const what = differences.length ? `, which differs in ${differences.join('; ')}` : '';
    return `The closest is ${this.name(rec)} (${callOf(rec.operation, rec.version, rec.binding)})${what}.`;
  }
}

function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** The recorded reply as the server sends it: the status, the recorded headers and body bytes, nothing added. */
function recordedReply(rec: Recording): Reply {
  const headers: Record<string, string> = {};
  const spelled = new Map<string, string>();
  let contentType = '';
  for (const [name, value] of rec.headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') {
      contentType = value;
      continue;
    }
    // One field per name: a repeated one is said once, its values joined as HTTP allows.
    const first = spelled.get(lower);
    if (first === undefined) {
      spelled.set(lower, name);
      headers[name] = value;
    } else headers[first] = `${headers[first]}, ${value}`;
  }
  return { status: rec.status, contentType, body: rec.body, headers, recorded: true, ...(rec.statusText ? { statusText: rec.statusText } : {}) };
}
