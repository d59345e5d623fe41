import { strict as assert } from 'node:assert';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { Exchange, Finding } from '../../src/core/exchange';
import { compileExpect } from '../../src/core/runner/compileExpect';
import { compareDecimals, parseDecimal } from '../../src/core/runner/decimal';
import { evaluateExchange } from '../../src/core/runner/evaluate';
import { compileRequestFile } from '../../src/core/runner/loadFile';
import { LineIndex } from '../../src/core/runner/locate';
import { checkPath, parseReplyPath, PathSyntaxError } from '../../src/core/runner/replyPath';
import type { Failure } from '../../src/core/runner/types';

/** A request file around an `expect` object, as text, so locations are real. */
function fileWith(expect: unknown, capture?: unknown): string {
  return JSON.stringify({ operation: 'GetRateQuote', version: '1.0.3', params: {}, expect, ...(capture ? { capture } : {}) }, null, 2);
}

function exchange(over: Partial<Exchange> & { status?: number } = {}): Exchange {
  const { status = 200, ...rest } = over;
  return {
    id: 'x',
    startedAt: new Date(0).toISOString(),
    request: { method: 'POST', url: 'http://127.0.0.1/1.0.3/RateQuoteService.asmx', headers: [], body: '' },
    reply: { status, statusText: status === 200 ? 'OK' : 'Internal Server Error', headers: [], bodyText: '<Reply/>', size: 7 },
    timing: { totalMs: 42 },
    findings: [],
    documents: [],
    ...rest,
  };
}

const quote = {
  WasSuccess: true,
  Result: {
    CustomerDiscounts: '0.10',
    Charges: [
      { Type: '', Title: 'Class 50.0', Amount: '$1,234.56' },
      { Type: 'FUEL', Title: 'Fuel Surcharge', Amount: '$62.10' },
      { Type: 'NET', Title: 'Net Charge', Amount: '$621.43' },
    ],
    ServiceLevels: [
      { Code: 'STD', QuoteNumber: '056391174', ServiceDays: 2, NetCharge: '$621.43' },
      { Code: 'GSDS', QuoteNumber: '', ServiceDays: 2, NetCharge: '$700.00' },
    ],
    Messages: [],
  },
};

/**
 * The exchanges here name no operation, so nothing is typed by the catalog: the expectations are
 * compiled on their own too (compileRequestFile would hold their paths against GetRateQuote 1.0.3).
 */
function judge(expect: unknown, ex: Exchange = exchange({ parsed: quote }), vars: Record<string, string> = {}): Failure[] {
  const text = fileWith(expect);
  const lines = new LineIndex('/tmp/q.carrier.json', text);
  const compiled = compileExpect(findNodeAtLocation(parseTree(text)!, ['expect']), text, lines);
  assert.deepEqual(compiled.problems, [], 'the expectation compiles');
  return evaluateExchange(ex, compiled.expect, (n) => vars[n], lines.range(0, 1));
}

const passes = (expect: unknown, ex?: Exchange, vars?: Record<string, string>) =>
  assert.deepEqual(
    judge(expect, ex, vars).map((f) => f.message),
    [],
  );
const fails = (expect: unknown, ex?: Exchange) => {
  const f = judge(expect, ex);
  assert.ok(f.length > 0, `expected a failure for ${JSON.stringify(expect)}`);
  return f;
};

