/**
 * Every assertion form of README.md's "### expect" section, as a table, against small parsed
 * replies: equals (text, decimals, money, records, lists), matches, exists/absent, lt/lte/gt/gte,
 * count, [n], [-1], [*], [?], nesting, documents, status/fault/success/messages/maxMs. Also what
 * the README states more precisely since issue 16: one `[?]` item satisfies every assertion of
 * its object, comparisons follow the field's catalog type (numbers, dates), and numbers too large
 * to write out (`1e999999999`) are compared, not expanded — as reply values a normal failure, as
 * operands an error at file:line:col. End to end through `carrier run` at the bottom.
 */
import { strict as assert } from 'node:assert';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import type { DecodedDocument, Exchange, Finding } from '../../src/core/exchange';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { compileExpect } from '../../src/core/runner/compileExpect';
import { evaluateExchange } from '../../src/core/runner/evaluate';
import { compileRequestFile } from '../../src/core/runner/loadFile';
import { LineIndex } from '../../src/core/runner/locate';
import type { Failure } from '../../src/core/runner/types';
import { requestFileValidator } from '../../src/core/validation/schemaValidator';

const HUGE = '1e999999999';
const FILE = '/tmp/semantics.carrier.json';

/**
 * A request file around an `expect` object, as text, so locations are real. Strings `"@n:<literal>"`
 * become the bare JSON number literal, so literals JSON.stringify cannot write (1e999999999) appear.
 */
function fileWith(expect: unknown, operation = 'GetRateQuote', version = '1.0.3'): string {
  const text = JSON.stringify({ operation, version, params: {}, expect }, null, 2);
  return text.replace(/"@n:([^"]+)"/g, '$1');
}

function exchange(parsed: unknown, over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x',
    startedAt: new Date(0).toISOString(),
    request: { method: 'POST', url: 'http://127.0.0.1/x.asmx', headers: [], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
    timing: { totalMs: 42 },
    findings: [],
    documents: [],
    parsed,
    ...over,
  };
}

/** A GetRateQuote 1.0.1/1.0.3 result: its money fields are strings, ServiceDays an int. */
const quote = {
  WasSuccess: true,
  Messages: [],
  Result: {
    OriginServiceCenter: { Code: 'BNA', City: 'Nashville' },
    CustomerDiscounts: '0.10',
    Charges: [
      { Type: '', Title: 'Class 50.0', Weight: '1500', Amount: '$1,234.56' },
      { Type: 'DISCNT', Title: 'Discount', Amount: '-$5.00' },
      { Type: 'FUEL', Title: 'Fuel Surcharge', Amount: '$62.10' },
      { Type: 'NET', Title: 'Net Charge', Amount: '$621.43' },
    ],
    Messages: [],
    ServiceLevels: [
      { Title: 'Standard Service', Code: 'STD', QuoteNumber: '056391174', ServiceDays: 2, NetCharge: '$200.00' },
      { Title: 'Guaranteed Service', Code: 'GSDS', QuoteNumber: '', ServiceDays: 3, NetCharge: '$621.43' },
      {
        Title: 'Guaranteed HW Service',
        Code: 'GSHW',
        QuoteNumber: '',
        ServiceDays: 3,
        NetCharge: '$700.00',
        HourlyWindow: { Start: '01:00 PM', End: '03:00 PM' },
      },
    ],
  },
};
const rateQuote = (parsed: unknown = quote, version = '1.0.3') => exchange(parsed, { operation: 'GetRateQuote', version });
const withLevel = (netCharge: string) =>
  rateQuote({ ...quote, Result: { ...quote.Result, ServiceLevels: [...quote.Result.ServiceLevels, { Code: 'EXPD', ServiceDays: 1, NetCharge: netCharge }] } });
const withAmount = (amount: unknown) => rateQuote({ ...quote, Result: { ...quote.Result, Charges: [{ Type: 'X', Amount: amount }] } });
/** The same reply untyped: `equals` with a number on the string field Amount is refused where the catalog types it. */
const untypedAmount = (amount: unknown) => exchange(withAmount(amount).parsed);

/** GetTransitTimes 1.0.0: PickupDate and DeliveryDate are xs:dateTime. */
const transit = (pickup = '2026-11-23T00:00:00') =>
  exchange(
    {
      WasSuccess: true,
      Result: {
        TransitTimesID: 7,
        PickupDate: pickup,
        Destinations: [
          { ServiceDays: 2, DeliveryDate: '2026-11-25T00:00:00' },
          { ServiceDays: 3, DeliveryDate: '2026-11-26T00:00:00' },
        ],
      },
    },
    { operation: 'GetTransitTimes', version: '1.0.0' },
  );

/** CreateBillOfLading 1.0.1: BOLDate is a MM/DD/YYYY string, BolID an int, item Weight a float. */
const bol = (over: Record<string, unknown> = {}, weight: unknown = 1500) =>
  exchange(
    {
      WasSuccess: true,
      WebProNumber: '056391174',
      BolID: 123456,
      BillOfLading: {
        BOLDate: '11/23/2026',
        Items: [
          { Pieces: 1, Class: '50.0', Weight: weight },
          { Pieces: 2, Class: '85', Weight: 250.5 },
        ],
      },
      ...over,
    },
    { operation: 'CreateBillOfLading', version: '1.0.1' },
  );

/** GetRateQuote 1.0.0: CustomerDiscounts is an xs:decimal. */
const quote100 = (discounts: unknown = '0.10') =>
  exchange({ WasSuccess: true, Result: { CustomerDiscounts: discounts, ServiceDays: 2 } }, { operation: 'GetRateQuote', version: '1.0.0' });

/** No operation: nothing is typed, every comparison is as the README states for untyped values. */
const untyped = (parsed: unknown) => exchange(parsed);

/**
 * The expectations as the runner reads them for a reply `on`: in a file of its operation and
 * version, whose reply paths are held against the catalog. A reply of no operation is typed by
 * nothing, so its expectations are compiled on their own (the same text, no catalog).
 */
