/**
 * Reading replies: SOAP 1.1 and 1.2 faults as .NET writes them, results along the catalog with
 * unknown elements kept, HTTP-binding roots, in-body error carriers, and everything a server can
 * send that is not a good reply (HTML pages, empty and truncated bodies, wrong content types,
 * DOCTYPEs with entities that must never be expanded or fetched).
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, findShape, type Binding, type Namespaces } from '../../src/core/catalog';
import type { Finding } from '../../src/core/exchange';
import { parseReply, type ReplyInput } from '../../src/core/reply';
import { makePdf, soapReply, SOAP11_TYPE, SOAP12_TYPE, startServer } from './transport-support';

const NS = DEFAULT_NAMESPACES;
const SAME: Namespaces = { service: 'urn:carrier', data: 'urn:carrier', pickup: 'urn:carrier' };

function input(operation: string, version: string | undefined, binding: Binding, text: string, extra: Partial<ReplyInput> = {}): ReplyInput {
  const op = findShape(operation, version)!;
  const contentType = binding === 'soap12' ? SOAP12_TYPE : SOAP11_TYPE;
  return { op, binding, namespaces: NS, status: 200, statusText: 'OK', contentType, text, ...extra };
}

const errors = (f: readonly Finding[]) => f.filter((x) => x.severity === 'error');

describe('reply: SOAP faults', () => {
  it('decodes a SOAP 1.1 fault as .NET sends it (HTTP 500)', async () => {
    const fault = `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>System.Web.Services.Protocols.SoapException: Server was unable to read request. ---&gt; System.InvalidOperationException: There is an error in XML document (1, 412). ---&gt; System.FormatException: Input string was not in a correct format.
   at System.Number.StringToNumber(String str, NumberStyles options)
   --- End of inner exception stack trace ---</faultstring><faultactor>https://api.example/1.0.3/RateQuoteService.asmx</faultactor><detail><ErrorInfo xmlns="urn:carrier:errors"><Code>E100</Code><Field>Weight</Field></ErrorInfo></detail></soap:Fault>`;
    const r = await parseReply(input('GetRateQuote', '1.0.3', 'soap11', soapReply('1.1', fault), { status: 500, statusText: 'Internal Server Error' }));
    assert.equal(r.fault?.soapVersion, '1.1');
    assert.equal(r.fault?.code, 'soap:Client');
    assert.match(
      r.fault!.reason,
      /^System\.Web\.Services\.Protocols\.SoapException: Server was unable to read request\. ---> System\.InvalidOperationException/,
    );
    assert.equal(r.fault?.actor, 'https://api.example/1.0.3/RateQuoteService.asmx');
    assert.deepEqual(r.fault?.detail, { ErrorInfo: { Code: 'E100', Field: 'Weight' } });
    assert.equal(r.parsed, undefined);
    assert.equal(errors(r.findings).length, 1);
    assert.equal(r.findings[0].kind, 'fault');
    assert.match(r.findings[0].message, /^SOAP 1\.1 fault soap:Client: System\.Web/);
  });

  it('decodes a SOAP 1.2 fault with subcodes, reasons in two languages, node, role and detail', async () => {
    const fault = `<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value xmlns:e="urn:carrier:errors">e:Authentication</soap:Value><soap:Subcode><soap:Value xmlns:e="urn:carrier:errors">e:InvalidApiKey</soap:Value></soap:Subcode></soap:Subcode></soap:Code><soap:Reason><soap:Text xml:lang="de">Der API-Schlüssel ist ungültig.</soap:Text><soap:Text xml:lang="en-US">The API key is not valid.</soap:Text></soap:Reason><soap:Node>https://api.example/1.0.2/TerminalInformationService.asmx</soap:Node><soap:Role>http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver</soap:Role><soap:Detail><ErrorInfo xmlns="urn:carrier:errors"><Code>401</Code></ErrorInfo></soap:Detail></soap:Fault>`;
    const r = await parseReply(input('GetTerminalInformation', undefined, 'soap12', soapReply('1.2', fault), { status: 500 }));
    assert.deepEqual(r.fault, {
      soapVersion: '1.2',
      code: 'soap:Sender',
      subcodes: ['e:Authentication', 'e:InvalidApiKey'],
      reason: 'The API key is not valid.',
      actor: 'https://api.example/1.0.2/TerminalInformationService.asmx',
      role: 'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver',
      detail: { ErrorInfo: { Code: '401' } },
    });
    assert.equal(r.findings[0].message, 'SOAP 1.2 fault soap:Sender / e:Authentication / e:InvalidApiKey: The API key is not valid.');
  });

  it('reads a 1.2 fault that comes back to a 1.1 request, and says the versions differ', async () => {
    const r = await parseReply(
      input(
        'GetTerminalInformation',
        undefined,
        'soap11',
        soapReply(
          '1.2',
          '<soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Boom</soap:Text></soap:Reason></soap:Fault>',
        ),
        { status: 500, contentType: SOAP12_TYPE },
      ),
    );
    assert.equal(r.fault?.code, 'soap:Receiver');
    assert.equal(r.fault?.reason, 'Boom');
    // A typed client of SOAP 1.1 cannot read a 1.2 envelope: a contract error (docs/collections.md#contract-findings).
    assert.ok(
      r.findings.some(
        (f) =>
          f.severity === 'error' && f.kind === 'contract' && f.code === 'soap-version' && /SOAP 1\.2 envelope, but the request was SOAP 1\.1/.test(f.message),
      ),
    );
  });
});

describe('reply: results along the catalog', () => {
  const quote = (ns: Namespaces, messages = '', success = '') => `<GetRateQuoteResponse xmlns="${ns.service}"><GetRateQuoteResult>${success}<Result>
    <Origin><City>Burns</City><ZipOrPostalCode>37029</ZipOrPostalCode><CountryCode>USA</CountryCode></Origin>
    <CustomerDiscounts>72.5</CustomerDiscounts>
    <Charges><Charge><Type>NET</Type><Title>Net Charge</Title><Amount>$621.43</Amount></Charge></Charges>${messages}
    <ServiceLevels><ServiceLevel><Title>Standard Service</Title><Code>STD</Code><QuoteNumber>123456</QuoteNumber><ServiceDays>3</ServiceDays><NetCharge>$621.43</NetCharge><Promo>new</Promo></ServiceLevel></ServiceLevels>
    <Surcharge currency="USD">12.00</Surcharge>
  </Result></GetRateQuoteResult></GetRateQuoteResponse>`;

  for (const [label, ns] of [
    ['distinct namespaces', NS],
    ['one namespace for all roles', SAME],
  ] as const) {
    it(`reads a rate quote: typed values, single items as arrays, unknown elements kept (${label})`, async () => {
      const r = await parseReply({ ...input('GetRateQuote', '1.0.3', 'soap11', soapReply('1.1', quote(ns))), namespaces: ns });
      assert.deepEqual(r.parsed, {
        Result: {
          Origin: { City: 'Burns', ZipOrPostalCode: '37029', CountryCode: 'USA' },
          CustomerDiscounts: '72.5',
          Charges: [{ Type: 'NET', Title: 'Net Charge', Amount: '$621.43' }],
          ServiceLevels: [{ Title: 'Standard Service', Code: 'STD', QuoteNumber: '123456', ServiceDays: 3, NetCharge: '$621.43', Promo: 'new' }],
          Surcharge: { '@currency': 'USD', '#text': '12.00' },
        },
      });
      assert.deepEqual(errors(r.findings), []);
      // Elements the contract does not know: warnings, kept as received.
      assert.deepEqual(
        r.findings.filter((f) => f.kind === 'contract').map((f) => [f.severity, f.code, f.path]),
        [
          ['warning', 'unknown-element', 'Result.ServiceLevels[0].Promo'],
          ['warning', 'unknown-element', 'Result.Surcharge'],
        ],
      );
      assert.equal(r.fault, undefined);
    });
  }

  it('accepts any prefix for the Response and Result elements', async () => {
    const body = `<tns:GetHazmatDescriptionResponse xmlns:tns="${NS.service}" xmlns:d="${NS.data}"><tns:GetHazmatDescriptionResult><tns:UNNAList><tns:UNorNA><d:Number>1203</d:Number><d:Description>Gasoline</d:Description><d:NOS>false</d:NOS></tns:UNorNA></tns:UNNAList></tns:GetHazmatDescriptionResult></tns:GetHazmatDescriptionResponse>`;
    const r = await parseReply(input('GetHazmatDescription', undefined, 'soap11', soapReply('1.1', body)));
    assert.deepEqual(r.parsed, { UNNAList: [{ Number: '1203', Description: 'Gasoline', NOS: 'false' }] });
    assert.deepEqual(r.findings, []);
  });

  it('reads a Response in another namespace, and says it breaks the contract', async () => {
    const body = `<GetDocumentTypesResponse xmlns="http://tempuri.org/"><GetDocumentTypesResult><AvailableDocumentTypes><DocumentType>Invoice</DocumentType></AvailableDocumentTypes></GetDocumentTypesResult></GetDocumentTypesResponse>`;
    const r = await parseReply(input('GetDocumentTypes', undefined, 'soap11', soapReply('1.1', body)));
    assert.ok(
      r.findings.some(
        (f) =>
          f.kind === 'contract' &&
          f.severity === 'error' &&
          f.code === 'wrong-namespace' &&
          /GetDocumentTypesResponse> is in http:\/\/tempuri\.org\//.test(f.message),
      ),
    );
    assert.deepEqual(r.parsed, { AvailableDocumentTypes: ['Invoice'] });
  });

  it('reads the bare root of an HTTP GET/POST reply (docs/wire.md#transport-rule-5), data-namespace children included', async () => {
    for (const binding of ['get', 'post'] as const) {
      const text = `<?xml version="1.0" encoding="utf-8"?>\n<TerminalInformationReply xmlns="${NS.service}"><Result><TerminalInfo><TerminalDetails xmlns="${NS.data}"><TerminalDetailID>17</TerminalDetailID><TerminalCode>LNK</TerminalCode><DateCreated>2019-03-01T00:00:00</DateCreated></TerminalDetails></TerminalInfo></Result></TerminalInformationReply>`;
      const r = await parseReply(input('GetTerminalInformation', undefined, binding, text, { contentType: 'text/xml; charset=utf-8' }));
      assert.deepEqual(r.parsed, { Result: [{ TerminalDetails: { TerminalDetailID: 17, TerminalCode: 'LNK', DateCreated: '2019-03-01T00:00:00' } }] });
      assert.deepEqual(r.findings, []);
    }
  });

  it('says so when an HTTP reply has the wrong root, or a SOAP reply is not an envelope', async () => {
    const wrong = await parseReply(input('GetHazmatDescription', undefined, 'get', `<Other xmlns="${NS.service}"/>`, { contentType: 'text/xml' }));
    assert.match(errors(wrong.findings)[0].message, /Expected the reply root <GetHazmatDescriptionReply>, got <Other>/);
    const bare = await parseReply(input('GetHazmatDescription', undefined, 'soap11', `<GetHazmatDescriptionReply xmlns="${NS.service}"/>`));
    assert.match(errors(bare.findings)[0].message, /not a SOAP envelope: its root is <GetHazmatDescriptionReply>/);
    assert.deepEqual(bare.parsed, { GetHazmatDescriptionReply: '' });
  });

  it('reads a nil Result as null and an empty Response as "no result"', async () => {
    const nil = await parseReply(
      input(
        'TraceShipment',
        undefined,
        'soap11',
        soapReply('1.1', `<TraceShipmentResponse xmlns="${NS.service}"><TraceShipmentResult xsi:nil="true"/></TraceShipmentResponse>`),
      ),
    );
    assert.equal(nil.parsed, null);
    const none = await parseReply(input('TraceShipment', undefined, 'soap11', soapReply('1.1', `<TraceShipmentResponse xmlns="${NS.service}"/>`)));
    assert.equal(none.parsed, undefined);
    assert.ok(none.findings.some((f) => /holds no <TraceShipmentResult>/.test(f.message)));
  });

  it('reports a non-200 status without a fault as an error, and still reads the body', async () => {
    const r = await parseReply(
      input(
        'GetHazmatDescription',
        undefined,
        'soap11',
        soapReply('1.1', `<GetHazmatDescriptionResponse xmlns="${NS.service}"><GetHazmatDescriptionResult/></GetHazmatDescriptionResponse>`),
        { status: 503, statusText: 'Service Unavailable' },
      ),
    );
    assert.match(errors(r.findings)[0].message, /HTTP 503 Service Unavailable/);
    assert.deepEqual(r.parsed, {});
  });
});

describe('reply: in-body error carriers', () => {
  it('WasSuccess false with Messages/string: one error per message', async () => {
    const body = `<GetRateQuoteResponse xmlns="${NS.service}"><GetRateQuoteResult><CustomerData>x</CustomerData><WasSuccess>false</WasSuccess><Messages><string>Origin Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.</string><string>Destination Country must be USA or CAN for Quote Type: Domestic.</string></Messages></GetRateQuoteResult></GetRateQuoteResponse>`;
    const r = await parseReply(input('GetRateQuote', '1.0.1', 'soap11', soapReply('1.1', body)));
    assert.deepEqual(
      errors(r.findings).map((f) => [f.kind, f.path, f.message.slice(0, 22)]),
      [
        ['in-body', 'Messages[0]', 'Origin Country must be'],
        ['in-body', 'Messages[1]', 'Destination Country mu'],
      ],
    );
  });

  it('WasSuccess false without a message is still an error', async () => {
    const body = `<CreateBillOfLadingResponse xmlns="${NS.service}"><CreateBillOfLadingResult><WasSuccess>false</WasSuccess></CreateBillOfLadingResult></CreateBillOfLadingResponse>`;
    const r = await parseReply(input('CreateBillOfLading', undefined, 'soap12', soapReply('1.2', body)));
    assert.equal(errors(r.findings)[0].path, 'WasSuccess');
  });

  it('rate quote Result.Messages: info on success, warning when success is not said, error on failure; no service levels warns', async () => {
    const notes = '<Messages><Message><Title>Fuel</Title><Text>Fuel surcharge applied.</Text></Message></Messages><ServiceLevels/>';
    const run = async (success: string) => {
      const body = `<GetRateQuoteResponse xmlns="${NS.service}"><GetRateQuoteResult>${success}<Result>${notes}</Result></GetRateQuoteResult></GetRateQuoteResponse>`;
      return (await parseReply(input('GetRateQuote', '1.0.3', 'soap11', soapReply('1.1', body)))).findings.filter((f) => f.kind === 'in-body');
    };
    const note = (f: Finding[]) => f.find((x) => x.path === 'Result.Messages[0]');
    assert.equal(note(await run('<WasSuccess>true</WasSuccess>'))?.severity, 'info');
    assert.equal(note(await run(''))?.severity, 'warning');
    assert.equal(note(await run('<WasSuccess>false</WasSuccess>'))?.severity, 'error');
    assert.equal(note(await run(''))?.message, 'Fuel: Fuel surcharge applied.');
    assert.ok((await run('')).some((f) => f.path === 'Result.ServiceLevels' && f.severity === 'warning' && /No rates/.test(f.message)));
  });

  it('pickup: WasSuccess false carries Pickup.Message', async () => {
    const body = `<CreatePickupRequestResponse xmlns="${NS.service}"><CreatePickupRequestResult><PickupRequestID/><Pickup><Id xmlns="${NS.pickup}">0</Id><WasSuccess xmlns="${NS.pickup}">false</WasSuccess><Message xmlns="${NS.pickup}">Ready time is after close time.</Message></Pickup></CreatePickupRequestResult></CreatePickupRequestResponse>`;
    const r = await parseReply(input('CreatePickupRequest', undefined, 'soap11', soapReply('1.1', body)));
    assert.deepEqual(
      errors(r.findings).map((f) => [f.path, f.message]),
      [['Pickup.Message', 'Ready time is after close time.']],
    );
  });

  it('trace: a Shipment with ErrorMessage or ErrResponse content is an error; empty ones are not', async () => {
    const d = NS.data;
    const body = `<TraceShipmentResponse xmlns="${NS.service}"><TraceShipmentResult><Result>
      <Shipment><ErrResponse xmlns="${d}"/><ShipmentNumber xmlns="${d}">056391174</ShipmentNumber><ErrorMessage xmlns="${d}"></ErrorMessage></Shipment>
      <Shipment><ShipmentNumber xmlns="${d}">I111111111</ShipmentNumber><ErrorMessage xmlns="${d}">PRO number not found</ErrorMessage></Shipment>
      <Shipment><ErrResponse xmlns="${d}"><Code>42</Code><Text>Blind shipment</Text></ErrResponse></Shipment>
    </Result></TraceShipmentResult></TraceShipmentResponse>`;
    const r = await parseReply(input('TraceShipment', undefined, 'soap11', soapReply('1.1', body)));
    assert.deepEqual(
      errors(r.findings).map((f) => [f.path, f.message]),
      [
        ['Result[1].ErrorMessage', 'PRO number not found'],
        ['Result[2].ErrResponse', 'ErrResponse: 42; Blind shipment'],
      ],
    );
  });

  it('transit: Destination.Result {Level, Message} by level', async () => {
    const d = NS.data;
    const dest = (level: string, message: string) =>
      `<Destination><ServiceDays>2</ServiceDays><Result><Level>${level}</Level><Message>${message}</Message></Result></Destination>`;
    const body = `<GetTransitTimesResponse xmlns="${NS.service}"><GetTransitTimesResult><WasSuccess>true</WasSuccess><Result><TransitTimesID xmlns="${d}">9</TransitTimesID><Destinations xmlns="${d}">${dest('Error', 'No service to 99999')}${dest('Warning', 'Holiday on route')}${dest('Info', '')}</Destinations></Result></GetTransitTimesResult></GetTransitTimesResponse>`;
    const r = await parseReply(input('GetTransitTimes', undefined, 'soap11', soapReply('1.1', body)));
    assert.deepEqual(
      r.findings.filter((f) => f.kind === 'in-body').map((f) => [f.severity, f.path, f.message]),
      [
        ['error', 'Result.Destinations[0].Result', 'Error: No service to 99999'],
        ['warning', 'Result.Destinations[1].Result', 'Warning: Holiday on route'],
      ],
    );
    assert.equal((r.parsed as { Result: { Destinations: unknown[] } }).Result.Destinations.length, 3);
  });
});

describe('reply: documents', () => {
  it('decodes a base64 PDF, sniffs its type and counts its pages', async () => {
    const pdf = makePdf(3, 2000);
    const b64 = pdf.toString('base64');
    const body = `<GetBillOfLadingPdfResponse xmlns="${NS.service}"><GetBillOfLadingPdfResult><PdfDocument>${b64}</PdfDocument></GetBillOfLadingPdfResult></GetBillOfLadingPdfResponse>`;
    const r = await parseReply(input('GetBillOfLadingPdf', undefined, 'soap11', soapReply('1.1', body)));
    assert.equal(r.documents.length, 1);
    const [doc] = r.documents;
    assert.deepEqual(
      { ...doc, base64: undefined },
      { path: 'PdfDocument', name: 'GetBillOfLadingPdf-PdfDocument.pdf', mediaType: 'application/pdf', size: pdf.length, pages: 3, base64: undefined },
    );
    assert.ok(Buffer.from(doc.base64, 'base64').equals(pdf));
  });

  it('decodes line-wrapped base64 and names archive documents after DocumentName', async () => {
    const pdf = makePdf(2, 500, 'flate');
    const wrapped = pdf.toString('base64').replace(/.{76}/g, '$&\r\n');
    const other = Buffer.from('plain text, not a pdf').toString('base64');
    const body = `<GetDocumentsResponse xmlns="${NS.service}"><GetDocumentsResult><Documents>
      <ArchiveDocument><DocumentName>BOL 056391174</DocumentName><DocumentData>${wrapped}</DocumentData></ArchiveDocument>
      <ArchiveDocument><DocumentName>notes.txt</DocumentName><DocumentData>${other}</DocumentData></ArchiveDocument>
      <ArchiveDocument><DocumentName>broken</DocumentName><DocumentData>not*base64!</DocumentData></ArchiveDocument>
    </Documents></GetDocumentsResult></GetDocumentsResponse>`;
    const r = await parseReply(input('GetDocuments', undefined, 'soap11', soapReply('1.1', body)));
    assert.deepEqual(
      r.documents.map((d) => [d.path, d.name, d.mediaType, d.pages]),
      [
        ['Documents[0].DocumentData', 'BOL_056391174.pdf', 'application/pdf', 2],
        ['Documents[1].DocumentData', 'notes.txt.bin', 'application/octet-stream', undefined],
      ],
    );
    assert.ok(Buffer.from(r.documents[0].base64, 'base64').equals(pdf));
    assert.ok(!/\s/.test(r.documents[0].base64));
    assert.ok(r.findings.some((f) => f.kind === 'contract' && f.code === 'not-of-type' && f.severity === 'error' && f.path === 'Documents[2].DocumentData'));
  });

  it('finds BolPdf in a SOAP 1.2 pickup reply', async () => {
    const pdf = makePdf(1);
    const body = `<CreatePickupRequestResponse xmlns="${NS.service}"><CreatePickupRequestResult><PickupRequestID>P-1</PickupRequestID><BolPdf>${pdf.toString('base64')}</BolPdf></CreatePickupRequestResult></CreatePickupRequestResponse>`;
    const r = await parseReply(input('CreatePickupRequest', undefined, 'soap12', soapReply('1.2', body)));
    assert.deepEqual(
      r.documents.map((d) => [d.path, d.pages, d.size]),
      [['BolPdf', 1, pdf.length]],
    );
  });
});

describe('reply: what is not a good reply becomes a finding', () => {
  it('an ASP.NET HTML error page (HTTP 500)', async () => {
    const html = `<!DOCTYPE html>\n<html><head><title>Runtime Error</title></head><body><h1>Server Error in '/' Application.</h1><h2><i>Runtime Error</i></h2></body></html>`;
    const r = await parseReply(
      input('GetTerminalInformation', undefined, 'soap11', html, { status: 500, statusText: 'Internal Server Error', contentType: 'text/html; charset=utf-8' }),
    );
    assert.equal(r.parsed, undefined);
    assert.equal(errors(r.findings).length, 1);
    assert.equal(
      r.findings[0].message,
      "The server answered with an HTML page, not XML (HTTP 500 Internal Server Error): Runtime Error — Server Error in '/' Application.",
    );
  });

  it('an HTML page sent as text/xml is recognised too', async () => {
    const r = await parseReply(
      input('GetTerminalInformation', undefined, 'soap11', '<html><head><title>502 Bad Gateway</title></head></html>', {
        status: 502,
        statusText: 'Bad Gateway',
      }),
    );
    assert.match(r.findings[0].message, /HTML page.*502 Bad Gateway/);
  });

  it('an empty body', async () => {
    const r = await parseReply(input('GetTerminalInformation', undefined, 'soap12', '', { status: 200 }));
    assert.match(errors(r.findings)[0].message, /The reply body is empty \(HTTP 200 OK, application\/soap\+xml\)/);
  });

  it('truncated XML, with where it stops', async () => {
    const r = await parseReply(
      input(
        'GetHazmatDescription',
        undefined,
        'soap11',
        soapReply('1.1', `<GetHazmatDescriptionResponse xmlns="${NS.service}"><GetHazmatDescriptionResult><UNNAList>`).slice(0, -60),
      ),
    );
    assert.match(errors(r.findings)[0].message, /^The reply XML is cut short: The XML ends before <[^>]+> is closed.*\(line 1, column \d+\)/);
  });

  it('malformed XML', async () => {
    const r = await parseReply(input('GetHazmatDescription', undefined, 'soap11', '<a><b></a>'));
    assert.match(errors(r.findings)[0].message, /^The reply is not well-formed XML/);
  });

  it('a JSON body, and a SOAP 1.2 reply with a SOAP 1.1 content type', async () => {
    const json = await parseReply(
      input('GetHazmatDescription', undefined, 'soap11', '{"Message":"An error has occurred."}', {
        status: 500,
        statusText: 'Internal Server Error',
        contentType: 'application/json; charset=utf-8',
      }),
    );
    assert.match(
      errors(json.findings)[0].message,
      /The reply is application\/json, not XML \(HTTP 500 Internal Server Error\): \{"Message":"An error has occurred\."\}/,
    );
    const mislabelled = await parseReply(
      input(
        'GetHazmatDescription',
        undefined,
        'soap12',
        soapReply('1.2', `<GetHazmatDescriptionResponse xmlns="${NS.service}"><GetHazmatDescriptionResult/></GetHazmatDescriptionResponse>`),
        { contentType: 'text/xml; charset=utf-8' },
      ),
    );
    assert.ok(
      mislabelled.findings.some(
        (f) => f.severity === 'warning' && /Content-Type is text\/xml; charset=utf-8; a SOAP 1\.2 reply should be application\/soap\+xml/.test(f.message),
      ),
    );
    assert.deepEqual(mislabelled.parsed, {});
  });

  it('refuses entity expansion (billion laughs) at once, expanding nothing', async () => {
    const laughs =
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>` +
      soapReply('1.1', '<x>&lol9;</x>').replace(/^<\?xml[^>]*>/, '');
    const r = await parseReply(input('GetHazmatDescription', undefined, 'soap11', laughs));
    assert.match(errors(r.findings)[0].message, /^Refused: the XML declares a DOCTYPE; entities are never expanded or fetched \(line 1, column 22\)/);
    assert.equal(r.parsed, undefined);
    assert.ok(!JSON.stringify(r).includes('lollol'));
  });

  it('never fetches an external entity: the entity target receives no request', async () => {
    const target = await startServer((_req, res) => {
      res.end('<secret>leaked</secret>');
    });
    try {
      const general =
        `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "${target.url}/general">]>\n` +
        soapReply(
          '1.1',
          `<GetHazmatDescriptionResponse xmlns="${NS.service}"><GetHazmatDescriptionResult><UNNAList><UNorNA><Description xmlns="${NS.data}">&xxe;</Description></UNorNA></UNNAList></GetHazmatDescriptionResult></GetHazmatDescriptionResponse>`,
        ).replace(/^<\?xml[^>]*>/, '');
      const parameter = `<!DOCTYPE r [<!ENTITY % p SYSTEM "${target.url}/parameter"> %p;]><r/>`;
      for (const text of [general, parameter]) {
        const r = await parseReply(input('GetHazmatDescription', undefined, 'soap11', text));
        assert.match(errors(r.findings)[0].message, /^Refused: the XML declares a DOCTYPE/);
        assert.ok(!JSON.stringify(r).includes('leaked'));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(target.received, []);
    } finally {
      await target.close();
    }
  });
});
