/**
 * Expectations that check something, refused before anything is sent when they cannot
 * (docs/collections.md#expect): a reply path the catalog's reply does not have (did you mean…),
 * a `{{variable}}` that empties an expectation, an empty pattern, a number for a string field.
 * `carrier validate` and `carrier run` run in-process on files written to a temporary folder.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { writeStoredContract } from '../../src/core/contract/snapshot';
import type { ContractReport } from '../../src/core/contract/types';
import type { Exchange } from '../../src/core/exchange';
import { emptyVariableProblems } from '../../src/core/runner/emptyVariables';
import { evaluateExchange } from '../../src/core/runner/evaluate';
import { loadRun } from '../../src/core/runner/load';
import { compileExpectations, compileRequestFile } from '../../src/core/runner/loadFile';
import { createRunBackend } from '../../src/core/runBackend';
import { requestFileValidator } from '../../src/core/validation/schemaValidator';
import { nodeContext } from '../../src/host';

const context = nodeContext();
after(() => context.http.close());

async function carrier(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
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
    env: {},
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** `line:column` (1-based) where `needle` first appears in `text`. */
function at(text: string, needle: string): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `${needle} is in the file`);
  return `${i + 1}:${lines[i].indexOf(needle) + 1}`;
}

/** A GetRateQuote 1.0.1 request the sandbox answers with three service levels. */
const QUOTE_PARAMS = {
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

function quoteText(expect: unknown, capture?: Record<string, string>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ operation: 'GetRateQuote', version: '1.0.1', ...extra, params: QUOTE_PARAMS, expect, ...(capture ? { capture } : {}) }, null, 2);
}

