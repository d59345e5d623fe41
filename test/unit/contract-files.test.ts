/**
 * The pieces around a live contract: the environments file edited in place (comments, order,
 * indentation and line ends kept), request files following a stored contract only where they
 * should, and two replies compared by structure or by value.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findShape } from '../../src/core/catalog';
import { compareExchanges } from '../../src/core/contract/compareReplies';
import { shapeOverlay } from '../../src/core/contract/overlay';
import { storedContractOf, writeStoredContract } from '../../src/core/contract/snapshot';
import type { ContractReport } from '../../src/core/contract/types';
import { prepareRequest } from '../../src/core/envelope/prepare';
import { setEnvironmentNamespaces } from '../../src/core/environments/edit';
import { loadEnvironments } from '../../src/core/environments/load';
import type { Exchange } from '../../src/core/exchange';
import { contractCompletions, contractHover } from '../../src/core/validation/contractEditor';
import { validateRequestText } from '../../src/core/validation/validate';
import { nodeContext } from '../../src/host';
import { tmpDir } from './transport-support';

const context = nodeContext();
after(() => context.http.close());

describe('environments file: namespaces set in place', () => {
  const NS = { service: 'http://live.test/ws/', data: 'http://tempuri.org/', pickup: 'http://live.test/pickup' };

  it('replaces a value where it stands and adds the missing ones at the end of the entry, comments kept', () => {
    const text =
      '{\n  // staging first\n  "staging": { "baseUrl": "https://s.example" },\n  "live": {\n    "baseUrl": "https://live.example", // the real one\n    "dataNamespace": "http://old/" /* guessed */,\n    "timeoutMs": 5000\n  }\n}\n';
    const edit = setEnvironmentNamespaces(text, 'live', NS);
    assert.deepEqual(edit.changed, ['serviceNamespace', 'dataNamespace', 'pickupNamespace']);
    assert.equal(
      edit.text,
      '{\n  // staging first\n  "staging": { "baseUrl": "https://s.example" },\n  "live": {\n    "baseUrl": "https://live.example", // the real one\n    "dataNamespace": "http://tempuri.org/" /* guessed */,\n    "timeoutMs": 5000,\n    "serviceNamespace": "http://live.test/ws/",\n    "pickupNamespace": "http://live.test/pickup"\n  }\n}\n',
    );
    assert.deepEqual(setEnvironmentNamespaces(edit.text, 'live', NS), { text: edit.text, changed: [] });
  });

  it('keeps tabs and CRLF line ends, and refuses an entry that is not there', () => {
    const text = '{\r\n\t"live": {\r\n\t\t"baseUrl": "https://live.example"\r\n\t}\r\n}\r\n';
    const edit = setEnvironmentNamespaces(text, 'live', { service: NS.service });
    assert.equal(edit.text, '{\r\n\t"live": {\r\n\t\t"baseUrl": "https://live.example",\r\n\t\t"serviceNamespace": "http://live.test/ws/"\r\n\t}\r\n}\r\n');
    assert.throws(() => setEnvironmentNamespaces(text, 'prod', NS), /"prod" is not an entry/);
  });
});

/** A stored contract with one addition (Pieces after Weight in a 1.0.3 rate quote item) and one omission (LineOfBusiness of transit times). */
function report(environment: string): ContractReport {
  return {
    format: 'carrier-contract-report',
    version: 1,
    environment,
    baseUrl: 'https://live.example',
    checkedAt: '2026-11-20T10:00:00.000Z',
    namespaces: {
      service: { environment: 'a', live: 'a', differs: false, records: [] },
      data: { environment: 'b', live: 'b', differs: false, records: [] },
      pickup: { environment: 'c', differs: false, records: [] },
    },
    suggestedNamespaces: {},
    services: [],
    differences: [
      {
        severity: 'added',
        kind: 'element-added',
        servicePath: '/1.0.3/RateQuoteService.asmx',
        operations: ['GetRateQuote'],
        version: '1.0.3',
        direction: 'request',
        record: 'RateItem',
        at: 'request.Items[*]',
        element: 'Pieces',
        message: '',
        added: { name: 'Pieces', ns: 'a', role: 'service', type: 's:int', base: 'int', minOccurs: 1, maxOccurs: 1, position: 3, after: 'Weight' },
      },
      {
        severity: 'added',
        kind: 'element-added',
        servicePath: '/1.0.3/RateQuoteService.asmx',
        operations: ['GetRateQuote'],
        version: '1.0.3',
        direction: 'request',
        record: 'RateItem',
        at: 'request.Items[*]',
        element: 'Marks',
        message: '',
        added: {
          name: 'Marks',
          ns: 'a',
          role: 'service',
          type: 's:string',
          base: 'string',
          minOccurs: 0,
          maxOccurs: 'unbounded',
          position: 4,
          after: 'Pieces',
        },
      },
      {
        severity: 'breaking',
        kind: 'element-missing',
        servicePath: '/1.0.0/TransitTimesService.asmx',
        operations: ['GetTransitTimes'],
        version: '1.0.0',
        direction: 'request',
        record: 'TransitTimesInput',
        at: 'input',
        element: 'LineOfBusiness',
        message: '',
      },
    ],
    summary: { differences: 3, breaking: 1, changed: 0, added: 2, unreadable: 0 },
  };
}

