/**
 * Request recognition (src/core/recognize): which shape, binding and parameters a request is, for
 * every shape and binding of the catalog and the envelope styles real clients send; unknown
 * requests with a reason, never an exception; API keys found wherever clients put them.
 */
import * as assert from 'node:assert/strict';
import { ALL_BINDINGS, DEFAULT_NAMESPACES, offers, operations, shapeLabel, soapAction, type Namespaces } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { sampleRequestFile } from '../../src/core/generate';
import { apiKeysIn, recognizeEnvelopeText, recognizeRequest, type Recognition, type RecognizedRequest, type RequestInput } from '../../src/core/recognize';
import { el, envelope, KEY, NS_DISTINCT, NS_SAME, soapHeaders, STYLES } from './sandbox-kit';

const BASE = 'http://service.test';

function inputOf(spec: HttpRequestSpec): RequestInput {
  const url = new URL(spec.url);
  return { method: spec.method, url: `${url.pathname}${url.search}`, headers: spec.headers, body: spec.body };
}

function known(r: Recognition): RecognizedRequest {
  assert.equal(r.kind, 'operation', r.kind === 'unknown' ? `unknown (${r.code}): ${r.reason}` : '');
  return r as RecognizedRequest;
}

function sampleParams(op: (typeof operations)[number]): Record<string, unknown> {
  return (sampleRequestFile(op, 'soap11') as { params: Record<string, unknown> }).params;
}

describe('recognize: every shape and binding the workbench builds', () => {
  for (const ns of [NS_DISTINCT, NS_SAME]) {
    const label = ns === NS_SAME ? 'one namespace for all roles' : 'distinct namespaces';
    for (const op of operations) {
      for (const binding of ALL_BINDINGS.filter((b) => offers(op, b))) {
        it(`${shapeLabel(op)} over ${binding} (${label})`, () => {
          const params = sampleParams(op);
          const spec = buildHttpRequest({ op, binding, baseUrl: BASE, namespaces: ns, params, apiKey: KEY });
          const r = known(recognizeRequest(inputOf(spec), { namespaces: ns }));
          assert.equal(r.operation, op.operation);
          assert.equal(r.version, op.version);
          assert.equal(r.binding, binding);
          assert.deepEqual(r.problems, []);
          assert.deepEqual(r.issues, [], JSON.stringify(r.issues));
          assert.equal(r.params?.APIKey, KEY);
          // The reading gives back what was written (values typed along the catalog).
          const again = buildHttpRequest({ op, binding, baseUrl: BASE, namespaces: ns, params: r.params!, apiKey: KEY });
          assert.equal(again.body, spec.body);
          assert.equal(again.url, spec.url);
        });
      }
    }
  }
});

