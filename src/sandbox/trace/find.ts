/**
 * Which shipments a trace number refers to, per TraceType. Each type looks at the references a
 * shipment carries under that name; BOL also matches the BolID, and Reference matches any of the
 * shipper, quote and PO numbers, since "a reference" is whatever number the caller has.
 *
 * The numbers are kept in an index (number → shipments), so a trace costs the same however many
 * bills of lading the sandbox holds.
 */
import { TRACE_TYPES, type Shipment, type TraceType } from '../carrier';

/** What a trace looks at: known for a stored bill of lading without planning its shipment. */
export type TraceKeys = Pick<Shipment, 'references' | 'shipperNumber' | 'quoteNumber' | 'bolId'>;

function candidates(s: TraceKeys, type: TraceType): string[] {
  switch (type) {
    case 'BOL':
      return [s.references.BOL, String(s.bolId)];
    case 'Reference':
      return [s.references.Reference, s.shipperNumber, s.quoteNumber, s.references.PO];
    default:
      return [s.references[type]];
  }
}

const clean = (v: string) => v.trim().toUpperCase();
/** People drop a PRO's leading zeros and write it with dashes or blanks. */
const proDigits = (x: string) => x.replace(/[\s-]/g, '').replace(/^0+/, '');
const digitLike = (wanted: string) => /^[\d\s-]+$/.test(wanted);

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

function drop(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.lastIndexOf(id);
  if (i >= 0) list.splice(i, 1);
  if (!list.length) map.delete(key);
}

/**
 * Numbers → shipment ids, in the order the shipments were added. A number matches when it equals
 * a candidate (trimmed, any case); a PRO written with digits, blanks and dashes also matches one
 * with the same digits.
 */
export class TraceIndex {
  private readonly exact = new Map<TraceType, Map<string, number[]>>(TRACE_TYPES.map((t) => [t, new Map()]));
  private readonly pro = new Map<string, number[]>();

  private keys(s: TraceKeys): { type: TraceType; key: string }[] {
    const out: { type: TraceType; key: string }[] = [];
    for (const type of TRACE_TYPES) {
      const seen = new Set<string>();
      for (const c of candidates(s, type)) {
        if (!c) continue;
        const key = clean(c);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ type, key });
      }
    }
    return out;
  }

  add(id: number, s: TraceKeys): void {
    const proKeys = new Set<string>();
    for (const { type, key } of this.keys(s)) {
      push(this.exact.get(type)!, key, id);
      if (type === 'PRO') proKeys.add(proDigits(key));
    }
    for (const k of proKeys) push(this.pro, k, id);
  }

  remove(id: number, s: TraceKeys): void {
    const proKeys = new Set<string>();
    for (const { type, key } of this.keys(s)) {
      drop(this.exact.get(type)!, key, id);
      if (type === 'PRO') proKeys.add(proDigits(key));
    }
    for (const k of proKeys) drop(this.pro, k, id);
  }

  find(type: TraceType, number: string): readonly number[] {
    const wanted = clean(number);
    if (!wanted) return [];
    if (type === 'PRO' && digitLike(wanted)) return this.pro.get(proDigits(wanted)) ?? [];
    return this.exact.get(type)?.get(wanted) ?? [];
  }
}
