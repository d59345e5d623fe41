/**
 * Request files: parsing (syntax errors, comments, raw numbers), variables, and validation — the
 * rules the brief names, then the corpus of wrong files in test/fixtures/invalid/, each checked
 * for its expected message at its expected line:col and for nothing else.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findVariables, numberKey, parseRequestFile, rangeOfPath, substituteVariables, UnknownVariableError, type Finding } from '../../src/core/requestFile';
import { formatFinding, hasErrors, oneBased, paramsValidator, validateRequestText } from '../../src/core/validation';
import { findShape } from '../../src/core/catalog';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'invalid');

/** A request file as text, from a value (or literal text when given a string). */
const file = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
const rateQuote = (version: string, request: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  file({ operation: 'GetRateQuote', version, ...extra, params: { request } });
const errors = (findings: Finding[]) => findings.filter((f) => f.severity === 'error');
const messages = (findings: Finding[]) => findings.map((f) => f.message);
const complete103 = { QuoteType: 'Domestic', DeclaredValue: 0 };

describe('request files: parsing', () => {
  it('reads a file with comments and resolves version and default binding', () => {
    const parsed = parseRequestFile(
      '{\n  // the terminal for Lincoln\n  "operation": "GetTerminalInformation",\n  /* block */ "params": { "ZipCode": "68507", "CountryCode": "USA" }\n}',
      'a.carrier.json',
    );
    assert.deepEqual(parsed.findings, []);
    assert.equal(parsed.request?.operation, 'GetTerminalInformation');
    assert.equal(parsed.request?.version, '1.0.2', 'the only version is filled in');
    assert.equal(parsed.request?.binding, 'soap11');
    assert.equal(parsed.request?.bindingGiven, false);
    assert.equal(parsed.request?.fileName, 'a.carrier.json');
    assert.equal(parsed.tree?.type, 'object');
  });

  it('applies a default binding from options only where the shape offers it', () => {
    const terminal = file({ operation: 'GetTerminalInformation', params: {} });
    assert.equal(parseRequestFile(terminal, undefined, { defaultBinding: 'post' }).request?.binding, 'post');
    const trace = file({ operation: 'TraceShipment', params: {} });
    assert.equal(parseRequestFile(trace, undefined, { defaultBinding: 'post' }).request?.binding, 'soap11');
  });

  it('keeps the source text of every number literal, keyed by JSON pointer', () => {
    const text =
      '{ "operation": "GetRateQuote", "version": "1.0.3", "params": { "request": { "Items": [ { "Width": 48.00, "Weight": 1500 } ], "DeclaredValue": 0.10, "x": 1e3 } } }';
    const numbers = parseRequestFile(text).request!.rawNumbers;
    assert.equal(numbers.get('/params/request/Items/0/Width'), '48.00');
    assert.equal(numbers.get('/params/request/Items/0/Weight'), '1500');
    assert.equal(numbers.get(numberKey(['params', 'request', 'DeclaredValue'])), '0.10');
    assert.equal(numbers.get('/params/request/x'), '1e3');
    assert.equal(numbers.size, 4);
  });

  it('escapes pointer segments as RFC 6901 says', () => {
    assert.equal(numberKey(['a/b', 'c~d', 0]), '/a~1b/c~0d/0');
  });

  it('reports a missing comma where the comma belongs, with a 1-based form for the CLI', () => {
    const text = '{\n  "operation": "GetTerminalInformation"\n  "params": {}\n}';
    const { findings, request } = parseRequestFile(text);
    assert.equal(request, undefined);
    assert.equal(findings.length, 1);
    assert.equal(findings[0].message, 'missing comma before "params"');
    // Right after "GetTerminalInformation" (39 characters into line 2), where the comma goes.
    assert.deepEqual(findings[0].range.start, { line: 1, character: 39 });
    assert.deepEqual(oneBased(findings[0].range.start), { line: 2, column: 40 });
    assert.equal(formatFinding('f.carrier.json', findings[0]), 'f.carrier.json:2:40: error: missing comma before "params"');
  });

  it('never throws: every prefix of an example gives findings or a request', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'bill-of-lading', 'create-bill-of-lading.carrier.json'), 'utf8');
    for (let end = 0; end < text.length; end += 7) {
      const result = validateRequestText(text.slice(0, end));
      assert.ok(hasErrors(result.findings), `prefix of ${end} characters has an error`);
      for (const f of result.findings) assert.ok(f.range.start.line >= 0 && f.range.start.character >= 0);
    }
  });

  it('treats an empty file, a byte-order mark and \\r\\n line ends sensibly', () => {
    assert.match(validateRequestText('  \n').findings[0].message, /the file is empty/);
    const bom = '\uFEFF' + file({ operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 1 } });
    assert.deepEqual(validateRequestText(bom).findings, []);
    const crlf = '{\r\n  "operation": "GetBillOfLadingPdf",\r\n  "params": { "billOfLadingId": "x" }\r\n}';
    assert.deepEqual(validateRequestText(crlf).findings[0].range.start, { line: 2, character: 32 });
  });

  it('locates any JSON path, falling back to the nearest existing ancestor', () => {
    const text = '{\n  "params": {\n    "request": { "Items": [ { "Class": "50.0" } ] }\n  }\n}';
    assert.deepEqual(rangeOfPath(text, ['params', 'request', 'Items', 0, 'Class']), { start: { line: 2, character: 39 }, end: { line: 2, character: 45 } });
    assert.deepEqual(rangeOfPath(text, ['params', 'request', 'Items', 0, 'Class'], 'key'), {
      start: { line: 2, character: 30 },
      end: { line: 2, character: 37 },
    });
    assert.deepEqual(rangeOfPath(text, ['params', 'request', 'QuoteType']).start, { line: 2, character: 4 }, "missing field → the parent's key");
  });
});

