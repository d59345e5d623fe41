/**
 * Strict where a real ASMX service is strict, tolerant where it is tolerant: what the sandbox
 * refuses (and how: 415, SOAP faults with HTTP 500 and a client/sender code, plain-text 500 on
 * the HTTP bindings, 404) and what it accepts although it looks odd.
 */
import { strict as assert } from 'node:assert';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import {
  actionOf,
  Clock,
  el,
  envelope,
  http,
  KEY,
  NS_DISTINCT,
  SOAP11,
  SOAP12,
  soapFault,
  soapHeaders,
  soapResult,
  textAt,
  children,
  child,
  type Node,
} from './sandbox-kit';
import { rate103 } from './sandbox-requests';

const ns = NS_DISTINCT;
const S = ns.service;
const RATE = '/1.0.3/RateQuoteService.asmx';
const BOL = '/sandbox/BillOfLadingService.asmx';

const hazmat = (key: Node[] = [el('APIKey', KEY)]) => el('GetHazmatDescription', [...key, el('UNNANumber', 'UN1203')]);

describe('sandbox refusals and tolerance', () => {
  let sb: SandboxHandle;
  let locked: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: ns, now: new Clock().now });
    locked = await startSandbox({ namespaces: ns, apiKeys: ['good-key-1', 'good-key-2'] });
  });
  after(async () => {
    await sb.close();
    await locked.close();
  });

  const post11 = (
    path: string,
    body: string,
    headers: Record<string, string> = soapHeaders('1.1', actionOf(ns, 'GetHazmatDescription'), 'missing'),
    base = sb.url,
  ) => http(base + path, { method: 'POST', body, headers });

  describe('Content-Type', () => {
    for (const type of ['text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
      it(`refuses ${type} on a SOAP endpoint with 415 and a readable reason`, async () => {
        const r = await post11(BOL, envelope('1.1', hazmat(), ns, 'default-xmlns'), { 'Content-Type': type });
        assert.equal(r.status, 415);
        assert.match(r.contentType, /^text\/plain/);
        assert.match(r.text, /Unsupported Media Type.*text\/xml.*application\/soap\+xml/);
      });
    }
    it('refuses a request without Content-Type with 415', async () => {
      const r = await http(sb.url + BOL, { method: 'POST', body: Buffer.from(envelope('1.1', hazmat(), ns, 'default-xmlns')) });
      assert.equal(r.status, 415);
      assert.match(r.text, /no Content-Type/);
    });
    it('refuses an unknown charset with 415', async () => {
      const r = await post11(BOL, envelope('1.1', hazmat(), ns, 'default-xmlns'), { 'Content-Type': 'text/xml; charset=ebcdic-cp-us' });
      assert.equal(r.status, 415);
    });
    it('answers JSON POSTed to .asmx/GetRateQuote (no HTTP binding) as ASMX does', async () => {
      const r = await http(`${sb.url}${RATE}/GetRateQuote`, {
        method: 'POST',
        body: '{"QuoteType":"Domestic"}',
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(r.status, 500);
      assert.match(r.text, /Request format is unrecognized for URL unexpectedly ending in '\/GetRateQuote'/);
    });
    it('refuses a form POST with the wrong Content-Type with 415', async () => {
      const r = await http(`${sb.url}${BOL}/GetHazmatDescription`, {
        method: 'POST',
        body: `APIKey=${KEY}&UNNANumber=1203`,
        headers: { 'Content-Type': 'text/xml' },
      });
      assert.equal(r.status, 415);
    });
    it('answers a SOAP 1.2 envelope sent as text/xml with a VersionMismatch fault', async () => {
      const r = await post11(BOL, envelope('1.2', hazmat(), ns, 'default-xmlns'));
      assert.equal(r.status, 500);
      assert.equal(soapFault(r.text).code, 'soap:VersionMismatch');
    });
  });

  describe('which operation', () => {
    it('faults an unknown operation element (no SOAPAction) with soap:Client', async () => {
      const r = await post11(BOL, envelope('1.1', el('GetPalletTypes', [el('APIKey', KEY)]), ns, 'default-xmlns'));
      assert.equal(r.status, 500);
      const f = soapFault(r.text);
      assert.equal(f.code, 'soap:Client');
      assert.match(f.reason, /did not recognize the request element <GetPalletTypes>/);
    });
    it('faults a SOAPAction that names no operation of the path', async () => {
      const r = await post11(BOL, envelope('1.1', hazmat(), ns, 'default-xmlns'), soapHeaders('1.1', actionOf(ns, 'GetRateQuote'), 'quoted'));
      assert.equal(r.status, 500);
      assert.match(soapFault(r.text).reason, /Server did not recognize the value of HTTP Header SOAPAction: .*GetRateQuote/);
    });
    it('faults a SOAPAction that disagrees with the body', async () => {
      const r = await post11(BOL, envelope('1.1', hazmat(), ns, 'default-xmlns'), soapHeaders('1.1', actionOf(ns, 'GetBillOfLadingPdf'), 'unquoted'));
      assert.equal(r.status, 500);
      const f = soapFault(r.text);
      assert.equal(f.code, 'soap:Client');
      assert.match(f.reason, /names GetBillOfLadingPdf, but the SOAP Body holds <GetHazmatDescription>/);
    });
    it('faults a SOAP 1.2 action parameter that disagrees with the body, with soap:Sender', async () => {
      const r = await http(sb.url + BOL, {
        method: 'POST',
        body: envelope('1.2', hazmat(), ns, 'default-xmlns'),
        headers: soapHeaders('1.2', actionOf(ns, 'GetBillOfLadingPdf'), 'quoted'),
      });
      assert.equal(r.status, 500);
      assert.equal(r.contentType, 'application/soap+xml; charset=utf-8');
      const f = soapFault(r.text, '1.2');
      assert.equal(f.code, 'soap:Sender');
      assert.match(f.reason, /action/);
    });
    it('faults an operation element outside the service namespace', async () => {
      const body = `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><GetHazmatDescription xmlns="urn:somewhere-else"><APIKey>${KEY}</APIKey><UNNANumber>1203</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;
      const r = await post11(BOL, body);
      assert.equal(r.status, 500);
      assert.match(soapFault(r.text).reason, /not in the service namespace/);
    });
    it('answers unknown paths with 404', async () => {
      for (const path of ['/', '/9.9.9/RateQuoteService.asmx', '/1.0.3/NoSuchService.asmx', '/1.0.3/RateQuoteService.asmx/GetRateQuote/extra']) {
        const r = await http(sb.url + path);
        assert.equal(r.status, 404, path);
      }
    });
    it('answers other methods on a service path with 405', async () => {
      const r = await http(sb.url + RATE, { method: 'PUT', body: 'x' });
      assert.equal(r.status, 405);
      assert.equal(r.headers.get('allow'), 'GET, POST');
    });
  });

  describe('malformed requests', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['truncated XML', `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><GetHazmatDescription xmlns="${S}"><APIKey>k`, /truncated/],
      ['mismatched tags', `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body></soap:Envelop>`, /Malformed XML/],
      ['a DOCTYPE', `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><soap:Envelope xmlns:soap="${SOAP11}"/>`, /DOCTYPE/],
      ['an empty body', '', /empty/],
      ['no envelope', `<GetHazmatDescription xmlns="${S}"/>`, /not a SOAP 1\.1 envelope/],
      ['an empty Body', `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`, /Body is empty/],
      ['an undeclared prefix', `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><x:GetHazmatDescription/></soap:Body></soap:Envelope>`, /prefix "x"/],
    ];
    for (const [what, body, reason] of cases) {
      it(`faults ${what} with soap:Client and a readable reason`, async () => {
        const r = await post11(BOL, body);
        assert.equal(r.status, 500);
        assert.equal(r.contentType, 'text/xml; charset=utf-8');
        const f = soapFault(r.text);
        assert.equal(f.code, 'soap:Client');
        assert.match(f.reason, reason);
      });
    }
    it('faults a header block that must be understood', async () => {
      const body = `<soap:Envelope xmlns:soap="${SOAP12}"><soap:Header><t:Tx xmlns:t="urn:tx" soap:mustUnderstand="true">1</t:Tx></soap:Header><soap:Body><GetHazmatDescription xmlns="${S}"><APIKey>${KEY}</APIKey><UNNANumber>1203</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;
      const r = await http(sb.url + BOL, { method: 'POST', body, headers: { 'Content-Type': 'application/soap+xml' } });
      assert.equal(r.status, 500);
      assert.equal(soapFault(r.text, '1.2').code, 'soap:MustUnderstand');
    });
    it('faults a value XmlSerializer cannot read (a float that is not a number)', async () => {
      const r = await post11(
        RATE,
        envelope('1.1', el('GetRateQuote', [el('APIKey', KEY), rate103([el('Item', [el('Class', '50'), el('Weight', 'heavy')])])]), ns, 'default-xmlns'),
      );
      assert.equal(r.status, 500);
      const f = soapFault(r.text);
      assert.equal(f.code, 'soap:Client');
      assert.match(f.reason, /request\.Items\[0\]\.Weight.*"heavy" is not a float/);
    });
    it('faults an enumeration value that does not exist, naming the valid ones', async () => {
      const req = rate103();
      const bad = { ...req, children: req.children!.map((c) => (c.name === 'QuoteType' ? el('QuoteType', 'Domestik') : c)) };
      const r = await post11(RATE, envelope('1.1', el('GetRateQuote', [el('APIKey', KEY), bad]), ns, 'default-xmlns'));
      assert.equal(r.status, 500);
      assert.match(soapFault(r.text).reason, /'Domestik' is not a valid value for QuoteType.*AlaskaHawaii, Domestic, International/);
    });
    it('faults COD in a 1.0.3 request: it is not an RQAccessorial', async () => {
      const req = rate103(undefined);
      const withCod = { ...req, children: req.children!.map((c) => (c.name === 'Accessorials' ? el('Accessorials', [el('RQAccessorial', 'COD')]) : c)) };
      const r = await post11(RATE, envelope('1.1', el('GetRateQuote', [el('APIKey', KEY), withCod]), ns, 'default-xmlns'));
      assert.equal(r.status, 500);
      assert.match(soapFault(r.text).reason, /'COD' is not a valid value for RQAccessorial/);
    });
  });

  describe('API key', () => {
    it('faults a missing key (SOAP 1.1: soap:Client)', async () => {
      const r = await post11(BOL, envelope('1.1', hazmat([]), ns, 'default-xmlns'));
      assert.equal(r.status, 500);
      const f = soapFault(r.text);
      assert.equal(f.code, 'soap:Client');
      assert.match(f.reason, /Missing API key/);
    });
    it('faults an empty key (SOAP 1.2: soap:Sender)', async () => {
      const r = await http(sb.url + BOL, {
        method: 'POST',
        body: envelope('1.2', hazmat([el('APIKey', '  ')]), ns, 'default-xmlns'),
        headers: soapHeaders('1.2', '', 'missing'),
      });
      assert.equal(r.status, 500);
      assert.equal(soapFault(r.text, '1.2').code, 'soap:Sender');
    });
    it('treats an APIKey outside the service namespace as absent, as .NET does', async () => {
      const body = `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><s:GetHazmatDescription xmlns:s="${S}"><APIKey>${KEY}</APIKey><s:UNNANumber>1203</s:UNNANumber></s:GetHazmatDescription></soap:Body></soap:Envelope>`;
      const r = await post11(BOL, body);
      assert.equal(r.status, 500);
      assert.match(soapFault(r.text).reason, /Missing API key/);
    });
    it('accepts only the configured keys when apiKeys is set', async () => {
      const wrong = await post11(BOL, envelope('1.1', hazmat([el('APIKey', 'someone-elses-key')]), ns, 'default-xmlns'), undefined, locked.url);
      assert.equal(wrong.status, 500);
      assert.match(soapFault(wrong.text).reason, /Invalid API key/);
      const right = await post11(BOL, envelope('1.1', hazmat([el('APIKey', 'good-key-2')]), ns, 'default-xmlns'), undefined, locked.url);
      assert.equal(right.status, 200);
    });
    it('refuses a wrong key on the HTTP bindings with a plain-text 500', async () => {
      const r = await http(`${locked.url}${BOL}/GetHazmatDescription?APIKey=nope&UNNANumber=1203`);
      assert.equal(r.status, 500);
      assert.match(r.contentType, /^text\/plain/);
      assert.match(r.text, /Invalid API key/);
    });
  });

  describe('HTTP GET and POST parameters (case-sensitive names)', () => {
    const get = (query: string) => http(`${sb.url}${BOL}/GetBillOfLadingPdf?${query}`);
    it('a wrong-case name is an unknown parameter, and says which name was meant', async () => {
      const r = await get(`apikey=${KEY}&billOfLadingId=1`);
      assert.equal(r.status, 500);
      assert.match(r.text, /Unknown parameter: apikey\. Parameter names are case-sensitive: did you mean APIKey\?/);
    });
    it('an unknown parameter is an error', async () => {
      const r = await get(`APIKey=${KEY}&billOfLadingId=1&Format=pdf`);
      assert.equal(r.status, 500);
      assert.match(r.text, /Unknown parameter: Format/);
    });
    it('a missing required parameter is an error', async () => {
      const r = await get(`APIKey=${KEY}`);
      assert.equal(r.status, 500);
      assert.match(r.text, /Missing parameter: billOfLadingId\./);
    });
    it('an int parameter that is not a number is an error', async () => {
      const r = await get(`APIKey=${KEY}&billOfLadingId=first`);
      assert.equal(r.status, 500);
      assert.match(r.text, /Cannot convert 'first' to int for parameter billOfLadingId/);
    });
    it('an optional parameter (CustomerData) may be left out', async () => {
      const r = await http(`${sb.url}/1.0.2/TerminalInformationService.asmx/GetTerminalInformation?APIKey=${KEY}&ZipCode=68507&CountryCode=USA`);
      assert.equal(r.status, 200, r.text);
    });
    it('an unknown id gives a plain-text 500 with the reason', async () => {
      const r = await get(`APIKey=${KEY}&billOfLadingId=424242`);
      assert.equal(r.status, 500);
      assert.match(r.text, /No bill of lading with billOfLadingId 424242/);
    });
  });

  describe('tolerated like a real ASMX service', () => {
    it("an element outside its namespace is absent (the Ruby client's OverDimensionPcs), and the reply names it", async () => {
      const body =
        `<soap:Envelope xmlns:soap="${SOAP12}" xmlns:ccl="${S}"><soap:Body><ccl:GetRateQuote><ccl:APIKey>${KEY}</ccl:APIKey><ccl:request>` +
        '<ccl:CustomerData>shop.example</ccl:CustomerData><ccl:QuoteType>Domestic</ccl:QuoteType><ccl:CODAmount>0</ccl:CODAmount>' +
        '<ccl:Origin><ccl:ZipOrPostalCode>66227</ccl:ZipOrPostalCode><ccl:CountryCode>USA</ccl:CountryCode></ccl:Origin>' +
        '<ccl:Destination><ccl:ZipOrPostalCode>71671</ccl:ZipOrPostalCode><ccl:CountryCode>USA</ccl:CountryCode></ccl:Destination>' +
        '<ccl:Items><ccl:Item><ccl:Class>50.0</ccl:Class><ccl:Weight>1500</ccl:Weight><ccl:Width>0</ccl:Width><ccl:Height>0</ccl:Height><ccl:Length>0</ccl:Length></ccl:Item></ccl:Items>' +
        '<ccl:DeclaredValue>0</ccl:DeclaredValue><ccl:Accessorials/><OverDimensionPcs>3</OverDimensionPcs></ccl:request></ccl:GetRateQuote></soap:Body></soap:Envelope>';
      const r = await http(`${sb.url}/1.0.1/RateQuoteService.asmx`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action='${actionOf(ns, 'GetRateQuote')}'` },
      });
      assert.equal(r.status, 200, r.text);
      assert.match(r.headers.get('x-carrier-sandbox-ignored') ?? '', /request\.OverDimensionPcs/);
      const result = soapResult(r.text, 'GetRateQuote', '1.2');
      const notes = children(child(child(result, 'Result'), 'Messages'), 'Message').map((m) => textAt(m, 'Text'));
      assert.ok(
        notes.some((n) => /OverDimensionPcs was not sent; quoted with 0/.test(n)),
        notes.join(' | '),
      );
      // No over-dimension charge: the 3 pieces were never bound.
      assert.ok(!children(child(child(result, 'Result'), 'Charges'), 'Charge').some((c) => /Over Dimension/.test(textAt(c, 'Title'))));
    });
    it('invented fields and a wrong field order are read past and flagged, not refused', async () => {
      const body =
        `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><GetRateQuote xmlns="${S}"><APIKey>${KEY}</APIKey><request>` +
        '<Origin><ZipOrPostalCode>37029</ZipOrPostalCode><CountryCode>USA</CountryCode></Origin><Destination><ZipOrPostalCode>33635</ZipOrPostalCode><CountryCode>USA</CountryCode></Destination>' +
        '<Items><Item><Weight>500</Weight><Class>100</Class><Length>48</Length><Width>40</Width><Height>30</Height><PackageType>PLT</PackageType><PiecesCount>1</PiecesCount></Item></Items>' +
        '<IsResidentialDelivery>true</IsResidentialDelivery><IncludeFuelSurcharge>true</IncludeFuelSurcharge><OverDimensionPcs>0</OverDimensionPcs></request></GetRateQuote></soap:Body></soap:Envelope>';
      const r = await post11(RATE, body, { 'Content-Type': 'text/xml', SOAPAction: actionOf(ns, 'GetRateQuote') });
      assert.equal(r.status, 200, r.text);
      const ignored = r.headers.get('x-carrier-sandbox-ignored') ?? '';
      for (const name of [
        'request.Items[0].PackageType',
        'request.Items[0].PiecesCount',
        'request.IsResidentialDelivery',
        'request.IncludeFuelSurcharge',
        'request.OverDimensionPcs',
      ])
        assert.ok(ignored.includes(name), `${name} in ${ignored}`);
      const result = soapResult(r.text, 'GetRateQuote');
      assert.equal(textAt(result, 'WasSuccess'), 'true');
      const notes = children(child(child(result, 'Result'), 'Messages'), 'Message').map((m) => textAt(m, 'Text'));
      assert.ok(notes.some((n) => n.startsWith('request.IsResidentialDelivery is not part of GetRateQuote 1.0.3')));
    });
    it('a leading CustomerData (not in the contract, docs/carrier-facts.md#leniency) is tolerated and ignored without a note', async () => {
      const req = rate103();
      const withData = { ...req, children: [el('CustomerData', '555-0100'), ...req.children!] };
      const r = await post11(RATE, envelope('1.1', el('GetRateQuote', [el('APIKey', KEY), withData]), ns, 'tns'));
      assert.equal(r.status, 200);
      const result = soapResult(r.text, 'GetRateQuote');
      assert.equal(textAt(result, 'WasSuccess'), 'true');
      assert.equal(textAt(result, 'CustomerData'), '');
      const notes = children(child(child(result, 'Result'), 'Messages'), 'Message').map((m) => textAt(m, 'Text'));
      assert.ok(!notes.some((n) => /CustomerData/.test(n)));
    });
    it('xsi:nil items and records, and empty containers, bind as nothing', async () => {
      const r = await post11(
        '/1.0.3/PickupRequestService.asmx',
        envelope(
          '1.1',
          el('CreatePickupRequest', [
            el('APIKey', KEY),
            el('request', [
              el('Pickup', [
                el('Shipper', [
                  el('Name', 'A'),
                  el('AddressLine1', '1 Main St'),
                  el('ISO3Country', 'USA'),
                  el('ZipCode', '37029'),
                  el('City', 'Burns'),
                  el('State', 'TN'),
                  el('PhoneNumber', '615-555-0101'),
                ]),
                el('Contact', [], { 'xsi:nil': 'true' }),
                el('Destinations', [el('Destination', [], { 'xsi:nil': 'true' }), el('Destination', [], { 'xsi:nil': 'true' })]),
                el('PickupInformation', [
                  el('PickupDate', '11/20/2026'),
                  el('ReadyTime', '09:00 AM'),
                  el('CloseTime', '05:00 PM'),
                  el('LoadAttributes', [], { 'xsi:nil': 'true' }),
                ]),
                el('ServiceOptions', []),
                el('HourlyWindow', [el('Start'), el('End')]),
              ]),
            ]),
          ]),
          ns,
          'default-xmlns',
        ),
      );
      assert.equal(r.status, 200, r.text);
      assert.equal(textAt(soapResult(r.text, 'CreatePickupRequest'), 'Pickup', 'WasSuccess'), 'true');
    });
    it('GET on a service path gives a page listing its operations (the service-page hook)', async () => {
      const r = await http(sb.url + BOL);
      assert.equal(r.status, 200);
      assert.match(r.contentType, /^text\/html/);
      for (const op of ['GetHazmatDescription', 'GetBillOfLadingLabelPDF', 'GetBillOfLadingPdf']) assert.ok(r.text.includes(`op=${op}`), op);
      assert.ok(!r.text.includes(`${BOL}?op=CreateBillOfLading`), 'CreateBillOfLading lives at /1.0.1/, not at /sandbox/');
    });
    it('matches service paths without regard to case, as IIS does', async () => {
      const r = await http(`${sb.url}/SANDBOX/billofladingservice.ASMX/GetHazmatDescription?APIKey=${KEY}&UNNANumber=1203`);
      assert.equal(r.status, 200);
    });
  });
});