describe('expect: decimals', () => {
  const cmp = (a: unknown, b: unknown) => compareDecimals(parseDecimal(a)!, parseDecimal(b)!);
  it('compares decimal strings exactly, whatever the trailing zeros', () => {
    assert.equal(cmp('0.10', '0.1'), 0);
    assert.equal(cmp('0.10', 0.1), 0);
    assert.equal(cmp('-0.0', '0'), 0);
    assert.equal(cmp('1.05', '1.5'), -1);
    assert.equal(cmp('10', '9.999'), 1);
    assert.equal(cmp('-2', '-10'), 1);
  });
  it('keeps precision beyond floating point', () => {
    assert.equal(cmp('12345678901234567890.123', '12345678901234567890.12'), 1);
    assert.equal(cmp('0.30000000000000000001', '0.3'), 1);
    assert.equal(cmp('1e3', '1000.0'), 0);
    assert.equal(cmp('2.5E-3', '0.0025'), 0);
  });
  it('reads money strings after dropping $ and thousands commas', () => {
    assert.equal(cmp('$1,234.56', '1234.56'), 0);
    assert.equal(cmp('$300', 300), 0);
    assert.equal(cmp('-$5.00', 0), -1);
    assert.equal(cmp('$-5.00', '-5'), 0);
    assert.equal(parseDecimal('$12,34.00'), undefined, 'misplaced commas are not money');
    assert.equal(parseDecimal('USD 3'), undefined);
    assert.equal(parseDecimal('abc'), undefined);
    assert.equal(parseDecimal(''), undefined);
    assert.equal(parseDecimal(true), undefined);
  });
});

describe('expect: reply paths', () => {
  it('parses names, indexes and quantifiers', () => {
    assert.deepEqual(parseReplyPath('Result.ServiceLevels[0].Code').steps, [
      { kind: 'key', name: 'Result' },
      { kind: 'key', name: 'ServiceLevels' },
      { kind: 'index', index: 0 },
      { kind: 'key', name: 'Code' },
    ]);
    assert.deepEqual(parseReplyPath('Result.Charges[*].Amount').steps[2], { kind: 'every' });
    assert.deepEqual(parseReplyPath('A[?].B[-1]').steps.slice(1), [{ kind: 'some' }, { kind: 'key', name: 'B' }, { kind: 'index', index: -1 }]);
    assert.equal(parseReplyPath('$').steps.length, 0);
  });
  it('rejects malformed paths with the position', () => {
    for (const bad of ['', 'A..B', 'A[x]', 'A[0', '.A', 'A]']) assert.throws(() => parseReplyPath(bad), PathSyntaxError, bad);
    assert.throws(() => parseReplyPath('A[x]'), /at character 2/);
  });
  it('reads a single element where a list is indexed as a one-item list', () => {
    const outcome = checkPath({ Shipment: { ShortStatus: 'DEL' } }, parseReplyPath('Shipment[0].ShortStatus'), (v) => (v === 'DEL' ? undefined : 'no'));
    assert.ok(outcome.ok);
  });
});

