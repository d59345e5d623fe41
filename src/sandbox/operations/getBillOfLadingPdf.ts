/** GetBillOfLadingPdf: the bill of lading of a BolID as a real PDF. */
import type { OperationHandler, SandboxContext } from '../context';
import { bolDocument, type BolDocument } from '../documents/bolData';
import { base64, bolPdf } from '../documents/pdfs';
import { clientFault } from '../soap/fault';

/** The BOL a billOfLadingId names; an unknown id is the caller's mistake. */
export function bolFor(id: unknown, ctx: SandboxContext): BolDocument {
  const bolId = typeof id === 'number' ? id : NaN;
  const shipment = Number.isInteger(bolId) ? ctx.store.shipmentByBolId(bolId) : undefined;
  if (!shipment)
    throw clientFault(
      `No bill of lading with billOfLadingId ${id === undefined ? '(missing)' : String(id)}. Use the BolID that CreateBillOfLading returned (the sandbox's sample bill of lading is 1).`,
    );
  return bolDocument(ctx.store, shipment);
}

export const getBillOfLadingPdf: OperationHandler = async ({ params }, ctx) => {
  const doc = bolFor(params.billOfLadingId, ctx);
  return { PdfDocument: base64(await bolPdf(doc)) };
};
