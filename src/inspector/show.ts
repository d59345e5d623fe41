/**
 * A recorded exchange, readable in a terminal: the request line and headers, the body pretty
 * (XML indented, form fields one per line), the status, the reply the same way, then the fault,
 * the findings and the documents. `carrier inspect --show` prints this.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BINDING_LABELS, documentLine, findingLine, mediaType } from '../core';
import { EXCHANGE_SUFFIX, RECORDING_FORMAT, type RecordingDocument } from './recordings';
import type { InspectedExchange } from './types';

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

/** Spaces at either end of a value, said after its line so they can be seen (the line keeps them). */
function edges(text: string): string {
  if (!text.trim()) return '';
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  const say = (ws: string, where: string) =>
    ws ? `${ws.length} ${where} ${ws.replace(/[^\n\t]/g, '').length ? 'whitespace character' : 'space'}${ws.length === 1 ? '' : 's'}` : '';
  const said = [say(lead, 'leading'), say(trail, 'trailing')].filter(Boolean);
  return said.length ? `   ← ${said.join(', ')}` : '';
}

interface XmlNode {
  readonly start: number;
  end: number;
  readonly open: string;
  readonly children: XmlNode[];
  /** Text (or CDATA) other than whitespace directly inside. */
  text: string;
  closed: boolean;
}

const TOKEN = /<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<!--[\s\S]*?(?:-->|$)|<\?[\s\S]*?(?:\?>|$)|<![^>]*(?:>|$)|<[^>]*(?:>|$)|[^<]+/g;

/**
 * XML for a terminal: an element holding only text (or CDATA) on one line exactly as it came, its
 * edge spaces said after it; mixed content likewise in place; others indented. Nothing is trimmed.
 */
function xmlLines(text: string, cut: boolean): string[] {
  const root: XmlNode = { start: 0, end: text.length, open: '', children: [], text: '', closed: true };
  const stack: XmlNode[] = [root];
  const top = () => stack[stack.length - 1];
  let tail: string | undefined;
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    const at = m.index;
    const whole = (t.startsWith('<![CDATA[') && t.endsWith(']]>')) || (t.startsWith('<!--') && t.endsWith('-->')) || !t.startsWith('<') || t.endsWith('>');
    if (!whole) {
      tail = t;
      break;
    }
    if (!t.startsWith('<') || t.startsWith('<![CDATA[')) {
      if (t.trim()) top().text += t;
      if (stack.length === 1 && t.trim()) root.children.push({ start: at, end: at + t.length, open: '', children: [], text: t, closed: true });
      continue;
    }
    if (t.startsWith('</')) {
      if (stack.length > 1) {
        const n = stack.pop()!;
        n.end = at + t.length;
        n.closed = true;
      }
      continue;
    }
    const node: XmlNode = { start: at, end: at + t.length, open: t, children: [], text: '', closed: true };
    top().children.push(node);
    if (/^<[^!?]/.test(t) && !t.endsWith('/>')) {
      node.closed = false;
      stack.push(node);
    }
  }
  const out: string[] = [];
  const put = (depth: number, line: string) => out.push(`${'  '.repeat(Math.min(depth, 40))}${line}`);
  // Iterative, so a document nested however deep prints without exhausting the stack.
  const work: Array<{ readonly node?: XmlNode; readonly line?: string; readonly depth: number }> = root.children.map((node) => ({ node, depth: 0 })).reverse();
  while (work.length) {
    const { node: n, line, depth } = work.pop()!;
    if (!n) {
      put(depth, line!);
      continue;
    }
    if (!n.open) {
      put(depth, `${n.text}${edges(n.text)}`);
      continue;
    }
    if (!n.closed) {
      put(depth, n.open);
      if (n.text && !n.children.length) work.push({ line: `${n.text}${edges(n.text)}`, depth: depth + 1 });
      for (let i = n.children.length - 1; i >= 0; i--) work.push({ node: n.children[i], depth: depth + 1 });
      continue;
    }
    if (!n.children.length || n.text) {
      const raw = text.slice(n.start, n.end);
      const inner = n.children.length
        ? ''
        : edges(
            raw
              .replace(/^<[^>]*>/, '')
              .replace(/<\/[^>]*>$/, '')
              .replace(/^<!\[CDATA\[|\]\]>$/g, ''),
          );
      put(depth, `${raw}${inner}`);
      continue;
    }
    put(depth, n.open);
    work.push({ line: text.slice(text.lastIndexOf('</', n.end - 1), n.end), depth });
    for (let i = n.children.length - 1; i >= 0; i--) work.push({ node: n.children[i], depth: depth + 1 });
  }
  if (tail !== undefined) put(Math.max(0, stack.length - 1), tail);
  if (cut) out.push('[… the body is cut here: the rest was not kept]');
  else if (tail !== undefined || stack.length > 1) out.push('[the body ends here, inside an element]');
  return out;
}

/** A body for reading: XML indented, form fields one per line, anything else as it is. */
export function prettyBody(text: string, type: string | undefined, cut = false): string {
  if (!text) return '';
  const media = mediaType(type);
  if (media === 'application/x-www-form-urlencoded') {
    return [...new URLSearchParams(text)].map(([n, v]) => `${n} = ${shorten(v)}${edges(v)}`).join('\n');
  }
  if (media.endsWith('xml') || text.trimStart().startsWith('<')) {
    return xmlLines(text, cut).map(shortenLine).join('\n');
  }
  return text.split('\n').map(shorten).join('\n');
}