describe('expect checks: carrier validate and carrier run refuse what checks nothing', function () {
  this.timeout(60_000);
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-expect-checks-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Writes `quotes/q.carrier.json`; returns its text. */
  function quoteFile(expect: unknown, capture?: Record<string, string>): string {
    const text = quoteText(expect, capture);
    fs.mkdirSync(path.join(tmp, 'quotes'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'quotes/q.carrier.json'), text);
    return text;
  }

  /** Both commands refuse the file with `message` at `where`; carrier run sends nothing. */
  async function refusedByBoth(where: string, message: string): Promise<void> {
    const line = `quotes/q.carrier.json:${where}: error: ${message}`;
    const validated = await carrier(['validate', 'quotes'], tmp);
    assert.equal(validated.code, 1, validated.stdout + validated.stderr);
    assert.ok(validated.stdout.split('\n').includes(line), `carrier validate says\n${line}\nin\n${validated.stdout}`);
    const ran = await carrier(['run', 'quotes', '--out', 'out'], tmp);
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.ok(ran.stderr.split('\n').includes(line), `carrier run says\n${line}\nin\n${ran.stderr}`);
    assert.match(ran.stderr, /nothing was sent/);
  }

  it('a misspelt path with only "absent": true, with the name the record has', async () => {
    const text = quoteFile({ reply: { 'Result.ServiceLevels[0].Code': 'STD', 'Result.ServiceLevls': { absent: true } } });
    await refusedByBoth(
      at(text, '"Result.ServiceLevls"'),
      'expect.reply: "Result.ServiceLevls": the GetRateQuote 1.0.1 reply has no ServiceLevls in Result; did you mean ServiceLevels?',
    );
  });

  it('a misspelt path with only "count": 0, inside a list item', async () => {
    const text = quoteFile({ reply: { 'Result.Charges[*].Wieght': { count: 0 } } });
    await refusedByBoth(
      at(text, '"Result.Charges[*].Wieght"'),
      'expect.reply: "Result.Charges[*].Wieght": the GetRateQuote 1.0.1 reply has no Wieght in Result.Charges[*]; did you mean Weight?',
    );
  });

  it('a misspelt capture path, at the path', async () => {
    const text = quoteFile({ status: 200 }, { net: 'Result.ServiceLevels[0].NetCharg' });
    await refusedByBoth(
      at(text, '"Result.ServiceLevels[0].NetCharg"'),
      'capture "net": "Result.ServiceLevels[0].NetCharg": the GetRateQuote 1.0.1 reply has no NetCharg in Result.ServiceLevels[0]; did you mean NetCharge?',
    );
  });

  it('a literal empty pattern', async () => {
    const text = quoteFile({ reply: { 'Result.ServiceLevels[0].Code': { matches: '' } } });
    await refusedByBoth(
      at(text, '""'),
      '"Result.ServiceLevels[0].Code".matches: an empty pattern matches everything, so it checks nothing; write what the text must contain, or "allowEmpty": true beside it if that is meant',
    );
  });

  it('an empty messages pattern, which cannot be allowed', async () => {
    const text = quoteFile({ messages: ['USA', ''] });
    await refusedByBoth(at(text, '""'), 'expect.messages item: an empty pattern matches everything, so it checks nothing; write what the text must contain');
  });

  it('a number for a string field, with the text to write instead', async () => {
    const text = quoteFile({ reply: { 'Result.ServiceLevels[0].QuoteNumber': 56391174 } });
    await refusedByBoth(
      at(text, '56391174'),
      '"Result.ServiceLevels[0].QuoteNumber": QuoteNumber is a string field; write the expected text, e.g. "56391174" (to compare money or other text as a number, use gte and lte)',
    );
    const equals = quoteFile({ reply: { 'Result.Charges[-1].Amount': { equals: 2000 } } });
    await refusedByBoth(
      at(equals, '2000'),
      '"Result.Charges[-1].Amount".equals: Amount is a string field; write the expected text, e.g. "2000" (to compare money or other text as a number, use gte and lte)',
    );
  });

  it('passes what is right: a real path, text for a string field, numbers for an int field, money compared by order', async () => {
    quoteFile(
      {
        reply: {
          'Result.ServiceLevels[0].Code': 'STD',
          'Result.Charges[0].Weight': '1500',
          'Result.ServiceLevels[*].ServiceDays': { gte: 1 },
          'Result.Charges[-1].Amount': { gt: 0, lt: '$10,000.00' },
          'Result.MyCarrierID': { absent: true },
        },
      },
      { net: 'Result.ServiceLevels[0].NetCharge' },
    );
    const validated = await carrier(['validate', 'quotes'], tmp);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const ran = await carrier(['run', 'quotes', '--out', 'out'], tmp);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  });

  it('--var pattern= empties "matches": "{{pattern}}": refused, located, unless "allowEmpty": true', async () => {
    const text = quoteFile({ reply: { 'Result.ServiceLevels[0].Code': { matches: '{{pattern}}' } } });
    const where = at(text, '"matches"');
    // Before anything is sent, as carrier run checks the variables of a plan (emptyVariables.ts).
    const plan = loadRun(context, ['quotes'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    const backend = createRunBackend({ context, environmentsFrom: [tmp], embeddedUrl: () => Promise.resolve('http://127.0.0.1:1') });
    const [problem, ...more] = emptyVariableProblems(plan, { backend, variables: { pattern: '' } });
    assert.deepEqual(more, []);
    assert.equal(problem.kind, 'variable');
    assert.equal(`${problem.location?.line}:${problem.location?.column}`, where);
    assert.equal(
      problem.message,
      '"Result.ServiceLevels[0].Code".matches: {{pattern}} is empty (--var pattern=), and an expectation with an empty value checks nothing; give it a value, or write "allowEmpty": true beside the assertions if an empty value is meant',
    );
    assert.deepEqual(emptyVariableProblems(plan, { backend, variables: { pattern: 'STD' } }), []);

    // carrier run refuses it before sending anything: exit 2 at the expectation.
    const ran = await carrier(['run', 'quotes', '--out', 'out', '--var', 'pattern='], tmp);
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.match(ran.stdout + ran.stderr, new RegExp(`quotes/q\\.carrier\\.json:${where}:? .*\\{\\{pattern\\}\\}.* empty`));

    quoteFile({ reply: { 'Result.ServiceLevels[0].Code': { matches: '{{pattern}}', allowEmpty: true } } });
    assert.deepEqual(emptyVariableProblems(loadRun(context, ['quotes'], { baseDir: tmp }), { backend, variables: { pattern: '' } }), []);
    const allowed = await carrier(['run', 'quotes', '--out', 'out', '--var', 'pattern='], tmp);
    assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  });

  it('an empty data cell that empties an expectation exits 2 at the expectation, naming the row', async () => {
    const text = quoteFile({ reply: { 'Result.ServiceLevels[0].Code': { equals: '{{code}}' } } });
    fs.writeFileSync(path.join(tmp, 'quotes/collection.json'), JSON.stringify({ data: 'rows.csv' }));
    fs.writeFileSync(path.join(tmp, 'quotes/rows.csv'), 'name,code\nstandard,STD\nblank,\n');
    const ran = await carrier(['run', 'quotes', '--out', 'out'], tmp);
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.deepEqual(
      ran.stderr.split('\n').filter((l) => l.includes(': error: ')),
      [
        `quotes/q.carrier.json:${at(text, '"equals"')}: error: "Result.ServiceLevels[0].Code".equals: {{code}} is empty (rows.csv row 2 (blank), column code), and an expectation with an empty value checks nothing; give it a value, or write "allowEmpty": true beside the assertions if an empty value is meant`,
      ],
    );
    assert.match(ran.stderr, /nothing was sent/);
  });

  it('a path into an open record passes validation', async () => {
    fs.writeFileSync(
      path.join(tmp, 'trace.carrier.json'),
      JSON.stringify(
        {
          operation: 'TraceShipment',
          version: '1.0.2',
          params: { request: { TraceNumbers: ['056391174'], TraceType: 'PRO' } },
          expect: {
            reply: { 'Result[0].StatusHistory.StatusEvent[0].Code': 'DEL', 'Result[*].Parties.Shipper.Name': { exists: true }, 'Result[0].ShortStatus': 'DEL' },
          },
          capture: { when: 'Result[0].ShipmentDates.DeliveryDate' },
        },
        null,
        2,
      ),
    );
    const validated = await carrier(['validate', 'trace.carrier.json'], tmp);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    // Beside the open records, the Shipment record's own fields are still checked.
    const misspelt = compileExpectations(
      fs.readFileSync(path.join(tmp, 'trace.carrier.json'), 'utf8').replace('ShortStatus', 'ShortStat'),
      'trace.carrier.json',
    );
    assert.deepEqual(
      misspelt.map((p) => p.message),
      ['expect.reply: "Result[0].ShortStat": the TraceShipment 1.0.2 reply has no ShortStat in Result[0]; did you mean ShortStatus?'],
    );
  });
});

describe("expect checks: the editor's compileExpectations", () => {
  const FILE = '/tmp/editor.carrier.json';
  const problems = (expect: unknown, capture?: Record<string, string>, extra?: Record<string, unknown>) => {
    const text = quoteText(expect, capture, extra);
    return compileExpectations(text, FILE).map((p) => ({ at: `${p.location?.line}:${p.location?.column}`, message: p.message, text }));
  };

  it('returns the located problem, as the editor shows it', () => {
    const [p, ...more] = problems({ reply: { 'Result.ServiceLevls[0].Code': { equals: 'STD' } } });
    assert.deepEqual(more, []);
    assert.equal(p.at, at(p.text, '"Result.ServiceLevls[0].Code"'));
    assert.equal(
      p.message,
      'expect.reply: "Result.ServiceLevls[0].Code": the GetRateQuote 1.0.1 reply has no ServiceLevls in Result; did you mean ServiceLevels?',
    );
  });

  it("knows lists, single elements, simple values, whole replies and other versions' fields", () => {
    const messages = (reply: Record<string, unknown>) => problems({ reply }).map((p) => p.message);
    assert.deepEqual(messages({ 'Result.ServiceLevels.Code': 'STD' }), [
      'expect.reply: "Result.ServiceLevels.Code": Result.ServiceLevels is a list; pick items with [n], [*] (every) or [?] (some) before .Code',
    ]);
    assert.deepEqual(messages({ 'Result.OriginServiceCenter[1].City': { absent: true } }), [
      'expect.reply: "Result.OriginServiceCenter[1].City": Result.OriginServiceCenter is a single element, read as a one-item list: [1] is never there (use [0])',
    ]);
    assert.deepEqual(messages({ 'WasSuccess.Value': true }), ['expect.reply: "WasSuccess.Value": WasSuccess is a single boolean value, with no Value inside']);
    assert.deepEqual(messages({ 'Reslt.Charges': { count: 0 } }), [
      'expect.reply: "Reslt.Charges": the GetRateQuote 1.0.1 reply has no Reslt; did you mean Result?',
    ]);
    // A single element indexed is a one-item list; $ is the whole reply; 1.0.0's fields may be checked absent.
    assert.deepEqual(
      messages({
        'Result.OriginServiceCenter[0].City': 'Nashville',
        'Result.OriginServiceCenter[*].Code': { exists: true },
        $: { exists: true },
        'Result.MyCarrierID': { absent: true },
        'Result.ServiceDays': { absent: true },
      }),
      [],
    );
  });

  it('accepts an empty pattern and empty variables beside "allowEmpty": true, and nothing but a boolean there', () => {
    assert.deepEqual(problems({ reply: { 'Result.ServiceLevels[0].QuoteNumber': { matches: '', allowEmpty: true } } }), []);
    assert.deepEqual(
      problems({ reply: { 'Result.ServiceLevels[0].QuoteNumber': { allowEmpty: 'yes', equals: '' } } }).map((p) => p.message),
      ['"Result.ServiceLevels[0].QuoteNumber".allowEmpty must be true or false'],
    );
    assert.deepEqual(
      problems({ reply: { 'Result.ServiceLevels[0].QuoteNumber': { allowEmpty: true } } }).map((p) => p.message),
      ['"Result.ServiceLevels[0].QuoteNumber" has no assertion; use equals, matches, exists, absent, lt, lte, gt, gte, count'],
    );
    assert.deepEqual(
      problems({ fault: { reason: '' } }).map((p) => p.message),
      ['expect.fault.reason: an empty pattern matches everything, so it checks nothing; write what the text must contain'],
    );
  });

  it('agrees with the editor\'s schema on empty patterns and "allowEmpty"', () => {
    const validate = requestFileValidator();
    const schemaAccepts = (expect: unknown) => validate({ operation: 'GetRateQuote', version: '1.0.1', params: {}, expect }) as boolean;
    for (const [expect, ok] of [
      [{ reply: { 'Result.ServiceLevels[0].QuoteNumber': { matches: '' } } }, false],
      [{ reply: { 'Result.ServiceLevels[0].QuoteNumber': { matches: '', allowEmpty: true } } }, true],
      [{ reply: { 'Result.ServiceLevels[0].QuoteNumber': { matches: '', allowEmpty: false } } }, false],
      [{ reply: { 'Result.ServiceLevels[0].QuoteNumber': { equals: '{{quote}}', allowEmpty: true } } }, true],
      [{ messages: [''] }, false],
    ] as const) {
      assert.equal(schemaAccepts(expect), ok, `the schema on ${JSON.stringify(expect)}`);
      assert.equal(problems(expect).length === 0, ok, `the runner on ${JSON.stringify(expect)}`);
    }
  });

  describe('with a stored live contract that adds to a reply record', () => {
    let dir: string;
    const report: ContractReport = {
      format: 'carrier-contract-report',
      version: 1,
      environment: 'live',
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
          servicePath: '/1.0.1/RateQuoteService.asmx',
          operations: ['GetRateQuote'],
          version: '1.0.1',
          direction: 'reply',
          record: 'RateServiceLevel',
          at: 'Result.ServiceLevels[*]',
          element: 'Surcharge',
          message: '',
          added: {
            name: 'Surcharge',
            ns: 'a',
            role: 'service',
            type: 's:string',
            base: 'string',
            minOccurs: 0,
            maxOccurs: 1,
            position: 8,
            after: 'HourlyWindow',
          },
        },
      ],
      summary: { differences: 1, breaking: 0, changed: 0, added: 1, unreadable: 0 },
    };
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-expect-contract-'));
      fs.writeFileSync(
        path.join(dir, 'carrier.environments.json'),
        JSON.stringify({ live: { baseUrl: 'https://live.example' }, staging: { baseUrl: 'https://staging.example' } }),
      );
      writeStoredContract(context, dir, report);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const check = (environment: string, runEnvironment?: string) => {
      const text = quoteText(
        { reply: { 'Result.ServiceLevels[0].Surcharge': { absent: true } } },
        { surcharge: 'Result.ServiceLevels[-1].Surcharge' },
        { environment },
      );
      const file = path.join(dir, 'q.carrier.json');
      return {
        editor: compileExpectations(text, file, context).map((p) => p.message),
        run: compileRequestFile(text, file, undefined, runEnvironment, context).problems.map((p) => p.message),
      };
    };

    it('knows the elements it adds, in expect and capture, for files sent there', () => {
      assert.deepEqual(check('live'), { editor: [], run: [] });
      // --env live over the file's own staging: its contract is the one followed.
      assert.deepEqual(check('staging', 'live').run, []);
    });

    it('and only there', () => {
      const unknown = [
        'expect.reply: "Result.ServiceLevels[0].Surcharge": the GetRateQuote 1.0.1 reply has no Surcharge in Result.ServiceLevels[0]; did you mean Charge?',
        'capture "surcharge": "Result.ServiceLevels[-1].Surcharge": the GetRateQuote 1.0.1 reply has no Surcharge in Result.ServiceLevels[-1]; did you mean Charge?',
      ];
      assert.deepEqual(check('staging'), { editor: unknown, run: unknown });
    });
  });
});

