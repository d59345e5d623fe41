import { strict as assert } from 'node:assert';
import { create } from 'xmlbuilder2';
import { DEFAULT_NAMESPACES, findShape, getRecord, parametersRecord, type Namespaces } from '../../src/core/catalog';
import { parseXml, XmlError } from '../../src/core/xml/dom';
import { readRecord, type ReadIssue } from '../../src/core/xml/read';
import { writeRecord } from '../../src/core/xml/write';

const distinct: Namespaces = DEFAULT_NAMESPACES;
const same: Namespaces = { service: 'urn:one', data: 'urn:one', pickup: 'urn:one' };

function roundTrip(operation: string, version: string | undefined, params: Record<string, unknown>, ns: Namespaces, raw?: Record<string, string>) {
  const op = findShape(operation, version)!;
  const doc = create();
  const wrapper = doc.ele(ns.service, op.operation);
  writeRecord(wrapper, parametersRecord(op), params, [], { namespaces: ns, rawNumber: (p) => raw?.[p.join('/')] });
  const xml = doc.end({ headless: true });
  const issues: ReadIssue[] = [];
  const back = readRecord(parseXml(xml), parametersRecord(op), '', { namespaces: ns, outOfNamespace: 'absent', issues });
  return { xml, back, issues };
}

describe('XML codec along the catalog', () => {
  for (const [label, ns] of [
    ['distinct namespaces', distinct],
    ['one namespace for all roles', same],
  ] as const) {
    it(`writes in catalog order and reads back typed values (${label})`, () => {
      const params = {
        request: {
          // JSON key order deliberately differs from the catalog's.
          Accessorials: ['OriginLiftgate', 'Hazmat'],
          Items: [{ Weight: 1500, Class: '50.0', Length: 48, Width: 48, Height: 40 }],
          QuoteType: 'Domestic',
          DeclaredValue: '0.10',
          Origin: { CountryCode: 'USA', ZipOrPostalCode: '37029', City: 'Burns', StateOrProvince: 'TN' },
          Destination: { ZipOrPostalCode: '33635', CountryCode: 'USA' },
          Pallets: [{ Code: '0001', Weight: 300, Quantity: 2 }],
        },
      };
      const { xml, back, issues } = roundTrip('GetRateQuote', '1.0.3', params, ns);
      assert.deepEqual(issues, []);
      const order = [...xml.matchAll(/<(\w+)[ >/]/g)].map((m) => m[1]);
      assert.deepEqual(order.slice(0, 4), ['GetRateQuote', 'request', 'QuoteType', 'Origin']);
      assert.ok(xml.indexOf('<DeclaredValue>0.10</DeclaredValue>') > xml.indexOf('</Items>'), 'DeclaredValue after Items, exactly 0.10');
      assert.match(xml, /<Accessorials><RQAccessorial>OriginLiftgate<\/RQAccessorial><RQAccessorial>Hazmat<\/RQAccessorial><\/Accessorials>/);
      assert.deepEqual(back, {
        request: {
          QuoteType: 'Domestic',
          Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
          Destination: { ZipOrPostalCode: '33635', CountryCode: 'USA' },
          Items: [{ Class: '50.0', Weight: 1500, Width: 48, Height: 40, Length: 48 }],
          DeclaredValue: '0.10',
          Accessorials: ['OriginLiftgate', 'Hazmat'],
          Pallets: [{ Code: '0001', Weight: 300, Quantity: 2 }],
        },
      });
    });
  }

  it('puts transit contents in the data namespace and the containers in the service namespace', () => {
    const { xml, back, issues } = roundTrip(
      'GetTransitTimes',
      undefined,
      {
        input: {
          DateOfPickup: '2026-11-23',
          OriginPoint: { City: 'Lincoln', ZipOrPostalCode: '68507', CountryCode: 'USA' },
          Destinations: { DestinationPoint: [{ ZipOrPostalCode: '33635', CountryCode: 'USA' }] },
        },
      },
      distinct,
    );
    assert.deepEqual(issues, []);
    assert.match(xml, new RegExp(`<OriginPoint><City xmlns="${distinct.data}">Lincoln</City>`));
    assert.match(xml, new RegExp(`<Destinations><DestinationPoint xmlns="${distinct.data}"><ServicePoint>`));
    assert.match(xml, /<DateOfPickup>2026-11-23T00:00:00<\/DateOfPickup>/);
    assert.equal((back.input as { DateOfPickup: string }).DateOfPickup, '2026-11-23T00:00:00');
  });

  it('keeps number literals as written when their source text is known', () => {
    const { xml } = roundTrip('GetRateQuote', '1.0.3', { request: { Items: [{ Weight: 48 }], DeclaredValue: 100 } }, distinct, {
      'request/Items/0/Weight': '48.00',
      'request/DeclaredValue': '100.00',
    });
    assert.match(xml, /<Weight>48.00<\/Weight>/);
    assert.match(xml, /<DeclaredValue>100.00<\/DeclaredValue>/);
  });

  it('treats an element outside its namespace as absent in requests, and says so', () => {
    const xml = `<GetRateQuote xmlns="${distinct.service}"><request><QuoteType>Domestic</QuoteType><OverDimensionPcs xmlns="">3</OverDimensionPcs></request></GetRateQuote>`;
    const issues: ReadIssue[] = [];
    const op = findShape('GetRateQuote', '1.0.1')!;
    const back = readRecord(parseXml(xml), parametersRecord(op), '', { namespaces: distinct, outOfNamespace: 'absent', issues });
    assert.deepEqual(back, { request: { QuoteType: 'Domestic' } });
    assert.equal(issues[0].kind, 'namespace');
    assert.match(issues[0].message, /request\.OverDimensionPcs is in no namespace/);
  });

  it('keeps unknown elements and single-item lists as arrays when reading replies', () => {
    const s = distinct.service;
    const xml = `<r xmlns="${s}"><Result><ServiceLevels><ServiceLevel><Code>STD</Code><ServiceDays>3</ServiceDays><Surprise a="1">x</Surprise></ServiceLevel></ServiceLevels><Novel><A>1</A><A>2</A></Novel></Result></r>`;
    const issues: ReadIssue[] = [];
    const back = readRecord(parseXml(xml), getRecord('RateQuoteReply'), '', { namespaces: distinct, outOfNamespace: 'keep', issues });
    assert.deepEqual(back, { Result: { ServiceLevels: [{ Code: 'STD', ServiceDays: 3, Surprise: { '@a': '1', '#text': 'x' } }], Novel: { A: ['1', '2'] } } });
    assert.deepEqual(
      issues.map((i) => i.path),
      ['Result.ServiceLevels[0].Surprise', 'Result.Novel'],
    );
  });

  it('refuses DOCTYPE and reports truncated XML with a position', () => {
    assert.throws(
      () => parseXml('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'),
      (e: XmlError) => e.code === 'doctype' && e.line === 2,
    );
    assert.throws(
      () => parseXml('<a><b>half'),
      (e: XmlError) => e.code === 'truncated',
    );
  });

  it('tells apart names of one length and first letter, met in turn, and checks each new one', () => {
    // City/Code/Cost share a length and a first letter: the parser's cache of recent names holds one of them at a time.
    const root = parseXml('<a><City>1</City><Code>2</Code><City>3</City><Cost>4</Cost><p:Cell xmlns:p="urn:p">5</p:Cell><Code/></a>');
    assert.deepEqual(
      root.children.map((c) => [c.local, c.ns, c.text]),
      [
        ['City', '', '1'],
        ['Code', '', '2'],
        ['City', '', '3'],
        ['Cost', '', '4'],
        ['Cell', 'urn:p', '5'],
        ['Code', '', ''],
      ],
    );
    // A name of a known one's shape is still checked as a name of its own.
    assert.throws(() => parseXml('<a><City/><C!ty/></a>'), /"C!ty" is not a valid name/);
    assert.throws(() => parseXml('<a><Ci:y/></a>'), /prefix "Ci" of <Ci:y> is not declared/);
  });

  it('accepts only the predefined entities and characters XML allows', () => {
    assert.equal(parseXml('<a x="&quot;&apos;">&lt;&gt;&amp;&#65;&#x1F600;</a>').text, '<>&A\u{1F600}');
    assert.throws(() => parseXml('<a>&nope;</a>'), /&nope; is not an entity XML predefines/);
    assert.throws(() => parseXml('<a x="&bad;"/>'), /&bad; is not an entity XML predefines/);
    assert.throws(() => parseXml('<a>&#0;</a>'), /&#0; is not a character XML allows/);
  });
});
