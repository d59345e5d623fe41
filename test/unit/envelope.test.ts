/**
 * The exact HTTP request, checked against the transport rules (docs/wire.md#transport-rules)
 * independently of the builder: paths, methods, content types, SOAPAction quoting, envelope
 * namespaces, parameter order, GET query and POST form text — for every example file and every
 * binding its operation offers.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape, operations, XSI_NS, type Binding } from '../../src/core/catalog';
import { formatHttpRequest, prepareRequest, previewRequest, RequestError, shellQuote, toCurl } from '../../src/core/envelope';
import { sandboxEnvironment, type Environment } from '../../src/core/environments';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { validateRequestText } from '../../src/core/validation/validate';
import type { RequestFile } from '../../src/core/requestFile/types';
import { findVariables } from '../../src/core/requestFile/variables';
import { attr, parseXml, type XmlElement } from '../../src/core/xml/dom';
import { assertRules, BASE, header, KEY } from './envelope-rules';
import { exampleFiles } from './example-files';
import { environmentAt } from './transport-support';

function readRequest(text: string, fileName = 'test.carrier.json'): RequestFile {
  const { request, findings } = validateRequestText(text, fileName);
  assert.ok(request, `${fileName}: ${findings.map((f) => f.message).join('; ')}`);
  return request;
}

/** Collection files use {{variables}} captured at run time; any text stands in for them here (run.* are built in). */
function standIns(request: RequestFile): Record<string, string> {
  return Object.fromEntries(
    findVariables(request.params)
      .filter((u) => !u.name.startsWith('run.'))
      .map((u) => [u.name, '1']),
  );
}

function prepare(request: RequestFile, binding?: Binding, environment: Environment = environmentAt(BASE), apiKey = KEY) {
  return prepareRequest({ request, environment, apiKey, variables: standIns(request), ...(binding ? { binding } : {}) });
}

describe('envelope: transport rules for every example file and binding', () => {
  const files = exampleFiles({ collectionsToo: true });
  it('finds the example files', () => assert.ok(files.length >= 13, `${files.length} example files`));
  for (const file of files) {
    it(path.relative(path.join(__dirname, '../..'), file), () => {
      const request = readRequest(fs.readFileSync(file, 'utf8'), file);
      const op = findShape(request.operation, request.version)!;
      for (const binding of op.bindings) {
        for (const ns of [DEFAULT_NAMESPACES, { service: 'urn:one/', data: 'urn:one/', pickup: 'urn:one/' }]) {
          const { spec } = prepare(request, binding, environmentAt(BASE, { namespaces: ns }));
          assertRules(spec, op, binding, ns);
        }
      }
    });
  }

  it('covers every operation shape', () => {
    const covered = new Set(
      files.map((f) => {
        const r = readRequest(fs.readFileSync(f, 'utf8'), f);
        return `${r.operation} ${r.version}`;
      }),
    );
    for (const op of operations) assert.ok(covered.has(`${op.operation} ${op.version}`), `an example for ${op.operation} ${op.version}`);
  });
});

