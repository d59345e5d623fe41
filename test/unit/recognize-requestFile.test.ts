/**
 * requestFileFromRecognized: a recognised request → a `.carrier.json` that validates, holds no
 * key in any spelling, builds the very same request again, and sends to the sandbox.
 */
import * as assert from 'node:assert/strict';
import { ALL_BINDINGS, DEFAULT_NAMESPACES, offers, operations, shapeLabel } from '../../src/core/catalog';
import { buildHttpRequest, prepareRequest } from '../../src/core/envelope';
import { sandboxEnvironment } from '../../src/core/environments';
import type { Exchange, HttpRequestSpec } from '../../src/core/exchange';
import { sampleRequestFile } from '../../src/core/generate';
import { expectFromExchange, recognizeEnvelopeText, recognizeRequest, requestFileFromRecognized, type RecognizedRequest } from '../../src/core/recognize';
import { secretSpellings } from '../../src/core/redact';
import { sendRequestFile } from '../../src/core/send';
import { classifyExchange } from '../../src/core/verdict';
import { nodeContext } from '../../src/host';
import { hasErrors, validateRequestText } from '../../src/core/validation';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { Clock, el, envelope, NS_DISTINCT } from './sandbox-kit';

const KEY = 'Tk3v&Q9z<Lm2+Rx8 Wb/Y4=Hs7ZzYy';
const BASE = 'http://service.test';

function recognise(spec: HttpRequestSpec): RecognizedRequest {
  const url = new URL(spec.url);
  const r = recognizeRequest(
    { method: spec.method, url: `${url.pathname}${url.search}`, headers: spec.headers, body: spec.body },
    { namespaces: DEFAULT_NAMESPACES },
  );
  assert.equal(r.kind, 'operation', JSON.stringify(r));
  return r as RecognizedRequest;
}

function assertNoKey(text: string): void {
  for (const spelling of secretSpellings(KEY)) assert.ok(!text.includes(spelling), `the key (${spelling}) is in ${text}`);
}

const shapes = operations.flatMap((op) => ALL_BINDINGS.filter((b) => offers(op, b)).map((binding) => ({ op, binding })));