describe('request files: variables', () => {
  const vars = { bolId: 42, city: 'Tampa', flag: true };

  it("a string that is exactly one variable takes the variable's value and type", () => {
    assert.deepEqual(substituteVariables({ LinkedBolId: '{{bolId}}', IncludeBol: '{{ flag }}' }, vars), { LinkedBolId: 42, IncludeBol: true });
  });

  it('variables inside longer text are written as text; other values are untouched', () => {
    assert.deepEqual(substituteVariables({ a: 'to {{city}}, BOL {{bolId}}', n: 1.5, list: ['{{city}}', false] }, vars), {
      a: 'to Tampa, BOL 42',
      n: 1.5,
      list: ['Tampa', false],
    });
  });

  it('an unknown variable is an error naming it and where it is', () => {
    assert.throws(
      () => substituteVariables({ request: { Items: [{ Class: '{{klass}}' }] } }, vars, ['params']),
      (e: unknown) =>
        e instanceof UnknownVariableError &&
        /\{\{klass\}\} at params\.request\.Items\[0\]\.Class/.test(e.message) &&
        /known: bolId, city, flag/.test(e.message),
    );
  });

  it('finds every use of a variable with its path', () => {
    assert.deepEqual(findVariables({ a: ['x {{one}} {{two}}'] }, ['params']), [
      { name: 'one', path: ['params', 'a', 0] },
      { name: 'two', path: ['params', 'a', 0] },
    ]);
  });
});