describe('recognize: SOAP requests as real clients send them', () => {
  const wrapper = el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', '056391174')]), el('TraceType', 'PRO')])]);
  const path = '/1.0.2/ShipmentTracingService.asmx';
  for (const style of STYLES) {
    for (const action of ['quoted', 'unquoted', 'missing'] as const) {
      it(`reads a ${style} SOAP 1.1 envelope with the action ${action}`, () => {
        const body = envelope('1.1', wrapper, NS_DISTINCT, style);
        const r = known(
          recognizeRequest(
            { method: 'POST', url: path, headers: soapHeaders('1.1', soapAction(NS_DISTINCT.service, 'TraceShipment'), action), body },
            { namespaces: NS_DISTINCT },
          ),
        );
        assert.equal(r.binding, 'soap11');
        assert.deepEqual(r.params, { APIKey: KEY, request: { TraceNumbers: ['056391174'], TraceType: 'PRO' } });
        assert.equal(r.action, action === 'missing' ? undefined : soapAction(NS_DISTINCT.service, 'TraceShipment'));
      });
    }
  }

  it('takes the SOAP 1.2 action from the Content-Type, quoted with single quotes', () => {
    const body = envelope('1.2', wrapper, NS_SAME, 'default-xmlns');
    const r = known(
      recognizeRequest(
        { method: 'POST', url: path, headers: soapHeaders('1.2', soapAction(NS_SAME.service, 'TraceShipment'), 'quoted'), body },
        { namespaces: NS_SAME },
      ),
    );
    assert.equal(r.binding, 'soap12');
    assert.equal(r.action, 'http://ltl.carrier.test/TraceShipment');
  });

  it('matches the path without regard to case, and reads node:http header records', () => {
    const body = envelope('1.1', wrapper, NS_DISTINCT, 'tns');
    const r = known(
      recognizeRequest(
        {
          method: 'post',
          url: path.toUpperCase(),
          headers: { 'content-type': 'text/xml', soapaction: `"${soapAction(NS_DISTINCT.service, 'TraceShipment')}"` },
          body,
        },
        { namespaces: NS_DISTINCT },
      ),
    );
    assert.equal(r.servicePath, path);
  });

  it('picks the shape by the path: the same operation name at three versions', () => {
    const body = envelope(
      '1.1',
      el('GetRateQuote', [el('APIKey', KEY), el('request', [el('QuoteType', 'Domestic'), el('OverDimensionPcs', '2')])]),
      NS_DISTINCT,
      'default-xmlns',
    );
    const versions = ['1.0.0', '1.0.1', '1.0.3'].map((v) =>
      known(
        recognizeRequest({ method: 'POST', url: `/${v}/RateQuoteService.asmx`, headers: { 'Content-Type': 'text/xml' }, body }, { namespaces: NS_DISTINCT }),
      ),
    );
    assert.deepEqual(
      versions.map((r) => r.version),
      ['1.0.0', '1.0.1', '1.0.3'],
    );
    // OverDimensionPcs is a 1.0.1 field: known there, unknown in the others.
    assert.equal(versions[1].params?.request && (versions[1].params.request as Record<string, unknown>).OverDimensionPcs, 2);
    assert.ok(versions[2].issues.some((i) => i.kind === 'unknown' && i.path === 'request.OverDimensionPcs'));
  });

  it('treats an element outside its namespace as absent, and says so', () => {
    const body = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetHazmatDescription xmlns="${NS_DISTINCT.service}"><APIKey>${KEY}</APIKey><UNNANumber xmlns="urn:elsewhere">1203</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;
    const r = known(
      recognizeRequest(
        { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': 'text/xml' }, body },
        { namespaces: NS_DISTINCT },
      ),
    );
    assert.deepEqual(r.params, { APIKey: KEY });
    assert.equal(r.issues[0]?.kind, 'namespace');
    const kept = known(
      recognizeRequest(
        { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': 'text/xml' }, body },
        { namespaces: NS_DISTINCT, outOfNamespace: 'keep' },
      ),
    );
    assert.equal(kept.params?.UNNANumber, '1203');
  });

  it('still names the operation when the request is one the service refuses, with the problem', () => {
    const ns: Namespaces = NS_DISTINCT;
    const other = envelope('1.1', el('GetHazmatDescription', [el('APIKey', KEY)]), { ...ns, service: 'http://other.example/' }, 'default-xmlns');
    const cases: Array<[string, RequestInput, string]> = [
      [
        'a SOAP 1.2 envelope sent as text/xml',
        {
          method: 'POST',
          url: '/sandbox/BillOfLadingService.asmx',
          headers: { 'Content-Type': 'text/xml' },
          body: envelope('1.2', el('GetHazmatDescription', [el('APIKey', KEY)]), ns, 'default-xmlns'),
        },
        'version-mismatch',
      ],
      [
        'an action that disagrees with the body',
        {
          method: 'POST',
          url: '/sandbox/BillOfLadingService.asmx',
          headers: { 'Content-Type': 'text/xml', SOAPAction: soapAction(ns.service, 'GetBillOfLadingPdf') },
          body: envelope('1.1', el('GetHazmatDescription', [el('APIKey', KEY)]), ns, 'default-xmlns'),
        },
        'action-mismatch',
      ],
      [
        'an operation element in another namespace',
        { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': 'text/xml' }, body: other },
        'wrapper-namespace',
      ],
      [
        'an action in another namespace',
        {
          method: 'POST',
          url: '/sandbox/BillOfLadingService.asmx',
          headers: { 'Content-Type': 'text/xml', SOAPAction: '"http://other.example/GetHazmatDescription"' },
          body: other,
        },
        'action-unknown',
      ],
    ];
    for (const [what, input, code] of cases) {
      const r = known(recognizeRequest(input, { namespaces: ns }));
      assert.equal(r.operation, 'GetHazmatDescription', what);
      assert.equal(r.problems[0]?.code, code, what);
    }
  });

  it('names the operation of a body cut short by its action, or by the first element in Body', () => {
    const body = envelope('1.1', el('GetHazmatDescription', [el('APIKey', KEY), el('UNNANumber', '1203')]), NS_DISTINCT, 'default-xmlns');
    const cut = body.slice(0, body.indexOf('<APIKey>') + 4);
    const r = known(
      recognizeRequest(
        { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': 'text/xml' }, body: cut, bodyComplete: false },
        { namespaces: NS_DISTINCT },
      ),
    );
    assert.equal(r.operation, 'GetHazmatDescription');
    assert.equal(r.params, undefined);
    assert.equal(r.problems[0]?.code, 'truncated');
  });
});

describe('recognize: what is not a call of the catalog', () => {
  const ns = DEFAULT_NAMESPACES;
  const cases: Array<[string, RequestInput, string]> = [
    ['an unknown path', { method: 'POST', url: '/2.0/Nothing.asmx', headers: {}, body: '<x/>' }, 'path'],
    ['another service altogether', { method: 'GET', url: '/api/v2/quotes?zip=33601', headers: {}, body: '' }, 'path'],
    ['a WSDL request', { method: 'GET', url: '/1.0.3/RateQuoteService.asmx?wsdl', headers: {}, body: '' }, 'wsdl'],
    ['a service page', { method: 'GET', url: '/1.0.3/RateQuoteService.asmx', headers: {}, body: '' }, 'page'],
    [
      'the test form',
      {
        method: 'POST',
        url: '/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'ZipCode=1',
      },
      'test-form',
    ],
    ['PUT on a service path', { method: 'PUT', url: '/1.0.3/RateQuoteService.asmx', headers: {}, body: '' }, 'method'],
    [
      'JSON on a SOAP endpoint',
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      'media-type',
    ],
    [
      'JSON POSTed to .asmx/GetRateQuote (no HTTP binding)',
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx/GetRateQuote', headers: { 'Content-Type': 'application/json' }, body: '{"APIKey":"k"}' },
      'binding',
    ],
    ['an operation the path does not have', { method: 'GET', url: '/1.0.2/TerminalInformationService.asmx/GetTerminals', headers: {}, body: '' }, 'operation'],
    [
      'a form POST with the wrong Content-Type',
      { method: 'POST', url: '/1.0.2/TerminalInformationService.asmx/GetTerminalInformation', headers: { 'Content-Type': 'text/plain' }, body: 'ZipCode=1' },
      'media-type',
    ],
    [
      'malformed XML',
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx', headers: { 'Content-Type': 'text/xml' }, body: '<soap:Envelope><oops' },
      'not-xml',
    ],
    [
      'a DOCTYPE',
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx', headers: { 'Content-Type': 'text/xml' }, body: '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' },
      'not-xml',
    ],
    [
      'XML that is no envelope',
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx', headers: { 'Content-Type': 'text/xml' }, body: '<GetRateQuote/>' },
      'not-envelope',
    ],
    [
      'an empty Body',
      {
        method: 'POST',
        url: '/1.0.3/RateQuoteService.asmx',
        headers: { 'Content-Type': 'text/xml' },
        body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>',
      },
      'not-envelope',
    ],
    [
      'an unknown operation element',
      {
        method: 'POST',
        url: '/1.0.3/RateQuoteService.asmx',
        headers: { 'Content-Type': 'text/xml' },
        body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetPalletTypes xmlns="${ns.service}"/></s:Body></s:Envelope>`,
      },
      'operation',
    ],
    ['a bad percent-encoding', { method: 'GET', url: '/1.0.2/TerminalInformationService.asmx/%E0%A4%A', headers: {}, body: '' }, 'url'],
  ];
  for (const [what, input, code] of cases) {
    it(`${what} → unknown (${code}) with a reason`, () => {
      const r = recognizeRequest(input, { namespaces: ns });
      assert.equal(r.kind, 'unknown', JSON.stringify(r));
      assert.equal(r.kind === 'unknown' && r.code, code, r.kind === 'unknown' ? r.reason : '');
      assert.ok(r.kind === 'unknown' && r.reason.length > 10);
    });
  }

  it('never throws, whatever arrives', () => {
    const bodies = [
      '',
      '\u0000\u0001',
      '<',
      '<?xml version="1.0"?>',
      '<a:b/>',
      '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><x:y/></soap:Body></soap:Envelope>',
      '%%%',
      'a=1&a=2&&=',
      '\uFEFF<x/>',
    ];
    const urls = [
      '/',
      '',
      '*',
      'http://x/1.0.3/RateQuoteService.asmx',
      '/1.0.3/RateQuoteService.asmx/',
      '/1.0.3/RateQuoteService.asmx//',
      '//',
      '/%',
      '/1.0.2/TerminalInformationService.asmx/GetTerminalInformation?%zz',
    ];
    for (const method of ['GET', 'POST', 'HEAD', 'DELETE', 'BREW']) {
      for (const url of urls) {
        for (const body of bodies) {
          for (const type of ['text/xml', 'application/soap+xml; action=x', 'application/x-www-form-urlencoded', '', 'multipart/form-data; boundary="a;b"']) {
            assert.doesNotThrow(
              () => recognizeRequest({ method, url, headers: type ? { 'content-type': type } : {}, body }, { namespaces: ns }),
              `${method} ${url} ${type} ${JSON.stringify(body)}`,
            );
          }
        }
      }
    }
  });
});

describe('recognize: API keys, wherever a client puts them', () => {
  const key = 'Tk3v&Q9z<Lm2+Rx8 Wb/Y4=Hs7';
  const op = operations.find((o) => o.operation === 'GetHazmatDescription')!;
  for (const binding of ['soap11', 'soap12', 'get', 'post'] as const) {
    it(`finds the key of a ${binding} request`, () => {
      const spec = buildHttpRequest({ op, binding, baseUrl: BASE, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey: key });
      const input = inputOf(spec);
      assert.deepEqual(apiKeysIn(input, recognizeRequest(input, { namespaces: DEFAULT_NAMESPACES })), [key]);
    });
  }

  it('finds ?APIKEY= in the URL, an APIKey element in a request the catalog does not know, and credentials in headers', () => {
    const keys = apiKeysIn({
      method: 'POST',
      url: '/nowhere.asmx?APIKEY=url-key',
      headers: [
        ['Authorization', 'Bearer token-123'],
        ['Content-Type', 'text/xml'],
      ],
      body: '<e:Envelope xmlns:e="urn:x"><e:Body><Foo><ns:APIKey xmlns:ns="urn:y">body&amp;key</ns:APIKey></Foo></e:Body></e:Envelope>',
    });
    assert.deepEqual(keys.sort(), ['Bearer token-123', 'body&key', 'token-123', 'url-key'].sort());
  });

  it('ignores blank keys: redacting blanks would ruin every copy', () => {
    assert.deepEqual(apiKeysIn({ method: 'GET', url: '/x?apikey=%20', headers: {}, body: '<APIKey> </APIKey>' }), []);
  });
});

describe('recognize: pasted envelopes (Import SOAP Envelope)', () => {
  it('reads bare XML in a namespace of its own, choosing the version whose fields fit', () => {
    const xml = envelope(
      '1.1',
      el('GetRateQuote', [
        el('APIKey', KEY),
        el('request', [el('QuoteType', 'Domestic'), el('Accessorials', [el('RQAccessorial', 'OverDimension')]), el('Pallets', [])]),
      ]),
      NS_SAME,
      'prefix-every',
    );
    const r = known(recognizeEnvelopeText(xml, DEFAULT_NAMESPACES));
    assert.equal(r.version, '1.0.3');
    assert.deepEqual((r.params!.request as Record<string, unknown>).Accessorials, ['OverDimension']);
  });

  it('reads a whole HTTP request, as `carrier envelope` prints one', () => {
    const op = operations.find((o) => o.operation === 'GetRateQuote' && o.version === '1.0.1')!;
    const spec = buildHttpRequest({ op, binding: 'soap12', baseUrl: BASE, namespaces: DEFAULT_NAMESPACES, params: sampleParams(op), apiKey: KEY });
    const text = `${spec.method} ${spec.url}\n${spec.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${spec.body}`;
    const r = known(recognizeEnvelopeText(text, DEFAULT_NAMESPACES));
    assert.deepEqual([r.operation, r.version, r.binding], ['GetRateQuote', '1.0.1', 'soap12']);
  });

  it('says why text is not an envelope', () => {
    const r = recognizeEnvelopeText('{"not": "xml"}', DEFAULT_NAMESPACES);
    assert.equal(r.kind, 'unknown');
  });
});