describe('request files from recognised requests', () => {
  for (const { op, binding } of shapes) {
    it(`${shapeLabel(op)} over ${binding}: validates, holds no key, and makes the same request`, () => {
      const params = (sampleRequestFile(op, binding) as { params: Record<string, unknown> }).params;
      const spec = buildHttpRequest({ op, binding, baseUrl: BASE, namespaces: DEFAULT_NAMESPACES, params, apiKey: KEY });
      const text = requestFileFromRecognized(recognise(spec), { secrets: [KEY], comment: [`Recorded from ${spec.url}`] });
      assertNoKey(text);
      const { findings, request } = validateRequestText(text, 'recorded.carrier.json');
      assert.ok(request && !hasErrors(findings), findings.map((f) => f.message).join('\n'));
      assert.equal(request.binding, binding);
      const again = prepareRequest({ request, environment: { ...sandboxEnvironment(), baseUrl: BASE, embedded: false }, apiKey: KEY }).spec;
      assert.equal(again.url, spec.url);
      assert.equal(again.body, spec.body);
    });
  }

  it('leaves out elements the contract does not have, names them, and keeps the last of a repeated field', () => {
    const xml = envelope(
      '1.1',
      el('GetRateQuote', [
        el('APIKey', KEY),
        el('request', [
          el('CustomerData', 'acme'),
          el('QuoteType', 'Domestic'),
          el('QuoteType', 'International'),
          el('Items', [el('Item', [el('Class', '50'), el('Weight', '100'), el('PackageType', 'PLT')])]),
          el('Accessorials', [el('RQAccessorial', 'OverDimension'), el('Accessorial', 'COD')]),
        ]),
      ]),
      NS_DISTINCT,
      'default-xmlns',
    );
    const r = recognizeRequest(
      { method: 'POST', url: '/1.0.3/RateQuoteService.asmx', headers: { 'Content-Type': 'text/xml' }, body: xml },
      { namespaces: NS_DISTINCT },
    );
    assert.equal(r.kind, 'operation');
    const text = requestFileFromRecognized(r as RecognizedRequest, { secrets: [KEY] });
    assert.match(
      text,
      /\/\/ Left out \(not in the contract, so the service does not read them\): request\.CustomerData, request\.Items\[0\]\.PackageType, request\.Accessorials\[1\]/,
    );
    const { findings, request } = validateRequestText(text, 'x.carrier.json');
    assert.ok(request && !hasErrors(findings), findings.map((f) => f.message).join('\n'));
    assert.deepEqual(request.params, { request: { QuoteType: 'International', Items: [{ Class: '50', Weight: 100 }], Accessorials: ['OverDimension'] } });
    assertNoKey(text);
  });

  it('masks the key wherever else the request carried it', () => {
    const op = operations.find((o) => o.operation === 'GetTerminalInformation')!;
    const spec = buildHttpRequest({
      op,
      binding: 'soap11',
      baseUrl: BASE,
      namespaces: DEFAULT_NAMESPACES,
      params: { ZipCode: '33601', CountryCode: 'USA', CustomerData: `key was ${KEY}` },
      apiKey: KEY,
    });
    const text = requestFileFromRecognized(recognise(spec), { secrets: [KEY] });
    assertNoKey(text);
    assert.match(text, /"CustomerData": "key was ••••"/);
  });

  it('pins the outcome seen: status, fault code and reason, an in-body error', () => {
    const base: Pick<Exchange, 'reply' | 'findings'> = { reply: { status: 500, statusText: '', headers: [], bodyText: '', size: 0 }, findings: [] };
    assert.deepEqual(
      expectFromExchange({ ...base, fault: { soapVersion: '1.1', code: 'soap:Client', subcodes: [], reason: 'No shipment with ProNumber 1 (or 2).' } }),
      {
        status: 500,
        fault: { code: '(^|:)Client$', reason: '^\\s*No shipment with ProNumber 1 \\(or 2\\)\\.\\s*$' },
      },
    );
    assert.deepEqual(
      expectFromExchange({ reply: { ...base.reply!, status: 200 }, findings: [{ severity: 'error', kind: 'in-body', message: 'WasSuccess is false' }] }),
      { status: 200, fault: false, success: false },
    );
    assert.equal(expectFromExchange({ findings: [], error: { kind: 'connect', message: 'refused' } }), undefined);
  });

  it('turns a pasted envelope into a request file', () => {
    const xml = envelope(
      '1.2',
      el('GetHazmatDescription', [el('APIKey', KEY), el('UNNANumber', '1203')]),
      { service: 'http://ltl.carrier.test/', data: 'urn:d', pickup: 'urn:p' },
      'tns',
    );
    const r = recognizeEnvelopeText(xml, DEFAULT_NAMESPACES);
    assert.equal(r.kind, 'operation');
    const text = requestFileFromRecognized(r as RecognizedRequest, { secrets: [KEY] });
    const { request } = validateRequestText(text);
    assert.deepEqual(
      [request?.operation, request?.version, request?.binding, request?.params],
      ['GetHazmatDescription', 'sandbox', 'soap12', { UNNANumber: '1203' }],
    );
  });
});

describe('request files from recognised requests, sent to the sandbox', () => {
  const context = nodeContext();
  let sandbox: SandboxHandle;
  const clock = new Clock();
  before(async () => {
    sandbox = await startSandbox({ now: clock.now });
  });
  after(async () => {
    await context.http.close();
    await sandbox.close();
  });

  // One binding per shape (SOAP 1.1), and every HTTP binding where there is one.
  const sent = shapes.filter(
    ({ op, binding }) => binding === 'soap11' || ((binding === 'get' || binding === 'post') && op.operation === 'GetTerminalInformation'),
  );
  for (const { op, binding } of sent) {
    it(`${shapeLabel(op)} over ${binding}`, async () => {
      const params = (sampleRequestFile(op, binding) as { params: Record<string, unknown> }).params;
      const spec = buildHttpRequest({ op, binding, baseUrl: BASE, namespaces: DEFAULT_NAMESPACES, params, apiKey: KEY });
      const text = requestFileFromRecognized(recognise(spec), { secrets: [KEY] });
      const exchange = await sendRequestFile({
        context,
        text,
        fileName: 'recorded.carrier.json',
        environment: { ...sandboxEnvironment(), baseUrl: sandbox.url, embedded: false },
        apiKey: 'any-key',
      });
      assert.ok(classifyExchange(exchange).ok, `${exchange.reply?.status} ${exchange.findings.map((f) => f.message).join('; ')}`);
    });
  }
});