describe('validation', () => {
  it('binding "get" on GetRateQuote is an error naming the bindings it offers', () => {
    const { findings, request } = validateRequestText(rateQuote('1.0.3', complete103, { binding: 'get' }));
    assert.deepEqual(messages(errors(findings)), ['"binding": "get" — GetRateQuote 1.0.3 offers soap11, soap12']);
    assert.equal(findings[0].path, 'binding');
    assert.equal(request, undefined, 'no request for a binding the shape does not offer');
  });

  it('SortAndSegregate is accepted in GetRateQuote 1.0.1 and 1.0.3, rejected in 1.0.0', () => {
    const base = { QuoteType: 'Domestic', CODAmount: 0, DeclaredValue: 0, OverDimensionPcs: 0, Accessorials: ['SortAndSegregate'] };
    assert.deepEqual(validateRequestText(rateQuote('1.0.1', base)).findings, []);
    assert.deepEqual(validateRequestText(rateQuote('1.0.3', { ...complete103, Accessorials: ['SortAndSegregate'] })).findings, []);
    const old = validateRequestText(rateQuote('1.0.0', { QuoteType: 'Domestic', CODAmount: 0, DeclaredValue: 0, Accessorials: ['SortAndSegregate'] }));
    assert.deepEqual(messages(old.findings), [
      'params.request.Accessorials[0]: "SortAndSegregate" is not an accessorial of GetRateQuote 1.0.0 (it is one in 1.0.1, 1.0.3)',
    ]);
    assert.equal(old.findings[0].path, 'params.request.Accessorials[0]');
  });

  it('one message per location, however many schema keywords failed there', () => {
    const { findings } = validateRequestText(rateQuote('1.0.3', { ...complete103, Accessorials: ['Liftgate', 5], QuoteType: 'domestic' }));
    assert.deepEqual(messages(findings), [
      'params.request.QuoteType: "domestic" is not a quote type of GetRateQuote 1.0.3 — did you mean "Domestic"?',
      'params.request.Accessorials[0]: "Liftgate" is not an accessorial of GetRateQuote 1.0.3 — did you mean "OriginLiftgate"?',
      'params.request.Accessorials[1]: expected one of the RQAccessorial values as a string (or a {{variable}}), got 5',
    ]);
    assert.equal(findings[1].suggestion, 'OriginLiftgate');
  });

  it("a {{variable}} is accepted wherever a value of the field's type is", () => {
    const request = {
      ...complete103,
      QuoteType: '{{quoteType}}',
      DeclaredValue: '{{declared}}',
      Items: [{ Class: '{{class}}', Weight: '{{w}}', Width: 0, Height: 0, Length: 0 }],
      OverDimensionList: [{ Pieces: '{{pieces}}', Inches: 12 }],
      Accessorials: ['{{acc}}'],
    };
    assert.deepEqual(validateRequestText(rateQuote('1.0.3', request)).findings, []);
    const pickup = file({ operation: 'CreatePickupRequest', params: { request: { IncludeBol: '{{includeBol}}', Pickup: { LinkedBolId: '{{bolId}}' } } } });
    assert.deepEqual(errors(validateRequestText(pickup).findings), []);
  });

  it('a variable inside longer text is not an int', () => {
    const { findings } = validateRequestText(file({ operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 'BOL-{{bolId}}' } }));
    assert.deepEqual(messages(findings), ['params.billOfLadingId: expected an integer (or a {{variable}}), got "BOL-{{bolId}}"']);
  });

  it('decimals take a number or a decimal string; ints and floats take numbers', () => {
    assert.deepEqual(validateRequestText(rateQuote('1.0.3', { ...complete103, DeclaredValue: '0.10' })).findings, []);
    assert.deepEqual(validateRequestText(rateQuote('1.0.3', { ...complete103, DeclaredValue: 100.5 })).findings, []);
    const bad = validateRequestText(
      rateQuote('1.0.3', { ...complete103, DeclaredValue: '$100', Items: [{ Class: '50.0', Weight: '1500', Width: 1, Height: 1, Length: 1 }] }),
    );
    assert.deepEqual(messages(bad.findings), [
      'params.request.DeclaredValue: expected a number or a decimal string such as "0.10" (or a {{variable}}), got "$100"',
      'params.request.Items[0].Weight: expected a number (or a {{variable}}), got "1500" — write the number without quotes',
    ]);
  });

  it('dateTime takes an xs:dateTime or a date', () => {
    const transit = (DateOfPickup: unknown) =>
      file({ operation: 'GetTransitTimes', params: { input: { DateOfPickup, OriginPoint: { CountryCode: 'USA' }, Destinations: { DestinationPoint: [] } } } });
    for (const ok of ['2026-11-23', '2026-11-23T09:00:00', '2026-11-23T09:00:00.5Z', '2026-11-23T09:00:00-05:00'])
      assert.deepEqual(validateRequestText(transit(ok)).findings, [], ok);
    for (const bad of ['2026-13-01', '2026-11-23 09:00', 20261123]) assert.equal(errors(validateRequestText(transit(bad)).findings).length, 1, String(bad));
  });

  it('freight class: 50, "50" and 50.0 count as "50.0"; others are a warning with the nearest class', () => {
    const withClass = (Class: unknown) => rateQuote('1.0.3', { ...complete103, Items: [{ Class, Weight: 1500, Width: 0, Height: 0, Length: 0 }] });
    for (const ok of [50, '50', 50.0, '50.0', '77.5', 77.5, '500']) assert.deepEqual(validateRequestText(withClass(ok)).findings, [], String(ok));
    const odd = validateRequestText(withClass('47.5')).findings;
    assert.equal(odd.length, 1);
    assert.equal(odd[0].severity, 'warning');
    assert.match(
      odd[0].message,
      /^params\.request\.Items\[0\]\.Class: "47\.5" is not one of the 18 Class values the service knows \(50\.0, 55\.0, 60\.0 … 500\.0\) — did you mean "50\.0"\?$/,
    );
    assert.equal(errors(validateRequestText(withClass(true)).findings).length, 1, 'a boolean is no class at all');
  });

  it('fields the service requires are warnings, not errors; the file can still be sent', () => {
    const { findings, request } = validateRequestText(rateQuote('1.0.1', { Items: [{ Class: '50.0' }] }));
    assert.deepEqual(errors(findings), []);
    assert.deepEqual(messages(findings), [
      'params.request.QuoteType is required by the service (minOccurs 1)',
      'params.request.CODAmount is required by the service (minOccurs 1)',
      'params.request.DeclaredValue is required by the service (minOccurs 1)',
      'params.request.OverDimensionPcs is required by the service (minOccurs 1)',
      'params.request.Items[0].Weight is required by the service (minOccurs 1)',
      'params.request.Items[0].Width is required by the service (minOccurs 1)',
      'params.request.Items[0].Height is required by the service (minOccurs 1)',
      'params.request.Items[0].Length is required by the service (minOccurs 1)',
    ]);
    assert.ok(request, 'warnings do not withhold the request');
  });

  it('a literal API key is a warning; a variable or no key is fine', () => {
    const terminal = (params: Record<string, unknown>) =>
      file({ operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA', ...params } });
    const literal = validateRequestText(terminal({ APIKey: 'abc123' })).findings;
    assert.equal(literal.length, 1);
    assert.equal(literal[0].severity, 'warning');
    assert.equal(literal[0].code, 'api-key');
    assert.deepEqual(validateRequestText(terminal({ APIKey: '{{apiKey}}' })).findings, []);
    assert.deepEqual(validateRequestText(terminal({})).findings, []);
  });

  it('open records accept any object; closed ones name their fields', () => {
    const pickup = (PickupInformation: Record<string, unknown>) =>
      file({
        operation: 'CreatePickupRequest',
        params: {
          request: {
            Pickup: {
              Shipper: { Name: 'n', AddressLine1: 'a', ISO3Country: 'USA', ZipCode: '68507', City: 'Lincoln', State: 'NE', PhoneNumber: 'p' },
              PickupInformation: { PickupDate: '11/23/2026', ReadyTime: '03:00 PM', CloseTime: '05:00 PM', ...PickupInformation },
            },
          },
        },
      });
    assert.deepEqual(validateRequestText(pickup({ LoadAttributes: { anything: [1, { deep: true }] } })).findings, []);
    const closed = validateRequestText(pickup({ Colour: 'red' })).findings;
    assert.deepEqual(messages(closed), [
      'params.request.Pickup.PickupInformation.Colour is not a field of PickupInformation in CreatePickupRequest 1.0.3 (fields: PickupDate, ReadyTime, CloseTime, AdditionalInstructions, LoadAttributes, SendEmailConfirmation)',
    ]);
  });

  it('an empty required list is pointed out', () => {
    const trace = validateRequestText(file({ operation: 'TraceShipment', params: { request: { TraceNumbers: [], TraceType: 'PRO' } } })).findings;
    assert.deepEqual(messages(trace), ['params.request.TraceNumbers is empty — the service requires at least one string']);
  });

  it('params errors do not withhold the request (sending a wrong request on purpose is a test too)', () => {
    const { findings, request } = validateRequestText(rateQuote('1.0.3', { ...complete103, Accessorials: ['Nope'] }));
    assert.ok(hasErrors(findings));
    assert.equal(request?.version, '1.0.3');
  });

  it("compiles each shape's schema once", () => {
    const op = findShape('GetRateQuote', '1.0.3')!;
    assert.equal(paramsValidator(op), paramsValidator(op));
  });

  it('findings come sorted by position', () => {
    const { findings } = validateRequestText(fs.readFileSync(path.join(FIXTURES, 'wrong-types.carrier.json'), 'utf8'));
    const positions = findings.map((f) => f.range.start.line * 1000 + f.range.start.character);
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    );
  });
});

