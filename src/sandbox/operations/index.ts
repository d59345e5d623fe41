/**
 * The handler of every operation shape, keyed by operation and version. A shape in the catalog
 * without a handler here is a build error in the sandbox tests, not a silent 500.
 */
import type { JsonObject, OperationDef } from '../../core';
import { checkApiKey } from '../auth';
import type { OperationCall, OperationHandler, SandboxContext } from '../context';
import { createBillOfLading } from './createBillOfLading';
import { createPickupRequest } from './createPickupRequest';
import { getBillOfLadingLabelPdf } from './getBillOfLadingLabelPdf';
import { getBillOfLadingPdf } from './getBillOfLadingPdf';
import { getDocuments } from './getDocuments';
import { getDocumentTypes } from './getDocumentTypes';
import { getHazmatDescription } from './getHazmatDescription';
import { getRateQuote } from './getRateQuote';
import { getTerminalInformation } from './getTerminalInformation';
import { getTransitTimes } from './getTransitTimes';
import { traceShipment } from './traceShipment';

const handlers: Readonly<Record<string, OperationHandler>> = {
  'GetTerminalInformation 1.0.2': getTerminalInformation,
  'GetDocumentTypes 1.0.0': getDocumentTypes,
  'GetDocuments 1.0.3': getDocuments,
  'GetHazmatDescription sandbox': getHazmatDescription,
  'GetBillOfLadingLabelPDF sandbox': getBillOfLadingLabelPdf,
  'GetBillOfLadingPdf sandbox': getBillOfLadingPdf,
  'CreateBillOfLading 1.0.1': createBillOfLading,
  'GetRateQuote 1.0.0': getRateQuote,
  'GetRateQuote 1.0.1': getRateQuote,
  'GetRateQuote 1.0.3': getRateQuote,
  'CreatePickupRequest 1.0.3': createPickupRequest,
  'TraceShipment 1.0.2': traceShipment,
  'GetTransitTimes 1.0.0': getTransitTimes,
};

export function handlerFor(op: Pick<OperationDef, 'operation' | 'version'>): OperationHandler | undefined {
  return handlers[`${op.operation} ${op.version}`];
}

/** Checks the key, then runs the operation. */
export async function invoke(call: OperationCall, ctx: SandboxContext): Promise<JsonObject> {
  checkApiKey(call.params, ctx.apiKeys);
  const handler = handlerFor(call.op);
  if (!handler) throw new Error(`no sandbox handler for ${call.op.operation} ${call.op.version}`);
  return handler(call, ctx);
}
