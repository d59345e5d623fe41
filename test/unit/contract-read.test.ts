/**
 * Reading a live contract: WSDL and XSD read namespace-aware (prefixes declared anywhere, a second
 * schema through import, schemaLocation documents fetched, elementFormDefault and form honoured,
 * refs, extensions, choices and groups), and every WSDL the sandbox publishes held against the
 * catalog with nothing to report — then each kind of alteration reported as exactly what it is.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, servicePaths, type Namespaces } from '../../src/core/catalog';
import { compareService } from '../../src/core/contract/compare';
import type { ContractDifference } from '../../src/core/contract/types';
import { ContractReadError, readWsdl, type DocumentLoader } from '../../src/core/contract/wsdl';
import type { ComplexType, LiveElement } from '../../src/core/contract/xsd';
import { buildWsdl } from '../../src/sandbox/wsdl/wsdl';
import { alterLiveWsdl, declaration, inType, LIVE_NAMESPACES } from './contract-kit';

const noImports: DocumentLoader = async (url) => {
  throw new ContractReadError(url, `unexpected fetch of ${url}`);
};
const NS_SAME: Namespaces = { service: 'http://ltl.carrier.test/', data: 'http://ltl.carrier.test/', pickup: 'http://ltl.carrier.test/' };

const WSDL_HEAD =
  '<?xml version="1.0"?>\n<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="urn:svc">';

function names(type: ComplexType): string[] {
  return type.elements.map((e) => `${e.ns ? `{${e.ns}}` : ''}${e.name}${e.minOccurs === 0 ? '?' : ''}${e.maxOccurs > 1 ? '*' : ''}`);
}

function complex(el: LiveElement | undefined): ComplexType {
  const t = el?.type();
  assert.equal(t?.kind, 'complex', `${el?.name} is not complex`);
  return t as ComplexType;
}

describe('contract: reading WSDL and XML Schema', () => {
  it('resolves QName values through the prefixes in scope where they are written, across two schemas', async () => {
    const wsdl = `${WSDL_HEAD}<w:types>
      <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:svc" xmlns:d="urn:data" targetNamespace="urn:svc" elementFormDefault="qualified">
        <xs:import namespace="urn:data"/>
        <xs:element name="Op"><xs:complexType><xs:sequence>
          <xs:element name="Point" type="d:Point"/>
          <xs:element ref="a:Shared" minOccurs="0"/>
          <xs:element name="Local" form="unqualified" type="xs:string"/>
        </xs:sequence></xs:complexType></xs:element>
        <xs:element name="Shared" type="xs:int"/>
      </xs:schema>
      <!-- the same prefix bound to another namespace in the second schema -->
      <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:data" targetNamespace="urn:data">
        <xs:complexType name="Point"><xs:complexContent><xs:extension base="a:Base"><xs:sequence>
          <xs:element name="Zip" type="xs:string" maxOccurs="unbounded"/>
          <xs:choice><xs:element name="Lat" type="xs:double"/><xs:element name="Code" type="a:Code"/></xs:choice>
          <xs:group ref="a:Extra"/>
        </xs:sequence></xs:extension></xs:complexContent></xs:complexType>
        <xs:complexType name="Base"><xs:sequence><xs:element name="City" type="xs:string"/></xs:sequence></xs:complexType>
        <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:enumeration value="A"/><xs:enumeration value="B"/></xs:restriction></xs:simpleType>
        <xs:group name="Extra"><xs:sequence><xs:element name="Note" type="xs:string" minOccurs="0"/><xs:any/></xs:sequence></xs:group>
      </xs:schema></w:types></w:definitions>`;
    const doc = await readWsdl(wsdl, 'http://svc.test/x.asmx?WSDL', noImports);
    assert.deepEqual([...doc.schemas.targetNamespaces].sort(), ['urn:data', 'urn:svc']);
    const op = complex(doc.schemas.element({ ns: 'urn:svc', local: 'Op' }));
    // Qualified locals take the target namespace, a ref its element's, form="unqualified" none.
    assert.deepEqual(names(op), ['{urn:svc}Point', '{urn:svc}Shared?', 'Local']);
    assert.equal(op.elements[1].type().kind, 'simple');
    const point = complex(op.elements[0]);
    // The data schema has no elementFormDefault: its locals are unqualified. Base first, then the extension.
    assert.deepEqual(names(point), ['City', 'Zip*', 'Lat?', 'Code?', 'Note?']);
    assert.equal(point.any, true);
    const code = point.elements[3].type();
    assert.deepEqual(code.kind === 'simple' && [code.base, code.enumeration], ['string', ['A', 'B']]);
    assert.deepEqual(doc.schemas.problems, []);
  });

  it('fetches schemas named by schemaLocation (relative to the importing document) and wsdl:import', async () => {
    const fetched: string[] = [];
    const loader: DocumentLoader = async (url) => {
      fetched.push(url);
      if (url === 'http://svc.test/schemas/data.xsd') {
        return '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:data" elementFormDefault="qualified"><xs:include schemaLocation="more.xsd"/><xs:complexType name="Point"><xs:sequence><xs:element name="Zip" type="xs:string"/></xs:sequence></xs:complexType></xs:schema>';
      }
      if (url === 'http://svc.test/schemas/more.xsd') {
        // A chameleon include: no target namespace of its own, it takes the includer's.
        return '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified"><xs:complexType name="More"><xs:sequence><xs:element name="M" type="xs:int"/></xs:sequence></xs:complexType></xs:schema>';
      }
      throw new ContractReadError(url, `${url} answered HTTP 404`);
    };
    const wsdl = `${WSDL_HEAD}<w:types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:d="urn:data" targetNamespace="urn:svc" elementFormDefault="qualified">
      <xs:import namespace="urn:data" schemaLocation="schemas/data.xsd"/>
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="P" type="d:Point"/><xs:element name="N" type="d:More"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema></w:types></w:definitions>`;
    const doc = await readWsdl(wsdl, 'http://svc.test/x.asmx?WSDL', loader);
    assert.deepEqual(fetched, ['http://svc.test/schemas/data.xsd', 'http://svc.test/schemas/more.xsd']);
    const op = complex(doc.schemas.element({ ns: 'urn:svc', local: 'Op' }));
    assert.deepEqual(names(complex(op.elements[0])), ['{urn:data}Zip']);
    assert.deepEqual(names(complex(op.elements[1])), ['{urn:data}M']);
    assert.deepEqual([...doc.documents.keys()], ['http://svc.test/x.asmx?WSDL', 'http://svc.test/schemas/data.xsd', 'http://svc.test/schemas/more.xsd']);
  });

  it('says what came instead of a WSDL, naming the URL', async () => {
    const url = 'https://svc.test/1.0.3/RateQuoteService.asmx?WSDL';
    const cases: Array<[string, RegExp]> = [
      ['<!DOCTYPE html><html><body>Sign in</body></html>', /answered with an HTML page/],
      ['<html><head></head></html>', /HTML page/],
      ['{"error":"no"}', /not XML/],
      ['<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><wsdl:types>', /not well-formed XML/],
      ['<root xmlns="urn:x"/>', /not a WSDL: its root element is <root> in urn:x/],
      ['<description xmlns="http://www.w3.org/ns/wsdl"/>', /WSDL 2\.0/],
    ];
    for (const [text, message] of cases) {
      await assert.rejects(readWsdl(text, url, noImports), (err: Error) => {
        assert.ok(err instanceof ContractReadError, err.message);
        assert.match(err.message, message);
        assert.ok(err.message.includes(url), err.message);
        return true;
      });
    }
  });
});

async function compareAt(path: string, ns: Namespaces, alter: (wsdl: string) => string = (w) => w): Promise<ContractDifference[]> {
  const shapes = servicePaths().get(path)!;
  const text = alter(buildWsdl(path, shapes, ns, 'http://live.test'));
  const doc = await readWsdl(text, `http://live.test${path}?WSDL`, noImports);
  return compareService(path, shapes, doc, ns.service).differences;
}

const brief = (d: ContractDifference) =>
  [d.kind, d.direction ?? '', d.record ?? '', d.element ?? '', (d.values ?? []).join(' ')].join(' | ').replace(/( \| )+$/, '');

describe("contract: the sandbox's own WSDLs against the catalog", () => {
  for (const [label, ns] of [
    ['distinct namespaces', DEFAULT_NAMESPACES],
    ['one namespace for every role', NS_SAME],
    ['the live namespaces', LIVE_NAMESPACES],
  ] as const) {
    it(`finds nothing to report at any service path (${label})`, async () => {
      for (const path of servicePaths().keys()) assert.deepEqual((await compareAt(path, ns)).map(brief), [], path);
    });
  }
});

describe('contract: each kind of alteration, reported as what it is', () => {
  const cases: Array<{ name: string; path: string; alter: (w: string) => string; expect: string[] }> = [
    {
      name: 'elements added (first, and after another), an enumeration value added and one missing',
      path: '/1.0.3/RateQuoteService.asmx',
      alter: (w) => alterLiveWsdl('/1.0.3/RateQuoteService.asmx', w),
      expect: [
        'enumeration-missing | request | RateQuoteRequestV103 | Accessorials.RQAccessorial | SortAndSegregate',
        'element-added | request | RateQuoteRequestV103 | CustomerData',
        'element-added | request | RateItem | Pieces',
        'enumeration-added | request | RateQuoteRequestV103 | Accessorials.RQAccessorial | COD',
      ],
    },
    {
      name: 'an element removed and one retyped',
      path: '/1.0.0/TransitTimesService.asmx',
      alter: (w) => alterLiveWsdl('/1.0.0/TransitTimesService.asmx', w),
      expect: ['element-missing | request | TransitTimesInput | LineOfBusiness', 'type | request | TransitTimesInput | DateOfPickup'],
    },
    {
      name: 'elements reordered, minOccurs changed, an open record expanded',
      path: '/1.0.3/PickupRequestService.asmx',
      alter: (w) => alterLiveWsdl('/1.0.3/PickupRequestService.asmx', w),
      expect: [
        'order | request | PickupContact |  | CompanyName Name PhoneNumber PhoneExtension EmailAddress',
        'min-occurs | request | CreatePickupRequestRequest | IncludeBol',
        'record-expanded | request | LoadAttributes |  | Stackable TotalPallets',
      ],
    },
    {
      name: 'an operation missing',
      path: '/sandbox/BillOfLadingService.asmx',
      alter: (w) => alterLiveWsdl('/sandbox/BillOfLadingService.asmx', w),
      expect: ['operation-missing'],
    },
    {
      name: 'a binding missing, a reply element missing',
      path: '/1.0.2/TerminalInformationService.asmx',
      alter: (w) => alterLiveWsdl('/1.0.2/TerminalInformationService.asmx', w),
      expect: ['binding-missing', 'element-missing | reply | TerminalDetails | TerminalType'],
    },
    {
      name: 'decimal against double, int against string, a list unwrapped, an operation and a binding added',
      path: '/1.0.1/RateQuoteService.asmx',
      alter: (w) => {
        let out = inType(w, 'RateQuoteRequestV101', (c) =>
          c.replace(/(name="CODAmount" type=")s:decimal"/, '$1s:double"').replace(/(name="OverDimensionPcs" type=")s:int"/, '$1s:string"'),
        );
        out = inType(out, 'QuoteDetails', (c) =>
          c.replace(
            /<s:element minOccurs="0" maxOccurs="1" name="Charges" type="tns:ArrayOfCharge"\/>/,
            '<s:element minOccurs="0" maxOccurs="unbounded" name="Charges" type="tns:Charge"/>',
          ),
        );
        out = out.replace(
          '</wsdl:portType>',
          '<wsdl:operation name="GetPalletTypes"><wsdl:input message="tns:GetRateQuoteSoapIn"/><wsdl:output message="tns:GetRateQuoteSoapOut"/></wsdl:operation></wsdl:portType>',
        );
        out = out.replace(
          /(<wsdl:binding name="RateQuoteServiceSoap" [^>]*>[\s\S]*?)(<\/wsdl:binding>)/,
          '$1<wsdl:operation name="GetPalletTypes"><soap:operation soapAction="x"/></wsdl:operation>$2',
        );
        return out.replace(
          '</wsdl:definitions>',
          '<wsdl:binding name="RateQuoteServiceHttpGet" type="tns:RateQuoteServiceSoap"><http:binding verb="GET"/><wsdl:operation name="GetRateQuote"/></wsdl:binding></wsdl:definitions>',
        );
      },
      expect: [
        'type | request | RateQuoteRequestV101 | CODAmount',
        'type | request | RateQuoteRequestV101 | OverDimensionPcs',
        'type | reply | QuoteDetails | Charges',
        'max-occurs | reply | QuoteDetails | Charges',
        'binding-added',
        'operation-added',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const found = (await compareAt(c.path, LIVE_NAMESPACES, c.alter)).map(brief);
      assert.deepEqual(found, c.expect);
    });
  }

  it('places an added element by its neighbour and types it from the schema', async () => {
    const [added] = (await compareAt('/1.0.3/RateQuoteService.asmx', LIVE_NAMESPACES, (w) => alterLiveWsdl('/1.0.3/RateQuoteService.asmx', w))).filter(
      (d) => d.element === 'Pieces',
    );
    assert.deepEqual(added.added, {
      name: 'Pieces',
      ns: LIVE_NAMESPACES.service,
      role: 'service',
      type: 's:int',
      base: 'int',
      minOccurs: 1,
      maxOccurs: 1,
      position: 3,
      after: 'Weight',
    });
    assert.equal(added.at, 'request.Items[*]');
  });

  it('a removed element leaves no other difference behind (the rest of the record still matches)', async () => {
    const found = await compareAt('/1.0.2/ShipmentTracingService.asmx', DEFAULT_NAMESPACES, (w) =>
      inType(w, 'TraceShipmentRequest', (c) => c.replace(declaration('IncludeBlind'), '')),
    );
    assert.deepEqual(found.map(brief), ['element-missing | request | TraceShipmentRequest | IncludeBlind']);
  });
});
