/**
 * XML Schema as a live contract declares it, read namespace-aware: every `<schema>` of a WSDL's
 * types (and of documents they import or include) goes into one set keyed by qualified name, so a
 * type in a second schema reached through `import` resolves like one in the first. Elements get
 * the namespace the schema gives them: a global element or a local one under
 * `elementFormDefault="qualified"` (or `form="qualified"`) is in the schema's target namespace, any
 * other local element in none. Content models are flattened into the element sequence a record
 * has on the wire: nested sequences and groups in order, complexContent extensions after their
 * base, choices as optional alternatives.
 */
import type { XmlElement } from '../xml/dom';
import { qnameKey, type NamespaceScopes, type QName } from './qnames';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** A simple type reduced to what a request or reply cares about: its built-in base and its values. */
export interface SimpleType {
  readonly kind: 'simple';
  /** The XML Schema built-in type it derives from: `string`, `int`, `dateTime`, … */
  readonly base: string;
  /** The named type, when it has a name (`tns:RQAccessorial`). */
  readonly name?: QName;
  readonly enumeration?: readonly string[];
}

export interface ComplexType {
  readonly kind: 'complex';
  readonly name?: QName;
  /** The child elements in order. */
  readonly elements: readonly LiveElement[];
  /** The content ends with (or is) a wildcard: any element is accepted there. */
  readonly any: boolean;
  /** Text content with attributes (simpleContent), e.g. a string with a unit attribute. */
  readonly simpleContent?: SimpleType;
}

export type LiveType = SimpleType | ComplexType;

export interface LiveElement {
  readonly name: string;
  /** The element's namespace URI; '' when the schema leaves it unqualified. */
  readonly ns: string;
  readonly minOccurs: number;
  /** `Infinity` for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  /** How the type was written (`s:int`, `dat:TransitPoint`, or `anonymous`), for reports. */
  readonly typeName: string;
  /** Resolved lazily: recursive types stay finite. */
  type(): LiveType;
}

interface Declared {
  readonly el: XmlElement;
  readonly schema: SchemaInfo;
}

interface SchemaInfo {
  readonly targetNamespace: string;
  readonly qualified: boolean;
  readonly scopes: NamespaceScopes;
}

const isXs = (el: XmlElement, local: string) => el.ns === XSD_NS && el.local === local;
const attr = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name && a.ns === '')?.value;
const xsChildren = (el: XmlElement) => el.children.filter((c) => c.ns === XSD_NS && c.local !== 'annotation');

function occurs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === 'unbounded') return Infinity;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** Where a name the schemas use is not declared anywhere. */
export class SchemaGap extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaGap';
  }
}

export class SchemaSet {
  private readonly elements = new Map<string, Declared>();
  private readonly types = new Map<string, Declared>();
  private readonly groups = new Map<string, Declared>();
  private readonly resolved = new Map<string, LiveType>();
  readonly targetNamespaces = new Set<string>();
  /** Problems found while reading: undeclared types, unreadable parts. Never thrown at the caller. */
  readonly problems: string[] = [];

  /** Adds one `<schema>` element; `scopes` resolves its QName attributes. */
  add(schema: XmlElement, scopes: NamespaceScopes, inheritedTarget?: string): void {
    // An included schema without a target namespace takes the includer's (chameleon include).
    const targetNamespace = attr(schema, 'targetNamespace') ?? inheritedTarget ?? '';
    const info: SchemaInfo = { targetNamespace, qualified: attr(schema, 'elementFormDefault') === 'qualified', scopes };
    this.targetNamespaces.add(targetNamespace);
    for (const child of xsChildren(schema)) {
      const name = attr(child, 'name');
      if (!name) continue;
      const key = qnameKey({ ns: targetNamespace, local: name });
      const into =
        child.local === 'element'
          ? this.elements
          : child.local === 'complexType' || child.local === 'simpleType'
            ? this.types
            : child.local === 'group'
              ? this.groups
              : undefined;
      if (into && !into.has(key)) into.set(key, { el: child, schema: info });
    }
  }

  hasElement(q: QName): boolean {
    return this.elements.has(qnameKey(q));
  }