describe('expect: reply assertions', () => {
  it('equals: exact text for strings, exact decimals for numbers', () => {
    passes({ reply: { 'Result.ServiceLevels[0].Code': { equals: 'STD' } } });
    passes({ reply: { 'Result.ServiceLevels[0].Code': 'STD' } }); // shorthand
    passes({ reply: { 'Result.ServiceLevels[0].ServiceDays': 2 } });
    passes({ reply: { 'Result.ServiceLevels[0].ServiceDays': { equals: '2' } } }, undefined, {}); // text vs typed int
    passes({ reply: { 'Result.CustomerDiscounts': { equals: 0.1 } } }); // number vs "0.10"
    passes({ reply: { 'Result.ServiceLevels[0].NetCharge': { equals: 621.43 } } }); // number vs money
    passes({ reply: { WasSuccess: true } });
    passes({ reply: { 'Result.Messages': { equals: [] } } });
    const [f] = fails({ reply: { 'Result.CustomerDiscounts': { equals: '0.1' } } });
    assert.match(f.message, /Result\.CustomerDiscounts: expected "0\.1", got "0\.10"/, 'two strings compare as text');
    const [g] = fails({ reply: { 'Result.ServiceLevels[0].QuoteNumber': '56391174' } });
    assert.match(g.message, /expected "56391174", got "056391174"/);
  });

  it('equals on records and lists compares field by field', () => {
    passes({ reply: { 'Result.Charges[2]': { equals: { Type: 'NET', Title: 'Net Charge', Amount: '$621.43' } } } });
    fails({ reply: { 'Result.Charges[2]': { equals: { Type: 'NET' } } } });
  });

  it('fills {{variables}} into expected values', () => {
    passes({ reply: { 'Result.ServiceLevels[0].QuoteNumber': '{{quote}}' } }, undefined, { quote: '056391174' });
    const f = judge({ reply: { 'Result.ServiceLevels[0].QuoteNumber': '{{nope}}' } });
    assert.equal(f[0].kind, 'variable');
    assert.match(f[0].message, /\{\{nope\}\}/);
  });

  it('matches: a regular expression over the text', () => {
    passes({ reply: { 'Result.Charges[*].Amount': { matches: '^\\$[0-9,]+\\.\\d{2}$' } } });
    passes({ reply: { 'Result.ServiceLevels[0].ServiceDays': { matches: '^2$' } } }); // a typed number as text
    const [f] = fails({ reply: { 'Result.ServiceLevels[0].Code': { matches: '^G' } } });
    assert.match(f.message, /expected text matching \/\^G\/, got "STD"/);
    fails({ reply: { 'Result.Nothing': { matches: '.*' } } });
  });

  it('exists and absent (nil counts as absent)', () => {
    const ex = exchange({ parsed: { A: 'x', B: null, C: '' } });
    passes({ reply: { A: { exists: true }, C: { exists: true }, B: { absent: true }, D: { absent: true }, E: { exists: false } } }, ex);
    assert.match(fails({ reply: { D: { exists: true } } }, ex)[0].message, /D: expected a value, got nothing \(absent\)/);
    assert.match(fails({ reply: { B: { exists: true } } }, ex)[0].message, /nil/);
    assert.match(fails({ reply: { A: { absent: true } } }, ex)[0].message, /expected nothing \(absent\), got "x"/);
  });

  it('lt, lte, gt, gte: decimal-exact, money and decimal strings on both sides', () => {
    passes({ reply: { 'Result.ServiceLevels[0].NetCharge': { gt: 600, lt: '$700', lte: '621.43', gte: '621.430' } } });
    passes({ reply: { 'Result.Charges[0].Amount': { gte: 1234.56, lte: '$1,234.56' } } });
    passes({ reply: { 'Result.CustomerDiscounts': { gte: '0.1', lte: 0.1 } } });
    const [f] = fails({ reply: { 'Result.ServiceLevels[1].NetCharge': { lt: '699.99' } } });
    assert.match(f.message, /Result\.ServiceLevels\[1\]\.NetCharge: expected a number < 699\.99, got "\$700\.00"/);
    const [g] = fails({ reply: { 'Result.ServiceLevels[0].Code': { gt: 1 } } });
    assert.match(g.message, /expected a number > 1, got "STD"/);
  });

  it('count: list length, 0 when absent, 1 for a single element', () => {
    passes({
      reply: {
        'Result.ServiceLevels': { count: 2 },
        'Result.Charges': { count: { gte: 1, lt: 4 } },
        'Result.Nope': { count: 0 },
        'Result.CustomerDiscounts': { count: 1 },
      },
    });
    const [f] = fails({ reply: { 'Result.ServiceLevels': { count: { gte: 3 } } } });
    assert.match(f.message, /Result\.ServiceLevels: expected count ≥ 3, got 2 items/);
  });

  it('[*] means every item, and needs at least one', () => {
    passes({ reply: { 'Result.ServiceLevels[*].ServiceDays': { equals: 2 } } });
    const f = fails({ reply: { 'Result.Charges[*].Type': { matches: '^[A-Z]+$' } } });
    assert.equal(f.length, 1);
    assert.equal(f[0].path, 'Result.Charges[0].Type', 'the failing item is named');
    const empty = fails({ reply: { 'Result.Messages[*].Text': { exists: true } } });
    assert.match(empty[0].message, /has no items/);
  });

  it('[?] means some item', () => {
    passes({ reply: { 'Result.ServiceLevels[?].Code': 'GSDS', 'Result.Charges[?].Type': 'NET' } });
    const [f] = fails({ reply: { 'Result.ServiceLevels[?].Code': 'EXPD' } });
    assert.match(f.message, /none of the 2 items of Result\.ServiceLevels holds/);
  });

  it('[-1] is the last item; quantifiers nest', () => {
    passes({ reply: { 'Result.Charges[-1].Type': 'NET' } });
    const ex = exchange({ parsed: { Result: [{ Items: [{ W: 1 }, { W: 2 }] }, { Items: [{ W: 3 }] }] } });
    passes({ reply: { 'Result[*].Items[?].W': { gte: 2 } } }, ex);
    const f = fails({ reply: { 'Result[*].Items[*].W': { gte: 2 } } }, ex);
    assert.deepEqual(
      f.map((x) => x.path),
      ['Result[0].Items[0].W'],
    );
  });

  it('a path through a list without an index says how to index it', () => {
    const [f] = fails({ reply: { 'Result.ServiceLevels.Code': 'STD' } });
    assert.match(f.message, /is a list of 2; pick items with \[n\], \[\*\] \(every\) or \[\?\] \(some\)/);
  });

  it('lists at most five failing items of one [*] assertion, then counts the rest', () => {
    const ex = exchange({ parsed: { L: Array.from({ length: 9 }, (_, i) => ({ V: i })) } });
    const f = fails({ reply: { 'L[*].V': { gt: 100 } } }, ex);
    assert.equal(f.length, 6);
    assert.match(f[5].message, /4 more items fail/);
  });
});