function compile(expect: unknown, on?: Exchange) {
  if (on?.operation) {
    const loaded = compileRequestFile(fileWith(expect, on.operation, on.version), FILE);
    return { expect: loaded.expect, problems: loaded.problems, location: loaded.location };
  }
  const text = fileWith(expect);
  const lines = new LineIndex(FILE, text);
  return { ...compileExpect(findNodeAtLocation(parseTree(text)!, ['expect']), text, lines), location: lines.range(0, 1) };
}

function judge(expect: unknown, ex: Exchange, vars: Record<string, string> = {}): Failure[] {
  const loaded = compile(expect, ex);
  assert.deepEqual(
    loaded.problems.map((p) => p.message),
    [],
    'the expectation compiles',
  );
  return evaluateExchange(ex, loaded.expect, (n) => vars[n], loaded.location);
}

/** The 1-based line and column where `needle` first appears in `text`. */
function lineOf(text: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return { line: i + 1, column: lines[i].indexOf(needle) + 1 };
}

interface Row {
  readonly name: string;
  readonly expect: unknown;
  readonly on: Exchange;
  readonly vars?: Record<string, string>;
  /** Absent: the test passes. Otherwise each pattern matches one failure message, in order. */
  readonly fails?: readonly RegExp[];
  /** The concrete reply paths the failures name, in order. */
  readonly paths?: readonly string[];
}

const pdf: DecodedDocument = { path: 'PdfDocument', name: 'bol.pdf', mediaType: 'application/pdf', size: 900, pages: 2, base64: '' };
const refused: Finding = {
  severity: 'error',
  kind: 'in-body',
  message: 'Destination Country must be USA or CAN for Quote Type: Domestic.',
  path: 'Messages[0]',
};
const fault = { soapVersion: '1.1' as const, code: 'soap:Client', subcodes: [], reason: 'Unknown BolID 999' };

/** The README's example `expect`, as written there. */
const README_EXAMPLE = {
  status: 200,
  fault: false,
  success: true,
  messages: ['USA or CAN'],
  maxMs: 2000,
  reply: {
    'Result.ServiceLevels[0].Code': { equals: 'STD' },
    'Result.ServiceLevels[0].Title': 'Standard Service',
    'Result.Charges[*].Amount': { matches: '^-?\\$[0-9,]+\\.\\d{2}$' },
    'Result.Charges[-1].Amount': { gt: '$0.00', lte: 5000 },
    'Result.ServiceLevels': { count: { gte: 1 } },
    'Result.ServiceLevels[?].Code': 'GSHW',
    'Result.MyCarrierID': { absent: true },
  },
  documents: { count: 1, type: 'pdf', pages: { gte: 1 } },
};

