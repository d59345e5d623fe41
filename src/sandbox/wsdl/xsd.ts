/**
 * XML Schema generated from the catalog for the operations of one service path, in the style an
 * ASMX service publishes: one schema per namespace URI (roles that share a URI share a schema,
 * with imports where the URIs differ), elementFormDefault qualified, a complexType per record in
 * field order, ArrayOf… containers for lists, enumerations as string restrictions, open records
 * as xs:any, minOccurs 0 except for required value types.
 */
import {
  catalogMinOccurs,
  elementNs,
  getEnumeration,
  getRecord,
  listItemNs,
  parametersRecord,
  type FieldDef,
  type NamespaceRole,
  type Namespaces,
  type OperationDef,
  type RecordDef,
} from '../../core';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

class Schema {
  readonly imports = new Set<string>();
  readonly parts: string[] = [];
  constructor(readonly uri: string) {}
}

export interface GeneratedSchemas {
  /** Prefix of every namespace URI the schemas use (the service namespace is `tns`). */
  readonly prefixes: ReadonlyMap<string, string>;
  /** `<s:schema>` elements, the service namespace's first. */
  readonly schemas: readonly string[];
}

class Generator {
  private readonly schemas = new Map<string, Schema>();
  readonly prefixes = new Map<string, string>();
  private readonly defined = new Set<string>();
  private readonly arrayNames = new Map<string, string>();
  private readonly takenNames = new Set<string>();

  constructor(private readonly ns: Namespaces) {
    const names: Record<NamespaceRole, string> = { service: 'tns', data: 'dat', pickup: 'pu' };
    for (const role of ['service', 'data', 'pickup'] as const) {
      if (!this.prefixes.has(ns[role])) this.prefixes.set(ns[role], names[role]);
    }
    this.schema(ns.service);
  }

  private schema(uri: string): Schema {
    let s = this.schemas.get(uri);
    if (!s) this.schemas.set(uri, (s = new Schema(uri)));
    return s;
  }

  /** A qualified reference from a schema to a name defined in `target`'s schema. */
  private ref(from: string, target: string, name: string): string {
    if (from !== target) this.schema(from).imports.add(target);
    return `${this.prefixes.get(target)}:${name}`;
  }

  private uri(role: NamespaceRole): string {
    return this.ns[role];
  }

  /** `<s:element>` declarations of `fields`, whose element content is in `parentRole`. */
  private elements(fields: readonly FieldDef[], parentRole: NamespaceRole): string {
    const home = this.uri(parentRole);
    return fields
      .map((f) => {
        if (this.uri(elementNs(f, parentRole)) !== home) {
          // A field in another namespace than its siblings would need a global element and a ref.
          throw new Error(`wsdl: ${f.name} overrides its namespace; element refs are not generated`);
        }
        const min = catalogMinOccurs(f);
        return `<s:element minOccurs="${min}" maxOccurs="1" name="${f.name}" type="${this.typeOf(f, parentRole, home)}" />`;
      })
      .join('');
  }

  private typeOf(field: FieldDef, parentRole: NamespaceRole, from: string): string {
    if (field.list) return this.arrayType(field, parentRole, from);
    if (field.record) {
      const rec = getRecord(field.record);
      this.record(rec);
      return this.ref(from, this.uri(rec.ns), rec.name);
    }
    if (field.enumeration) return this.enumeration(field.enumeration, from);
    return `s:${field.type}`;
  }

  record(rec: RecordDef): void {
    const key = `record:${rec.name}`;
    if (this.defined.has(key)) return;
    this.defined.add(key);
    this.takenNames.add(`${this.uri(rec.ns)}|${rec.name}`);
    const content = rec.open
      ? '<s:sequence><s:any minOccurs="0" maxOccurs="unbounded" processContents="lax" /></s:sequence>'
      : `<s:sequence>${this.elements(rec.fields, rec.ns)}</s:sequence>`;
    this.schema(this.uri(rec.ns)).parts.push(`<s:complexType name="${rec.name}">${content}</s:complexType>`);
  }

