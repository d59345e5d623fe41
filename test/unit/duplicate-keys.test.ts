/**
 * A key written twice in one JSON object is an error in every file the workbench reads: request
 * files (validation, `carrier validate`, `carrier run`), collection.json and
 * carrier.environments.json, located at the second key and naming the first.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { formatEnvironmentProblem, parseEnvironments } from '../../src/core/environments/load';
import { DUPLICATE_KEY_LIMIT, findDuplicateKeys, mayHaveDuplicateKeys } from '../../src/core/requestFile/duplicateKeys';
import { valueShape } from '../../src/core/requestFile/valueShape';
import { parseCollectionConfig } from '../../src/core/runner/collectionConfig';
import { compileRequestFile } from '../../src/core/runner/loadFile';
import { formatFinding, sendableRequest, validateRequestText } from '../../src/core/validation';

const API_KEY = 'dup-test-key-0123456789';

/** A valid request file of GetTerminalInformation, `extra` lines spliced in before "params". */
function requestText(extra = ''): string {
  return ['{', '  "operation": "GetTerminalInformation",', '  "version": "1.0.2",', extra, '  "params": { "ZipCode": "68507", "CountryCode": "USA" }', '}']
    .filter((l) => l !== '')
    .join('\n');
}

const duplicatesOf = (text: string) => validateRequestText(text, 'dup.carrier.json').findings.filter((f) => f.code === 'duplicate-key');

