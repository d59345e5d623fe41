/**
 * A recognised request → the text of a `.carrier.json` request file that makes the same call:
 * the shape and binding it used, its parameters as the service read them, never its API key.
 * Elements the contract does not have are left out (the service does not bind them either) and
 * named in a comment at the top, with anything else worth knowing about where it came from; an
 * `expect` block can pin the outcome that was seen, so replaying it checks the same thing.
 */
import type { Binding } from '../catalog/types';
import type { Exchange } from '../exchange';
import { formatPath } from '../path';
import { MASK, Redactor } from '../redact';
import type { JsonObject, ReadIssue } from '../xml/read';
import type { Literals } from './literals';

export interface RecognizedShape {
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  readonly params?: JsonObject;
  readonly issues?: readonly ReadIssue[];
  /** The client's spelling of its numbers (literals.ts), kept in the file so it sends the same bytes. */
  readonly literals?: Literals;
}

export interface RequestFileOptions {
  /** Every value to hide (the API key first of all); the APIKey parameter is left out regardless. */
  readonly secrets?: Iterable<string | undefined>;
  readonly description?: string;
  readonly environment?: string;
  readonly expect?: Readonly<Record<string, unknown>>;
  /** Lines for the comment at the top (where the request came from). */
  readonly comment?: readonly string[];
}

type Segment = string | number;

/** `request.Items[0].Foo` → ['request', 'Items', 0, 'Foo']. */
function segments(path: string): Segment[] {
  const out: Segment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [];
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

function parentOf(root: unknown, path: readonly Segment[]): unknown {
  let at = root;
  for (const seg of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[seg as string];
  }
  return at;
}

/** The parameters as the service binds them: unknown elements out, the last of a repeated field kept. */
function bindable(params: JsonObject, issues: readonly ReadIssue[]): { params: JsonObject; dropped: string[]; unreadable: string[] } {
  const copy = structuredClone(params) as JsonObject;
  const dropped: string[] = [];
  // Deepest and last first, so removing a list item never shifts one still to remove.
  const unknown = issues
    .filter((i) => i.kind === 'unknown')
    .map((i) => ({ path: i.path, segs: segments(i.path) }))
    .reverse();
  for (const { path, segs } of unknown) {
    const parent = parentOf(copy, segs);
    const last = segs[segs.length - 1];
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else if (parent && typeof parent === 'object' && typeof last === 'string' && last in parent) delete (parent as Record<string, unknown>)[last];
    else continue;
    if (!dropped.includes(path)) dropped.push(path);
  }
  for (const issue of issues.filter((i) => i.kind === 'repeated')) {
    const segs = segments(issue.path);
    const parent = parentOf(copy, segs) as Record<string, unknown> | undefined;
    const last = segs[segs.length - 1];
    if (parent && typeof last === 'string' && Array.isArray(parent[last])) {
      const all = parent[last] as unknown[];
      parent[last] = all[all.length - 1];
    }
  }
  const unreadable = issues.filter((i) => i.kind === 'type').map((i) => i.path);
  delete copy.APIKey;
  return { params: copy, dropped: dropped.reverse(), unreadable };
}

export function requestFileFromRecognized(request: RecognizedShape, options: RequestFileOptions = {}): string {
  // The key the request carried is hidden wherever else it turns up, even when the caller names no secrets.
  const key = typeof request.params?.APIKey === 'string' ? request.params.APIKey : undefined;
  const redactor = new Redactor([...(options.secrets ?? []), key]);
  const { params, dropped, unreadable } = bindable(request.params ?? {}, request.issues ?? []);
  const comment = [...(options.comment ?? [])];
  if (dropped.length) comment.push(`Left out (not in the contract, so the service does not read them): ${dropped.join(', ')}`);
  if (unreadable.length) comment.push(`Kept as sent although the service cannot read them: ${unreadable.join(', ')}`);
  if (!request.params) comment.push('The request body was not read whole, so "params" is empty: fill it in.');
  const file = {
    operation: request.operation,
    version: request.version,
    binding: request.binding,
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.description ? { description: options.description } : {}),
    params: redactor.deep(params),
    ...(options.expect && Object.keys(options.expect).length ? { expect: redactor.deep(options.expect) } : {}),
  };
  const spelled = spellingsIn(file.params, request.literals);
  const plain = (request.literals?.unspellable ?? []).filter((p) => typeof at(file.params, p) === 'number');
  if (plain.length)
    comment.push(`Written as plain JSON numbers, which JSON cannot spell as the client did: ${plain.map((p) => formatPath(pointerSegments(p))).join(', ')}`);
  const lines = (spelled.size ? stringify(file, spelled, '', '') : JSON.stringify(file, null, 2)).split('\n');
  const notes = comment.map((c) => `  // ${redactor.text(c).replace(/[\r\n]+/g, ' ')}`);
  return `${[lines[0], ...notes, ...lines.slice(1)].join('\n')}\n`;
}

const pointerSegments = (pointer: string): Segment[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));

function at(root: unknown, pointer: string): unknown {
  let value = root;
  for (const seg of pointerSegments(pointer)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[seg as string];
  }
  return value;
}

/**
 * The spellings that still stand for the value the file holds, by pointer from the file's root:
 * one that no longer matches (a value redacted, or left out) falls back to the plain number.
 */
function spellingsIn(params: unknown, literals: Literals | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [pointer, text] of Object.entries(literals?.spellings ?? {})) {
    const value = at(params, pointer);
    if (typeof value === 'number' && Number(text) === value) out.set(`/params${pointer}`, text);
  }
  return out;
}

/** JSON.stringify(value, null, 2), but numbers at the pointers of `spelled` written as spelled there. */
function stringify(value: unknown, spelled: ReadonlyMap<string, string>, pointer: string, indent: string): string {
  if (typeof value === 'number' && spelled.has(pointer)) return spelled.get(pointer)!;
  const inner = `${indent}  `;
  const child = (v: unknown, key: string | number) => stringify(v, spelled, `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`, inner);
  if (Array.isArray(value)) {
    return value.length ? `[\n${value.map((v, i) => `${inner}${child(v === undefined ? null : v, i)}`).join(',\n')}\n${indent}]` : '[]';
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length ? `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${child(v, k)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(value) ?? 'null';
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What the runner should find when it sends the request again: the same HTTP status, the same
 * fault (or none), and an in-body error where there was one. Nothing for an exchange that got no
 * reply: there is no outcome to pin.
 */
export function expectFromExchange(exchange: Pick<Exchange, 'reply' | 'fault' | 'findings' | 'error'>): Record<string, unknown> | undefined {
  if (!exchange.reply || exchange.error) return undefined;
  const expect: Record<string, unknown> = { status: exchange.reply.status };
  if (exchange.fault) {
    const local = exchange.fault.code.replace(/^.*:/, '');
    const fault: Record<string, string> = { code: `(^|:)${escapeRegExp(local)}$` };
    // A reason that held the key would be a pattern that can never match the masked text.
    if (exchange.fault.reason && !exchange.fault.reason.includes(MASK)) fault.reason = `^\\s*${escapeRegExp(exchange.fault.reason.trim())}\\s*$`;
    expect.fault = fault;
  } else {
    expect.fault = false;
    if (exchange.findings.some((f) => f.kind === 'in-body' && f.severity === 'error')) expect.success = false;
  }
  return expect;
}