  /** A global element by qualified name, as a LiveElement (it is always qualified). */
  element(q: QName): LiveElement | undefined {
    const found = this.elements.get(qnameKey(q));
    if (!found) return undefined;
    return this.liveElement(found.el, found.schema, true);
  }

  /** Global element names in a namespace, for "which operations does the service have". */
  elementNames(ns: string): string[] {
    return [...this.elements.keys()].filter((k) => k.startsWith(`{${ns}}`)).map((k) => k.slice(ns.length + 2));
  }

  private liveElement(el: XmlElement, schema: SchemaInfo, global: boolean, min = 1, max = 1): LiveElement {
    const ref = attr(el, 'ref');
    if (ref !== undefined) {
      const q = schema.scopes.resolve(el, ref);
      const target = q && this.elements.get(qnameKey(q));
      const minOccurs = occurs(attr(el, 'minOccurs'), 1) * min;
      const maxOccurs = occurs(attr(el, 'maxOccurs'), 1) * max;
      if (!q || !target) {
        this.problems.push(`element ref="${ref}" names no element of the schemas`);
        return { name: q?.local ?? ref, ns: q?.ns ?? '', minOccurs, maxOccurs, nillable: false, typeName: ref, type: () => UNKNOWN };
      }
      const inner = this.liveElement(target.el, target.schema, true);
      return { ...inner, minOccurs, maxOccurs };
    }
    const name = attr(el, 'name') ?? '';
    const form = attr(el, 'form');
    const qualified = global || (form ? form === 'qualified' : schema.qualified);
    const typeAttr = attr(el, 'type');
    let cached: LiveType | undefined;
    const type = (): LiveType => {
      if (cached) return cached;
      if (typeAttr !== undefined) {
        const q = schema.scopes.resolve(el, typeAttr);
        cached = q ? this.typeNamed(q, typeAttr) : (this.problems.push(`type="${typeAttr}" uses an undeclared prefix`), UNKNOWN);
      } else {
        const inline = xsChildren(el).find((c) => c.local === 'complexType' || c.local === 'simpleType');
        // An element with neither a type nor content is xs:anyType.
        cached = inline ? this.typeFrom(inline, schema) : ANY_TYPE;
      }
      return cached;
    };
    return {
      name,
      ns: qualified ? schema.targetNamespace : '',
      minOccurs: global ? 1 : occurs(attr(el, 'minOccurs'), 1) * min,
      maxOccurs: global ? 1 : occurs(attr(el, 'maxOccurs'), 1) * max,
      nillable: attr(el, 'nillable') === 'true',
      typeName: typeAttr ?? 'anonymous',
      type,
    };
  }

  private typeNamed(q: QName, written: string): LiveType {
    if (q.ns === XSD_NS) return q.local === 'anyType' ? ANY_TYPE : { kind: 'simple', base: q.local, name: q };
    const key = qnameKey(q);
    const done = this.resolved.get(key);
    if (done) return done;
    const found = this.types.get(key);
    if (!found) {
      this.problems.push(`type ${written} ({${q.ns}}${q.local}) is not declared in the schemas`);
      return UNKNOWN;
    }
    // A placeholder first: a type that contains itself (a tree) resolves to the same object.
    const placeholder: { -readonly [K in keyof ComplexType]: ComplexType[K] } = { kind: 'complex', name: q, elements: [], any: false };
    this.resolved.set(key, placeholder);
    const type = this.typeFrom(found.el, found.schema, q);
    if (type.kind === 'complex') {
      placeholder.elements = type.elements;
      placeholder.any = type.any;
      if (type.simpleContent) placeholder.simpleContent = type.simpleContent;
      return placeholder;
    }
    this.resolved.set(key, type);
    return type;
  }

