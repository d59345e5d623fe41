/**
 * Base64 document fields (catalog `document: true`: PdfDocument, BolPdf, DocumentData) → decoded
 * documents with a sniffed type, a byte size and a page count. The base64 text is the reply's own
 * string where it is already canonical, so a 15 MB PDF is not held twice.
 */
import { getRecord, type OperationDef } from '../catalog';
import type { RecordDef } from '../catalog/types';
import type { DecodedDocument, Finding } from '../exchange';
import { joinPath } from '../xml/read';
import { countPdfPages } from './pdfPages';
import { walkRecords } from './walk';
import { CONTRACT_CODES } from '../contractCodes';

const NOT_BASE64 = /[^A-Za-z0-9+/=\s]/;
const WHITESPACE = /\s/;

interface Found {
  readonly path: string;
  readonly text: string;
  readonly siblingName?: string;
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100) || 'document';
}

function isPdf(bytes: Buffer): boolean {
  // The header may follow a little junk (ISO 32000-1 §7.5.2 lets readers look in the first 1024 bytes).
  const at = bytes.indexOf('%PDF-');
  return at >= 0 && at < 1024;
}

/** Whether a document field can occur anywhere below `record`; most replies carry none, and are not walked. */
const holdsDocuments = new WeakMap<RecordDef, boolean>();
function canHoldDocuments(record: RecordDef): boolean {
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
  for (const f of found) {
    if (NOT_BASE64.test(f.text)) {
      // A base64Binary value that is not base64: no typed client reads past it (docs/collections.md#contract-findings).
      findings.push({ kind: 'contract', code: 'not-of-type', severity: CONTRACT_CODES['not-of-type'].severity, path: f.path, message: `${f.path} is not base64 text (xs:base64Binary); it is kept as received but not decoded` });
      continue;
    }
    const bytes = Buffer.from(f.text, 'base64');
    const pdf = isPdf(bytes);
    const ext = pdf ? '.pdf' : '.bin';
    let base = f.siblingName ? safeName(f.siblingName) : `${op.operation}-${safeName(f.path.replace(/\[(\d+)\]/g, '-$1'))}`;
    if (!base.toLowerCase().endsWith(ext)) base += ext;
    let name = base;
    for (let i = 2; used.has(name); i++) name = base.replace(/(\.[^.]+)$/, `-${i}$1`);
    used.add(name);
    const pages = pdf ? await countPdfPages(bytes) : undefined;
    if (!pdf) findings.push({ severity: 'info', kind: 'document', path: f.path, message: `${f.path} decodes to ${bytes.length} bytes that are not a PDF` });
    documents.push({
      path: f.path,
      name,
      mediaType: pdf ? 'application/pdf' : 'application/octet-stream',
      size: bytes.length,
      ...(pages !== undefined ? { pages } : {}),
      base64: WHITESPACE.test(f.text) ? bytes.toString('base64') : f.text,
    });
  }
  return { documents, findings };
}
