/**
 * readGeneric walks with a stack of its own (src/core/xml/read.ts). Its output must be exactly
 * what the recursive reader it replaced gave — written out below as the reference — on real
 * documents (the golden requests and the sandbox's replies to them) and on random trees with
 * attributes, xsi:nil, repeated names, text and mixed content; and it must read as deep as the
 * parser allows.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { XSI_NS } from '../../src/core/catalog';
import { MAX_DEPTH, parseXml, type XmlElement } from '../../src/core/xml/dom';
import { isNil, readGeneric } from '../../src/core/xml/read';
import { startSandbox } from '../../src/sandbox/server';

/** The recursive reader as it was, for comparison. */
function reference(el: XmlElement): unknown {
  if (isNil(el)) return null;
  const attrs = el.attrs.filter((a) => a.ns !== XSI_NS);
  if (!el.children.length && !attrs.length) return el.text;
  const out: Record<string, unknown> = {};
  const repeated = new Set<string>();
  const put = (key: string, v: unknown) => {
    if (!(key in out)) out[key] = v;
    else if (repeated.has(key)) (out[key] as unknown[]).push(v);
    else {
      out[key] = [out[key], v];
      repeated.add(key);
    }
  };
  for (const a of attrs) put(`@${a.local}`, a.value);
  if (!el.children.length) {
    put('#text', el.text);
    return out;
  }
  for (const c of el.children) put(c.local, reference(c));
  return out;
}

/** Same values, and the same key order in every object. */
function assertSame(got: unknown, want: unknown, where: string): void {
  assert.deepStrictEqual(got, want, where);
  assert.equal(JSON.stringify(got), JSON.stringify(want), `${where}: key order`);
}

function everyElement(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    stack.push(...el.children);
  }
  return out;
}

async function realDocuments(): Promise<string[]> {
  const golden = path.join(__dirname, '../golden/envelopes');
  const sandbox = await startSandbox({ port: 0 });
  const docs: string[] = [];
  try {
    for (const file of fs.readdirSync(golden).sort()) {
      const text = fs.readFileSync(path.join(golden, file), 'utf8');
      const blank = text.indexOf('\n\n');
      const [first, ...headerLines] = text.slice(0, blank).split('\n');
      const [method, url] = first.split(' ');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      const body = text.slice(blank + 2);
      if (/xml/.test(headers['Content-Type'] ?? '')) docs.push(body);
      const reply = await (
        await fetch(url.replace('https://carrier.example.test', sandbox.url), { method, headers, ...(method === 'POST' ? { body } : {}) })
      ).text();
      if (reply.trimStart().startsWith('<')) docs.push(reply);
    }
  } finally {
    await sandbox.close();
  }
  return docs;
}

function randomTree(rand: () => number, depth: number): string {
  const names = ['a', 'b', 'c', 'p:d'];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const attrs = () =>
    [rand() < 0.3 ? ' id="7"' : '', rand() < 0.15 ? ' xsi:nil="true"' : '', rand() < 0.1 ? ' xsi:type="x"' : '', rand() < 0.1 ? ' p:q="&amp;"' : ''].join('');
  const element = (level: number): string => {
    const name = pick(names);
    const kids = level >= depth || rand() < 0.3 ? 0 : Math.floor(rand() * 4);
    let inner = rand() < 0.5 ? pick(['', 'text', ' spaced ', '&lt;x&gt;', '<![CDATA[<c>]]>']) : '';
    for (let i = 0; i < kids; i++) inner += element(level + 1) + (rand() < 0.2 ? 'tail' : '');
    return rand() < 0.1 && !inner ? `<${name}${attrs()}/>` : `<${name}${attrs()}>${inner}</${name}>`;
  };
  return `<root xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:p="urn:p">${element(1)}${element(1)}</root>`;
}

describe('readGeneric without recursion: the same output as the recursive reader', function () {
  this.timeout(30_000);

  it('on every element of the golden requests and the sandbox replies', async () => {
    const docs = await realDocuments();
    assert.ok(docs.length > 40);
    for (const doc of docs) {
      for (const el of everyElement(parseXml(doc))) assertSame(readGeneric(el), reference(el), `<${el.local}>`);
    }
  });

  it('on 2,000 random trees with attributes, xsi:nil, repeats, text and mixed content', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    for (let i = 0; i < 2000; i++) {
      const root = parseXml(randomTree(rand, 1 + (i % 6)));
      assertSame(readGeneric(root), reference(root), `tree ${i}`);
    }
  });

  it(`on a document as deep as the parser allows (${MAX_DEPTH} levels), repeated names and attributes on the way`, () => {
    const open = Array.from({ length: MAX_DEPTH - 1 }, (_, i) => `<n${i % 3 === 0 ? ' k="v"' : ''}>${i % 5 === 0 ? '<m>1</m><m>2</m>' : ''}`).join('');
    const close = '</n>'.repeat(MAX_DEPTH - 1);
    const root = parseXml(`<r>${open}${close}</r>`);
    const got = readGeneric(root);
    assertSame(got, reference(root), 'deep');
    let levels = 0;
    for (let v = got as Record<string, unknown> | undefined; v && typeof v === 'object'; v = v.n as Record<string, unknown> | undefined) levels++;
    assert.equal(levels, MAX_DEPTH - 1);
  });
});
