/**
 * A recorded exchange, readable in a terminal: the request line and headers, the body pretty
 * (XML indented, form fields one per line), the status, the reply the same way, then the fault,
 * the findings and the documents. `carrier inspect --show` prints this.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BINDING_LABELS, mediaType, prettyLines, type Exchange, type Finding } from '../core';
import { EXCHANGE_SUFFIX, RECORDING_FORMAT, type RecordingDocument } from './recordings';

/** Text runs longer than this (base64 documents) are shortened. */
const LONGEST_TEXT = 160;

export class RecordingError extends Error {}

/** Reads an `.exchange.json`; any other file of the same exchange (`007-GetRateQuote.reply.xml`) leads to it. */
export function readRecording(file: string): { file: string; doc: RecordingDocument } {
  let target = file;
  if (!file.endsWith(EXCHANGE_SUFFIX)) {
    const prefix = /^(\d+-[^.]+)\./.exec(path.basename(file))?.[1];
    const sibling = prefix && path.join(path.dirname(file), `${prefix}${EXCHANGE_SUFFIX}`);
    if (!sibling || !fs.existsSync(sibling)) throw new RecordingError(`${file} is not a recorded exchange (NNN-<Operation>${EXCHANGE_SUFFIX})`);
    target = sibling;
  }
  let doc: RecordingDocument;
  try {
    doc = JSON.parse(fs.readFileSync(target, 'utf8')) as RecordingDocument;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RecordingError(code === 'ENOENT' ? `${target}: no such file` : `${target} cannot be read: ${(e as Error).message}`);
  }
  if (doc?.format !== RECORDING_FORMAT || !doc.exchange) throw new RecordingError(`${target} is not a recording of the Carrier traffic inspector`);
  return { file: target, doc };
}

function shorten(text: string): string {
  return text.length > LONGEST_TEXT ? `${text.slice(0, LONGEST_TEXT)}… [${text.length} characters]` : text;
}

function contentType(headers: ReadonlyArray<readonly [string, string]>): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
}

/** A body for reading: XML indented, form fields one per line, anything else as it is. */
export function prettyBody(text: string, type: string | undefined): string {
  if (!text) return '';
  const media = mediaType(type);
  if (media === 'application/x-www-form-urlencoded') {
    return [...new URLSearchParams(text)].map(([n, v]) => `${n} = ${shorten(v)}`).join('\n');
  }
  if (media.endsWith('xml') || text.trimStart().startsWith('<')) {
    return prettyLines(text).map((l) => '  '.repeat(l.depth) + l.pieces.map((p) => (p.cls === 'text' || p.cls === 'cdata' ? shorten(p.text) : p.text)).join('')).join('\n');
  }
  return text.split('\n').map(shorten).join('\n');
}

function headerLines(headers: ReadonlyArray<readonly [string, string]>): string[] {
  return headers.map(([n, v]) => `${n}: ${v}`);
}

function findingLine(f: Finding): string {
  return `  ${f.severity.padEnd(7)} ${f.path ? `${f.path}: ` : ''}${f.message}`;
}

function ms(n: number | undefined, label: string): string | undefined {
  return n === undefined ? undefined : `${label} ${n} ms`;
}

export function formatExchange(x: Exchange, files?: RecordingDocument['files']): string {
  const lines: string[] = [];
  const what = x.operation ? `${x.operation} ${x.version ?? ''}`.trim() + (x.binding ? ` · ${BINDING_LABELS[x.binding]}` : '') : `not a call of the catalog${x.recorded?.reason ? `: ${x.recorded.reason}` : ''}`;
  lines.push(`#${x.recorded?.seq ?? '?'} ${what}`, `recorded ${x.startedAt}${x.recorded?.client ? ` from ${x.recorded.client}` : ''}${x.environment ? ` · environment ${x.environment}` : ''}`, '');
  lines.push(`${x.request.method} ${x.request.url}`, ...headerLines(x.request.headers));
  if (x.request.body) lines.push('', prettyBody(x.request.body, contentType(x.request.headers)));
  if (x.recorded?.requestBodyTruncated) lines.push(`[request body cut: ${x.sizes?.requestBytes ?? '?'} bytes in all]`);
  lines.push('');
  const t = x.timing;
  const phases = t ? [ms(t.connectMs, 'connect'), ms(t.firstByteMs, 'first byte'), ms(t.downloadMs, 'download')].filter(Boolean) : [];
  const timing = t ? `${t.totalMs} ms${phases.length ? ` (${phases.join(', ')})` : ''}` : '';
  const sizes = `sent ${x.sizes?.requestBytes ?? 0} bytes, received ${x.sizes?.replyBytes ?? 0} bytes`;
  if (x.reply) {
    lines.push(`HTTP ${x.reply.status}${x.reply.statusText ? ` ${x.reply.statusText}` : ''} · ${timing} · ${sizes}`, ...headerLines(x.reply.headers));
    if (x.reply.bodyText) lines.push('', prettyBody(x.reply.bodyText, contentType(x.reply.headers)));
    if (x.recorded?.replyBodyTruncated) lines.push(`[reply body cut: ${x.reply.size} bytes in all]`);
  } else {
    lines.push(`No reply · ${timing} · ${sizes}`);
  }
  if (x.error) lines.push('', `Error (${x.error.kind}): ${x.error.message}`);
  if (x.fault) {
    lines.push('', `SOAP ${x.fault.soapVersion} fault`, `  code:   ${[x.fault.code, ...x.fault.subcodes].join(' / ')}`, `  reason: ${x.fault.reason}`);
    if (x.fault.detail !== undefined && x.fault.detail !== '') lines.push(`  detail: ${JSON.stringify(x.fault.detail)}`);
  }
  const shown = x.findings.filter((f) => !(x.fault && f.kind === 'fault') && !(x.error && f.kind === 'transport'));
  if (shown.length) lines.push('', 'Findings:', ...shown.map(findingLine));
  if (x.documents.length) {
    lines.push('', 'Documents:');
    for (const d of x.documents) lines.push(`  ${d.name}  ${d.mediaType}  ${d.size} bytes${d.pages !== undefined ? `  ${d.pages} page${d.pages === 1 ? '' : 's'}` : ''}  (${d.path})`);
  }
  if (files) {
    const beside = [files.requestBody, files.replyBody, files.requestFile].filter(Boolean);
    if (beside.length) lines.push('', `Beside it: ${beside.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
