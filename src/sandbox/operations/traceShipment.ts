/**
 * TraceShipment: every trace number gives the shipments it refers to (seeded history and the
 * bills of lading created here), each at its status as of the sandbox clock; a number that
 * refers to nothing gives a Shipment with ErrorMessage, still HTTP 200.
 */
import { fieldLength, type TraceType } from '../carrier';
import type { OperationHandler } from '../context';
import { arr, obj } from '../json';
import { text } from '../text';
import { notFoundRecord, traceRecord, type TraceOptions } from '../trace/present';

/** More numbers than a tracing screen ever shows at once; past this the answer would be a dump. */
const MAX_TRACE_NUMBERS = 50;

export const traceShipment: OperationHandler = ({ params }, ctx) => {
  const request = obj(params.request);
  // Leniency: TraceType left out traces PRO numbers, the kind nearly every caller has.
  const type = (text(request.TraceType) || 'PRO') as TraceType;
  const opts: TraceOptions = {
    formatResults: request.FormatResults === true,
    includeBlind: request.IncludeBlind === true,
    ivr: request.OutputFormat === 'IVR',
  };
  const numbers = arr(request.TraceNumbers)
    .map((n) => text(n))
    .filter(Boolean);
  if (!numbers.length) {
    const message = 'TraceNumbers is empty: give at least one number to trace.';
    return { Result: [{ ErrResponse: { Code: 'NO_NUMBERS', Message: message }, ErrorMessage: message }] };
  }
  if (numbers.length > MAX_TRACE_NUMBERS) {
    const message = `Too many trace numbers (${numbers.length}): trace at most ${MAX_TRACE_NUMBERS} at a time.`;
    return { Result: [{ ErrResponse: { Code: 'TOO_MANY', Message: message }, ErrorMessage: message }] };
  }
  const now = ctx.now();
  const longest = fieldLength('string');
  const result = numbers.flatMap((n) => {
    if (n.length > longest) {
      const message = `TraceNumbers string ${n.slice(0, 40)}… is ${n.length.toLocaleString('en-US')} characters long: a trace number has at most ${longest}.`;
      return [{ ErrResponse: { Code: 'TOO_LONG', Message: message }, ShipmentNumber: n.slice(0, longest), ErrorMessage: message }];
    }
    const found = ctx.store.findShipments(type, n);
    return found.length ? found.map((s) => traceRecord(s, now, opts)) : [notFoundRecord(type, n, opts)];
  });
  return { Result: result };
};
