/**
 * Two exchanges of the same request with two environments, compared: the outcome (success,
 * fault, in-body error…), the status, and the replies as read along the catalog. By default only
 * the structure counts — which elements each side has, and of what kind — so a sandbox and a real
 * service that answer with other numbers still compare equal; lists are compared as the union of
 * their items' structure. With `values`, every value and every list length counts too.
 */
import { classifyExchange, VERDICT_PHRASES } from '../verdict';
import type { Exchange } from '../exchange';
import { isObject } from '../objects';
import { joinPath, parsePath } from '../path';

export type ReplyDifferenceKind = 'outcome' | 'status' | 'only-in' | 'type' | 'value' | 'count';

export interface ReplyDifference {
  readonly kind: ReplyDifferenceKind;
  /** Reply path (`Result.ServiceLevels[*].Code`; `[n]` with values); '' for the exchange itself. */
  readonly path: string;
  /** For `only-in`: which side has it (0 the first environment, 1 the second). */
  readonly side?: 0 | 1;
  /** Each side in words (`string`, `fault: soap:Client`, `"STD"`). */
  readonly a?: string;
  readonly b?: string;
  readonly message: string;
}

export interface CompareRepliesOptions {
  /** Compare values and list lengths too. */
  readonly values?: boolean;
  /** Reply paths to leave out, with everything below them (`Result.MyCarrierID`, `Result.Charges[*].Amount`). */
  readonly ignore?: readonly string[];
}

type Kind = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';

interface Shape {
  readonly kinds: Set<Kind>;
  fields?: Map<string, Shape>;
  items?: Shape;
}

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isObject(v)) return 'object';
  return typeof v === 'number' || typeof v === 'bigint' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
}

/** The structure of a value, lists folded into the union of their items. Iterative: replies can nest deep. */
function shapeOf(root: unknown): Shape {
  const top: Shape = { kinds: new Set() };
  const work: Array<{ value: unknown; into: Shape }> = [{ value: root, into: top }];
  while (work.length) {
    const { value, into } = work.pop()!;
    const kind = kindOf(value);
    into.kinds.add(kind);
    if (kind === 'array') {
      into.items ??= { kinds: new Set() };
      for (const item of value as unknown[]) work.push({ value: item, into: into.items });
    } else if (kind === 'object') {
      into.fields ??= new Map();
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        let field = into.fields.get(k);
        if (!field) into.fields.set(k, (field = { kinds: new Set() }));
        work.push({ value: v, into: field });
      }
    }
  }
  return top;
}

const kindsText = (kinds: Set<Kind>) =>
  [...kinds]
    .filter((k) => k !== 'null')
    .sort()
    .join(' or ') || 'nil';
const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** `[3]` and `[*]` alike, so an ignored `Result.Charges[*].Amount` also covers `Result.Charges[3].Amount`. */
function normalise(path: string): string {
  return parsePath(path)
    .map((s) => (typeof s === 'number' ? '[*]' : s))
    .reduce<string>((out, s) => (s === '[*]' ? `${out}[*]` : joinPath(out, s)), '');
}

export function compareExchanges(a: Exchange, b: Exchange, names: readonly [string, string], options: CompareRepliesOptions = {}): ReplyDifference[] {
  const out: ReplyDifference[] = [];
  const ignored = (options.ignore ?? []).map((p) => normalise(p.replace(/\[\*\]/g, '[0]')));
  const skip = (path: string) => {
    const n = normalise(path.replace(/\[\*\]/g, '[0]'));
    return ignored.some((p) => n === p || n.startsWith(`${p}.`) || n.startsWith(`${p}[`));
  };
  const push = (d: ReplyDifference) => {
    if (!d.path || !skip(d.path)) out.push(d);
  };

  const va = classifyExchange(a);
  const vb = classifyExchange(b);
  const outcome = (v: typeof va, x: Exchange) => (v.ok ? VERDICT_PHRASES.success : `${VERDICT_PHRASES[v.kind]}${x.fault ? ` (${x.fault.code})` : ''}`);
  if (va.kind !== vb.kind) {
    push({
      kind: 'outcome',
      path: '',
      a: outcome(va, a),
      b: outcome(vb, b),
      message: `${names[0]}: ${outcome(va, a)}${va.ok ? '' : ` — ${va.reason}`}; ${names[1]}: ${outcome(vb, b)}${vb.ok ? '' : ` — ${vb.reason}`}`,
    });
  }
  const sa = a.reply?.status;
  const sb = b.reply?.status;
  if (sa !== sb)
    push({
      kind: 'status',
      path: '',
      a: String(sa ?? 'no reply'),
      b: String(sb ?? 'no reply'),
      message: `HTTP status: ${names[0]} ${sa ?? 'no reply'}, ${names[1]} ${sb ?? 'no reply'}`,
    });
  if (a.parsed === undefined || b.parsed === undefined) return out;

  if (options.values) valueWalk(a.parsed, b.parsed, names, push);
  else shapeWalk(shapeOf(a.parsed), shapeOf(b.parsed), names, push);
  return out;
}

