/**
 * The sandbox keeps its own contract: every reply it sends — for each example, and for a request
 * of every shape and binding with every field filled — validates against the schemas of its own
 * `?WSDL` with libxml2's xmllint, a real XSD validator, as a strict client would read it. With
 * distinct namespaces and with one namespace for every role.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  getEnumeration,
  getRecord,
  operations,
  parametersRecord,
  servicePaths,
  SOAP11_ENVELOPE_NS,
  SOAP12_ENVELOPE_NS,
  XSI_NS,
  type Binding,
  type FieldDef,
  type Namespaces,
  type OperationDef,
  type RecordDef,
} from '../../src/core/catalog';
import { NamespaceScopes } from '../../src/core/contract/qnames';
import { WSDL_NS } from '../../src/core/contract/wsdl';
import { XSD_NS } from '../../src/core/contract/xsd';
import { resolveEnvironment } from '../../src/core/environments/load';
import { send } from '../../src/core/send';
import { validateRequestText } from '../../src/core/validation/validate';
import { parseXml, type XmlElement } from '../../src/core/xml/dom';
import { nodeContext } from '../../src/host';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { Clock, NS_DISTINCT, NS_SAME } from './sandbox-kit';
import { exampleFiles } from './example-files';
import { tmpDir } from './transport-support';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script of the project's set-up
const { ensureXmllint } = require('../../scripts/ensure-xmllint.js') as { ensureXmllint(o?: { quiet?: boolean }): void };

const ROOT = path.join(__dirname, '..', '..');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const qname = (prefix: string, local: string) => (prefix ? `${prefix}:${local}` : local);

/**
 * Each `<schema>` of a WSDL as a file of its own, with the prefixes it used from the WSDL declared
 * on it and its imports pointing at the other files; returns the file of each target namespace.
 */
function writeSchemas(wsdl: string, dir: string): Map<string, string> {
  const root = parseXml(wsdl);
  const scopes = new NamespaceScopes(wsdl, root);
  const schemas = root.children
    .filter((c) => c.ns === WSDL_NS && c.local === 'types')
    .flatMap((t) => t.children.filter((c) => c.ns === XSD_NS && c.local === 'schema'));
  const files = new Map<string, string>();
  schemas.forEach((s, i) => files.set(s.attrs.find((a) => a.local === 'targetNamespace')?.value ?? '', path.join(dir, `schema-${i}.xsd`)));
  const write = (el: XmlElement, declare: boolean): string => {
    const attrs: string[] = [];
    if (declare) for (const [p, uri] of scopes.scope(el)) if (p !== 'xml') attrs.push(`${p ? `xmlns:${p}` : 'xmlns'}="${esc(uri)}"`);
    for (const a of el.attrs) attrs.push(`${qname(a.prefix, a.local)}="${esc(a.value)}"`);
    if (el.ns === XSD_NS && el.local === 'import') {
      const ns = el.attrs.find((a) => a.local === 'namespace')?.value ?? '';
      attrs.push(`schemaLocation="${esc(path.basename(files.get(ns)!))}"`);
    }
    const inner = el.children.map((c) => write(c, false)).join('') || esc(el.text.trim());
    return `<${qname(el.prefix, el.local)}${attrs.length ? ` ${attrs.join(' ')}` : ''}>${inner}</${qname(el.prefix, el.local)}>`;
  };
  schemas.forEach((s, i) => fs.writeFileSync(path.join(dir, `schema-${i}.xsd`), `<?xml version="1.0" encoding="utf-8"?>\n${write(s, true)}\n`));
  return files;
}

