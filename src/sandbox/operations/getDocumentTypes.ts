/** GetDocumentTypes: which archive documents a PRO has by now (the list grows as the freight moves). */
import type { OperationHandler, SandboxContext } from '../context';
import { availableDocuments, type Shipment } from '../carrier';
import { text } from '../text';
import { clientFault } from '../soap/fault';

export function shipmentForPro(value: unknown, ctx: SandboxContext): Shipment {
  const pro = text(value);
  if (!pro) throw clientFault('ProNumber is required.');
  const shipment = ctx.store.shipmentByPro(pro);
  if (!shipment)
    throw clientFault(`No shipment with ProNumber ${pro}. Use a WebProNumber from CreateBillOfLading or a PRO of the sandbox's history (e.g. 056391174).`);
  return shipment;
}

export function documentName(shipment: Shipment, kind: string): string {
  return `${kind}_${shipment.proNumber}.pdf`;
}

export const getDocumentTypes: OperationHandler = ({ params }, ctx) => {
  const shipment = shipmentForPro(params.ProNumber, ctx);
  const kinds = availableDocuments(shipment, ctx.now());
  // Names only: the documents themselves come from GetDocuments.
  return { Documents: kinds.map((k) => ({ DocumentName: documentName(shipment, k) })), AvailableDocumentTypes: kinds };
};
