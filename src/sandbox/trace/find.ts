/**
 * Which shipments a trace number refers to, per TraceType. Each type looks at the references a
 * shipment carries under that name; BOL also matches the BolID, and Reference matches any of the
 * shipper, quote and PO numbers, since "a reference" is whatever number the caller has.
 */
import type { Shipment, TraceType } from '../data/shipments';

function candidates(s: Shipment, type: TraceType): string[] {
  switch (type) {
    case 'BOL': return [s.references.BOL, String(s.bolId)];
    case 'Reference': return [s.references.Reference, s.shipperNumber, s.quoteNumber, s.references.PO];
    default: return [s.references[type]];
  }
}

const clean = (v: string) => v.trim().toUpperCase();

function same(type: TraceType, have: string, wanted: string): boolean {
  if (!have) return false;
  const a = clean(have);
  if (a === wanted) return true;
  // People drop a PRO's leading zero and write it with dashes or blanks.
  if (type === 'PRO') {
    const digits = (x: string) => x.replace(/[\s-]/g, '').replace(/^0+/, '');
    return /^[\d\s-]+$/.test(wanted) && digits(a) === digits(wanted);
  }
  return false;
}

export function findShipments(shipments: readonly Shipment[], type: TraceType, number: string): Shipment[] {
  const wanted = clean(number);
  if (!wanted) return [];
  return shipments.filter((s) => candidates(s, type).some((c) => same(type, c, wanted)));
}