const QUOTE = (
  environment: string,
  item: string,
) => `{ "operation": "GetRateQuote", "version": "1.0.3", "environment": "${environment}", "params": { "request": {
  "QuoteType": "Domestic", "Origin": { "CountryCode": "USA" }, "Destination": { "CountryCode": "USA" }, "DeclaredValue": 0,
  "Items": [ { "Class": "50.0", "Weight": 10, ${item} } ] } } }`;

describe('request files follow the stored contract of their environment', () => {
  let dir: string;
  before(() => {
    dir = tmpDir('carrier-contract-files-');
    fs.writeFileSync(
      path.join(dir, 'carrier.environments.json'),
      JSON.stringify({ live: { baseUrl: 'https://live.example' }, staging: { baseUrl: 'https://staging.example' } }),
    );
    writeStoredContract(context, dir, report('live'));
    // A stored contract for the sandbox is never followed: the sandbox stays the catalog's.
    writeStoredContract(context, dir, report('sandbox'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  // The required-field warnings of the sample items are the catalog's and beside the point here.
  const findings = (text: string, options = {}) =>
    validateRequestText(text, path.join(dir, 'q.carrier.json'), { context, ...options })
      .findings.filter((f) => f.code !== 'required')
      .map((f) => `${f.severity} ${f.path}`);

  it('accepts the additions with a note and checks their type, repeating ones as arrays', () => {
    assert.deepEqual(findings(QUOTE('live', '"Pieces": 2, "Marks": ["A", "B"]')), [
      'info params.request.Items[0].Pieces',
      'info params.request.Items[0].Marks',
    ]);
    assert.deepEqual(findings(QUOTE('live', '"Pieces": 2.5, "Marks": ["A", 3]')), [
      'info params.request.Items[0].Pieces',
      'error params.request.Items[0].Pieces',
      'info params.request.Items[0].Marks',
      'error params.request.Items[0].Marks[1]',
    ]);
    assert.deepEqual(findings(QUOTE('live', '"Pieces": "{{n}}"')), ['info params.request.Items[0].Pieces']);
  });

  it('changes nothing without a contract, for the sandbox, or when told to use the catalog alone', () => {
    for (const env of ['staging', 'sandbox']) assert.deepEqual(findings(QUOTE(env, '"Pieces": 2')), ['error params.request.Items[0].Pieces'], env);
    assert.deepEqual(findings(QUOTE('live', '"Pieces": 2'), { overlay: null }), ['error params.request.Items[0].Pieces']);
    // The environment a file is sent to may be another than the one it names (--env, the editor's selection).
    assert.deepEqual(findings(QUOTE('staging', '"Pieces": 2'), { environment: 'live' }), ['info params.request.Items[0].Pieces']);
  });

  it('warns of what the live contract lacks', () => {
    const text =
      '{ "operation": "GetTransitTimes", "environment": "live", "params": { "input": { "LineOfBusiness": "LTL", "DateOfPickup": "2026-11-23", "OriginPoint": { "CountryCode": "USA" }, "Destinations": { "DestinationPoint": [] } } } }';
    assert.ok(findings(text).includes('warning params.input.LineOfBusiness'));
    assert.ok(!findings(text.replace('"live"', '"staging"')).includes('warning params.input.LineOfBusiness'));
  });

  it("writes additions in place in the envelope, and the catalog's request unchanged without them", () => {
    const env = loadEnvironments(context, dir).environments.find((e) => e.name === 'live')!;
    assert.ok(env.contractFile?.endsWith(path.join('.carrier', 'contracts', 'live.json')));
    const request = validateRequestText(QUOTE('live', '"Pieces": 2, "Marks": ["A", "B"], "Width": 1'), path.join(dir, 'q.carrier.json'), { context }).request!;
    const body = prepareRequest({ context, request, environment: env, apiKey: 'k' }).spec.body;
    assert.match(body, /<Weight>10<\/Weight>\s*<Pieces>2<\/Pieces>\s*<Marks>A<\/Marks>\s*<Marks>B<\/Marks>\s*<Width>1<\/Width>/);
    const plain = validateRequestText(QUOTE('live', '"Width": 1'), path.join(dir, 'q.carrier.json'), { context }).request!;
    assert.equal(
      prepareRequest({ context, request: plain, environment: env, apiKey: 'k' }).spec.body,
      prepareRequest({ request: plain, environment: env, apiKey: 'k', overlay: null }).spec.body,
    );
    const overlay = shapeOverlay(storedContractOf(report('live')), findShape('GetRateQuote', '1.0.3')!);
    assert.deepEqual(
      overlay.added('RateItem').map((a) => a.name),
      ['Pieces', 'Marks'],
    );
    assert.equal(overlay.lacks('RateItem', 'Weight'), false);
  });
});

const exchange = (parsed: unknown, extra: Partial<Exchange> = {}): Exchange =>
  ({
    id: 'x',
    startedAt: '',
    operation: 'GetRateQuote',
    version: '1.0.3',
    binding: 'soap11',
    environment: 'e',
    request: { method: 'POST', url: 'http://x', headers: [], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
    findings: [],
    documents: [],
    parsed,
    ...extra,
  }) as Exchange;

describe('two replies compared', () => {
  const names = ['sandbox', 'live'] as const;
  const a = {
    Result: {
      Charges: [
        { Type: 'GROSS', Amount: '$1.00' },
        { Type: 'NET', Amount: '$2.00' },
      ],
      MyCarrierID: 'X',
      Days: 3,
    },
  };
  const b = { Result: { Charges: [{ Type: 'GROSS', Amount: '$9.00', Rate: '1' }], Days: '3' } };

  it('by structure: elements on one side only and other kinds, values and list lengths aside', () => {
    assert.deepEqual(
      compareExchanges(exchange(a), exchange(b), names).map((d) => d.message),
      ['Result.MyCarrierID: only in sandbox', 'Result.Days: sandbox has number, live string', 'Result.Charges[*].Rate: only in live'],
    );
    assert.deepEqual(compareExchanges(exchange(a), exchange(a), names), []);
  });

  it('by value with --values, with paths ignored', () => {
    assert.deepEqual(
      compareExchanges(exchange(a), exchange(b), names, { values: true, ignore: ['Result.Days', 'Result.Charges[*].Amount'] }).map((d) => d.message),
      ['Result.MyCarrierID: only in sandbox', 'Result.Charges: sandbox has 2 items, live 1', 'Result.Charges[0].Rate: only in live'],
    );
  });

  it('a fault against a success, and another status', () => {
    const fault = exchange(undefined, {
      reply: { status: 500, statusText: 'Error', headers: [], bodyText: '', size: 0 },
      fault: { soapVersion: '1.1', code: 'soap:Client', subcodes: [], reason: 'bad' } as Exchange['fault'],
      findings: [{ severity: 'error', kind: 'fault', message: 'bad' }],
    });
    const diffs = compareExchanges(exchange(a), fault, names);
    assert.deepEqual(
      diffs.map((d) => d.kind),
      ['outcome', 'status'],
    );
    assert.match(diffs[0].message, /^sandbox: succeeded; live: SOAP fault \(soap:Client\)/);
  });
});

describe('completion and hovers from a stored contract', () => {
  let dir: string;
  before(() => {
    dir = tmpDir('carrier-contract-editor-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ live: { baseUrl: 'https://live.example' } }));
    writeStoredContract(context, dir, report('live'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const TEXT =
    '{ "operation": "GetRateQuote", "version": "1.0.3", "environment": "live", "params": { "request": {\n  "Items": [ { "Class": "50.0", "Pieces": 2,  } ] } } }';
  const file = () => path.join(dir, 'q.carrier.json');

  it('offers the additions of the record at the cursor that are not written yet, as snippets', () => {
    const offset = TEXT.indexOf(',  }') + 2;
    const items = contractCompletions(context, TEXT, file(), offset);
    assert.deepEqual(
      items.map((i) => [i.name, i.snippet]),
      [['Marks', '"Marks": ["$1"]']],
    );
    assert.match(items[0].detail, /^xs:string, minOccurs 0, maxOccurs unbounded, after Pieces — live contract of "live"$/);
    // A key being typed is replaced whole, quotes included.
    const typing = TEXT.replace(',  }', ', "Ma }');
    const at = typing.indexOf('"Ma') + 3;
    assert.deepEqual(contractCompletions(context, typing, file(), at)[0].replace, { start: typing.indexOf('"Ma'), end: typing.indexOf('"Ma') + 3 });
    // Elsewhere (the request record has no additions), and for another environment, nothing.
    assert.deepEqual(contractCompletions(context, TEXT, file(), TEXT.indexOf('"Items"')), []);
    assert.deepEqual(contractCompletions(context, TEXT.replace('"live"', '"sandbox"'), file(), offset), []);
  });

  it('explains an added key on hover', () => {
    const hover = contractHover(context, TEXT, file(), TEXT.indexOf('"Pieces"') + 2);
    assert.match(
      hover!.markdown,
      /^\*\*Pieces\*\* — not in the catalog: the live contract of environment "live" \(checked 2026-11-20\) declares it in RateItem: xs:int, minOccurs 1, maxOccurs 1, after Weight\.$/,
    );
    assert.equal(contractHover(context, TEXT, file(), TEXT.indexOf('"Class"') + 2), undefined);
  });
});