interface Expected {
  readonly severity: Finding['severity'];
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

describe('validation: the corpus of wrong files (test/fixtures/invalid)', () => {
  const names = fs
    .readdirSync(FIXTURES)
    .filter((n) => n.endsWith('.carrier.json'))
    .sort();

  it('every fixture has its .expect.json, and there are enough of them to matter', () => {
    assert.ok(names.length >= 20, `${names.length} fixtures`);
    for (const name of names) assert.ok(fs.existsSync(path.join(FIXTURES, name.replace(/\.carrier\.json$/, '.expect.json'))), name);
  });

  for (const name of names) {
    it(name, () => {
      const expected: { findings: Expected[] } = JSON.parse(fs.readFileSync(path.join(FIXTURES, name.replace(/\.carrier\.json$/, '.expect.json')), 'utf8'));
      const { findings } = validateRequestText(fs.readFileSync(path.join(FIXTURES, name), 'utf8'), name);
      const got = findings.map((f) => ({ severity: f.severity, ...oneBased(f.range.start), message: f.message }));
      for (const want of expected.findings) {
        const match = got.find((g) => g.severity === want.severity && g.line === want.line && g.column === want.column && g.message.includes(want.message));
        assert.ok(
          match,
          `expected ${want.severity} at ${want.line}:${want.column} containing ${JSON.stringify(want.message)}; got:\n${got.map((g) => `  ${g.line}:${g.column} ${g.severity}: ${g.message}`).join('\n')}`,
        );
      }
      assert.equal(
        got.length,
        expected.findings.length,
        `no findings beyond the expected ones; got:\n${got.map((g) => `  ${g.line}:${g.column} ${g.severity}: ${g.message}`).join('\n')}`,
      );
    });
  }
});
