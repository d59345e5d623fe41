/**
 * GetDocuments: the requested archive documents of a PRO as real PDFs (base64 in DocumentData).
 * A requested type that does not exist yet (a delivery receipt before delivery) is left out;
 * AvailableDocumentTypes says what there is. No requested type at all means every available one.
 */
import { availableDocuments, type DocumentType } from '../carrier';
import type { OperationHandler } from '../context';
import { bolDocument } from '../documents/bolData';
import { archivePdf, base64 } from '../documents/pdfs';
import { arr } from '../json';
import { documentName, shipmentForPro } from './getDocumentTypes';

export const getDocuments: OperationHandler = async ({ params }, ctx) => {
  const shipment = shipmentForPro(params.ProNumber, ctx);
  const now = ctx.now();
  const available = availableDocuments(shipment, now);
  const requested = arr(params.documentTypes).filter((t): t is DocumentType => typeof t === 'string');
  const wanted = requested.length ? available.filter((k) => requested.includes(k)) : available;
  const doc = bolDocument(ctx.store, shipment);
  const documents = [];
  for (const kind of wanted) {
    documents.push({ DocumentName: documentName(shipment, kind), DocumentData: base64(await archivePdf(kind, doc, now)) });
  }
  return { Documents: documents, AvailableDocumentTypes: available };
};