describe('envelope: building the request', () => {
  const terminal = (params: string) => readRequest(`{ "operation": "GetTerminalInformation", "params": ${params} }`);

  it('puts the environment key first and ignores an APIKey written in the file', () => {
    const { spec } = prepare(terminal('{ "CountryCode": "USA", "APIKey": "from-the-file", "ZipCode": "68507" }'), 'soap11');
    const wrapper = parseXml(spec.body).children[0].children[0];
    assert.deepEqual(
      wrapper.children.map((c) => [c.local, c.text]),
      [
        ['APIKey', KEY],
        ['ZipCode', '68507'],
        ['CountryCode', 'USA'],
      ],
    );
    assert.ok(!spec.body.includes('from-the-file'));
  });

  it('leaves absent optional parameters out in every binding', () => {
    const request = terminal('{ "ZipCode": "68507", "CountryCode": "USA" }');
    assert.ok(!prepare(request, 'soap11').spec.body.includes('CustomerData'));
    assert.ok(!prepare(request, 'soap12').spec.body.includes('CustomerData'));
    assert.deepEqual([...new URL(prepare(request, 'get').spec.url).searchParams.keys()], ['APIKey', 'ZipCode', 'CountryCode']);
    assert.equal(prepare(request, 'post').spec.body, `APIKey=${KEY}&ZipCode=68507&CountryCode=USA`);
  });

  it('escapes text in envelopes and encodes it in queries and forms, so it reads back unchanged', () => {
    const tricky = `a & b < c > d "e" 'f' + g%20 /h?i=j#k é`;
    const request = terminal(JSON.stringify({ ZipCode: '68507', CountryCode: 'USA', CustomerData: tricky }));
    for (const binding of ['soap11', 'soap12'] as const) {
      const { spec } = prepare(request, binding);
      assert.match(spec.body, /a &amp; b &lt; c &gt; d/);
      const data = parseXml(spec.body).children[0].children[0].children.find((c) => c.local === 'CustomerData')!;
      assert.equal(data.text, tricky);
    }
    assert.equal(new URL(prepare(request, 'get').spec.url).searchParams.get('CustomerData'), tricky);
    assert.equal(new URLSearchParams(prepare(request, 'post').spec.body).get('CustomerData'), tricky);
  });

  it('writes decimals exactly and keeps number literals as written', () => {
    const request = readRequest(`{ "operation": "GetRateQuote", "version": "1.0.3", "params": { "request": {
      "QuoteType": "Domestic", "Items": [{ "Class": "50.0", "Weight": 1500.50, "Width": 48.00, "Height": 40, "Length": 0.1 }],
      "DeclaredValue": 0.10, "Pallets": [{ "Code": "0001", "Weight": 300, "Quantity": 2 }] } } }`);
    const { spec } = prepare(request, 'soap11');
    assert.match(spec.body, /<Weight>1500\.50<\/Weight>\s*<Width>48\.00<\/Width>\s*<Height>40<\/Height>\s*<Length>0\.1<\/Length>/);
    assert.match(spec.body, /<DeclaredValue>0\.10<\/DeclaredValue>/);
    const asString = readRequest(
      `{ "operation": "GetRateQuote", "version": "1.0.3", "params": { "request": { "QuoteType": "Domestic", "DeclaredValue": "0.10" } } }`,
    );
    assert.match(prepare(asString, 'soap12').spec.body, /<DeclaredValue>0\.10<\/DeclaredValue>/);
  });

  it('carries every HTTP parameter as text: ints and the key too (transport rule 7)', () => {
    const request = readRequest(
      `{ "operation": "GetBillOfLadingLabelPDF", "params": { "billOfLadingId": 42, "style": "STYLE_4", "startPosition": 1, "numLabels": 10 } }`,
    );
    assert.equal(new URL(prepare(request, 'get').spec.url).search, `?APIKey=${KEY}&billOfLadingId=42&style=STYLE_4&startPosition=1&numLabels=10`);
    assert.equal(prepare(request, 'post').spec.body, `APIKey=${KEY}&billOfLadingId=42&style=STYLE_4&startPosition=1&numLabels=10`);
    assert.match(prepare(request, 'soap11').spec.body, /<billOfLadingId>42<\/billOfLadingId>/);
  });

  it('puts transit contents in the data namespace, also when it equals the service namespace', () => {
    const text = fs.readFileSync(path.join(__dirname, '../golden/requests/GetTransitTimes-1.0.0.carrier.json'), 'utf8');
    for (const ns of [DEFAULT_NAMESPACES, { service: 'urn:same', data: 'urn:same', pickup: 'urn:same' }]) {
      const { spec } = prepare(readRequest(text), 'soap11', environmentAt(BASE, { namespaces: ns }));
      const input = parseXml(spec.body).children[0].children[0].children[1];
      const origin = input.children.find((c) => c.local === 'OriginPoint')!;
      assert.equal(origin.ns, ns.service);
      assert.ok(origin.children.every((c) => c.ns === ns.data));
      const point = input.children.find((c) => c.local === 'Destinations')!.children[0];
      assert.equal(point.local, 'DestinationPoint');
      assert.equal(point.ns, ns.data);
    }
  });

  it('joins a service namespace that ends in / without a double slash in SOAPAction', () => {
    const request = terminal('{ "ZipCode": "68507", "CountryCode": "USA" }');
    const slash = prepare(request, 'soap11', environmentAt(BASE, { namespaces: { ...DEFAULT_NAMESPACES, service: 'http://carrier.example/ws/' } })).spec;
    assert.deepEqual(header(slash, 'SOAPAction'), ['"http://carrier.example/ws/GetTerminalInformation"']);
    const bare = prepare(request, 'soap11', environmentAt(BASE, { namespaces: { ...DEFAULT_NAMESPACES, service: 'urn:carrier:ws' } })).spec;
    assert.deepEqual(header(bare, 'SOAPAction'), ['"urn:carrier:ws/GetTerminalInformation"']);
  });

  it('keeps a base URL path prefix and drops its trailing slash', () => {
    const request = terminal('{ "ZipCode": "68507", "CountryCode": "USA" }');
    const { spec } = prepare(request, 'get', environmentAt('https://gw.example.test/carrier/api/'));
    assert.ok(spec.url.startsWith('https://gw.example.test/carrier/api/1.0.2/TerminalInformationService.asmx/GetTerminalInformation?'), spec.url);
    assertRules(spec, findShape('GetTerminalInformation')!, 'get', DEFAULT_NAMESPACES, 'https://gw.example.test/carrier/api');
  });

  it('writes nil as xsi:nil in SOAP and leaves it out of HTTP bindings', () => {
    const request = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA', CustomerData: null } };
    const soap = prepareRequest({ request, environment: environmentAt(BASE), apiKey: KEY, binding: 'soap11' }).spec;
    const data = parseXml(soap.body).children[0].children[0].children[3] as XmlElement;
    assert.equal(data.local, 'CustomerData');
    assert.equal(attr(data, XSI_NS, 'nil'), 'true');
    const get = prepareRequest({ request, environment: environmentAt(BASE), apiKey: KEY, binding: 'get' }).spec;
    assert.ok(!get.url.includes('CustomerData'));
  });

  it('refuses a binding the operation does not offer, and says which it offers', () => {
    const request = readRequest(fs.readFileSync(path.join(__dirname, '../golden/requests/GetRateQuote-1.0.3.carrier.json'), 'utf8'));
    assert.throws(
      () => prepare(request, 'get'),
      (e: RequestError) => e.kind === 'binding' && /GetRateQuote 1\.0\.3 does not offer HTTP GET; it offers SOAP 1\.1, SOAP 1\.2/.test(e.message),
    );
  });

  it('refuses a value of the wrong type with its path', () => {
    const request = { operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 'twelve' } };
    for (const binding of ['soap11', 'get'] as const) {
      assert.throws(
        () => prepareRequest({ request, environment: environmentAt(BASE), apiKey: KEY, binding }),
        (e: RequestError) => e.kind === 'value' && /billOfLadingId/.test(e.message) && /not a valid int/.test(e.message),
      );
    }
  });

  it('substitutes {{variables}} from the environment and the caller; unknown ones are an error', () => {
    const request = terminal('{ "ZipCode": "{{zip}}", "CountryCode": "USA", "CustomerData": "run {{run}}" }');
    const env = environmentAt(BASE, { variables: { zip: '68507', run: 'one' } });
    const { spec } = prepareRequest({ request, environment: env, apiKey: KEY, binding: 'post', variables: { run: 'two' } });
    assert.equal(spec.body, `APIKey=${KEY}&ZipCode=68507&CountryCode=USA&CustomerData=run+two`);
    assert.throws(
      () => prepareRequest({ request, environment: environmentAt(BASE), apiKey: KEY }),
      (e: RequestError) => e.kind === 'variables' && /\{\{zip\}\}/.test(e.message),
    );
  });

  it('uses the sandbox key and a placeholder address for the embedded sandbox when nothing else is given', () => {
    const { spec, display } = prepareRequest({
      request: terminal('{ "ZipCode": "68507", "CountryCode": "USA" }'),
      environment: sandboxEnvironment(),
      binding: 'get',
    });
    assert.ok(spec.url.startsWith('http://embedded-sandbox.invalid/1.0.2/'));
    assert.equal(new URL(spec.url).searchParams.get('APIKey'), 'sandbox-key');
    assert.ok(!display.url.includes('sandbox-key'));
  });

  it('previews a request for a remote environment whose key is not set yet, the key shown as ••••', () => {
    const preview = previewRequest({ request: terminal('{ "ZipCode": "68507", "CountryCode": "USA" }'), environment: environmentAt(BASE), binding: 'get' });
    assert.equal(preview.keyMissing, true);
    assert.equal(new URL(preview.display.url).searchParams.get('APIKey'), '••••');
    assert.equal(
      previewRequest({ request: terminal('{ "ZipCode": "1", "CountryCode": "USA" }'), environment: environmentAt(BASE), apiKey: KEY }).keyMissing,
      false,
    );
  });

  it('needs a key for a remote environment', () => {
    assert.throws(
      () => prepareRequest({ request: terminal('{ "ZipCode": "1", "CountryCode": "USA" }'), environment: environmentAt(BASE) }),
      (e: RequestError) => e.kind === 'api-key',
    );
  });
});

