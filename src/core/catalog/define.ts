/**
 * A small vocabulary for writing the catalog so each record reads like a table of the contract:
 * `str('Name')`, `int('BolID')`, `rec('Shipper', 'BolParty')`, `list('Items', 'Item', 'BolItem')`,
 * `enumList('Accessorials', 'RQAccessorial', 'RQAccessorial')`.
 */
import type { FieldDef, NamespaceRole, RecordDef, XsdType } from './types';

type Extra = Omit<Partial<FieldDef>, 'name' | 'type' | 'record' | 'list'>;

const leaf =
  (type: XsdType) =>
  (name: string, extra: Extra = {}): FieldDef => ({ name, type, ...extra });

export const str = leaf('string');
export const int = leaf('int');
export const float = leaf('float');
export const dec = leaf('decimal');
export const bool = leaf('boolean');
export const dateTime = leaf('dateTime');
export const base64 = leaf('base64Binary');

/** A string leaf restricted to an enumeration of the same name unless told otherwise. */
export const enumOf = (name: string, enumeration: string, extra: Extra = {}): FieldDef => ({ name, type: 'string', enumeration, ...extra });

export const rec = (name: string, record: string, extra: Extra = {}): FieldDef => ({ name, type: 'record', record, ...extra });

/** A container element holding repeating `item` elements, each a record. */
export const list = (name: string, item: string, record: string, extra: Extra = {}): FieldDef => ({ name, type: 'record', record, list: item, ...extra });

/** A container element holding repeating simple `item` elements. */
export const simpleList = (name: string, item: string, type: XsdType, extra: Extra = {}): FieldDef => ({ name, type, list: item, ...extra });

/** A container element holding repeating enumeration values. */
export const enumList = (name: string, item: string, enumeration: string, extra: Extra = {}): FieldDef => ({
  name,
  type: 'string',
  list: item,
  enumeration,
  ...extra,
});

export const record = (name: string, ns: NamespaceRole, fields: FieldDef[], extra: Partial<Omit<RecordDef, 'name' | 'ns' | 'fields'>> = {}): RecordDef => ({
  name,
  ns,
  fields,
  ...extra,
});

/** A record whose inner fields neither the contract nor the carrier's facts give (docs/carrier-facts.md#gaps). */
export const openRecord = (name: string, ns: NamespaceRole, doc: string): RecordDef => ({ name, ns, fields: [], open: true, doc });

/** The same fields as a record in another namespace (e.g. a location point whose children are in {data_namespace}). */
export const inNamespace = (r: RecordDef, name: string, ns: NamespaceRole): RecordDef => ({ ...r, name, ns });