const ROWS: readonly Row[] = [
  // The README's example as a whole.
  {
    name: 'the README example passes on a reply that fits it',
    expect: README_EXAMPLE,
    on: exchange(quote, {
      operation: 'GetRateQuote',
      version: '1.0.3',
      documents: [pdf],
      findings: [{ severity: 'info', kind: 'in-body', message: 'Rates for USA or CAN only.' }],
    }),
  },

  // equals
  { name: 'equals: text', expect: { reply: { 'Result.ServiceLevels[0].Code': { equals: 'STD' } } }, on: rateQuote() },
  { name: 'equals: a bare value is equals', expect: { reply: { 'Result.ServiceLevels[0].Title': 'Standard Service' } }, on: rateQuote() },
  {
    name: 'equals: text is exact (PRO with its leading zero)',
    expect: { reply: { 'Result.ServiceLevels[0].QuoteNumber': '56391174' } },
    on: rateQuote(),
    fails: [/Result\.ServiceLevels\[0\]\.QuoteNumber: expected "56391174", got "056391174"/],
  },
  // Untyped: in a field the catalog types as a string, a number is refused (test/unit/expect-checks.test.ts).
  {
    name: 'equals: a JSON number and a money string as exact decimals',
    expect: { reply: { 'Result.Charges[0].Amount': 1234.56, 'Result.Charges[1].Amount': -5 } },
    on: untyped(quote),
  },
  {
    name: 'equals: a JSON number and a decimal string',
    expect: { reply: { 'Result.CustomerDiscounts': 0.1, 'Result.Charges[0].Weight': { equals: 1500 } } },
    on: untyped(quote),
  },
  {
    name: 'equals: a captured text and an int',
    expect: { reply: { 'Result.ServiceLevels[0].ServiceDays': '{{days}}' } },
    on: rateQuote(),
    vars: { days: '2' },
  },
  {
    name: 'equals: two strings in a string field compare as text',
    expect: { reply: { 'Result.CustomerDiscounts': '0.1' } },
    on: rateQuote(),
    fails: [/expected "0\.1", got "0\.10"/],
  },
  { name: 'equals: two strings in a decimal field compare as decimals', expect: { reply: { 'Result.CustomerDiscounts': '0.1' } }, on: quote100() },
  {
    name: 'equals: a decimal field that is not xs:decimal text is no number',
    expect: { reply: { 'Result.CustomerDiscounts': 0.1 } },
    on: quote100('1e-1'),
    fails: [/expected 0\.1, got "1e-1"/],
  },
  {
    name: 'equals: a float field compares numerically',
    expect: { reply: { 'BillOfLading.Items[0].Weight': '1500.00', 'BillOfLading.Items[1].Weight': 250.5 } },
    on: bol(),
  },
  {
    name: 'equals: records field by field',
    expect: { reply: { 'Result.Charges[3]': { equals: { Type: 'NET', Title: 'Net Charge', Amount: '$621.43' } } } },
    on: rateQuote(),
  },
  {
    name: 'equals: a record with fewer fields fails',
    expect: { reply: { 'Result.Charges[3]': { equals: { Type: 'NET' } } } },
    on: rateQuote(),
    fails: [/Result\.Charges\[3\]: expected \{"Type":"NET"\}/],
  },
  {
    name: 'equals: records compare their fields by type',
    expect: { reply: { 'BillOfLading.Items[1]': { equals: { Pieces: '2', Class: '85', Weight: '250.500' } } } },
    on: bol(),
  },
  {
    name: 'equals: lists item by item',
    expect: { reply: { 'Result.Messages': { equals: [] }, 'Result.ServiceLevels[2].HourlyWindow': { equals: { Start: '01:00 PM', End: '03:00 PM' } } } },
    on: rateQuote(),
  },
  { name: 'equals: booleans', expect: { reply: { WasSuccess: true } }, on: rateQuote() },

  // matches
  {
    name: 'matches: a regular expression over the text',
    expect: { reply: { 'Result.Charges[*].Amount': { matches: '^-?\\$[0-9,]+\\.\\d{2}$' } } },
    on: rateQuote(),
  },
  { name: 'matches: numbers as written', expect: { reply: { 'Result.ServiceLevels[0].ServiceDays': { matches: '^2$' } } }, on: rateQuote() },
  {
    name: 'matches: unanchored, and a miss says what came',
    expect: { reply: { 'Result.ServiceLevels[0].Code': { matches: '^G' } } },
    on: rateQuote(),
    fails: [/expected text matching \/\^G\/, got "STD"/],
  },

  // exists / absent
  {
    name: 'exists and absent (nil is absent)',
    expect: { reply: { A: { exists: true }, C: { exists: true }, B: { absent: true }, D: { absent: true }, E: { exists: false } } },
    on: untyped({ A: 'x', B: null, C: '' }),
  },
  { name: 'exists fails on nil', expect: { reply: { B: { exists: true } } }, on: untyped({ B: null }), fails: [/B: expected a value, got nil \(xsi:nil\)/] },
  {
    name: 'absent fails on a value',
    expect: { reply: { 'Result.MyCarrierID': { absent: true }, 'Result.OriginServiceCenter.City': { absent: true } } },
    on: rateQuote(),
    fails: [/City: expected nothing \(absent\), got "Nashville"/],
  },

  // lt lte gt gte
  {
    name: 'lt/lte/gt/gte on money, exactly',
    expect: { reply: { 'Result.ServiceLevels[1].NetCharge': { gt: 600, lt: '$700', lte: '621.43', gte: '621.430' } } },
    on: rateQuote(),
  },
  { name: 'negative money both ways', expect: { reply: { 'Result.Charges[1].Amount': { lt: 0, gte: '$-5.00', lte: '-$5' } } }, on: rateQuote() },
  {
    name: 'a comparison that does not hold names expected and actual',
    expect: { reply: { 'Result.ServiceLevels[2].NetCharge': { lt: '699.99' } } },
    on: rateQuote(),
    fails: [/Result\.ServiceLevels\[2\]\.NetCharge: expected a number < 699\.99, got "\$700\.00"/],
  },
  { name: 'text is no number', expect: { reply: { 'Result.ServiceLevels[0].Code': { gt: 1 } } }, on: rateQuote(), fails: [/expected a number > 1, got "STD"/] },
  { name: 'ints compare numerically', expect: { reply: { 'Result.ServiceLevels[*].ServiceDays': { gte: 2, lt: '3.5' } } }, on: rateQuote() },
  {
    name: 'an int field holding text that is no int fails as such',
    expect: { reply: { BolID: { gt: 0 } } },
    on: bol({ BolID: '12.5' }),
    fails: [/BolID: expected a number > 0, got "12\.5" \(not an int\)/],
  },
  {
    name: 'a number field compared with a date says so',
    expect: { reply: { 'Result.Destinations[0].ServiceDays': { gt: '2026-01-01' } } },
    on: transit(),
    fails: [/got 2; the field is an int, so compare it with a number/],
  },

  // dates
  {
    name: 'dateTime: gt/lt with ISO dates and times',
    expect: { reply: { 'Result.PickupDate': { gt: '2026-11-22', lt: '2026-11-23T00:00:01Z', gte: '2026-11-23' } } },
    on: transit(),
  },
  { name: 'dateTime: a MM/DD/YYYY operand', expect: { reply: { 'Result.PickupDate': { gte: '11/23/2026', lt: '11/24/2026' } } }, on: transit() },
  {
    name: 'dateTime: the same instant is not greater',
    expect: { reply: { 'Result.PickupDate': { gt: '2026-11-23' } } },
    on: transit(),
    fails: [/Result\.PickupDate: expected a date > 2026-11-23, got "2026-11-23T00:00:00"/],
  },
  {
    name: 'dateTime: zones are applied (no zone is UTC)',
    expect: { reply: { 'Result.PickupDate': { equals: '2026-11-22T19:00:00-05:00', lt: '2026-11-23T00:30:00+00:15' } } },
    on: transit(),
  },
  {
    name: 'dateTime: fractions of a second count',
    expect: { reply: { 'Result.PickupDate': { gt: '2026-11-23T08:00:00.25', lt: '2026-11-23T08:00:00.5000001' } } },
    on: transit('2026-11-23T08:00:00.5'),
  },
  {
    name: 'dateTime: [*] against a captured date',
    expect: { reply: { 'Result.Destinations[*].DeliveryDate': { gt: '{{pickup}}' } } },
    on: transit(),
    vars: { pickup: '2026-11-23T00:00:00' },
  },
  {
    name: 'dateTime: a reply value that is no date fails',
    expect: { reply: { 'Result.PickupDate': { gt: '2026-01-01' } } },
    on: transit('2026-02-30T00:00:00'),
    fails: [/expected a date > 2026-01-01, got "2026-02-30T00:00:00"/],
  },
  {
    name: 'dateTime: compared with a number says to use a date',
    expect: { reply: { 'Result.PickupDate': { gt: 5 } } },
    on: transit(),
    fails: [/the field is an xs:dateTime, so compare it with a date/],
  },
  {
    name: 'a MM/DD/YYYY string field compares as a date',
    expect: { reply: { 'BillOfLading.BOLDate': { gte: '2026-11-23', lt: '12/01/2026', equals: '2026-11-23' } } },
    on: bol(),
  },
  {
    name: 'untyped: a date operand compares dates',
    expect: { reply: { Shipped: { gt: '2026-01-01', lt: '{{run.date}}' } } },
    on: untyped({ Shipped: '2026-02-01' }),
    vars: { 'run.date': '2099-01-01' },
  },
  {
    name: 'untyped: equals on dates stays text',
    expect: { reply: { Shipped: '2026-02-01T00:00:00Z' } },
    on: untyped({ Shipped: '2026-02-01' }),
    fails: [/expected "2026-02-01T00:00:00Z", got "2026-02-01"/],
  },

  // count
  {
    name: 'count: a number or comparisons; absent 0; one element 1',
    expect: {
      reply: {
        'Result.ServiceLevels': { count: 3 },
        'Result.Charges': { count: { gte: 1, lt: 10 } },
        'Result.ServiceLevels[0].HourlyWindow': { count: 0 },
        'Result.OriginServiceCenter': { count: 1 },
      },
    },
    on: rateQuote(),
  },
  {
    name: 'count: a miss names the count',
    expect: { reply: { 'Result.ServiceLevels': { count: { gte: 4 } } } },
    on: rateQuote(),
    fails: [/Result\.ServiceLevels: expected count ≥ 4, got 3 items/],
  },

  // [n] and [-1]
  {
    name: '[n] and [-1]',
    expect: { reply: { 'Result.Charges[0].Type': '', 'Result.Charges[-1].Type': 'NET', 'Result.Charges[-2].Type': 'FUEL' } },
    on: rateQuote(),
  },
  {
    name: '[n] past the end is absent',
    expect: { reply: { 'Result.Charges[9]': { absent: true }, 'Result.Charges[-9].Type': { exists: true } } },
    on: rateQuote(),
    fails: [/Result\.Charges\[-9\]\.Type: expected a value, got nothing/],
  },
  {
    name: 'a single element reads as a one-item list',
    expect: { reply: { 'Shipment[0].ShortStatus': 'DEL', 'Shipment[*].ShortStatus': 'DEL', 'Shipment[-1].ShortStatus': 'DEL' } },
    on: untyped({ Shipment: { ShortStatus: 'DEL' } }),
  },
  // Where the catalog says the list is one, the file is refused before the run (expect-checks.test.ts).
  {
    name: 'a list without an index says how to index it',
    expect: { reply: { 'Result.ServiceLevels.Code': 'STD' } },
    on: untyped(quote),
    fails: [/is a list of 3; pick items with \[n\], \[\*\] \(every\) or \[\?\] \(some\)/],
  },

  // [*]
  {
    name: '[*]: every item satisfies every assertion',
    expect: { reply: { 'Result.ServiceLevels[*].NetCharge': { gte: '$200.00', lte: '$700.00', matches: '^\\$' } } },
    on: rateQuote(),
  },
  {
    name: '[*]: each offending item is named, per assertion',
    expect: { reply: { 'Result.ServiceLevels[*].NetCharge': { gt: '$200.00', lt: '$700.00' } } },
    on: rateQuote(),
    fails: [
      /Result\.ServiceLevels\[0\]\.NetCharge: expected a number > \$200\.00, got "\$200\.00"/,
      /Result\.ServiceLevels\[2\]\.NetCharge: expected a number < \$700\.00, got "\$700\.00"/,
    ],
    paths: ['Result.ServiceLevels[0].NetCharge', 'Result.ServiceLevels[2].NetCharge'],
  },
  {
    name: '[*] on an empty list fails',
    expect: { reply: { 'Result.Messages[*].Text': { exists: true } } },
    on: rateQuote(),
    fails: [/Result\.Messages\[\*\]: Result\.Messages has no items, so "every item" cannot hold/],
  },
  {
    name: '[*] on a missing list fails',
    expect: { reply: { 'Result.ServiceLevels[0].HourlyWindow[*]': { absent: true } } },
    on: rateQuote(),
    fails: [/has no items/],
  },
  {
    name: '[*] on an empty list fails once, whatever the number of assertions',
    expect: { reply: { 'Result.Messages[*].Text': { exists: true, matches: 'x' } } },
    on: rateQuote(),
    fails: [/has no items/],
  },

  // [?]
  { name: '[?]: some item', expect: { reply: { 'Result.ServiceLevels[?].Code': 'GSHW', 'Result.Charges[?].Type': 'NET' } }, on: rateQuote() },
  {
    name: '[?]: no item holds',
    expect: { reply: { 'Result.ServiceLevels[?].Code': 'EXPD' } },
    on: rateQuote(),
    fails: [
      /Result\.ServiceLevels\[\?\]: none of the 3 items of Result\.ServiceLevels holds \(Result\.ServiceLevels\[0\]\.Code: expected "EXPD", got "STD"; Result\.ServiceLevels\[1\]\.Code: expected "EXPD", got "GSDS"; Result\.ServiceLevels\[2\]\.Code: expected "EXPD", got "GSHW"\)/,
    ],
  },
  {
    name: '[?]: one level above $240 and another below $241 is not one level in between (issue 16)',
    expect: { reply: { 'Result.ServiceLevels[?].NetCharge': { gt: '$240.00', lt: '$241.00' } } },
    on: rateQuote(),
    fails: [
      /Result\.ServiceLevels\[\?\]: none of the 3 items of Result\.ServiceLevels holds > \$240\.00 and < \$241\.00 at once \(Result\.ServiceLevels\[0\]\.NetCharge: expected a number > \$240\.00, got "\$200\.00"; Result\.ServiceLevels\[1\]\.NetCharge: expected a number < \$241\.00, got "\$621\.43"/,
    ],
    paths: ['Result.ServiceLevels[?]'],
  },
  {
    name: '[?]: a level in range passes',
    expect: { reply: { 'Result.ServiceLevels[?].NetCharge': { gt: '$240.00', lt: '$241.00' } } },
    on: withLevel('$240.50'),
  },
  {
    name: '[?]: no code is both ^STD$ and GSHW (issue 16)',
    expect: { reply: { 'Result.ServiceLevels[?].Code': { matches: '^STD$', equals: 'GSHW' } } },
    on: rateQuote(),
    fails: [/none of the 3 items of Result\.ServiceLevels holds matches \/\^STD\$\/ and equals "GSHW" at once/],
  },
  { name: '[?]: one code both matches and equals', expect: { reply: { 'Result.ServiceLevels[?].Code': { matches: '^G', equals: 'GSHW' } } }, on: rateQuote() },
  {
    name: '[?]: a whole item by several fields',
    expect: {
      reply: {
        'Result.ServiceLevels[?]': { equals: { Code: 'STD', Title: 'Standard Service', QuoteNumber: '056391174', ServiceDays: 2, NetCharge: '$200.00' } },
      },
    },
    on: rateQuote(),
  },
  {
    name: '[?] on an empty list fails',
    expect: { reply: { 'Result.Messages[?]': { exists: true } } },
    on: rateQuote(),
    fails: [/Result\.Messages has no items, so "some item" cannot hold/],
  },

  // nesting
  ...nestingRows(),

  // documents
  {
    name: 'documents: count, type pdf, pages',
    expect: { documents: { count: 1, type: 'pdf', pages: { gte: 1 } } },
    on: exchange({ PdfDocument: 'JVBER' }, { documents: [pdf] }),
  },
  {
    name: 'documents: pages of every document',
    expect: { documents: { pages: { gte: 3 } } },
    on: exchange({}, { documents: [pdf] }),
    fails: [/PdfDocument: expected pages ≥ 3, got 2/],
  },
  {
    name: 'documents: none where some are expected',
    expect: { documents: { count: { gte: 1 }, type: 'pdf' } },
    on: exchange({}),
    fails: [/documents: expected count ≥ 1, got 0/, /expected PDF documents, the reply has none/],
  },

  // status, fault, success, messages, maxMs
  { name: 'status: a code or a list', expect: { status: [200, 201] }, on: rateQuote() },
  {
    name: 'fault: code and reason patterns',
    expect: { fault: { code: 'Client', reason: 'Unknown BolID' } },
    on: exchange(undefined, { fault, reply: { status: 500, statusText: 'Internal Server Error', headers: [], bodyText: '', size: 0 } }),
  },
  { name: 'success: false and messages', expect: { success: false, messages: ['USA or CAN'] }, on: exchange({ WasSuccess: false }, { findings: [refused] }) },
  {
    name: 'success: true fails on an in-body error',
    expect: { success: true },
    on: exchange({ WasSuccess: false }, { findings: [refused] }),
    fails: [/success: expected no in-body errors/],
  },
  { name: 'maxMs', expect: { maxMs: 10 }, on: rateQuote(), fails: [/time: expected at most 10 ms, took 42 ms/] },

  // numbers too large to write out, as reply values: compared, never expanded
  {
    name: `a reply value ${HUGE} is not 0`,
    expect: { reply: { 'Result.Charges[0].Amount': { equals: 0 } } },
    on: untypedAmount(HUGE),
    fails: [/Result\.Charges\[0\]\.Amount: expected 0, got "1e999999999"/],
  },
  {
    name: `a reply value ${HUGE} compares by its exponent`,
    expect: { reply: { 'Result.Charges[0].Amount': { gt: '$1,000,000,000.00', gte: '1e1000' } } },
    on: withAmount(HUGE),
  },
  {
    name: `a reply value ${HUGE} is no smaller than $1M`,
    expect: { reply: { 'Result.Charges[0].Amount': { lt: '$1,000,000.00' } } },
    on: withAmount(HUGE),
    fails: [/expected a number < \$1,000,000\.00, got "1e999999999"/],
  },
  { name: 'a reply value -1e999999999 is below everything', expect: { reply: { 'Result.Charges[0].Amount': { lt: '-1e1000' } } }, on: withAmount(`-${HUGE}`) },
  {
    name: 'a reply value 1e-999999999 is above 0 and below 1e-1000',
    expect: { reply: { 'Result.Charges[0].Amount': { gt: 0, lt: '1e-1000' } } },
    on: withAmount('1e-999999999'),
  },
  {
    name: 'a reply value 1e300000000 in bounded memory',
    expect: { reply: { 'Result.Charges[0].Amount': { gte: 1e300, equals: '1e300000000' } } },
    on: withAmount('1e300000000'),
  },
  {
    name: 'a reply value with a thousand-digit exponent is no number',
    expect: { reply: { 'Result.Charges[0].Amount': { gt: 0 } } },
    on: withAmount(`1e${'9'.repeat(2000)}`),
    fails: [/expected a number > 0, got "1e9999/],
  },
  {
    name: `an int field holding ${HUGE} is no int`,
    expect: { reply: { BolID: { gt: 0 } } },
    on: bol({ BolID: HUGE }),
    fails: [/BolID: expected a number > 0, got "1e999999999" \(not an int\)/],
  },
  {
    name: 'a float beyond the double range (read as Infinity) is above any operand',
    expect: { reply: { 'BillOfLading.Items[0].Weight': { gt: '1e1000' } } },
    on: bol({}, Infinity),
  },
  {
    name: 'a float beyond the double range is not 0, and says Infinity',
    expect: { reply: { 'BillOfLading.Items[0].Weight': 0 } },
    on: bol({}, Infinity),
    fails: [/expected 0, got Infinity/],
  },
  {
    name: 'a float INF / -INF / NaN as the reader keeps them',
    expect: { reply: { 'BillOfLading.Items[0].Weight': { gt: 0 }, 'BillOfLading.Items[1].Weight': { lt: 0 } } },
    on: bol({ BillOfLading: { Items: [{ Weight: 'INF' }, { Weight: '-INF' }] } }),
  },
  {
    name: 'a float NaN is no number',
    expect: { reply: { 'BillOfLading.Items[0].Weight': { gte: 0 } } },
    on: bol({}, 'NaN'),
    fails: [/got "NaN" \(not a float\)/],
  },
  {
    name: `a decimal field holding ${HUGE} is no xs:decimal`,
    expect: { reply: { 'Result.CustomerDiscounts': { gte: 0 } } },
    on: quote100(HUGE),
    fails: [/\(not a decimal\)/],
  },
  {
    name: 'a huge operand from a variable is refused at run time',
    expect: { reply: { 'Result.Charges[0].Amount': { gt: '{{big}}' } } },
    on: rateQuote(),
    vars: { big: HUGE },
    fails: [/compares with 1e999999999, which is larger than any value a reply carries/],
  },
];

function nestingRows(): Row[] {
  const nested = untyped({ Result: [{ Items: [{ Weight: 1 }, { Weight: 4 }] }, { Items: [{ Weight: 2.5 }, { Weight: 9 }] }] });
  return [
    { name: 'nesting: in every result, some item', expect: { reply: { 'Result[*].Items[?].Weight': { gte: 2 } } }, on: nested },
    {
      name: 'nesting: [*] in [*] names the offending items',
      expect: { reply: { 'Result[*].Items[*].Weight': { gte: 2 } } },
      on: nested,
      fails: [/Result\[0\]\.Items\[0\]\.Weight: expected a number ≥ 2, got 1/],
      paths: ['Result[0].Items[0].Weight'],
    },
    {
      name: 'nesting: in every result one single item satisfies both',
      expect: { reply: { 'Result[*].Items[?].Weight': { gte: 2, lt: 3 } } },
      on: nested,
      fails: [/Result\[0\]\.Items\[\?\]: none of the 2 items of Result\[0\]\.Items holds ≥ 2 and < 3 at once/],
      paths: ['Result[0].Items[?]'],
    },
    { name: 'nesting: some result whose every item satisfies both', expect: { reply: { 'Result[?].Items[*].Weight': { gte: 2, lt: 10 } } }, on: nested },
    { name: 'nesting: some result with some item in range', expect: { reply: { 'Result[?].Items[?].Weight': { gt: 2, lt: 3 } } }, on: nested },
    {
      name: 'nesting: no result has an item in range',
      expect: { reply: { 'Result[?].Items[?].Weight': { gt: 5, lt: 6 } } },
      on: nested,
      fails: [/Result\[\?\]: none of the 2 items of Result holds > 5 and < 6 at once \(Result\[0\]\.Items\[\?\]: none of the 2 items/],
    },
  ];
}

describe('expect semantics (README "### expect"), as a table', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const failures = judge(row.expect, row.on, row.vars);
      const messages = failures.map((f) => f.message);
      if (!row.fails) {
        assert.deepEqual(messages, []);
        return;
      }
      assert.equal(messages.length, row.fails.length, messages.join('\n'));
      row.fails.forEach((re, i) => assert.match(messages[i], re));
      if (row.paths)
        assert.deepEqual(
          failures.map((f) => f.path),
          row.paths,
        );
    });
  }
});

