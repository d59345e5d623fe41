/** GetBillOfLadingLabelPDF: shipping labels of a BolID as a real PDF, in one of the label styles. */
import type { OperationHandler } from '../context';
import { base64, checkLabels, labelPdf } from '../documents/pdfs';
import { text } from '../text';
import { clientFault } from '../soap/fault';
import { bolFor } from './getBillOfLadingPdf';

export const getBillOfLadingLabelPdf: OperationHandler = async ({ params }, ctx) => {
  const doc = bolFor(params.billOfLadingId, ctx);
  const style = text(params.style);
  // int parameters left out bind as 0, which no label stock accepts: the check says so.
  const start = typeof params.startPosition === 'number' ? params.startPosition : 0;
  const count = typeof params.numLabels === 'number' ? params.numLabels : 0;
  const problem = checkLabels(style, start, count);
  if (problem) throw clientFault(problem);
  return { PdfDocument: base64(await labelPdf(doc, { style, startPosition: start, numLabels: count })) };
};