describe('duplicate keys: finding them', () => {
  it('finds none in a clean file, and none for one key in different objects', () => {
    const text = '{"a":1,"b":{"a":2,"b":[{"a":3},{"a":4}]},"c":[{"x":1,"y":{"x":2}},{"x":3}]}';
    assert.deepEqual(findDuplicateKeys(text).duplicates, []);
    assert.equal(mayHaveDuplicateKeys(text, valueShape(JSON.parse(text)).keys), false);
  });

  it('locates a nested duplicate with the path of its object, in arrays too', () => {
    const text = '{"params":{"request":{"Items":[{"Weight":1},{"Weight":2,"Class":"50","Weight":3}]}}}';
    const { duplicates } = findDuplicateKeys(text);
    assert.equal(duplicates.length, 1);
    const [d] = duplicates;
    assert.equal(d.key, 'Weight');
    assert.deepEqual(d.parent, ['params', 'request', 'Items', 1]);
    assert.equal(text.slice(d.offset, d.offset + d.length), '"Weight"');
    assert.equal(d.offset, text.lastIndexOf('"Weight"'));
    assert.equal(d.firstOffset, text.indexOf('"Weight":2'));
    assert.equal(mayHaveDuplicateKeys(text, valueShape(JSON.parse(text)).keys), true);
  });

  it('compares keys after unescaping: "a", "\\u0061" and "\\u0041" differ only where they should', () => {
    assert.equal(findDuplicateKeys('{"a":1,"\\u0061":2}').duplicates[0]?.key, 'a');
    assert.equal(findDuplicateKeys('{"/":1,"\\/":2}').duplicates[0]?.key, '/');
    assert.equal(findDuplicateKeys('{"q\\"":1,"q\\u0022":2}').duplicates[0]?.key, 'q"');
    assert.equal(findDuplicateKeys('{"\\\\":1,"\\u005c":2}').duplicates[0]?.key, '\\');
    assert.deepEqual(findDuplicateKeys('{"a":1,"\\u0041":2,"a\\\\":3,"a\\"":4}').duplicates, []);
  });

  it('ignores what only looks like a key: in strings and comments', () => {
    const text = '{\n  "a": "\\"a\\": 1, {\\"a\\":2}", // "a": 3 {\n  /* "a": 4 } */ "b": ["a", "a"], "c": "http://x:1"\n}';
    assert.deepEqual(findDuplicateKeys(text).duplicates, []);
    assert.deepEqual(duplicatesOf(requestText('  // "params": {},\n  /* "operation": "x", */')), []);
  });

  it('a plain-JSON file whose strings hold colons after quotes is rechecked, not reported', () => {
    const text = '{"a": "x\\": y"}';
    const value = JSON.parse(text);
    assert.equal(mayHaveDuplicateKeys(text, valueShape(value).keys), true, 'the cheap test cannot tell');
    assert.deepEqual(findDuplicateKeys(text).duplicates, [], 'the exact scan can');
  });

  it('walks a 200,000-level nesting without recursion and finds the duplicate at the bottom', () => {
    const depth = 200_000;
    const text = '{"a":'.repeat(depth) + '{"x":1,"x":2}' + '}'.repeat(depth);
    const { duplicates } = findDuplicateKeys(text);
    assert.equal(duplicates.length, 1);
    assert.equal(duplicates[0].parent.length, depth);
    assert.equal(mayHaveDuplicateKeys(text, valueShape(JSON.parse(text)).keys), true);
  });

  it('lists the first hundred duplicates and counts the rest in one more finding', () => {
    const keys = Array.from({ length: 250 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',');
    const text = requestText(`  "description": "x", "expect": {${keys}},`);
    assert.equal(findDuplicateKeys(text).duplicates.length, DUPLICATE_KEY_LIMIT);
    assert.equal(findDuplicateKeys(text).more, 150);
    const found = duplicatesOf(text);
    assert.equal(found.length, DUPLICATE_KEY_LIMIT + 1);
    assert.match(found[found.length - 1].message, /^150 more duplicate keys from here on \(only the first 100 are listed\)/);
  });
});

describe('duplicate keys: request-file validation', () => {
  it('a second "expect" is an error at the second one, naming the first', () => {
    const text = requestText('  "expect": { "status": 200 },\n  "expect": { "fault": true },');
    const [finding, ...rest] = duplicatesOf(text);
    assert.deepEqual(rest, []);
    assert.equal(finding.severity, 'error');
    assert.equal(finding.path, 'expect');
    assert.equal(finding.message, 'duplicate key "expect" (first at 4:3); JSON keeps only one of them');
    assert.deepEqual(finding.range, { start: { line: 4, character: 2 }, end: { line: 4, character: 10 } });
    assert.equal(formatFinding('dup.carrier.json', finding), 'dup.carrier.json:5:3: error: duplicate key "expect" (first at 4:3); JSON keeps only one of them');
  });

  it('finds duplicates in expect, reply assertions, capture and params at any depth, with comments', () => {
    const text = [
      '{',
      '  // comments take the jsonc-parser path',
      '  "operation": "GetTerminalInformation", "version": "1.0.2",',
      '  "expect": { "fault": true, "fault": false,',
      '    "reply": { "Result[0].TerminalDetails.TerminalCode": { "equals": "LNK", "equals": "OMA" } },',
      '    "reply": { "Result": { "count": 1 } } },',
      '  "capture": { "code": "Result[0].TerminalDetails.TerminalCode", "code": "BolID" },',
      '  "params": { "ZipCode": "68507", "CountryCode": "USA", "ZipCode": "68508" },',
      '}',
    ].join('\n');
    const found = duplicatesOf(text).map((f) => `${f.range.start.line + 1}:${f.range.start.character + 1} ${f.path} | ${f.message}`);
    assert.deepEqual(found, [
      '4:30 expect.fault | duplicate key "fault" in expect (first at 4:15); JSON keeps only one of them',
      '5:77 expect.reply["Result[0].TerminalDetails.TerminalCode"].equals | duplicate key "equals" in expect.reply["Result[0].TerminalDetails.TerminalCode"] (first at 5:60); JSON keeps only one of them',
      '6:5 expect.reply | duplicate key "reply" in expect (first at 5:5); JSON keeps only one of them',
      '7:66 capture.code | duplicate key "code" in capture (first at 7:16); JSON keeps only one of them',
      '8:57 params.ZipCode | duplicate key "ZipCode" in params (first at 8:15); JSON keeps only one of them',
    ]);
    // The trailing comma stays a warning beside them.
    assert.ok(validateRequestText(text, 'dup.carrier.json').findings.some((f) => f.code === 'trailing-comma' && f.severity === 'warning'));
  });

  it('names both spellings when an escape hides the repetition', () => {
    const [finding] = duplicatesOf(requestText('  "expect": { "status": 200, "st\\u0061tus": 500 },'));
    assert.equal(
      finding.message,
      'duplicate key "status" in expect (first at 4:15, spelled "status" there and "st\\u0061tus" here); JSON keeps only one of them',
    );
  });

  it('a file with a duplicate cannot be sent, not even with "Send anyway"', () => {
    const result = validateRequestText(requestText('  "description": "one",\n  "description": "two",'), 'dup.carrier.json');
    assert.ok(result.request, 'the file still reads, so its other findings show');
    assert.equal(sendableRequest(result), undefined);
    assert.equal(sendableRequest(result, true), undefined);
  });

  it('the runner loads it as a file problem at file:line:col', () => {
    const loaded = compileRequestFile(
      requestText('  "expect": { "status": 200 },\n  "expect": { "fault": true },'),
      '/w/dup.carrier.json',
      (t, f) => validateRequestText(t, f).findings,
    );
    assert.equal(loaded.problems.length, 1, 'reported once, though both the reader and the validator see it');
    assert.equal(loaded.problems[0].message, 'duplicate key "expect" (first at 4:3); JSON keeps only one of them');
    assert.deepEqual([loaded.problems[0].location?.line, loaded.problems[0].location?.column], [5, 3]);
  });
});

describe('duplicate keys: collection.json and carrier.environments.json', () => {
  it('collection.json: a problem at the second key', () => {
    const text = '{\n  "environment": "local",\n  "variables": { "zip": "68507", "zip": "68508" },\n  "environment": "other"\n}';
    const { problems } = parseCollectionConfig(text, '/w/collection.json');
    assert.deepEqual(
      problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.message}`),
      [
        '3:34 duplicate key "zip" in variables (first at 3:18); JSON keeps only one of them',
        '4:3 duplicate key "environment" (first at 2:3); JSON keeps only one of them',
      ],
    );
  });

  it('environments: a located error; the entry is left out and the others stay usable', () => {
    const text = [
      '{',
      '  "local": { "baseUrl": "http://127.0.0.1:1", "timeoutMs": 1000, "timeoutMs": 2000 },',
      '  "staging": { "baseUrl": "https://staging.example" },',
      '  "staging": { "baseUrl": "https://other.example" },',
      '  "prod": { "baseUrl": "https://prod.example" }',
      '}',
    ].join('\n');
    const loaded = parseEnvironments(text, '/w/carrier.environments.json');
    assert.deepEqual(
      loaded.problems.map((p) => formatEnvironmentProblem('carrier.environments.json', p)),
      [
        'carrier.environments.json:2:66: error: duplicate key "timeoutMs" in local (first at 2:47); JSON keeps only one of them',
        'carrier.environments.json:4:3: error: duplicate key "staging" (first at 3:3); JSON keeps only one of them',
      ],
    );
    assert.deepEqual(
      loaded.environments.map((e) => e.name),
      ['sandbox', 'prod'],
    );
  });
});

describe('duplicate keys: the CLI', function () {
  this.timeout(60_000);
  let server: http.Server;
  let baseUrl: string;
  let requests = 0;
  let tmp: string;

  before(async () => {
    server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(`<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo>
<TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>17</TerminalDetailID><TerminalName>Lincoln</TerminalName><TerminalCode>LNK</TerminalCode></TerminalDetails>
</TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  beforeEach(() => {
    requests = 0;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-dup-keys-'));
    fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } }));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (rel: string, text: string) => {
    const file = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  const carrier = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd: tmp,
      env: { NO_COLOR: '1', CARRIER_API_KEY: API_KEY },
    });
    return { code, stdout, stderr };
  };
  const DUP_EXPECT = requestText('  "expect": { "status": 200 },\n  "expect": { "fault": true },');
  const DUP_MESSAGE = 'error: duplicate key "expect" (first at 4:3); JSON keeps only one of them';

  it('carrier validate prints the located error and exits 1, as for any error', async () => {
    write('suite/dup.carrier.json', DUP_EXPECT);
    const r = await carrier('validate', 'suite');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stdout, `suite/dup.carrier.json:5:3: ${DUP_MESSAGE}\n`);
    const json = await carrier('validate', '--json', 'suite/dup.carrier.json');
    assert.equal(JSON.parse(json.stdout)[0].code, 'duplicate-key');
  });

  it('carrier run: the same suite without the duplicate sends (the server is reachable)', async () => {
    write('suite/ok.carrier.json', requestText('  "expect": { "status": 200 },'));
    const r = await carrier('run', 'suite', '--env', 'local');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(requests, 1);
  });

  it('carrier run: a request file with a duplicate exits 2 and sends nothing', async () => {
    write('suite/1-ok.carrier.json', requestText('  "expect": { "status": 200 },'));
    write('suite/2-dup.carrier.json', DUP_EXPECT);
    const r = await carrier('run', 'suite', '--env', 'local');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.includes(`suite/2-dup.carrier.json:5:3: ${DUP_MESSAGE}`), r.stderr);
    assert.equal(requests, 0);
  });

  it('carrier run: a collection.json with a duplicate exits 2 and sends nothing', async () => {
    write('suite/ok.carrier.json', requestText('  "expect": { "status": 200 },'));
    write('suite/collection.json', '{\n  "environment": "local",\n  "environment": "local"\n}');
    const r = await carrier('run', 'suite');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.includes('suite/collection.json:3:3: error: duplicate key "environment" (first at 2:3); JSON keeps only one of them'), r.stderr);
    assert.equal(requests, 0);
  });

  it('carrier run: an environments file with a duplicate exits 2 and sends nothing', async () => {
    write('suite/ok.carrier.json', requestText('  "expect": { "status": 200 },'));
    write('carrier.environments.json', `{\n  "local": { "baseUrl": "${baseUrl}", "baseUrl": "${baseUrl}" }\n}`);
    const r = await carrier('run', 'suite', '--env', 'local');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /carrier\.environments\.json:2:\d+: error: duplicate key "baseUrl" in local \(first at 2:14\); JSON keeps only one of them/);
    assert.equal(requests, 0);
  });
});
