/**
 * Reading a record along the catalog has two ways (src/core/xml/readCompiled.ts): compiled for the
 * common case, the general reader for anything else. Held side by side on the sandbox's real reply
 * of every operation shape over every binding, and on each of those replies spoilt a few thousand
 * ways (unknown elements, other namespaces, repeats, xsi:nil, attributes, values not of their
 * type, elements inside values): the same JSON, key for key and in the same order, and the same
 * issues in the same order.
 */
import { strict as assert } from 'node:assert';
import { operations, shapeLabel, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, getRecord, XSI_NS, type OperationDef } from '../../src/core/catalog';
import { parseXml, type XmlElement } from '../../src/core/xml/dom';
import { readRecord, useCompiledReading, type ReadIssue } from '../../src/core/xml/read';
import { sampleReplies } from './sample-replies';
import { seeded } from './key-spellings';
import { environmentAt } from './transport-support';

interface Reply { readonly op: OperationDef; readonly binding: string; readonly text: string }

/** The element the reply's result is read from, as parseReply finds it. */
function content(root: XmlElement, op: OperationDef): XmlElement | undefined {
  if (root.local === 'Envelope' && (root.ns === SOAP11_ENVELOPE_NS || root.ns === SOAP12_ENVELOPE_NS)) {
    return root.children[0]?.children[0]?.children.find((c) => c.local === `${op.operation}Result`);
  }
  return root;
}

function read(el: XmlElement, op: OperationDef, compiled: boolean): { json: string; issues: ReadIssue[] } {
  const issues: ReadIssue[] = [];
  useCompiledReading(compiled);
  try {
    const value = readRecord(el, getRecord(op.result), '', { namespaces: environmentAt('http://x').namespaces, outOfNamespace: 'keep', issues });
    return { json: JSON.stringify(value), issues };
  } finally {
    useCompiledReading(true);
  }
}

function elementsOf(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    for (const c of el.children) stack.push(c);
  }
  return out;
}

type Mutable = { -readonly [K in keyof XmlElement]: XmlElement[K] };

/** One way to spoil an element of the tree (in place). */
const SPOIL: Array<(el: Mutable, parent: Mutable | undefined, next: () => number) => void> = [
  (el) => { el.local = 'Bogus'; },
  (el) => { el.ns = 'urn:elsewhere'; },
  (el, parent) => { if (parent) parent.children = [...parent.children, { local: el.local, ns: el.ns, prefix: el.prefix, attrs: el.attrs, children: [...el.children], text: el.text }]; },
  (el) => { el.attrs = [{ local: 'nil', ns: XSI_NS, prefix: 'xsi', value: 'true' }]; el.children = []; el.text = ''; },
  (el) => { el.attrs = [{ local: 'lang', ns: '', prefix: '', value: 'en' }]; },
  (el) => { if (!el.children.length) el.text = 'not-a-number-or-date'; },
  (el, _parent, next) => { if (!el.children.length) el.children = [{ local: next() < 0.5 ? 'Inner' : el.local, ns: el.ns, prefix: '', attrs: [], children: [], text: 'x' }]; },
  (el) => { el.children = []; el.text = ''; },
];

describe('reply: compiled reading of the common case is the general reading', function () {
  this.timeout(120_000);
  const replies: Reply[] = [];

  before(async () => {
    for (const { op, binding, reply } of await sampleReplies((op) => op.bindings, ['compiled-reading-key-0001'])) replies.push({ op, binding, text: reply.bodyText });
  });

  it('every shape\'s real reply over every binding', () => {
    assert.ok(replies.length >= operations.length, `${replies.length} replies`);
    let read2 = 0;
    for (const r of replies) {
      let root: XmlElement;
      try { root = parseXml(r.text); } catch { continue; }
      const el = content(root, r.op);
      if (!el) continue;
      const general = read(el, r.op, false);
      const compiled = read(el, r.op, true);
      assert.equal(compiled.json, general.json, `${shapeLabel(r.op)} ${r.binding}`);
      assert.deepEqual(compiled.issues, general.issues, `${shapeLabel(r.op)} ${r.binding}`);
      read2++;
    }
    assert.ok(read2 >= operations.length, `${read2} results read`);
  });

  it('the same replies spoilt: unknown, other namespace, repeated, nil, attributes, wrong values, elements inside values', () => {
    let cases = 0;
    let unusual = 0;
    for (const [n, r] of replies.entries()) {
      for (let round = 0; round < 60; round++) {
        const seed = n * 1000 + round;
        const next = seeded(seed);
        let root: XmlElement;
        try { root = parseXml(r.text); } catch { break; }
        const el = content(root, r.op);
        if (!el) break;
        const all = elementsOf(el).slice(1);
        if (!all.length) break;
        const parents = new Map<XmlElement, XmlElement>();
        for (const p of [el, ...all]) for (const c of p.children) parents.set(c, p);
        for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
          const target = all[Math.floor(next() * all.length)] as Mutable;
          SPOIL[Math.floor(next() * SPOIL.length)](target, parents.get(target) as Mutable | undefined, next);
        }
        const general = read(el, r.op, false);
        const compiled = read(el, r.op, true);
        assert.equal(compiled.json, general.json, `${shapeLabel(r.op)} ${r.binding}, seed ${seed}`);
        assert.deepEqual(compiled.issues, general.issues, `${shapeLabel(r.op)} ${r.binding}, seed ${seed}`);
        cases++;
        if (general.issues.length) unusual++;
      }
    }
    assert.ok(cases > 1000, `${cases} spoilt replies`);
    assert.ok(unusual > cases / 3, `${unusual} of them with issues: the spoiling reaches the reader`);
  });
});
