/**
 * A request file made from a recognised request keeps the client's spelling of its numbers
 * (src/core/recognize/literals.ts): `<Width>48.00</Width>` stays `48.00`, so building the request
 * from the file gives the same parameter bytes the client sent.
 */
import * as assert from 'node:assert/strict';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest, prepareRequest } from '../../src/core/envelope';
import { sandboxEnvironment } from '../../src/core/environments';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { recognizeRequest, requestFileFromRecognized, type RecognizedRequest } from '../../src/core/recognize';
import { hasErrors, validateRequestText } from '../../src/core/validation';

const BASE = 'http://service.test';
const op = findShape('GetRateQuote', '1.0.3')!;

function recognise(spec: HttpRequestSpec): RecognizedRequest {
  const url = new URL(spec.url);
  const r = recognizeRequest(
    { method: spec.method, url: `${url.pathname}${url.search}`, headers: spec.headers, body: spec.body },
    { namespaces: DEFAULT_NAMESPACES },
  );
  assert.equal(r.kind, 'operation', JSON.stringify(r));
  return r as RecognizedRequest;
}

/** The client's request, its numbers spelled as a program might (strings go out as written). */
function clientRequest(items: ReadonlyArray<Record<string, string>>): HttpRequestSpec {
  const params = {
    request: {
      QuoteType: 'Domestic',
      Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
      Destination: { City: 'Tampa', StateOrProvince: 'FL', ZipOrPostalCode: '33635', CountryCode: 'USA' },
      Items: items.map((i) => ({ Class: '50.0', ...i })),
      DeclaredValue: '0.00',
    },
  };
  return buildHttpRequest({ op, binding: 'soap11', baseUrl: BASE, namespaces: DEFAULT_NAMESPACES, params, apiKey: 'k' });
}

function resend(text: string): HttpRequestSpec {
  const { findings, request } = validateRequestText(text, 'recorded.carrier.json');
  assert.ok(request && !hasErrors(findings), findings.map((f) => f.message).join('\n'));
  return prepareRequest({ request, environment: { ...sandboxEnvironment(), baseUrl: BASE, embedded: false }, apiKey: 'k' }).spec;
}

describe("request files keep the client's spelling of numbers", () => {
  it('48.00, 1500.0 and 4.8e1 stay as written, in the file and on the wire', () => {
    const spec = clientRequest([{ Weight: '1500.0', Width: '48.00', Height: '4.8e1', Length: '48' }]);
    assert.match(spec.body, /<Width>48\.00<\/Width>/);
    const recognized = recognise(spec);
    assert.deepEqual(recognized.literals?.spellings, {
      '/request/Items/0/Weight': '1500.0',
      '/request/Items/0/Width': '48.00',
      '/request/Items/0/Height': '4.8e1',
    });
    const text = requestFileFromRecognized(recognized);
    assert.match(text, /"Width": 48\.00,/);
    assert.match(text, /"Weight": 1500\.0,/);
    assert.match(text, /"Length": 48\n/);
    assert.equal(resend(text).body, spec.body);
  });

  it('keeps spellings in every item of a list, by the index the file gives it', () => {
    const spec = clientRequest([
      { Weight: '100', Width: '40.0' },
      { Weight: '200.50', Width: '40' },
    ]);
    const text = requestFileFromRecognized(recognise(spec));
    assert.equal(resend(text).body, spec.body);
  });

  it('writes a number JSON cannot spell as sent in its plain form, and says so', () => {
    const spec = clientRequest([{ Weight: '+100', Width: '.5' }]);
    const text = requestFileFromRecognized(recognise(spec));
    assert.match(text, /"Weight": 100,/);
    assert.match(text, /"Width": 0\.5\n/);
    assert.match(text, /\/\/ Written as plain JSON numbers.*request\.Items\[0\]\.Weight, request\.Items\[0\]\.Width/);
    assert.ok(!hasErrors(validateRequestText(text).findings));
  });

  it('keeps the spelling of a query-string parameter of HTTP GET', () => {
    const terminal = findShape('GetTerminalInformation')!;
    const hazmat = findShape('GetHazmatDescription')!;
    for (const shape of [terminal, hazmat]) {
      const spec = buildHttpRequest({
        op: shape,
        binding: 'get',
        baseUrl: BASE,
        namespaces: DEFAULT_NAMESPACES,
        params: shape === hazmat ? { UNNANumber: '1203' } : { ZipCode: '68507', CountryCode: 'USA' },
        apiKey: 'k',
      });
      const text = requestFileFromRecognized(recognise(spec));
      assert.equal(resend(text).url, spec.url);
    }
  });

  it('a file without spelled numbers is written exactly as JSON.stringify writes it', () => {
    const spec = clientRequest([{ Weight: '100', Width: '40' }]);
    const recognized = recognise(spec);
    assert.equal(recognized.literals, undefined);
    const text = requestFileFromRecognized(recognized);
    const { params } = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { params: unknown };
    assert.ok(text.includes(JSON.stringify({ params }, null, 2).split('\n').slice(1, -1).join('\n')));
  });
});