/** An element written out on its own: every namespace declared where it starts, text before the children. */
function standalone(el: XmlElement): string {
  const write = (e: XmlElement, defaultNs: string | undefined): string => {
    const attrs: string[] = [];
    if (e.ns !== defaultNs) attrs.push(`xmlns="${esc(e.ns)}"`);
    let n = 0;
    for (const a of e.attrs) {
      if (a.ns === 'http://www.w3.org/2000/xmlns/' || (a.ns === '' && a.local === 'xmlns')) continue;
      if (a.ns === XSI_NS) attrs.push(`xsi:${a.local}="${esc(a.value)}"`);
      else if (a.ns) attrs.push(`xmlns:a${n}="${esc(a.ns)}" a${n++}:${a.local}="${esc(a.value)}"`);
      else attrs.push(`${a.local}="${esc(a.value)}"`);
    }
    return `<${e.local}${attrs.length ? ` ${attrs.join(' ')}` : ''}>${esc(e.text)}${e.children.map((c) => write(c, e.ns)).join('')}</${e.local}>`;
  };
  return write(el, undefined).replace(/^<([^\s>]+)/, `<$1 xmlns:xsi="${XSI_NS}"`);
}

/** The part of a reply its WSDL describes: the SOAP Body's element, or the HTTP binding's bare root. */
function payload(body: string): XmlElement {
  const root = parseXml(body);
  if ((root.ns === SOAP11_ENVELOPE_NS || root.ns === SOAP12_ENVELOPE_NS) && root.local === 'Envelope') {
    const content = root.children.find((c) => c.local === 'Body')?.children[0];
    assert.ok(content, 'the SOAP Body holds an element');
    assert.notEqual(content.local, 'Fault', `a SOAP fault came back: ${body.slice(0, 600)}`);
    return content;
  }
  return root;
}

/** A value of a field no example fills, valid by the catalog alone. */
function filler(field: FieldDef): unknown {
  if (field.enumeration) return getEnumeration(field.enumeration).values[0];
  if (field.suggestions?.length) return field.suggestions[0];
  if (field.format === 'MM/DD/YYYY') return '{{run.nextBusinessDay}}';
  if (field.format === 'hh:mm AM/PM') return '01:00 PM';
  switch (field.type) {
    case 'int':
      return 1;
    case 'float':
      return 1.5;
    case 'decimal':
      return '1.00';
    case 'boolean':
      return false;
    case 'dateTime':
      return '{{run.date}}';
    case 'base64Binary':
      return 'AAEC';
    default:
      return `${field.name} text`;
  }
}

/** Every field of the record filled: the given values kept, the rest from the catalog. */
function fill(record: RecordDef, given: Record<string, unknown> | undefined, http: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(given ?? {}) };
  if (record.open) return out;
  for (const field of record.fields) {
    if (field.secret) continue;
    const v = out[field.name];
    if (field.record) {
      const inner = getRecord(field.record);
      if (field.list)
        out[field.name] = Array.isArray(v) && v.length ? v.map((item) => fill(inner, item as Record<string, unknown>, http)) : [fill(inner, undefined, http)];
      else out[field.name] = fill(inner, v as Record<string, unknown> | undefined, http);
    } else if (field.list) {
      out[field.name] = Array.isArray(v) && v.length ? v : [filler(field)];
    } else if (v === undefined) {
      out[field.name] = filler(field);
    }
  }
  return out;
}

interface Case {
  readonly label: string;
  readonly op: OperationDef;
  readonly binding: Binding;
  readonly params: Record<string, unknown>;
}

function cases(): Case[] {
  const out: Case[] = [];
  const examples = exampleFiles().map((file) => ({ file, request: validateRequestText(fs.readFileSync(file, 'utf8'), file).request! }));
  for (const { file, request } of examples) {
    const op = operations.find((o) => o.operation === request.operation && o.version === request.version)!;
    out.push({ label: path.relative(ROOT, file), op, binding: request.binding, params: request.params as Record<string, unknown> });
  }
  // Every field filled, over every binding each shape offers, on top of the shape's example.
  for (const op of operations) {
    const example = examples.find((e) => e.request.operation === op.operation && e.request.version === op.version);
    for (const binding of op.bindings) {
      const http = binding === 'get' || binding === 'post';
      out.push({
        label: `${op.operation} ${op.version} over ${binding}, every field filled`,
        op,
        binding,
        params: fill(parametersRecord(op), example?.request.params as Record<string, unknown>, http),
      });
    }
  }
  return out;
}