describe('expect checks: the judge refuses a value a variable empties during the run', () => {
  const FILE = '/tmp/judge.carrier.json';
  const exchange: Exchange = {
    id: 'x',
    startedAt: new Date(0).toISOString(),
    operation: 'GetRateQuote',
    version: '1.0.1',
    request: { method: 'POST', url: 'http://127.0.0.1/1.0.1/RateQuoteService.asmx', headers: [], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
    findings: [{ severity: 'info', kind: 'in-body', message: 'Rates for USA or CAN only.' }],
    documents: [],
    parsed: { WasSuccess: true, Result: { ServiceLevels: [{ Code: 'STD', QuoteNumber: '' }] } },
  };
  const judge = (expect: unknown, vars: Record<string, string>) => {
    const text = quoteText(expect);
    const loaded = compileRequestFile(text, FILE);
    assert.deepEqual(loaded.problems, []);
    return { text, failures: evaluateExchange(exchange, loaded.expect, (n) => vars[n], loaded.location) };
  };

  it('in an expected value and a pattern, at the expectation, as a failure of kind variable', () => {
    const { text, failures } = judge(
      { reply: { 'Result.ServiceLevels[0].Code': { matches: '^{{prefix}}' }, 'Result.ServiceLevels[0].QuoteNumber': { equals: '{{quote}}' } } },
      { prefix: '', quote: '' },
    );
    assert.deepEqual(
      failures.map((f) => [f.kind, `${f.location?.line}:${f.location?.column}`, f.message]),
      [
        [
          'variable',
          at(text, '"matches"'),
          'the expectation uses {{prefix}}, which is empty in this run, and an expectation with an empty value checks nothing; write "allowEmpty": true beside the assertions if an empty value is meant',
        ],
        [
          'variable',
          at(text, '"equals"'),
          'the expectation uses {{quote}}, which is empty in this run, and an expectation with an empty value checks nothing; write "allowEmpty": true beside the assertions if an empty value is meant',
        ],
      ],
    );
  });

  it('in a messages pattern, where it cannot be allowed', () => {
    const { failures } = judge({ messages: ['{{word}}'] }, { word: '' });
    assert.deepEqual(
      failures.map((f) => [f.kind, f.message]),
      [['variable', 'the expectation uses {{word}}, which is empty in this run, and an expectation with an empty value checks nothing']],
    );
  });

  it('holds beside "allowEmpty": true, and with a value', () => {
    assert.deepEqual(judge({ reply: { 'Result.ServiceLevels[0].QuoteNumber': { equals: '{{quote}}', allowEmpty: true } } }, { quote: '' }).failures, []);
    assert.deepEqual(judge({ reply: { 'Result.ServiceLevels[0].Code': { matches: '^{{prefix}}$' } } }, { prefix: 'STD' }).failures, []);
  });
});
