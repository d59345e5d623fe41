/**
 * Real PDFs, rendered on demand. The renderers (and pdf-lib behind them) are required on first
 * use only, so a sandbox starts fast and one that never prints never pays for loading them.
 * A plain require() rather than import(): it stays lazy under every loader the project uses
 * (tsx in tests, esbuild bundles), where a dynamic import() of a .ts path does not resolve.
 */
import type { DocumentType } from '../carrier';
import type { LabelRequest } from '../pdf/labels';
import type { BolDocument } from './bolData';

type BolModule = typeof import('../pdf/bol');
type LabelsModule = typeof import('../pdf/labels');
type DocumentsModule = typeof import('../pdf/documents');

export async function bolPdf(doc: BolDocument): Promise<Uint8Array> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the header says
  const { billOfLadingPdf } = require('../pdf/bol') as BolModule;
  return billOfLadingPdf(doc.data, doc.meta);
}

export async function labelPdf(doc: BolDocument, request: LabelRequest): Promise<Uint8Array> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the header says
  const { labelsPdf } = require('../pdf/labels') as LabelsModule;
  return labelsPdf(doc.data, doc.meta, request);
}

/** Why a label request cannot be printed (unknown style, impossible position or count), or undefined. */
export function checkLabels(style: string, startPosition: number, numLabels: number): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the header says
  const { checkLabelRequest } = require('../pdf/labels') as LabelsModule;
  return checkLabelRequest(style, startPosition, numLabels);
}

/**
 * An archive document of a shipment (GetDocuments); the caller asks only for available kinds.
 * The bill of lading of a BOL created here is printed from its request, as GetBillOfLadingPdf
 * prints it, so the two never disagree.
 */
export async function archivePdf(kind: DocumentType, doc: BolDocument, now: Date): Promise<Uint8Array> {
  if (kind === 'BillOfLading' && doc.created) return bolPdf(doc);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the header says
  const { documentPdf } = require('../pdf/documents') as DocumentsModule;
  return documentPdf(kind, doc.shipment, now);
}

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