for (const [label, namespaces] of [
  ['distinct namespaces', NS_DISTINCT],
  ['one namespace for every role', NS_SAME],
] as [string, Namespaces][]) {
  describe(`the sandbox's replies against its own WSDL, with xmllint (${label})`, function () {
    this.timeout(120_000);
    const context = nodeContext();
    let sb: SandboxHandle;
    let dir: string;

    before(async () => {
      ensureXmllint({ quiet: true });
      sb = await startSandbox({ namespaces, now: new Clock().now });
      dir = tmpDir('carrier-xsd-');
    });
    after(async () => {
      await sb.close();
      await context.http.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const [servicePath, shapes] of servicePaths()) {
      it(`every reply at ${servicePath} validates`, async () => {
        const here = fs.mkdtempSync(path.join(dir, 'path-'));
        const wsdl = await (await fetch(`${sb.url}${servicePath}?WSDL`)).text();
        const schemaFile = writeSchemas(wsdl, here).get(namespaces.service)!;
        const environment = resolveEnvironment(
          'sandbox-under-test',
          { baseUrl: sb.url, serviceNamespace: namespaces.service, dataNamespace: namespaces.data, pickupNamespace: namespaces.pickup },
          here,
        );
        const mine = cases().filter((c) => shapes.includes(c.op));
        assert.ok(mine.length >= shapes.length, 'a case per shape at least');
        const files: Array<{ file: string; label: string }> = [];
        for (const [i, c] of mine.entries()) {
          const exchange = await send({
            context,
            request: { operation: c.op.operation, version: c.op.version, params: c.params },
            environment,
            apiKey: 'sandbox-key',
            binding: c.binding,
          });
          assert.equal(exchange.reply?.status, 200, `${c.label}: HTTP ${exchange.reply?.status} ${exchange.reply?.bodyText.slice(0, 400)}`);
          const file = path.join(here, `reply-${i}.xml`);
          fs.writeFileSync(file, `<?xml version="1.0" encoding="utf-8"?>\n${standalone(payload(exchange.reply!.bodyText))}\n`);
          files.push({ file, label: c.label });
        }
        const run = spawnSync('xmllint', ['--noout', '--schema', schemaFile, ...files.map((f) => f.file)], { encoding: 'utf8' });
        // xmllint names each file that does not validate, with the element and what it expected there.
        const lines = run.stderr.split('\n').filter((l) => l.trim() && !/ validates$/.test(l));
        const problems = lines.map((l) => {
          const f = files.find((x) => l.startsWith(x.file));
          return f ? `${f.label}: ${l.slice(f.file.length + 1)}` : l;
        });
        assert.deepEqual(problems, [], `xmllint (exit ${run.status})`);
      });
    }
  });
}

describe('GetDocuments without documentTypes (decided once: optional, every available type)', () => {
  it('is a request file without a warning, and the sandbox answers with every document there is', async () => {
    const text = '{ "operation": "GetDocuments", "params": { "ProNumber": "056391174" } }';
    const { findings, request } = validateRequestText(text, 'get-documents.carrier.json');
    assert.deepEqual(findings, []);
    const sb = await startSandbox({ now: new Clock().now });
    const context = nodeContext();
    try {
      const environment = resolveEnvironment('sandbox-under-test', { baseUrl: sb.url }, ROOT);
      const exchange = await send({ context, request: request!, environment, apiKey: 'sandbox-key' });
      const reply = exchange.parsed as { Documents: unknown[]; AvailableDocumentTypes: string[] };
      assert.ok(reply.AvailableDocumentTypes.length >= 2, JSON.stringify(reply.AvailableDocumentTypes));
      assert.equal(reply.Documents.length, reply.AvailableDocumentTypes.length);
    } finally {
      await sb.close();
      await context.http.close();
    }
  });
});