/** A line over LONGEST_TEXT characters of one value (base64 documents) is shortened, saying so. */
function shortenLine(line: string): string {
  return line.length > LONGEST_TEXT * 2 ? `${line.slice(0, LONGEST_TEXT * 2)}… [${line.length} characters]` : line;
}

/** The first `max` lines of a body, and what was left out. */
function limited(body: string, max: number | undefined): string {
  if (max === undefined) return body;
  const lines = body.split('\n');
  if (lines.length <= max) return body;
  return [...lines.slice(0, max), `[… ${lines.length - max} more line${lines.length - max === 1 ? '' : 's'} of this body not shown (--max-lines ${max})]`].join(
    '\n',
  );
}

export interface ShowOptions {
  /** Lines of each body shown; the rest is counted. */
  readonly maxLines?: number;
}

function headerLines(headers: ReadonlyArray<readonly [string, string]>): string[] {
  return headers.map(([n, v]) => `${n}: ${v}`);
}

function ms(n: number | undefined, label: string): string | undefined {
  return n === undefined ? undefined : `${label} ${n} ms`;
}

export function formatExchange(x: InspectedExchange, files?: RecordingDocument['files'], options: ShowOptions = {}): string {
  const lines: string[] = [];
  const what = x.operation
    ? `${x.operation} ${x.version ?? ''}`.trim() + (x.binding ? ` · ${BINDING_LABELS[x.binding]}` : '')
    : `not a call of the catalog${x.recorded?.reason ? `: ${x.recorded.reason}` : ''}`;
  lines.push(
    `#${x.recorded?.seq ?? '?'} ${what}`,
    `recorded ${x.startedAt}${x.recorded?.client ? ` from ${x.recorded.client}` : ''}${x.environment ? ` · environment ${x.environment}` : ''}`,
    '',
  );
  lines.push(`${x.request.method} ${x.request.url}`, ...headerLines(x.request.headers));
  if (x.request.body) lines.push('', limited(prettyBody(x.request.body, contentType(x.request.headers), x.recorded?.requestBodyTruncated), options.maxLines));
  if (x.recorded?.requestBodyTruncated) lines.push(`[request body cut: ${x.sizes?.requestBytes ?? '?'} bytes in all]`);
  if (x.wire?.requestTrailers) lines.push('', 'Trailers:', ...headerLines(x.wire.requestTrailers));
  lines.push('');
  const t = x.timing;
  // Upload, first byte and download add up to the total; connecting overlaps the upload.
  const phases = t ? [ms(t.uploadMs, 'upload'), ms(t.firstByteMs, 'first byte'), ms(t.downloadMs, 'download')].filter(Boolean).join(', ') : '';
  const connect = t?.connectMs !== undefined ? `${phases ? '; ' : ''}connect ${t.connectMs} ms${t.uploadMs !== undefined ? ' within the upload' : ''}` : '';
  const timing = t ? `${t.totalMs} ms${phases || connect ? ` (${phases}${connect})` : ''}` : '';
  for (const i of x.wire?.interim ?? [])
    lines.push(`HTTP ${i.status}${i.statusText ? ` ${i.statusText}` : ''} (interim, relayed to the client)`, ...headerLines(i.headers), '');
  const sizes = `sent ${x.sizes?.requestBytes ?? 0} bytes, received ${x.sizes?.replyBytes ?? 0} bytes`;
  if (x.reply) {
    lines.push(`HTTP ${x.reply.status}${x.reply.statusText ? ` ${x.reply.statusText}` : ''} · ${timing} · ${sizes}`, ...headerLines(x.reply.headers));
    if (x.reply.bodyText) lines.push('', limited(prettyBody(x.reply.bodyText, contentType(x.reply.headers), x.recorded?.replyBodyTruncated), options.maxLines));
    if (x.recorded?.replyBodyTruncated) lines.push(`[reply body cut: ${x.reply.size} bytes in all]`);
    if (x.wire?.replyTrailers) lines.push('', 'Trailers:', ...headerLines(x.wire.replyTrailers));
  } else if (x.wire?.answered) {
    const a = x.wire.answered;
    lines.push(`No reply from the target: the inspector answered ${a.status}${a.statusText ? ` ${a.statusText}` : ''} itself · ${timing} · ${sizes}`);
  } else {
    lines.push(`No reply · ${timing} · ${sizes}`);
  }
  if (x.error) lines.push('', `Error (${x.error.kind}): ${x.error.message}`);
  if (x.fault) {
    lines.push('', `SOAP ${x.fault.soapVersion} fault`, `  code:   ${[x.fault.code, ...x.fault.subcodes].join(' / ')}`, `  reason: ${x.fault.reason}`);
    if (x.fault.detail !== undefined && x.fault.detail !== '') lines.push(`  detail: ${JSON.stringify(x.fault.detail)}`);
  }
  const shown = x.findings.filter((f) => !(x.fault && f.kind === 'fault') && !(x.error && f.kind === 'transport'));
  if (shown.length) lines.push('', 'Findings:', ...shown.map((f) => `  ${findingLine(f)}`));
  if (x.documents.length) {
    lines.push('', 'Documents:');
    for (const d of x.documents) lines.push(`  ${documentLine(d)}`);
  }
  if (files) {
    const beside = [files.requestBody, files.replyBody, files.requestFile].filter(Boolean);
    if (beside.length) lines.push('', `Beside it: ${beside.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