  private enumeration(name: string, from: string): string {
    const home = this.uri('service');
    const key = `enum:${name}`;
    if (!this.defined.has(key)) {
      this.defined.add(key);
      this.takenNames.add(`${home}|${name}`);
      const values = getEnumeration(name)
        .values.map((v) => `<s:enumeration value="${escapeAttr(v)}" />`)
        .join('');
      this.schema(home).parts.push(`<s:simpleType name="${name}"><s:restriction base="s:string">${values}</s:restriction></s:simpleType>`);
    }
    return this.ref(from, home, name);
  }

  private arrayType(field: FieldDef, parentRole: NamespaceRole, from: string): string {
    const itemRole = listItemNs(field, parentRole);
    const home = this.uri(itemRole);
    const item = field.list!;
    const of = field.record ?? field.enumeration ?? field.type;
    const key = `${home}|${item}|${of}`;
    let name = this.arrayNames.get(key);
    if (!name) {
      const cap = item[0].toUpperCase() + item.slice(1);
      const candidates = [`ArrayOf${cap}`, `ArrayOf${cap}${of[0].toUpperCase()}${of.slice(1)}`];
      name = candidates.find((c) => !this.takenNames.has(`${home}|${c}`));
      for (let i = 2; !name; i++) if (!this.takenNames.has(`${home}|${candidates[1]}${i}`)) name = `${candidates[1]}${i}`;
      this.takenNames.add(`${home}|${name}`);
      this.arrayNames.set(key, name);
      const itemType = field.record
        ? (this.record(getRecord(field.record)), this.ref(home, this.uri(getRecord(field.record).ns), field.record))
        : field.enumeration
          ? this.enumeration(field.enumeration, home)
          : `s:${field.type}`;
      // Reference-type items may be nil (xsi:nil placeholders); enumerations and numbers may not.
      const nillable = field.record || (!field.enumeration && (field.type === 'string' || field.type === 'base64Binary')) ? ' nillable="true"' : '';
      this.schema(home).parts.push(
        `<s:complexType name="${name}"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="${item}"${nillable} type="${itemType}" /></s:sequence></s:complexType>`,
      );
    }
    return this.ref(from, home, name);
  }

  /** The global elements of one operation: its wrapper, its response and (HTTP bindings) its bare reply root. */
  operation(op: OperationDef): void {
    const svc = this.uri('service');
    const params = parametersRecord(op);
    const result = getRecord(op.result);
    this.record(result);
    const resultType = this.ref(svc, this.uri(result.ns), result.name);
    const parts = this.schema(svc).parts;
    parts.push(
      `<s:element name="${op.operation}"><s:complexType><s:sequence>${this.elements(params.fields, 'service')}</s:sequence></s:complexType></s:element>`,
    );
    parts.push(
      `<s:element name="${op.operation}Response"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="${op.operation}Result" type="${resultType}" /></s:sequence></s:complexType></s:element>`,
    );
    if (op.httpReplyRoot && !this.defined.has(`root:${op.httpReplyRoot}`)) {
      this.defined.add(`root:${op.httpReplyRoot}`);
      parts.push(`<s:element name="${op.httpReplyRoot}" nillable="true" type="${resultType}" />`);
    }
  }

  render(): GeneratedSchemas {
    const decls = [...this.prefixes].map(([uri, p]) => ` xmlns:${p}="${escapeAttr(uri)}"`).join('');
    const ordered = [this.schema(this.uri('service')), ...[...this.schemas.values()].filter((s) => s.uri !== this.uri('service'))];
    const schemas = ordered.map((s) => {
      const imports = [...s.imports].map((u) => `<s:import namespace="${escapeAttr(u)}" />`).join('');
      return `<s:schema xmlns:s="${XSD_NS}"${decls} elementFormDefault="qualified" targetNamespace="${escapeAttr(s.uri)}">${imports}${s.parts.join('')}</s:schema>`;
    });
    return { prefixes: this.prefixes, schemas };
  }
}

export function schemasFor(shapes: readonly OperationDef[], namespaces: Namespaces): GeneratedSchemas {
  const g = new Generator(namespaces);
  for (const op of shapes) g.operation(op);
  return g.render();
}
