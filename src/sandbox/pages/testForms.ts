/**
 * The test forms of an operation page (docs/wire.md#transport-rule-8). Operations with HTTP bindings get a
 * plain form of their parameters that posts to the HTTP POST binding, from any client. SOAP-only
 * operations get an envelope to edit and send, from the local machine only; elsewhere the page
 * says why there is no form. Both work without scripts.
 */
import { STATUS_CODES } from 'node:http';
import type { OperationDef } from '../../core';
import { esc } from './html';
import { httpOperationHref, operationPageHref, relativeHref } from './links';

export type SoapVersion = '1.1' | '1.2';

/** A SOAP call made through the form: the request as it went in, the reply as it came out. */
export interface SoapExchange {
  /** Request line, headers, blank line and body, exactly as handled. */
  readonly request: string;
  readonly status: number;
  /** Status line and headers of the reply. */
  readonly replyHead: string;
  readonly replyBody: string;
  /** The body indented for reading, when it is XML. */
  readonly replyBodyIndented?: string;
}

export interface SoapFormState {
  readonly version: SoapVersion;
  readonly envelope: string;
  readonly exchange?: SoapExchange;
}

function leafHint(p: OperationDef['parameters'][number]): string {
  if (p.secret) return 'Your API key.';
  return [p.type, p.format, p.doc].filter(Boolean).join(' — ');
}

/** The HTTP POST form: one text field per parameter, prefilled with sample values (`values`). */
export function httpPostForm(path: string, op: OperationDef, values: Readonly<Record<string, string>>): string {
  const rows = op.parameters
    .map((p) => {
      const id = `param-${p.name}`;
      const value = values[p.name];
      return `<div class="row"><label for="${esc(id)}">${esc(p.name)}</label><input type="text" id="${esc(id)}" name="${esc(p.name)}"${value !== undefined ? ` value="${esc(value)}"` : ''}${p.secret ? ' placeholder="API key" autocomplete="off"' : ''} spellcheck="false"><span class="hint">${esc(leafHint(p))}</span></div>`;
    })
    .join('\n');
  const action = httpOperationHref(path, op.operation);
  return `<p>Fill in the parameters and press <b>Invoke</b>: the form posts them with the HTTP POST binding to <code>${esc(action)}</code>, and the browser shows the XML reply.</p>
<form class="test panel" method="post" action="${esc(relativeHref(path, action))}">
${rows}
<div class="actions"><button type="submit">Invoke</button></div>
</form>`;
}

function exchangeHtml(x: SoapExchange): string {
  const ok = x.status >= 200 && x.status < 300;
  const statusText = `${x.status} ${STATUS_CODES[x.status] ?? ''}`.trim();
  const indented = x.replyBodyIndented !== undefined && x.replyBodyIndented !== x.replyBody;
  return `<section id="result" aria-labelledby="result-title">
<h3 id="result-title">Reply <span class="status ${ok ? 'ok' : 'bad'}">${esc(statusText)}</span></h3>
${indented ? '<p class="sample-note">The body is indented here for reading; the exact bytes follow the reply.</p>\n' : ''}<pre class="reply">${esc(x.replyHead)}\n\n${esc(indented ? x.replyBodyIndented! : x.replyBody)}</pre>
${indented ? `<details><summary>Reply body exactly as sent</summary><pre class="reply-exact">${esc(x.replyBody)}</pre></details>` : ''}
<h3>Request</h3>
<pre class="request">${esc(x.request)}</pre>
</section>`;
}

/** The SOAP form (loopback only): the envelope in a textarea, SOAP 1.1 or 1.2, posted back to the operation page. */
export function soapForm(path: string, op: OperationDef, state: SoapFormState): string {
  const other: SoapVersion = state.version === '1.1' ? '1.2' : '1.1';
  const radio = (v: SoapVersion) => `<label><input type="radio" name="soap" value="${v}"${v === state.version ? ' checked' : ''}> SOAP ${v}</label>`;
  // The fragment brings the reader straight to the reply after the round trip.
  const action = `${operationPageHref(path, op.operation)}#result`;
  // HTML drops one newline right after <textarea>; writing one keeps the envelope byte for byte.
  return `${state.exchange ? exchangeHtml(state.exchange) : ''}
<p>Edit the envelope and press <b>Invoke</b>: the sandbox sends it to its own SOAP endpoint at <code>${esc(path)}</code> (SOAP 1.1 with a <code>SOAPAction</code> header, SOAP 1.2 as <code>application/soap+xml</code>) and shows the exact request and reply. The envelope's namespace has to match the version chosen.</p>
<form class="test panel" method="post" action="${esc(relativeHref(path, action))}">
<fieldset><legend>Send as</legend>${radio('1.1')}${radio('1.2')}</fieldset>
<label for="envelope" class="visually-hidden">Envelope</label>
<textarea id="envelope" name="envelope" spellcheck="false" autocomplete="off" rows="24">
${esc(state.envelope)}</textarea>
<div class="actions"><button type="submit">Invoke</button><a href="${esc(relativeHref(path, operationPageHref(path, op.operation, { soap: other })))}">Start over from the SOAP ${other} sample</a></div>
</form>`;
}

/** What a reader off the local machine sees instead of the SOAP form. */
export function soapFormUnavailable(op: OperationDef, remoteAddress: string | undefined): string {
  return `<p class="notice" id="no-test-form">The test form is only available for requests from the local machine. ${esc(op.operation)} is offered over SOAP only, and its test form sends SOAP requests on your behalf, so the sandbox offers it only to a browser on the machine it runs on${remoteAddress ? ` (this page was requested from ${esc(remoteAddress)})` : ''}. Send the SOAP request shown below with any SOAP client instead, or open this page on that machine.</p>`;
}