  private typeFrom(el: XmlElement, schema: SchemaInfo, name?: QName): LiveType {
    if (el.local === 'simpleType') return this.simpleFrom(el, schema, name);
    const elements: LiveElement[] = [];
    const state = { any: false };
    let simpleContent: SimpleType | undefined;
    for (const part of xsChildren(el)) {
      if (part.local === 'complexContent') {
        for (const derivation of xsChildren(part)) {
          const base = attr(derivation, 'base');
          const q = base !== undefined ? schema.scopes.resolve(derivation, base) : undefined;
          if (derivation.local === 'extension' && q && !(q.ns === XSD_NS && q.local === 'anyType')) {
            const baseType = this.typeNamed(q, base!);
            if (baseType.kind === 'complex') {
              elements.push(...baseType.elements);
              state.any ||= baseType.any;
            }
          }
          // A restriction restates its content in full; an extension adds after the base.
          for (const c of xsChildren(derivation)) this.particle(c, schema, elements, state, 1, 1);
        }
      } else if (part.local === 'simpleContent') {
        const derivation = xsChildren(part)[0];
        const base = derivation && attr(derivation, 'base');
        const q = base !== undefined ? schema.scopes.resolve(derivation!, base) : undefined;
        const baseType = q ? this.typeNamed(q, base!) : UNKNOWN;
        simpleContent = baseType.kind === 'simple' ? baseType : (baseType.simpleContent ?? { kind: 'simple', base: 'string' });
      } else {
        this.particle(part, schema, elements, state, 1, 1);
      }
    }
    return { kind: 'complex', ...(name ? { name } : {}), elements, any: state.any, ...(simpleContent ? { simpleContent } : {}) };
  }

  private particle(p: XmlElement, schema: SchemaInfo, into: LiveElement[], state: { any: boolean }, min: number, max: number): void {
    const pMin = occurs(attr(p, 'minOccurs'), 1) * min;
    const pMax = occurs(attr(p, 'maxOccurs'), 1) * max;
    switch (p.local) {
      case 'sequence':
      case 'all':
        for (const c of xsChildren(p)) this.particle(c, schema, into, state, pMin, pMax);
        return;
      case 'choice':
        // Each alternative may be left out in favour of another one.
        for (const c of xsChildren(p)) this.particle(c, schema, into, state, 0, pMax);
        return;
      case 'group': {
        const ref = attr(p, 'ref');
        const q = ref !== undefined ? schema.scopes.resolve(p, ref) : undefined;
        const group = q && this.groups.get(qnameKey(q));
        if (!group) {
          if (ref) this.problems.push(`group ref="${ref}" names no group of the schemas`);
          return;
        }
        for (const c of xsChildren(group.el)) this.particle(c, group.schema, into, state, pMin, pMax);
        return;
      }
      case 'any':
        state.any = true;
        return;
      case 'element':
        into.push(this.liveElement(p, schema, false, min, max));
        return;
      default:
        // attribute, attributeGroup, anyAttribute: not part of the element content.
        return;
    }
  }

  private simpleFrom(el: XmlElement, schema: SchemaInfo, name?: QName): SimpleType {
    const restriction = xsChildren(el).find((c) => c.local === 'restriction');
    if (!restriction) {
      // xs:list and xs:union travel as text.
      return { kind: 'simple', base: 'string', ...(name ? { name } : {}) };
    }
    const baseAttr = attr(restriction, 'base');
    const q = baseAttr !== undefined ? schema.scopes.resolve(restriction, baseAttr) : undefined;
    const inlineBase = xsChildren(restriction).find((c) => c.local === 'simpleType');
    const base = q ? this.typeNamed(q, baseAttr!) : inlineBase ? this.simpleFrom(inlineBase, schema) : UNKNOWN;
    const values = xsChildren(restriction)
      .filter((c) => isXs(c, 'enumeration'))
      .map((c) => attr(c, 'value') ?? '');
    const baseName = base.kind === 'simple' ? base.base : 'string';
    const enumeration = values.length ? values : base.kind === 'simple' ? base.enumeration : undefined;
    return { kind: 'simple', base: baseName, ...(name ? { name } : {}), ...(enumeration ? { enumeration } : {}) };
  }
}

/** A type the schemas name but do not declare: compared as nothing in particular. */
const UNKNOWN: SimpleType = { kind: 'simple', base: 'unknown' };
const ANY_TYPE: ComplexType = { kind: 'complex', elements: [], any: true };

/** `s:int` → `int`; a named type → its local name; for report lines. */
export function describeType(t: LiveType): string {
  if (t.kind === 'simple')
    return t.enumeration ? `${t.name?.local ?? t.base} (enumeration of ${t.base})` : t.name && t.name.ns !== XSD_NS ? `${t.name.local} (${t.base})` : t.base;
  return t.name ? t.name.local : 'anonymous complex type';
}
