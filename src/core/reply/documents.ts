/**
 * Base64 document fields (catalog `document: true`: PdfDocument, BolPdf, DocumentData) → decoded
 * documents with a sniffed type, a byte size and a page count. The base64 text is the reply's own
 * string where it is already canonical, so a 15 MB PDF is not held twice.
 *
 * The fields are untrusted: a field that would decode past DOCUMENT_BUDGET (or past what is left
 * of REPLY_DOCUMENTS_BUDGET) is sized from its text and never decoded whole, and a PDF past the
 * page count's budgets (pdfPages.ts) is not counted. Such a document is kept as it came but
 * marked not inspected, with an error naming the budget (docs/wire.md#budgets): what was not
 * read is not called fine, so the exchange is no success (src/core/verdict.ts).
 */
import { getRecord, type OperationDef } from '../catalog';
import type { RecordDef } from '../catalog/types';
import type { DecodedDocument, Finding } from '../exchange';
import { joinPath } from '../xml/read';
import { inspectPdfPages } from './pdfPages';
import { walkRecords } from './walk';
import { CONTRACT_CODES } from '../contractCodes';

const NOT_BASE64 = /[^A-Za-z0-9+/=\s]/;
const WHITESPACE = /\s/;

const MiB = 1024 * 1024;
/** Decoded bytes of one document field: twice the largest PDF the workbench is measured with (15 MB, docs/benchmarks.md). */
export const DOCUMENT_BUDGET = 32 * MiB;
/** Decoded bytes of all the document fields of one reply together; the default maxReplyBytes (64 MiB) of base64 is 48 MiB. */
export const REPLY_DOCUMENTS_BUDGET = 64 * MiB;

/** The bytes a base64 text decodes to, counted without decoding it (Buffer.from skips whitespace and stops at padding). */
function decodedLength(text: string): number {
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d) break;
    if (c > 0x20) chars++;
  }
  return Math.floor((chars * 3) / 4);
}

/** The first bytes of a base64 text (enough to sniff its type), decoded. */
function headOf(text: string): Buffer {
  const head = text.slice(0, 4096).replace(/\s+/g, '');
  return Buffer.from(head.slice(0, head.length - (head.length % 4)), 'base64');
}

interface Found {
  readonly path: string;
  readonly text: string;
  readonly siblingName?: string;
}

function safeName(s: string): string {
  return (
    s
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'document'
  );
}

function isPdf(bytes: Buffer): boolean {
  // The header may follow a little junk (ISO 32000-1 §7.5.2 lets readers look in the first 1024 bytes).
  const at = bytes.indexOf('%PDF-');
  return at >= 0 && at < 1024;
}

/** Whether a document field can occur anywhere below `record`; most replies carry none, and are not walked. */
const holdsDocuments = new WeakMap<RecordDef, boolean>();
export function canHoldDocuments(record: RecordDef): boolean {
  let result = holdsDocuments.get(record);
  if (result === undefined) holdsDocuments.set(record, (result = reaches(record, new Set())));
  return result;
}

/** Along the fields walkRecords follows: an open record's own fields count, its insides are not walked. */
function reaches(record: RecordDef, seen: Set<RecordDef>): boolean {
  if (seen.has(record)) return false;
  seen.add(record);
  if (record.fields.some((f) => f.document)) return true;
  return !record.open && record.fields.some((f) => f.record !== undefined && reaches(getRecord(f.record), seen));
}

export async function decodeDocuments(parsed: unknown, result: RecordDef, op: OperationDef): Promise<{ documents: DecodedDocument[]; findings: Finding[] }> {
  if (!canHoldDocuments(result)) return { documents: [], findings: [] };
  const found: Found[] = [];
  walkRecords(parsed, result, '', (record, value, path) => {
    for (const field of record.fields) {
      if (!field.document) continue;
      const v = value[field.name];
      const name = typeof value.DocumentName === 'string' ? value.DocumentName : undefined;
      if (typeof v === 'string' && v.trim() !== '') found.push({ path: joinPath(path, field.name), text: v, siblingName: name });
    }
  });
  const documents: DecodedDocument[] = [];
  const findings: Finding[] = [];
  const used = new Set<string>();
  let decoded = 0;
  for (const f of found) {
    if (NOT_BASE64.test(f.text)) {
      // A base64Binary value that is not base64: no typed client reads past it (docs/collections.md#contract-findings).
      findings.push({
        kind: 'contract',
        code: 'not-of-type',
        severity: CONTRACT_CODES['not-of-type'].severity,
        path: f.path,
        message: `${f.path} is not base64 text (xs:base64Binary); it is kept as received but not decoded`,
      });
      continue;
    }
    // Three bytes per four characters at most: only a text that may pass a budget is counted exactly.
    const left = Math.min(DOCUMENT_BUDGET, REPLY_DOCUMENTS_BUDGET - decoded);
    const size = (f.text.length * 3) / 4 > left ? decodedLength(f.text) : undefined;
    const over = size !== undefined && size > left;
    const bytes = over ? headOf(f.text) : Buffer.from(f.text, 'base64');
    const pdf = isPdf(bytes);
    const ext = pdf ? '.pdf' : '.bin';
    let base = f.siblingName ? safeName(f.siblingName) : `${op.operation}-${safeName(f.path.replace(/\[(\d+)\]/g, '-$1'))}`;
    if (!base.toLowerCase().endsWith(ext)) base += ext;
    let name = base;
    for (let i = 2; used.has(name); i++) name = base.replace(/(\.[^.]+)$/, `-${i}$1`);
    used.add(name);
    const mediaType = pdf ? 'application/pdf' : 'application/octet-stream';
    if (over) {
      const reason =
        size > DOCUMENT_BUDGET
          ? `it decodes to ${size} bytes, more than ${DOCUMENT_BUDGET / MiB} MiB (the decoding budget per document)`
          : `with the documents before it, the reply's documents decode to more than ${REPLY_DOCUMENTS_BUDGET / MiB} MiB (the decoding budget per reply)`;
      documents.push(notInspected(f, name, mediaType, size, f.text, reason, findings));
      continue;
    }
    decoded += bytes.length;
    const count = pdf ? await inspectPdfPages(bytes) : undefined;
    if (!pdf) findings.push({ severity: 'info', kind: 'document', path: f.path, message: `${f.path} decodes to ${bytes.length} bytes that are not a PDF` });
    const base64 = WHITESPACE.test(f.text) ? bytes.toString('base64') : f.text;
    if (count?.notInspected) {
      documents.push(notInspected(f, name, mediaType, bytes.length, base64, count.notInspected, findings));
      continue;
    }
    const pages = count?.pages;
    documents.push({
      path: f.path,
      name,
      mediaType,
      size: bytes.length,
      ...(pages !== undefined ? { pages } : {}),
      base64,
    });
  }
  return { documents, findings };
}

/** A document past a budget: kept as it came, without a page count, marked, and an error: a green must not vouch for what was not read. */
function notInspected(
  f: Found,
  name: string,
  mediaType: DecodedDocument['mediaType'],
  size: number,
  base64: string,
  reason: string,
  findings: Finding[],
): DecodedDocument {
  findings.push({ severity: 'error', kind: 'document', path: f.path, message: `${f.path} is not inspected: ${reason}; it is kept as received` });
  return { path: f.path, name, mediaType, size, base64, inspected: false, notInspected: reason };
}