describe('expect: status, fault, success, messages, time, documents', () => {
  const fault = { soapVersion: '1.1' as const, code: 'soap:Client', subcodes: [], reason: 'Unknown BolID 999' };

  it('failure messages say expected, actual, reply path and file location', () => {
    const text = fileWith({ reply: { 'Result.ServiceLevels[0].Code': { equals: 'GSDS' } } });
    const loaded = compileRequestFile(text, '/tmp/q.carrier.json');
    const [f] = evaluateExchange(exchange({ parsed: quote }), loaded.expect, () => undefined, loaded.location);
    assert.equal(f.kind, 'reply');
    assert.equal(f.path, 'Result.ServiceLevels[0].Code');
    assert.equal(f.expected, 'equals "GSDS"');
    assert.equal(f.actual, '"STD"');
    const line = text.split('\n').findIndex((l) => l.includes('"equals"')) + 1;
    assert.deepEqual(
      [f.location?.file, f.location?.line, f.location?.column],
      ['/tmp/q.carrier.json', line, text.split('\n')[line - 1].indexOf('"equals"') + 1],
    );
  });

  it('status: the code or one of a list; without it, 2xx unless a fault is expected', () => {
    passes({ status: 200 });
    passes({ status: [200, 201] });
    assert.match(fails({ status: 201 })[0].message, /HTTP status: expected 201, got 200 OK/);
    assert.match(fails({}, exchange({ status: 503 }))[0].message, /expected 2xx/);
    passes({ status: 500, fault: true }, exchange({ status: 500, fault }));
    passes({ fault: true }, exchange({ status: 500, fault }));
  });

  it('fault: false, true, or code/reason patterns; an unexpected fault fails by default', () => {
    const faulty = exchange({ status: 500, fault, findings: [{ severity: 'error', kind: 'fault', message: 'x' }] });
    passes({ fault: { code: 'Client', reason: 'Unknown BolID' } }, faulty);
    assert.match(fails({ fault: { reason: '^Label' } }, faulty)[0].message, /fault reason: expected text matching \/\^Label\/, got "Unknown BolID 999"/);
    assert.match(fails({ fault: { code: 'Server' } }, faulty)[0].message, /fault code/);
    assert.match(fails({ fault: true })[0].message, /expected a SOAP fault, got HTTP 200 without one/);
    const f = fails({ fault: false }, faulty);
    assert.ok(f.some((x) => /fault: expected none, got soap:Client: Unknown BolID 999/.test(x.message)));
    assert.ok(
      fails({ status: 200 }, exchange({ fault })).some((x) => x.kind === 'fault'),
      'implicit: no fault',
    );
    // Unstated, fault means no fault at every status: a stated 500 does not expect one.
    assert.ok(fails({ status: 500 }, exchange({ status: 500, fault })).some((x) => /fault: none expected \(no "fault" in expect\)/.test(x.message)));
    passes({ status: 500, fault: true }, exchange({ status: 500, fault }));
  });

  it('success and messages read the in-body error carriers', () => {
    const refused: Finding[] = [
      {
        severity: 'error',
        kind: 'in-body',
        message: 'Destination Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.',
        path: 'Messages[0]',
      },
    ];
    const ex = exchange({ parsed: { WasSuccess: false, Messages: [refused[0].message] }, findings: refused });
    passes({ success: false, messages: ['Country must be USA or CAN', 'AlaskaHawaii'] }, ex);
    passes({ success: true }, exchange({ parsed: quote, findings: [{ severity: 'info', kind: 'in-body', message: 'note' }] }));
    assert.match(fails({ success: true }, ex)[0].message, /success: expected no in-body errors, got Messages\[0\]: Destination Country/);
    assert.match(fails({ success: false })[0].message, /expected the reply to report an in-body error/);
    assert.match(fails({ messages: ['^Origin'] }, ex)[0].message, /messages: expected one matching \/\^Origin\/, got "Destination/);
  });

  it('maxMs bounds the exchange time', () => {
    passes({ maxMs: 42 });
    assert.match(fails({ maxMs: 10 })[0].message, /time: expected at most 10 ms, took 42 ms/);
  });

  it('documents: count, type pdf and pages', () => {
    const pdf = { path: 'PdfDocument', name: 'bol.pdf', mediaType: 'application/pdf' as const, size: 900, pages: 2, base64: '' };
    const ex = exchange({ parsed: { PdfDocument: 'JVBER' }, documents: [pdf] });
    passes({ documents: { count: 1, type: 'pdf', pages: { gte: 1 } } }, ex);
    assert.match(fails({ documents: { pages: { gte: 3 } } }, ex)[0].message, /PdfDocument: expected pages ≥ 3, got 2/);
    assert.match(fails({ documents: { count: { gte: 1 } } })[0].message, /documents: expected count ≥ 1, got 0/);
    assert.match(
      fails({ documents: { type: 'pdf' } }, exchange({ documents: [{ ...pdf, mediaType: 'application/octet-stream', pages: undefined }] }))[0].message,
      /expected a PDF, got application\/octet-stream/,
    );
  });

  it('a transport error fails with the reason and judges nothing else', () => {
    const ex = exchange({ reply: undefined, error: { kind: 'timeout', message: 'no reply within 30000 ms' } });
    const f = judge({ status: 200, reply: { A: 'x' } }, ex);
    assert.equal(f.length, 1);
    assert.match(f[0].message, /no reply: timeout: no reply within 30000 ms/);
  });
});

describe('expect: mistakes in the file are reported with their location', () => {
  const problems = (expect: unknown, capture?: unknown) => compileRequestFile(fileWith(expect, capture), '/tmp/q.carrier.json').problems;
  it('names unknown keys, bad patterns, bad paths and bad operands', () => {
    assert.match(problems({ stauts: 200 })[0].message, /Unknown expectation "stauts"/);
    assert.match(problems({ reply: { WasSuccess: { equal: 1 } } })[0].message, /unknown assertion "equal"/);
    assert.match(problems({ reply: { 'Result.CustomerDiscounts': { matches: '(' } } })[0].message, /not a valid regular expression/);
    assert.match(problems({ reply: { 'A..B': 'x' } })[0].message, /Expected an element name/);
    assert.match(problems({ reply: { 'Result.Charges[0].Amount': { lt: 'cheap' } } })[0].message, /needs a number/);
    assert.match(problems({ status: 'ok' })[0].message, /HTTP status code/);
    assert.match(problems({ documents: { type: 'png' } })[0].message, /only "pdf"/);
    assert.match(problems({}, { all: 'Result.ServiceLevels[*].Code' })[0].message, /a capture takes one value/);
    const [p] = problems({ reply: { WasSuccess: { equal: 1 } } });
    assert.ok(p.location && p.location.line > 1 && p.location.column > 1);
  });
});
