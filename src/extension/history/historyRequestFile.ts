/**
 * A History entry as a request file: its request (as kept, the key masked) read along the
 * catalog, then written the way the Traffic Inspector's Save as Request File writes one — a
 * recorded exchange by the inspector's own recordedRequestFile (what a replay cannot reproduce is
 * said), one the workbench sent with a comment saying when and where it went. The key is never
 * carried over: a request file sends the environment's.
 */
import type { Exchange, Namespaces } from '../../core';
import { engine } from '../engineBundle';

export type HistoryRequestFile = { readonly text: string; readonly name: string } | { readonly problem: string };

export function historyRequestFile(exchange: Exchange, namespaces: Namespaces): HistoryRequestFile {
  const { recognizeEnvelopeText, recordedRequestFile, requestFileFromRecognized } = engine();
  const r = exchange.request;
  // The request as `carrier envelope` prints one, which recognition reads whole (method, URL, headers, body).
  const message = `${r.method} ${r.url}\n${r.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${r.body}`;
  const recognized = recognizeEnvelopeText(message, namespaces);
  if (recognized.kind !== 'operation' || !recognized.params) {
    return { problem: recognized.kind === 'operation' ? 'its request body was not kept whole' : `it is not a call of the service: ${recognized.reason}` };
  }
  const when = exchange.startedAt.slice(0, 19).replace('T', ' ');
  const stem = `${recognized.operation}-${recognized.version}`.replace(/[^\w.-]+/g, '_');
  if (exchange.recorded) {
    const text = recordedRequestFile({ exchange, recognition: recognized }, [], exchange.environment);
    return text ? { text, name: `${stem}-recorded-${String(exchange.recorded.seq).padStart(3, '0')}` } : { problem: 'it is not a call of the service' };
  }
  const text = requestFileFromRecognized(recognized, {
    ...(exchange.environment ? { environment: exchange.environment } : {}),
    description: `${recognized.operation} ${recognized.version} as sent on ${when}`,
    comment: [`From Carrier History: ${r.method} ${r.url} on ${when}${exchange.source ? `, sent from ${exchange.source}` : ''}`],
  });
  return { text, name: stem };
}
