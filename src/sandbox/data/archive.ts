/**
 * Which archive documents a PRO has at a given time (GetDocumentTypes / GetDocuments). Paper
 * appears as freight moves: the bill of lading once the driver has it, the invoice the next
 * morning, a weight certificate only when the origin reweighed the freight, and the delivery
 * receipt once someone signed for it.
 */
import { addBusinessDays } from '../../core';
import type { Shipment } from './shipments';

/** The interface's DocumentType enumeration, in its order. */
export const DOCUMENT_TYPES = ['BillOfLading', 'WeightCertificate', 'Invoice', 'DeliveryReceipt'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Invoices are dated (and appear) the business day after pickup, at 06:00. */
export function invoiceDateOf(shipment: Shipment): Date {
  const p = shipment.pickupAt;
  return addBusinessDays(new Date(Date.UTC(p.getUTCFullYear(), p.getUTCMonth(), p.getUTCDate(), 6)), 1);
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