describe('expect semantics: failures say where, what was expected and what came', () => {
  it('a [?] object that no single item satisfies is located at its path, with every check as expected', () => {
    const expect = { reply: { 'Result.ServiceLevels[?].NetCharge': { gt: '$240.00', lt: '$241.00' } } };
    const [f] = judge(expect, rateQuote());
    assert.equal(f.kind, 'reply');
    assert.equal(f.path, 'Result.ServiceLevels[?]');
    assert.equal(f.expected, '> $240.00 and < $241.00');
    assert.match(f.actual ?? '', /^\[\{"Title":"Standard Service"/);
    const at = lineOf(fileWith(expect), '"Result.ServiceLevels[?].NetCharge"');
    assert.deepEqual([f.location?.file, f.location?.line, f.location?.column], [FILE, at.line, at.column]);
  });

  it('a one-check [?] and a [*] item are located at the check', () => {
    const expect = { reply: { 'Result.ServiceLevels[?].Code': { equals: 'EXPD' }, 'Result.ServiceLevels[*].Code': { matches: '^G' } } };
    const text = fileWith(expect);
    const [some, every] = judge(expect, rateQuote());
    assert.equal(some.location?.line, lineOf(text, '"equals"').line);
    assert.equal(every.location?.line, lineOf(text, '"matches"').line);
    assert.equal(every.path, 'Result.ServiceLevels[0].Code');
    assert.equal(every.expected, 'matches /^G/');
    assert.equal(every.actual, '"STD"');
  });

  it('a [?] inside [*] lists at most five failing items too', () => {
    const many = untyped({ Result: Array.from({ length: 9 }, () => ({ Items: [{ W: 1 }, { W: 9 }] })) });
    const f = judge({ reply: { 'Result[*].Items[?].W': { gt: 2, lt: 5 } } }, many);
    assert.deepEqual(
      f.map((x) => x.path),
      ['Result[0].Items[?]', 'Result[1].Items[?]', 'Result[2].Items[?]', 'Result[3].Items[?]', 'Result[4].Items[?]', 'Result[*].Items[?].W'],
    );
    assert.match(f[5].message, /4 more items fail > 2 and < 5$/);
  });

  it('[*] lists at most five failing items of one check, then counts the rest', () => {
    const many = untyped({ L: Array.from({ length: 9 }, (_, i) => ({ V: i })) });
    const f = judge({ reply: { 'L[*].V': { gt: 100, lt: 5 } } }, many);
    // gt fails on all nine (5 listed + 1 count); lt on 5…8 (4 listed).
    assert.equal(f.length, 10);
    assert.match(f[5].message, /^L\[\*\]\.V: 4 more items fail > 100$/);
    assert.deepEqual(
      f.slice(6).map((x) => x.path),
      ['L[5].V', 'L[6].V', 'L[7].V', 'L[8].V'],
    );
  });
});

describe('expect semantics: numbers too large to write out', () => {
  it('compare in bounded time and memory', () => {
    const cases: Array<[unknown, Exchange]> = [
      [{ reply: { 'Result.Charges[0].Amount': { equals: 0, gt: 0, lte: '1e1000' } } }, untypedAmount(HUGE)],
      [{ reply: { 'Result.Charges[0].Amount': { equals: 0, gt: 0 } } }, untypedAmount('1e300000000')],
      [{ reply: { 'Result.Charges[0].Amount': { equals: 0, lt: 0 } } }, untypedAmount('-1e-999999999')],
      [{ reply: { 'Result.Charges[*].Amount': { equals: 0 } } }, untyped({ Result: { Charges: Array.from({ length: 2000 }, () => ({ Amount: HUGE })) } })],
    ];
    // Bounded memory is the proof that no number was written out; time is the bench's to measure.
    const heap = process.memoryUsage().heapUsed;
    for (const [expect, on] of cases) judge(expect, on);
    assert.ok(process.memoryUsage().heapUsed - heap < 64 * 1024 * 1024, 'no number was written out');
  });

  it('as operands are an error at file:line:col before anything is sent', () => {
    // An int field of GetRateQuote 1.0.3, so only the operand is wrong (compileRequestFile checks the path too).
    const A = 'Result.ServiceLevels[0].ServiceDays';
    const said = (what: string, rest: string) => new RegExp(`"Result\\.ServiceLevels\\[0\\]\\.ServiceDays"${what}: ${rest}`);
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['equals', { reply: { [A]: { equals: `@n:${HUGE}` } } }, HUGE, said('\\.equals', '1e999999999 is larger than any value a reply carries')],
      ['a bare value', { reply: { [A]: `@n:${HUGE}` } }, HUGE, said('', '1e999999999 is larger than')],
      ['gt', { reply: { [A]: { gt: `@n:${HUGE}` } } }, HUGE, said('\\.gt', '1e999999999 is larger than')],
      ['lt as a decimal string', { reply: { [A]: { lt: HUGE } } }, `"${HUGE}"`, said('\\.lt', '1e999999999 is larger than')],
      ['a negative one', { reply: { [A]: { lte: `@n:-${HUGE}` } } }, `-${HUGE}`, said('\\.lte', '-1e999999999 is larger than')],
      ['a tiny one', { reply: { [A]: { gte: '@n:1e-999999999' } } }, '1e-999999999', said('\\.gte', '1e-999999999 is smaller than any value a reply carries')],
      [
        'inside a record',
        { reply: { 'Result.OriginServiceCenter': { equals: { B: ['@n:1', '@n:1e400000'] } } } },
        '1e400000',
        /"Result\.OriginServiceCenter"\.equals: 1e400000 is larger than/,
      ],
      [
        'with a thousand-digit exponent',
        { reply: { [A]: { gt: `@n:1e${'9'.repeat(1500)}` } } },
        '1e999',
        said('\\.gt', '1e9+… is not a number the runner reads'),
      ],
    ];
    for (const [what, expect, literal, message] of cases) {
      const text = fileWith(expect);
      const { problems } = compileRequestFile(text, FILE);
      assert.equal(problems.length, 1, `${what}: ${problems.map((p) => p.message).join('; ')}`);
      assert.match(problems[0].message, message, what);
      assert.ok(problems[0].message.length < 300, `${what}: the message quotes a long literal by its start`);
      assert.equal(problems[0].kind, 'file');
      const at = lineOf(text, literal);
      assert.deepEqual([problems[0].location?.line, problems[0].location?.column], [at.line, at.column], what);
    }
  });

  it('operands up to 10^±1000 are accepted, and compared exactly', () => {
    assert.deepEqual(compile({ reply: { A: { gt: '@n:-1e1000', lt: '@n:1e1000', gte: '1e-1000', equals: '@n:9.99e1000' } } }).problems, []);
    assert.equal(compile({ reply: { A: { gt: '@n:1e1001' } } }).problems.length, 1);
    assert.deepEqual(
      judge({ reply: { A: { gt: '@n:1e1000', lt: '@n:1.0000000000000000000000001e1000' } } }, untyped({ A: '1.00000000000000000000000005e1000' })).map(
        (f) => f.message,
      ),
      [],
    );
  });

  it("dates as operands are accepted, by the runner and the editor's schema; text that is neither number nor date is not", () => {
    const dates = { reply: { A: { gt: '2026-11-23', lt: '2026-11-23T08:00:00.5+05:30', lte: '11/23/2026' } } };
    assert.deepEqual(compile(dates).problems, []);
    const validate = requestFileValidator();
    assert.ok(validate({ operation: 'GetRateQuote', version: '1.0.3', params: {}, expect: dates }), JSON.stringify(validate.errors));
    assert.ok(!validate({ operation: 'GetRateQuote', version: '1.0.3', params: {}, expect: { reply: { A: { gt: 'tomorrow' } } } }));
    for (const bad of ['2026-13-01', '2026-02-29', '11/31/2026', '2026-11-23T25:00:00', 'tomorrow']) {
      assert.match(
        compile({ reply: { A: { gt: bad } } }).problems[0]?.message ?? '',
        /needs a number, a decimal string \("0\.10"\), a money string \("\$1,234\.56"\), a date/,
        bad,
      );
    }
  });
});

// ——— end to end: carrier run against the embedded sandbox and a small local server ———

async function carrier(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2).replace(/"@n:([^"]+)"/g, '$1'));
}

