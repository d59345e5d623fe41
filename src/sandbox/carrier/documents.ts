/**
 * Which archive documents a PRO has at a given time (GetDocumentTypes / GetDocuments). Paper
 * appears as freight moves: the bill of lading once the driver has it, the invoice at 6:00 AM
 * of the origin's next business day, a weight certificate only when the origin reweighed the
 * freight, and the delivery receipt once someone signed for it. A cancelled bill of lading has
 * no paper.
 */
import { addWorkingDays } from './calendar';
import type { Shipment } from './shipment';
import { atLocal, localDay } from './time';

/** The interface's DocumentType enumeration, in its order. */
export const DOCUMENT_TYPES = ['BillOfLading', 'WeightCertificate', 'Invoice', 'DeliveryReceipt'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Invoices are dated (and appear) the business day after pickup, at 6:00 AM at the origin. */
export function invoiceDateOf(shipment: Shipment): Date {
  const zone = shipment.originTerminal.zone;
  return atLocal(addWorkingDays(localDay(shipment.pickupAt, zone), 1), 6 * 60, zone);
}

function happened(shipment: Shipment, code: string, now: Date): Date | undefined {
  const e = shipment.events.find((ev) => ev.code === code && ev.at.getTime() <= now.getTime());
  return e?.at;
}

/** The time a document came to exist, or undefined if it does not exist at `now`. */
export function documentDate(shipment: Shipment, kind: DocumentType, now: Date): Date | undefined {
  switch (kind) {
    case 'BillOfLading':
      return happened(shipment, 'PU', now);
    case 'WeightCertificate':
      return happened(shipment, 'RW', now);
    case 'Invoice': {
      if (!happened(shipment, 'PU', now)) return undefined;
      const date = invoiceDateOf(shipment);
      return date.getTime() <= now.getTime() ? date : undefined;
    }
    case 'DeliveryReceipt':
      return happened(shipment, 'DL', now);
  }
}

export function availableDocuments(shipment: Shipment, now: Date): DocumentType[] {
  return DOCUMENT_TYPES.filter((kind) => documentDate(shipment, kind, now) !== undefined);
}