describe('envelope: display and curl', () => {
  const spec: HttpRequestSpec = {
    method: 'POST',
    url: 'http://h.example/p',
    headers: [
      ['Content-Type', 'text/xml; charset=utf-8'],
      ['SOAPAction', '"urn:x/Op"'],
    ],
    body: '<a>it\'s "x" $HOME `id`\n</a>',
  };

  it('prints METHOD URL, the headers, a blank line and the body', () => {
    assert.equal(
      formatHttpRequest(spec),
      'POST http://h.example/p\nContent-Type: text/xml; charset=utf-8\nSOAPAction: "urn:x/Op"\n\n<a>it\'s "x" $HOME `id`\n</a>',
    );
  });

  it('quotes for the shell so every byte survives', () => {
    for (const s of [`plain`, `it's`, `"double" $HOME \`id\` \\ !`, `new\nline`, `''`, `é ✓`]) {
      const echoed = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(s)}`]).toString('utf8');
      assert.equal(echoed, s);
    }
  });

  it('makes a curl command with the exact headers and body', () => {
    const curl = toCurl(spec);
    assert.ok(curl.startsWith("curl 'http://h.example/p'"));
    // Let the shell parse it, with a stand-in curl that prints its arguments.
    const args = execFileSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }; ${curl}`])
      .toString('utf8')
      .split('\0')
      .slice(0, -1);
    assert.deepEqual(args, ['http://h.example/p', '-H', 'Content-Type: text/xml; charset=utf-8', '-H', 'SOAPAction: "urn:x/Op"', '--data-binary', spec.body]);
    assert.equal(toCurl({ method: 'GET', url: 'http://h.example/p?a=1&b=2', headers: [], body: '' }), "curl 'http://h.example/p?a=1&b=2'\n");
  });
});
