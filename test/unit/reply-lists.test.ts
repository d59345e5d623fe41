/**
 * parseReply reads the items of the result's lists while it parses (src/core/reply/listItems.ts),
 * so a 10,000-item reply never holds its whole element tree. What it reads must be what reading
 * the finished tree gives: the same values in the same order, and the same issues, for plain
 * items and for the unusual ones (nil, unknown, out of namespace), over SOAP and HTTP bindings.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, findShape, getRecord, type Binding } from '../../src/core/catalog';
import { parseReply } from '../../src/core/reply';
import { listItemReader } from '../../src/core/reply/listItems';
import { xmlDocument } from '../../src/core/xml/builder';
import { parseXml, XMLNS_NS, type XmlElement } from '../../src/core/xml/dom';
import { readRecord, type ReadIssue } from '../../src/core/xml/read';
import { writeRecord } from '../../src/core/xml/write';
import { replyEnvelope } from '../../src/sandbox/soap/envelope';

const NS = DEFAULT_NAMESPACES;
const op = findShape('TraceShipment')!;
const result = {
  Result: [{ ShipmentNumber: '1', ShortStatus: 'Delivered' }, null, { ShipmentNumber: '2', StatusHistory: { Status: [{ Code: 'D' }, { Code: 'P' }] } }],
};
const odd = `<Bogus>x</Bogus><Shipment xmlns="urn:elsewhere"><ShipmentNumber>3</ShipmentNumber></Shipment><Shipment xmlns="${NS.data}"><ShipmentNumber>4</ShipmentNumber></Shipment>`;

function soapText(): string {
  return replyEnvelope('1.1', (body) => {
    const response = body.ele(NS.service, `${op.operation}Response`);
    writeRecord(response.ele(NS.service, `${op.operation}Result`), getRecord(op.result), result, [], { namespaces: NS });
  }).replace('</Result>', `${odd}</Result>`);
}

/** The result as read from the finished tree, the way parseReply read it before. */
function fromTree(text: string, content: (root: XmlElement) => XmlElement): { parsed: unknown; issues: string[] } {
  const issues: ReadIssue[] = [];
  const parsed = readRecord(content(parseXml(text)), getRecord(op.result), '', { namespaces: NS, outOfNamespace: 'keep', issues });
  return { parsed, issues: issues.map((i) => i.message) };
}

async function compare(binding: Binding, text: string, content: (root: XmlElement) => XmlElement): Promise<void> {
  const expected = fromTree(text, content);
  const got = await parseReply({ op, binding, namespaces: NS, status: 200, contentType: binding === 'soap11' ? 'text/xml; charset=utf-8' : 'text/xml', text });
  assert.deepEqual(got.parsed, expected.parsed);
  const messages = got.findings.map((f) => f.message);
  for (const m of expected.issues) assert.ok(messages.includes(m), `missing issue: ${m}`);
  assert.equal((got.parsed as { Result: unknown[] }).Result.length, 6);
  // And they really were read while parsing: the tree kept none of them.
  const lists = listItemReader(op, binding, { namespaces: NS, outOfNamespace: 'keep', issues: [] });
  const container = content(parseXml(text, lists.onClose)).children.find((c) => c.local === 'Result')!;
  assert.equal(container.children.length, 0);
  assert.equal(lists.preRead.get(container)?.length, 6);
}

describe('reply: lists read while parsing', () => {
  it('SOAP: the same values and issues as reading the finished tree', async () => {
    await compare('soap11', soapText(), (root) => root.children[0].children[0].children[0]);
  });

  it('HTTP binding: the same from a bare reply root', async () => {
    const doc = xmlDocument();
    const root = doc.ele(NS.service, op.httpReplyRoot ?? `${op.operation}Result`).att(XMLNS_NS, 'xmlns:xsi', 'http://www.w3.org/2001/XMLSchema-instance');
    writeRecord(root, getRecord(op.result), result, [], { namespaces: NS });
    const text = doc.end().replace('</Result>', `${odd}</Result>`);
    await compare('get', text, (r) => r);
  });

  it('a fault is not mistaken for a result', async () => {
    const text = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>No</faultstring><detail><Result><Shipment/></Result></detail></soap:Fault></soap:Body></soap:Envelope>`;
    const got = await parseReply({ op, binding: 'soap11', namespaces: NS, status: 500, contentType: 'text/xml; charset=utf-8', text });
    assert.equal(got.fault?.reason, 'No');
    assert.deepEqual(got.fault?.detail, { Result: { Shipment: '' } });
  });
});
