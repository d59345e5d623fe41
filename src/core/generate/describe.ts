/** Hover texts for the generated schema, from the catalog's docs and the contract's types. */
import { getEnumeration, getRecord, shapeLabel, BINDING_LABELS } from '../catalog';
import type { FieldDef, OperationDef } from '../catalog/types';

const TYPE_WORDS: Record<string, string> = {
  string: 'string',
  base64Binary: 'base64 text',
  int: 'integer (or a {{variable}})',
  float: 'number (or a {{variable}})',
  decimal: 'number or decimal string such as "0.10" (or a {{variable}})',
  boolean: 'true or false (or a {{variable}})',
  dateTime: 'xs:dateTime such as "2026-11-23T09:00:00", or a date "2026-11-23"',
};

/** "repeating Item elements (RateItem), as a JSON array", "string, MM/DD/YYYY", … */
export function typePhrase(field: FieldDef): string {
  const simple = () => {
    if (field.enumeration) return `one of ${field.enumeration}`;
    const base = TYPE_WORDS[field.type] ?? field.type;
    return field.format ? `${base}, ${field.format}` : base;
  };
  if (field.list) {
    const item = field.type === 'record' ? `${field.list} records (${field.record})` : `${field.list} values (${simple()})`;
    return `JSON array of ${item} — repeating ${field.list} elements`;
  }
  if (field.type === 'record')
    return getRecord(field.record!).open ? `record ${field.record} (inner fields not expanded: any object)` : `record ${field.record}`;
  return simple();
}

export function fieldDescription(field: FieldDef): { description: string; markdownDescription: string } {
  const flags = [typePhrase(field), field.required && !field.secret ? 'required by the service' : undefined].filter(Boolean).join('; ');
  const doc = field.doc ?? (field.record ? getRecord(field.record).doc : undefined);
  const parts = [`**${field.name}** — ${escapeMd(flags)}`];
  if (doc) parts.push(escapeMd(doc));
  if (field.enumeration) {
    const e = getEnumeration(field.enumeration);
    parts.push(`${e.doc ? `${escapeMd(e.doc)} ` : ''}Values: ${e.values.map((v) => `\`${v}\``).join(', ')}.`);
  } else if (field.suggestions) parts.push(`Usual values: ${field.suggestions.map((v) => `\`${v}\``).join(', ')}.`);
  return { description: [doc, `(${flags})`].filter(Boolean).join(' '), markdownDescription: parts.join('\n\n') };
}

export function shapeDescription(op: OperationDef): string {
  return `${shapeLabel(op)}: ${op.description} Bindings: ${op.bindings.map((b) => `${b} (${BINDING_LABELS[b]})`).join(', ')}.`;
}

function escapeMd(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, '\\$1');
}
