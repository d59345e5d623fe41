/**
 * `GET {path}?op=<Operation>`: one operation of a service path, as an ASMX help page shows it —
 * its description and bindings, a test form, its parameters and records, and a sample request
 * and reply for every binding it offers.
 */
import { BINDING_LABELS, plain, sampleParams, soapEnvelope, type Binding, type Namespaces, type OperationDef } from '../../core';
import { addWorkingDays, formatUsDate, HOME_ZONE, isoDay, localDay } from '../carrier';
import type { Reply } from '../http/reply';
import { esc, page } from './html';
import { relativeHref } from './links';
import { isLoopback } from './loopback';
import { parametersHtml, recordsHtml } from './parameters';
import { partsHtml, samplesFor } from './samples';
import { httpPostForm, soapForm, soapFormUnavailable, type SoapFormState, type SoapVersion } from './testForms';

export interface OperationPageInput {
  readonly path: string;
  readonly op: OperationDef;
  readonly namespaces: Namespaces;
  /** Host header as the browser reached the sandbox (for the samples). */
  readonly host: string;
  /** The connection's peer address: decides whether a SOAP-only operation gets its test form. */
  readonly remoteAddress: string | undefined;
  /** `?soap=1.2` starts the SOAP form from the SOAP 1.2 sample. */
  readonly soapVersion?: SoapVersion;
  /** After a test-form round trip: what was sent and what came back. */
  readonly soapState?: SoapFormState;
  readonly status?: number;
  /** The sandbox's clock when the page is served: the forms' dates are the next business day from it. */
  readonly now?: Date;
  /** The sandbox takes any key: the HTTP form's APIKey is filled with the sample key, so it works as served. */
  readonly anyKey?: boolean;
}

/** A placeholder key: the sandbox accepts any non-empty key unless it was started with a list. */
export const SAMPLE_API_KEY = 'API_KEY';

export const hasHttpBinding = (op: OperationDef): boolean => op.bindings.includes('get') || op.bindings.includes('post');

/**
 * The generators' sample values with their dates moved to the next business day after `now` (as
 * `{{run.nextBusinessDay}}` does in request files): a fixed sample date is in the past one day,
 * and the carrier refuses a pickup, a bill of lading or a transit time for a past day.
 */
export function servedSample(op: OperationDef, now: Date = new Date()): Record<string, unknown> {
  const day = addWorkingDays(localDay(now, HOME_ZONE), 1);
  const dated = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => dated(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, dated(x, k)]));
    if (key === 'BOLDate' || key === 'PickupDate') return formatUsDate(day);
    if (key === 'DateOfPickup') return `${isoDay(day)}T00:00:00`;
    return v;
  };
  return dated(plain(sampleParams(op))) as Record<string, unknown>;
}

/** A realistic envelope (the generators' sample values, dated from `now`) to start the SOAP test form from. */
export function sampleEnvelope(op: OperationDef, version: SoapVersion, namespaces: Namespaces, now?: Date): string {
  const params = { APIKey: SAMPLE_API_KEY, ...servedSample(op, now) };
  return soapEnvelope(version, op, params, namespaces);
}

function sampleFormValues(op: OperationDef, now: Date | undefined, anyKey: boolean): Record<string, string> {
  const values = servedSample(op, now);
  return { ...(anyKey ? { APIKey: SAMPLE_API_KEY } : {}), ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) };
}

const SECTION_IDS: Record<Binding, string> = { soap11: 'soap11', soap12: 'soap12', get: 'http-get', post: 'http-post' };

function testSection(input: OperationPageInput): string {
  const { op, path } = input;
  if (op.bindings.includes('post')) return httpPostForm(path, op, sampleFormValues(op, input.now, input.anyKey ?? false));
  if (hasHttpBinding(op)) return '<p class="muted">This operation offers HTTP GET; use the sample URL below.</p>';
  if (!isLoopback(input.remoteAddress)) return soapFormUnavailable(op, input.remoteAddress);
  const version = input.soapState?.version ?? input.soapVersion ?? '1.1';
  return soapForm(path, op, input.soapState ?? { version, envelope: sampleEnvelope(op, version, input.namespaces, input.now) });
}

export function operationPage(input: OperationPageInput): Reply {
  const { op, path } = input;
  const samples = samplesFor(op, { path, host: input.host, namespaces: input.namespaces });
  const records = recordsHtml(op);
  const toc = [
    ['test', 'Test'],
    ['parameters', 'Parameters'],
    ...(records ? [['records', 'Records']] : []),
    ...samples.map((s) => [SECTION_IDS[s.binding], BINDING_LABELS[s.binding]]),
  ]
    .map(([id, label]) => `<li><a href="#${id}">${esc(label)}</a></li>`)
    .join('');
  const sampleSections = samples
    .map(
      (s) => `<section aria-labelledby="${SECTION_IDS[s.binding]}">
<h2 id="${SECTION_IDS[s.binding]}">${esc(BINDING_LABELS[s.binding])}</h2>
<p class="sample-note">A sample ${esc(BINDING_LABELS[s.binding])} request and reply. Replace the <span class="ph">placeholders</span> with actual values.</p>
<h3>Request</h3>
<pre>${partsHtml(s.request)}</pre>
<h3>Reply</h3>
<pre>${partsHtml(s.reply)}</pre>
</section>`,
    )
    .join('\n');
  const body = `<h1>${esc(op.operation)}<span class="version">${esc(op.service)} ${esc(op.version)}</span></h1>
<p class="lead">${esc(op.description)}</p>
<p class="badges">${op.bindings.map((b) => `<span class="badge${b === 'get' || b === 'post' ? ' http' : ''}">${esc(BINDING_LABELS[b])}</span>`).join('')}</p>
<ul class="toc">${toc}</ul>
<section aria-labelledby="test"><h2 id="test">Test</h2>
${testSection(input)}
</section>
<section aria-labelledby="parameters"><h2 id="parameters">Parameters</h2>
${parametersHtml(op)}
</section>
${records ? `<section aria-labelledby="records"><h2 id="records">Records</h2>\n${records}\n</section>` : ''}
${sampleSections}`;
  return page({
    status: input.status,
    title: `${op.operation} — ${op.service} ${op.version}`,
    trail: [
      [`${op.service} ${op.version}`, relativeHref(path, path)],
      [op.operation, undefined],
    ],
    body,
  });
}
