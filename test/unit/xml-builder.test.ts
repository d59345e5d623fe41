/**
 * The envelope and reply writer's own XML builder (src/core/xml/builder.ts) against xmlbuilder2,
 * which it replaced on the hot path: the same calls must give the same text, byte for byte, for
 * every shape's sample request in both SOAP versions, for content the catalog does not describe,
 * and for the sandbox's reply and fault envelopes. One difference is on purpose: xmlbuilder2 leaves
 * text that already looks like an entity (`&amp;`) unescaped, so a value typed as "AT&amp;T" went
 * out as "AT&T"; every `&` is escaped now.
 */
import { strict as assert } from 'node:assert';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { DEFAULT_NAMESPACES, operations, parametersRecord, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, XSI_NS, type OperationDef } from '../../src/core/catalog';
import { soapEnvelope } from '../../src/core/envelope/soap';
import { sampleRequestFile } from '../../src/core/generate';
import { xmlDocument } from '../../src/core/xml/builder';
import { XMLNS_NS } from '../../src/core/xml/node';
import { writeGeneric, writeRecord, type XmlSink } from '../../src/core/xml/write';
import { faultEnvelope, SandboxFault } from '../../src/sandbox/soap/fault';
import { replyEnvelope } from '../../src/sandbox/soap/envelope';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const PRETTY = { prettyPrint: true, indent: '  ', newline: '\n' } as const;

/** The envelope exactly as it was built before, through xmlbuilder2. */
function referenceEnvelope(version: '1.1' | '1.2', op: OperationDef, params: Record<string, unknown>, namespaces = DEFAULT_NAMESPACES): string {
  const [uri, prefix] = version === '1.1' ? [SOAP11_ENVELOPE_NS, 'soap'] : [SOAP12_ENVELOPE_NS, 'soap12'];
  const doc = create({ version: '1.0', encoding: 'utf-8' });
  const envelope = doc.ele(uri, `${prefix}:Envelope`).att(XMLNS_NS, 'xmlns:xsi', XSI_NS).att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  const wrapper = envelope.ele(uri, `${prefix}:Body`).ele(namespaces.service, op.operation);
  writeRecord(wrapper as unknown as XmlSink, parametersRecord(op), params, [], { namespaces });
  return doc.end(PRETTY) + '\n';
}

function paramsOf(op: OperationDef): Record<string, unknown> {
  return { APIKey: 'k', ...(sampleRequestFile(op) as { params: Record<string, unknown> }).params };
}

describe('xml builder: the same text as xmlbuilder2', () => {
  for (const op of operations) {
    for (const version of ['1.1', '1.2'] as const) {
      it(`${op.operation} ${op.version} SOAP ${version}`, () => {
        const params = paramsOf(op);
        assert.equal(soapEnvelope(version, op, params, DEFAULT_NAMESPACES), referenceEnvelope(version, op, params));
      });
    }
  }

  it('namespaces that differ per role, nil values, escaping and keys the catalog does not know', () => {
    const op = operations.find((o) => o.operation === 'GetRateQuote' && o.version === '1.0.3')!;
    const namespaces = { service: 'urn:service', data: 'urn:data', pickup: 'urn:pickup' };
    const params = paramsOf(op) as { request: Record<string, unknown> };
    const odd = {
      ...params,
      request: {
        ...params.request,
        CustomerData: 'a & b < c > d "e" \'f\'',
        DeclaredValue: null,
        Extra: { '@code': 'x"&<', '#text': 'mixed', Child: ['one', { Deep: 2 }], Empty: '' },
      },
      Unknown: [1, null, { A: true }],
    };
    assert.equal(soapEnvelope('1.1', op, odd, namespaces), referenceEnvelope('1.1', op, odd, namespaces));
  });

  it('escapes an ampersand even where the text already looks like a reference', () => {
    const doc = xmlDocument();
    doc.ele('urn:a', 'root').att('v', 'AT&amp;T').txt('AT&amp;T &#38;');
    assert.equal(doc.end(), '<?xml version="1.0" encoding="utf-8"?><root xmlns="urn:a" v="AT&amp;amp;T">AT&amp;amp;T &amp;#38;</root>');
  });

  it('compact documents: a reply envelope and both faults', () => {
    const result = { WasSuccess: true, Messages: ['one', 'two & three'], Nested: { A: 1, B: null } };
    const fill = (body: XmlSink) => {
      const response = body.ele('urn:service', 'OpResponse');
      writeGeneric(response.ele('urn:service', 'OpResult'), 'urn:service', result);
    };
    const ref = create({ version: '1.0', encoding: 'utf-8' });
    const env = ref.ele(SOAP11_ENVELOPE_NS, 'soap:Envelope').att(XMLNS_NS, 'xmlns:xsi', XSI_NS).att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
    fill(env.ele(SOAP11_ENVELOPE_NS, 'soap:Body') as unknown as XmlSink);
    assert.equal(replyEnvelope('1.1', fill), ref.end({ headless: false }));

    for (const version of ['1.1', '1.2'] as const) {
      const ns = version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
      const fault = new SandboxFault('client', 'Bad <input> & "quotes"');
      const doc = create({ version: '1.0', encoding: 'utf-8' });
      const f = doc.ele(ns, 'soap:Envelope').ele(ns, 'soap:Body').ele(ns, 'soap:Fault');
      if (version === '1.1') {
        f.ele('faultcode').txt('soap:Client');
        f.ele('faultstring').txt(fault.message);
        f.ele('detail');
      } else {
        f.ele(ns, 'soap:Code').ele(ns, 'soap:Value').txt('soap:Sender');
        f.ele(ns, 'soap:Reason').ele(ns, 'soap:Text').att('http://www.w3.org/XML/1998/namespace', 'xml:lang', 'en').txt(fault.message);
        f.ele(ns, 'soap:Detail');
      }
      assert.equal(faultEnvelope(version, fault), doc.end({ headless: false }));
    }
  });

  it('an element in no namespace below a default namespace undeclares it', () => {
    const ours = xmlDocument();
    ours.ele('urn:a', 'root').ele('plain').txt('x');
    const ref = create({ version: '1.0', encoding: 'utf-8' });
    (ref.ele('urn:a', 'root') as XMLBuilder).ele('', 'plain').txt('x');
    assert.equal(ours.end(PRETTY), ref.end(PRETTY));
  });
});