describe('expect semantics end to end: carrier run', function () {
  this.timeout(60_000);
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-expect-semantics-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const quoteParams = {
    request: {
      QuoteType: 'Domestic',
      CODAmount: 0,
      Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
      Destination: { City: 'Tampa', StateOrProvince: 'FL', ZipOrPostalCode: '33635', CountryCode: 'USA' },
      Items: [{ Class: '50.0', Weight: 1500, Width: 48, Height: 40, Length: 48 }],
      DeclaredValue: 0,
      OverDimensionPcs: 0,
    },
  };
  const quoteFile = (name: string, expect: unknown, capture?: Record<string, string>) =>
    writeJson(path.join(tmp, 'quotes', name), { operation: 'GetRateQuote', version: '1.0.1', params: quoteParams, expect, ...(capture ? { capture } : {}) });

  it('the sandbox: [?] fails where no single service level is in range, and passes where one is', async () => {
    quoteFile(
      '1-levels.carrier.json',
      { success: true, reply: { 'Result.ServiceLevels': { count: { gte: 2 } } } },
      { std: 'Result.ServiceLevels[0].NetCharge', gsds: 'Result.ServiceLevels[1].NetCharge' },
    );
    // Some level costs at least GSDS and some at most STD, but none does both: STD is cheaper.
    quoteFile('2-in-range.carrier.json', { reply: { 'Result.ServiceLevels[?].NetCharge': { gte: '{{gsds}}', lte: '{{std}}' } } });
    quoteFile('3-codes.carrier.json', { reply: { 'Result.ServiceLevels[?].Code': { matches: '^STD$', equals: 'GSHW' } } });
    quoteFile('4-one-level.carrier.json', {
      reply: { 'Result.ServiceLevels[?].NetCharge': { gte: '{{std}}', lte: '{{std}}' }, 'Result.ServiceLevels[?].Code': { matches: '^GS', equals: 'GSHW' } },
    });

    const r = await carrier(['run', 'quotes', '--reporter', 'cli,json', '--out', 'out'], tmp);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /4 tests: 2 passed, 2 failed, 0 skipped/);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'out/report.json'), 'utf8'));
    const byName = (n: string) => report.tests.find((t: { file: string }) => t.file.endsWith(n));
    const { std, gsds } = byName('1-levels.carrier.json').captured;
    assert.ok(Number(std.replace(/[$,]/g, '')) < Number(gsds.replace(/[$,]/g, '')), `STD ${std} is below GSDS ${gsds}`);
    assert.equal(byName('4-one-level.carrier.json').status, 'passed');

    const [range] = byName('2-in-range.carrier.json').failures;
    assert.equal(range.path, 'Result.ServiceLevels[?]');
    assert.equal(range.expected, `≥ ${gsds} and ≤ ${std}`);
    assert.match(range.message, /^Result\.ServiceLevels\[\?\]: none of the \d+ items of Result\.ServiceLevels holds ≥ \S+ and ≤ \S+ at once \(/);
    const text = fs.readFileSync(path.join(tmp, 'quotes/2-in-range.carrier.json'), 'utf8').split('\n');
    const line = text.findIndex((l) => l.includes('"Result.ServiceLevels[?].NetCharge"')) + 1;
    assert.deepEqual([range.location.line, range.location.column], [line, text[line - 1].indexOf('"Result') + 1]);
    assert.ok(r.stdout.includes(`quotes/2-in-range.carrier.json:${line}:${range.location.column}  Result.ServiceLevels[?]: none of`), r.stdout);

    const [codes] = byName('3-codes.carrier.json').failures;
    assert.match(codes.message, /none of the \d+ items of Result\.ServiceLevels holds matches \/\^STD\$\/ and equals "GSHW" at once/);
  });

  describe('against a small local server', () => {
    let server: http.Server;
    let baseUrl: string;
    let requests = 0;
    const API_KEY = 'Kq7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5oPi0lMkQrXwYzAb';

    /** GetTerminalInformation replies whose zip is whatever the request's ZipCode asks for. */
    const zips: Record<string, string> = { '11111': HUGE, '22222': '1e300000000', '68507': '68507' };
    const terminalReply = (zip: string) => `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo>
<TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>17</TerminalDetailID><TerminalCode>LNK</TerminalCode><TerminalMailingState>NE</TerminalMailingState><TerminalMailingZip>${zip}</TerminalMailingZip></TerminalDetails>
</TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
    /** A reply to another operation, refused in its body. */
    const otherOperation = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetRateQuoteResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetRateQuoteResult><WasSuccess>false</WasSuccess><Messages><string>Origin zip is required</string></Messages></GetRateQuoteResult></GetRateQuoteResponse></soap:Body></soap:Envelope>`;

    before(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          requests++;
          const zip = /<ZipCode>([^<]*)<\/ZipCode>/.exec(body)?.[1] ?? '';
          res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
          res.end(zip === '33333' ? otherOperation : terminalReply(zips[zip] ?? zip));
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
    beforeEach(() => fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } })));

    const terminalFile = (rel: string, zip: string, expect: unknown) =>
      writeJson(path.join(tmp, rel), { operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: zip, CountryCode: 'USA' }, expect });
    const run = (args: string[]) => carrier(['run', ...args, '--env', 'local'], tmp, { CARRIER_API_KEY: API_KEY });

    it(`a reply value ${HUGE} is a normal failing test, with the summary and the reports`, async () => {
      // TerminalMailingZip is a string field: the expected zips are text (a number there is refused, expect-checks.test.ts).
      terminalFile('huge/1-huge-zip.carrier.json', '11111', { reply: { 'Result[0].TerminalDetails.TerminalMailingZip': { equals: '0' } } });
      terminalFile('huge/2-big-zip.carrier.json', '22222', { reply: { 'Result[0].TerminalDetails.TerminalMailingZip': { gt: '@n:1e300', gte: '1e1000' } } });
      terminalFile('huge/3-plain.carrier.json', '68507', { reply: { 'Result[0].TerminalDetails.TerminalMailingZip': { equals: '68507' } } });
      const r = await run(['huge', '-r', 'cli,junit,json', '--out', 'out']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /internal error/);
      assert.match(r.stdout, /3 tests: 2 passed, 1 failed, 0 skipped/);
      assert.match(r.stdout, /huge\/1-huge-zip\.carrier\.json:\d+:\d+ {2}Result\[0\]\.TerminalDetails\.TerminalMailingZip: expected "0", got "1e999999999"/);
      const report = JSON.parse(fs.readFileSync(path.join(tmp, 'out/report.json'), 'utf8'));
      assert.deepEqual(
        report.tests.map((t: { status: string }) => t.status),
        ['failed', 'passed', 'passed'],
      );
      assert.match(
        fs.readFileSync(path.join(tmp, 'out/junit.xml'), 'utf8'),
        /<failure message="Result\[0\]\.TerminalDetails\.TerminalMailingZip: expected &quot;0&quot;, got &quot;1e999999999&quot;"/,
      );
    });

    it(`an operand ${HUGE} exits 2 at file:line:col, sending nothing`, async () => {
      terminalFile('operand/1-ok.carrier.json', '68507', { status: 200 });
      terminalFile('operand/2-huge.carrier.json', '68507', { reply: { 'Result[0].TerminalDetails.TerminalMailingZip': { gt: `@n:${HUGE}` } } });
      const before = requests;
      const r = await run(['operand']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const lines = fs.readFileSync(path.join(tmp, 'operand/2-huge.carrier.json'), 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes(HUGE)) + 1;
      assert.match(
        r.stderr,
        new RegExp(
          `^operand/2-huge\\.carrier\\.json:${line}:${lines[line - 1].indexOf(HUGE) + 1}: error: .*1e999999999 is larger than any value a reply carries`,
          'm',
        ),
      );
      assert.equal(requests, before, 'nothing was sent');
    });

    it('a reply to another operation that carries WasSuccess=false fails "success": true, as carrier send exits 1', async () => {
      terminalFile('other/wrong-operation.carrier.json', '33333', { success: true });
      const r = await run(['other']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /reply: expected the service's answer, got an unreadable reply: Expected <GetTerminalInformationResponse> in the SOAP Body, got <GetRateQuoteResponse>/,
      );
      const send = await carrier(['send', 'other/wrong-operation.carrier.json', '--env', 'local'], tmp, { CARRIER_API_KEY: API_KEY });
      assert.equal(send.code, 1, send.stdout + send.stderr);
    });
  });
});
