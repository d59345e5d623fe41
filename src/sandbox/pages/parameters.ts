/**
 * The parameters section of an operation page: each parameter with its type, and every record
 * the parameters use, once, in a table of its own that the types link to.
 */
import { getEnumeration, getRecord, type FieldDef, type OperationDef, type RecordDef } from '../../core';
import { esc } from './html';

const recordId = (name: string) => `record-${name}`;
const recordLink = (name: string) => `<a href="#${esc(recordId(name))}"><code>${esc(name)}</code></a>`;

function simpleType(field: FieldDef): string {
  const base = `<code>${esc(field.type)}</code>${field.format ? ` <span class="muted">(${esc(field.format)})</span>` : ''}`;
  if (!field.enumeration) return base;
  const values = getEnumeration(field.enumeration).values;
  return `${base}, one of <code>${esc(field.enumeration)}</code><span class="values">${values.map(esc).join(' · ')}</span>`;
}

function typeHtml(field: FieldDef): string {
  if (field.list) {
    const item = field.record ? recordLink(field.record) : simpleType(field);
    return `repeating <code>${esc(field.list)}</code> elements, each ${item}`;
  }
  if (field.record) return `record ${recordLink(field.record)}`;
  return simpleType(field);
}

function describe(field: FieldDef): string {
  // The catalog's note on APIKey is about request files; on this page the reader types the key.
  if (field.secret) return 'The API key that identifies the caller; it comes first.';
  const doc = field.doc ?? (field.record ? getRecord(field.record).doc : undefined);
  return doc ? esc(doc) : '';
}

function fieldsTable(fields: readonly FieldDef[], caption: string): string {
  const rows = fields
    .map(
      (f) =>
        `<tr><td><code>${esc(f.name)}</code>${f.required ? ' <span class="req">required</span>' : ''}</td><td>${typeHtml(f)}</td><td>${describe(f)}</td></tr>`,
    )
    .join('\n');
  return `<table>
<caption class="visually-hidden">${esc(caption)}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Notes</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

/** Records the fields reach, each once, in the order a reader meets them. */
export function recordsUsed(fields: readonly FieldDef[]): RecordDef[] {
  const seen = new Map<string, RecordDef>();
  const visit = (list: readonly FieldDef[]) => {
    for (const f of list) {
      if (!f.record || seen.has(f.record)) continue;
      const r = getRecord(f.record);
      seen.set(r.name, r);
      visit(r.fields);
    }
  };
  visit(fields);
  return [...seen.values()];
}

export function parametersHtml(op: OperationDef): string {
  const http = op.bindings.includes('get') || op.bindings.includes('post');
  const notes = [
    'Names are case-sensitive; children appear in the order listed.',
    http ? 'In HTTP GET and POST every parameter travels as text, including those typed <code>int</code>.' : '',
  ]
    .filter(Boolean)
    .map((n) => `<p class="muted">${n}</p>`)
    .join('\n');
  return `${fieldsTable(op.parameters, `Parameters of ${op.operation}`)}\n${notes}`;
}

/** One table per record the parameters use; empty when they are all simple. */
export function recordsHtml(op: OperationDef): string {
  return recordsUsed(op.parameters)
    .map((r) => {
      const body = r.open
        ? `<p class="muted">${esc(r.doc ?? 'Inner fields not expanded by the contract.')} Any content is accepted.</p>`
        : `${r.doc ? `<p class="muted">${esc(r.doc)}</p>` : ''}${fieldsTable(r.fields, `Fields of ${r.name}`)}`;
      return `<h3 id="${esc(recordId(r.name))}"><code>${esc(r.name)}</code><span class="ns">children in ${esc(r.ns === 'service' ? '{service_namespace}' : r.ns === 'data' ? '{data_namespace}' : '{pickup_namespace}')}</span></h3>\n${body}`;
    })
    .join('\n');
}
