/**
 * What reads a parsed reply after the parser — fault details, in-body error carriers, redaction,
 * history storage, the panel's tree paths, JSON — works with stacks of its own, so neither depth
 * (as deep as the parser allows, or far deeper for the walks that take any JSON value) nor width
 * (200,000 list items) can overflow the call stack.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, findShape, SOAP11_ENVELOPE_NS } from '../../src/core/catalog';
import type { Exchange } from '../../src/core/exchange';
import { MASK, Redactor } from '../../src/core/redact';
import { parseReply } from '../../src/core/reply';
import { describeFault } from '../../src/core/reply/fault';
import { MAX_DEPTH } from '../../src/core/xml/dom';
import { KEEP_PARSED_CHARS, trimForStorage } from '../../src/extension/history/trimExchange';
import { countNodes, searchTree } from '../../src/webview/views/treePath';

const NS = DEFAULT_NAMESPACES;
const SECRET = 'Sk7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5o';

/** `{ Nest: { Nest: … { Nest: leaf } } }`, `levels` objects deep, built without recursion. */
function deepValue(levels: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = { Nest: v };
  return v;
}

function depthOf(value: unknown): number {
  let levels = 0;
  for (let v = value; v !== null && typeof v === 'object'; v = (v as { Nest: unknown }).Nest) levels++;
  return levels;
}

const envelope = (inner: string) => `<soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const nest = (levels: number, leaf = '') => `${'<Nest>'.repeat(levels)}${leaf}${'</Nest>'.repeat(levels)}`;

describe('deep and wide values: readers without recursion', function () {
  this.timeout(60_000);

  it('redaction: 200,000 levels and 200,000 items, copied only where a secret was', () => {
    const r = new Redactor([SECRET]);
    const deep = deepValue(200_000, `key ${SECRET}`) as { Nest: unknown };
    const out = r.deep({ deep, clean: { a: ['x'] } });
    assert.equal(depthOf(out.deep), 200_000);
    let leaf: unknown = out.deep;
    while (typeof leaf === 'object') leaf = (leaf as { Nest: unknown }).Nest;
    assert.equal(leaf, `key ${MASK}`);
    const clean = { a: deepValue(200_000, 'nothing to hide'), b: Array.from({ length: 200_000 }, (_, i) => `item ${i}`) };
    assert.equal(r.deep(clean), clean, 'nothing changed: the same object back');
    const wide = Array.from({ length: 200_000 }, (_, i) => (i === 123_456 ? SECRET : i));
    const redacted = r.deep(wide);
    assert.notEqual(redacted, wide);
    assert.equal(redacted[123_456], MASK);
    assert.equal(wide[123_456], SECRET, 'the original is left alone');
    assert.equal(redacted[5], 5);
  });

  it('a fault detail as deep as the parser allows is decoded and printable', async () => {
    const op = findShape('GetTerminalInformation', '1.0.2')!;
    const text = envelope(
      `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Deep</faultstring><detail>${nest(MAX_DEPTH - 4, 'bottom')}</detail></soap:Fault>`,
    );
    const read = await parseReply({ op, binding: 'soap11', namespaces: NS, status: 500, contentType: 'text/xml; charset=utf-8', text });
    assert.ok(read.fault);
    assert.equal(describeFault(read.fault), 'SOAP 1.1 fault soap:Server: Deep');
    assert.equal(depthOf(read.fault.detail), MAX_DEPTH - 4);
    assert.match(JSON.stringify(read.fault.detail), /"bottom"\}+$/);
    assert.equal(depthOf(structuredClone(read.fault.detail)), MAX_DEPTH - 4);
  });

  it("a trace Shipment's ErrResponse as deep as allowed is one error finding", async () => {
    const op = findShape('TraceShipment')!;
    // Envelope, Body, Response, Result, Result list, Shipment, ErrResponse: 7 levels before the nest.
    const text = envelope(
      `<TraceShipmentResponse xmlns="${NS.service}"><TraceShipmentResult><Result xmlns="${NS.data}"><Shipment><ErrResponse>${nest(MAX_DEPTH - 7, 'Lost at sea')}</ErrResponse></Shipment></Result></TraceShipmentResult></TraceShipmentResponse>`,
    );
    const read = await parseReply({ op, binding: 'soap11', namespaces: NS, status: 200, contentType: 'text/xml; charset=utf-8', text });
    // (Its Result is written in the data namespace, which the contract errors on too: only the in-body error is this test's.)
    assert.deepEqual(
      read.findings.filter((f) => f.severity === 'error' && f.kind === 'in-body').map((f) => [f.message, f.path]),
      [['ErrResponse: Lost at sea', 'Result[0].ErrResponse']],
    );
  });

  it('200,000 shipments that each carry an error: a bounded list of findings that keeps the verdict', async () => {
    const op = findShape('TraceShipment')!;
    const item = '<Shipment><ShipmentNumber>1</ShipmentNumber><ErrorMessage>Not found</ErrorMessage></Shipment>';
    const text = envelope(
      `<TraceShipmentResponse xmlns="${NS.service}"><TraceShipmentResult><Result xmlns="${NS.data}">${item.repeat(200_000)}</Result></TraceShipmentResult></TraceShipmentResponse>`,
    );
    const read = await parseReply({ op, binding: 'soap11', namespaces: NS, status: 200, contentType: 'text/xml; charset=utf-8', text });
    assert.equal((read.parsed as { Result: unknown[] }).Result.length, 200_000);
    const errors = read.findings.filter((f) => f.kind === 'in-body');
    assert.equal(errors.length, 1001);
    assert.equal(errors[1000].message, '…and 199,000 more errors among the findings in the reply');
    assert.ok(errors.every((f) => f.severity === 'error'));
  });

  it('history storage sizes a 200,000-item list and a deep value without overflowing', () => {
    const base: Exchange = {
      id: 'x',
      startedAt: '2026-01-01T00:00:00Z',
      request: { method: 'POST', url: 'http://h/', headers: [], body: '' },
      findings: [],
      documents: [],
    } as unknown as Exchange;
    const wide = trimForStorage({ ...base, parsed: { Result: Array.from({ length: 200_000 }, (_, i) => ({ ShipmentNumber: String(i) })) } });
    assert.equal(wide.trimmed, false);
    const deep = trimForStorage({ ...base, parsed: deepValue(200_000, 'x') });
    assert.equal(deep.trimmed, false);
    const huge = trimForStorage({ ...base, parsed: { Result: Array.from({ length: 300_000 }, () => 'x'.repeat(30)) } });
    assert.equal(huge.trimmed, true, `over ${KEEP_PARSED_CHARS} characters is dropped`);
    assert.equal(huge.exchange.parsed, undefined);
  });

  it("the panel's tree counts and searches a value as deep as the parser allows; JSON round-trips it", () => {
    const value = deepValue(MAX_DEPTH, 'needle');
    assert.deepEqual(countNodes(value, 1_000_000), { count: MAX_DEPTH + 1, capped: false });
    const { matches } = searchTree(value, 'needle', 10);
    assert.equal(matches.length, 1);
    assert.equal(matches[0].length, MAX_DEPTH);
    const text = JSON.stringify(value, null, 2);
    assert.equal(depthOf(JSON.parse(text)), MAX_DEPTH);
    assert.equal(depthOf(structuredClone(value)), MAX_DEPTH);
  });
});