function shapeWalk(ra: Shape, rb: Shape, names: readonly [string, string], push: (d: ReplyDifference) => void): void {
  const work: Array<{ a: Shape; b: Shape; path: string }> = [{ a: ra, b: rb, path: '' }];
  while (work.length) {
    const { a, b, path } = work.shift()!;
    const ka = new Set([...a.kinds].filter((k) => k !== 'null'));
    const kb = new Set([...b.kinds].filter((k) => k !== 'null'));
    // A side that only ever had nil (or nothing) says nothing about the kind.
    if (ka.size && kb.size && [...ka].sort().join() !== [...kb].sort().join()) {
      push({
        kind: 'type',
        path,
        a: kindsText(ka),
        b: kindsText(kb),
        message: `${path || 'the reply'}: ${names[0]} has ${kindsText(ka)}, ${names[1]} ${kindsText(kb)}`,
      });
    }
    if (a.fields && b.fields) {
      for (const [k, fa] of a.fields) {
        const p = joinPath(path, k);
        const fb = b.fields.get(k);
        if (fb) work.push({ a: fa, b: fb, path: p });
        else push({ kind: 'only-in', path: p, side: 0, message: `${p}: only in ${names[0]}` });
      }
      for (const k of b.fields.keys()) {
        if (!a.fields.has(k)) {
          const p = joinPath(path, k);
          push({ kind: 'only-in', path: p, side: 1, message: `${p}: only in ${names[1]}` });
        }
      }
    }
    if (a.items && b.items) work.push({ a: a.items, b: b.items, path: `${path}[*]` });
  }
}

function valueWalk(ra: unknown, rb: unknown, names: readonly [string, string], push: (d: ReplyDifference) => void): void {
  const work: Array<{ a: unknown; b: unknown; path: string }> = [{ a: ra, b: rb, path: '' }];
  while (work.length) {
    const { a, b, path } = work.shift()!;
    const ka = kindOf(a);
    const kb = kindOf(b);
    if (ka !== kb) {
      push({
        kind: ka === 'null' || kb === 'null' ? 'value' : 'type',
        path,
        a: ka === 'null' ? 'nil' : short(a),
        b: kb === 'null' ? 'nil' : short(b),
        message: `${path || 'the reply'}: ${names[0]} ${ka === 'null' ? 'nil' : short(a)}, ${names[1]} ${kb === 'null' ? 'nil' : short(b)}`,
      });
      continue;
    }
    if (ka === 'object') {
      const oa = a as Record<string, unknown>;
      const ob = b as Record<string, unknown>;
      for (const k of Object.keys(oa)) {
        const p = joinPath(path, k);
        if (Object.prototype.hasOwnProperty.call(ob, k)) work.push({ a: oa[k], b: ob[k], path: p });
        else push({ kind: 'only-in', path: p, side: 0, message: `${p}: only in ${names[0]}` });
      }
      for (const k of Object.keys(ob))
        if (!Object.prototype.hasOwnProperty.call(oa, k)) {
          const p = joinPath(path, k);
          push({ kind: 'only-in', path: p, side: 1, message: `${p}: only in ${names[1]}` });
        }
    } else if (ka === 'array') {
      const la = a as unknown[];
      const lb = b as unknown[];
      if (la.length !== lb.length)
        push({
          kind: 'count',
          path,
          a: String(la.length),
          b: String(lb.length),
          message: `${path}: ${names[0]} has ${la.length} item${la.length === 1 ? '' : 's'}, ${names[1]} ${lb.length}`,
        });
      for (let i = 0; i < Math.min(la.length, lb.length); i++) work.push({ a: la[i], b: lb[i], path: joinPath(path, i) });
    } else if (ka !== 'null' && String(a) !== String(b)) {
      push({ kind: 'value', path, a: short(a), b: short(b), message: `${path}: ${names[0]} ${short(a)}, ${names[1]} ${short(b)}` });
    }
  }
}
