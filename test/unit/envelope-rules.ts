/**
 * Transport rules 1–9 (docs/wire.md#transport-rules) and authentication rule 1
 * (docs/wire.md#authentication-rule-1), stated on their own: nothing here calls the envelope
 * builder, so a request that passes was checked against the rules, not against the code that made
 * it. Used by the envelope tests and the CLI tests.
 */
import { strict as assert } from 'node:assert';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type Binding, type Namespaces, type OperationDef } from '../../src/core/catalog';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { parseXml } from '../../src/core/xml/dom';

export const KEY = 'k3y-FOR-envelope-tests-0123456789';
export const BASE = 'https://carrier.example.test';

export function header(spec: HttpRequestSpec, name: string): string[] {
  return spec.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}

/** Rules 1–9 for one request; `key` is the APIKey it must carry first. */
export function assertRules(spec: HttpRequestSpec, op: OperationDef, binding: Binding, ns: Namespaces, baseUrl = BASE, key = KEY): void {
  const url = new URL(spec.url);
  const servicePath = `${new URL(baseUrl).pathname.replace(/\/$/, '')}/${op.version}/${op.service}.asmx`;
  const label = `${op.operation} ${op.version} ${binding}`;
  assert.equal(url.origin, new URL(baseUrl).origin, label);
  if (['GetHazmatDescription', 'GetBillOfLadingLabelPDF', 'GetBillOfLadingPdf'].includes(op.operation))
    assert.match(url.pathname, /\/sandbox\/BillOfLadingService\.asmx/, `${label}: rule 1, sandbox segment`);
  const action = ns.service.endsWith('/') ? `${ns.service}${op.operation}` : `${ns.service}/${op.operation}`;
  if (binding === 'soap11' || binding === 'soap12') {
    assert.equal(spec.method, 'POST', label);
    assert.equal(url.pathname, servicePath, `${label}: rule 1 path`);
    assert.equal(url.search, '', label);
    if (binding === 'soap11') {
      assert.deepEqual(header(spec, 'Content-Type'), ['text/xml; charset=utf-8'], `${label}: rule 2 content type`);
      assert.deepEqual(header(spec, 'SOAPAction'), [`"${action}"`], `${label}: rule 2 quoted SOAPAction`);
    } else {
      assert.deepEqual(header(spec, 'Content-Type'), ['application/soap+xml; charset=utf-8'], `${label}: rule 3 content type`);
      assert.deepEqual(header(spec, 'SOAPAction'), [], `${label}: rule 3, no SOAPAction`);
    }
    const root = parseXml(spec.body);
    assert.equal(root.local, 'Envelope', label);
    assert.equal(root.ns, binding === 'soap11' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS, `${label}: envelope namespace`);
    const body = root.children.filter((c) => c.local === 'Body' && c.ns === root.ns);
    assert.equal(body.length, 1, label);
    assert.equal(body[0].children.length, 1, `${label}: one element in the Body`);
    const wrapper = body[0].children[0];
    assert.equal(wrapper.local, op.operation, label);
    assert.equal(wrapper.ns, ns.service, `${label}: <Operation> in the service namespace`);
    assertParameterOrder(
      wrapper.children.map((c) => c.local),
      op,
      label,
    );
    for (const c of wrapper.children) assert.equal(c.ns, ns.service, `${label}: parameter ${c.local} in the service namespace`);
    assert.equal(wrapper.children[0].text, key, `${label}: APIKey first, carrying the key`);
    return;
  }
  assert.equal(url.pathname, `${servicePath}/${op.operation}`, `${label}: rule 5/6 path`);
  let pairs: [string, string][];
  if (binding === 'get') {
    assert.equal(spec.method, 'GET', label);
    assert.equal(spec.body, '', label);
    assert.deepEqual(header(spec, 'Content-Type'), [], label);
    pairs = [...url.searchParams];
  } else {
    assert.equal(spec.method, 'POST', label);
    assert.equal(url.search, '', label);
    assert.deepEqual(header(spec, 'Content-Type'), ['application/x-www-form-urlencoded'], `${label}: rule 6 content type`);
    pairs = [...new URLSearchParams(spec.body)];
  }
  assert.deepEqual(pairs[0], ['APIKey', key], `${label}: APIKey first`);
  assertParameterOrder(
    pairs.map(([n]) => n),
    op,
    label,
  );
}

function assertParameterOrder(names: string[], op: OperationDef, label: string): void {
  const order = op.parameters.map((p) => p.name);
  const known = names.filter((n) => order.includes(n));
  assert.deepEqual(
    known,
    [...known].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
    `${label}: parameters in catalog order`,
  );
}
