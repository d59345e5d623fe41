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

/**
 * The shapes whose reply follows from the request alone (and the sandbox's fixed settings: keys,
 * namespaces): their handlers read neither the store nor the clock, so the same request always
 * gets the same reply, and one a 200 answered may be kept (the reply memo, http/replyMemo.ts).
 * GetTransitTimes (the clock, a lookup id), GetDocumentTypes, GetDocuments, TraceShipment and the
 * PDFs (the store and the clock) and the two Create operations are not among them.
 */
const READS_NO_STATE: ReadonlySet<string> = new Set([
  'GetRateQuote 1.0.0',
  'GetRateQuote 1.0.1',
  'GetRateQuote 1.0.3',
  'GetTerminalInformation 1.0.2',
  'GetHazmatDescription sandbox',
]);

/** Whether the operation's reply depends on the request alone (READS_NO_STATE). */
export function readsNoState(op: Pick<OperationDef, 'operation' | 'version'>): boolean {
  return READS_NO_STATE.has(`${op.operation} ${op.version}`);
}

export function handlerFor(op: Pick<OperationDef, 'operation' | 'version'>): OperationHandler | undefined {
  return handlers[`${op.operation} ${op.version}`];
}

/** The request's key, to be masked by value in every log line about it (the first of them may come before invoke). */
export function noteApiKey(params: JsonObject, ctx: SandboxContext): void {
  if (typeof params.APIKey === 'string' && params.APIKey) ctx.noteSecret?.(params.APIKey);
}

/**
 * Checks the key, runs the operation and writes its reply with `write`. What the operation
 * created is kept only once the reply is written (a result the writer cannot print, such as an
 * open record nested too deep, is a fault, and then nothing is kept); it is on disk before this
 * resolves, so before the reply goes out.
 */
export async function invoke<T>(call: Omit<OperationCall, 'changes'>, ctx: SandboxContext, write: (result: JsonObject) => T): Promise<T> {
  noteApiKey(call.params, ctx);
  checkApiKey(call.params, ctx.apiKeys);
  const handler = handlerFor(call.op);
  if (!handler) throw new Error(`no sandbox handler for ${call.op.operation} ${call.op.version}`);
  const changes = ctx.store.begin(ctx.log);
  try {
    const out = write(await handler({ ...call, changes }, ctx));
    await changes.commit();
    return out;
  } catch (e) {
    changes.rollback();
    throw e;
  }
}
