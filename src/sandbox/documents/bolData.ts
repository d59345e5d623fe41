/**
 * The bill of lading of a shipment as the PDF renderers read it: the stored request for a BOL
 * created here (printed as the customer wrote it), and the one the PDF module composes from the
 * shipment for the seeded history.
 */
import { dueText, formatUsDate, type Shipment } from '../carrier';
import { shipmentToBillOfLading } from '../pdf/from-shipment';
import type { BillOfLadingData, BolMeta } from '../pdf/types';
import type { SandboxStore } from '../state/store';

export interface BolDocument {
  readonly shipment: Shipment;
  readonly data: BillOfLadingData;
  readonly meta: BolMeta;
  /** Made over the service here (its data is the request), not part of the seeded history. */
  readonly created: boolean;
}

export function bolDocument(store: SandboxStore, shipment: Shipment): BolDocument {
  const created = store.createdBol(shipment.bolId);
  const data = created ? (created.billOfLading as BillOfLadingData) : shipmentToBillOfLading(shipment);
  const cancelled = shipment.cancelledAt !== undefined;
  const meta = {
    bolId: shipment.bolId,
    proNumber: shipment.proNumber,
    createdAt: shipment.createdAt,
    ...(cancelled ? {} : { pickup: formatUsDate(shipment.pickupDay), due: dueText(shipment) }),
  };
  return { shipment, data, meta, created: created !== undefined };
}
