/**
 * Data-driven runs: CSV read by csv-parse (quotes, commas and newlines inside quotes, BOM, CRLF,
 * empty cells) with every mistake at file:line:col; JSON arrays; one test per row named
 * `file [binding] [row 3: Tampa]`; captures per row; the precedence of row values; catalog typing
 * of whole-value cells; `--data`; and undefined variables found before anything is sent.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Exchange } from '../../src/core/exchange';
import {
  executePlan,
  loadRun,
  parseCsvData,
  parseJsonData,
  variableProblems,
  type RunEnvironment,
  type RunnerBackend,
  type SendCall,
} from '../../src/core/runner';
import { CliReporter } from '../../src/core/runner/reporters/cli';
import { relativeTo } from '../../src/core/runner/reporters/format';
import { jsonReport } from '../../src/core/runner/reporters/json';
import { junitXml } from '../../src/core/runner/reporters/junit';
import { nodeContext } from '../../src/host';
import { checkJunitStructure } from './junit-structure';

const context = nodeContext();
after(() => context.http.close());

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-data-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, content: unknown): string {
  const file = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A GetBillOfLadingPdf file: its reply has one element, PdfDocument, which the fake replies below carry (expect and capture paths are held against the catalog). */
function req(params: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { operation: 'GetBillOfLadingPdf', version: 'sandbox', params, ...extra };
}

function reply(parsed: unknown): Exchange {
  return {
    id: 'x',
    startedAt: new Date().toISOString(),
    request: { method: 'POST', url: 'http://127.0.0.1/', headers: [], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
    timing: { totalMs: 1 },
    findings: [],
    documents: [],
    parsed,
  };
}

const sandboxEnv: RunEnvironment = { name: 'sandbox', variables: {}, secretValues: [] };

function fakeBackend(answer: (call: SendCall) => Exchange, env: RunEnvironment = sandboxEnv): RunnerBackend & { calls: SendCall[] } {
  const calls: SendCall[] = [];
  return {
    calls,
    environment: () => env,
    async send(call) {
      calls.push(call);
      return answer(call);
    },
  };
}

const csv = (text: string) => parseCsvData(Buffer.from(text), path.join(tmp, 'd.csv'));
const where = (r: ReturnType<typeof csv>) => (r.problems ?? []).map((p) => `${p.location?.line}:${p.location?.column} ${p.message}`);

describe('data files: CSV', () => {
  it('reads quoted commas, doubled quotes, newlines inside quotes, a BOM, CRLF and empty cells', () => {
    const r = csv('\uFEFFname,zip,note\r\n"Tampa, FL",33635,"said ""hi"""\r\n\r\n"Two\r\nlines",,\r\nlast,1,x');
    assert.deepEqual(r.problems, undefined);
    assert.deepEqual(r.table!.columns, ['name', 'zip', 'note'], 'the BOM is not part of the first header');
    assert.deepEqual(
      r.table!.rows.map((row) => Object.values(row.cells).map((c) => c.text)),
      [
        ['Tampa, FL', '33635', 'said "hi"'],
        ['Two\r\nlines', '', ''],
        ['last', '1', 'x'],
      ],
    );
    assert.deepEqual(
      r.table!.rows.map((row) => row.index),
      [1, 2, 3],
      'empty lines are not rows',
    );
    const [first, second, third] = r.table!.rows;
    assert.deepEqual([first.cells.zip.location.line, first.cells.zip.location.column], [2, 13]);
    assert.deepEqual([second.location.line, second.cells.zip.location.line, second.cells.zip.location.column], [4, 5, 8], 'a cell after an embedded newline');
    assert.deepEqual([third.cells.note.location.line, third.cells.note.location.column], [6, 8]);
  });

  it('a ragged row is an error at the first extra cell, or at the end of a short row', () => {
    assert.deepEqual(where(csv('a,b\n1,2,3\n4,5\n')), [
      '2:5 data file: row 1 has 3 cells, the header 2 (a comma or newline inside a cell needs the cell in "double quotes")',
    ]);
    assert.deepEqual(where(csv('a,b,c\n1,2,3\n4,5\n')), [
      '3:4 data file: row 2 has 2 cells, the header 3 (a comma or newline inside a cell needs the cell in "double quotes")',
    ]);
  });

  it('a header is required, each column named once with a variable name', () => {
    assert.match(where(csv(''))[0], /^1:1 data file .* is empty: it needs a header row/);
    assert.deepEqual(where(csv('a,b\n')), ['1:1 data file: a header but no rows to run']);
    assert.deepEqual(where(csv('zip,name,zip\n1,2,3\n')), ['1:10 data file: column "zip" is named twice (first at 1:1)']);
    assert.deepEqual(where(csv('zip,,name\n1,2,3\n')), ['1:5 data file: a column has an empty header; every column needs a name to use as {{name}}']);
    assert.match(where(csv('dest zip\n1\n'))[0], /^1:1 data file: column "dest zip" is not a variable name/);
  });

  it('a quote out of place is an error where its cell starts', () => {
    assert.match(where(csv('a,b\n1,"open\n'))[0], /^2:3 data file: quote not closed/);
    assert.match(where(csv('a,b\n1,"x"y\n'))[0], /^2:3 data file: invalid closing quote/);
    assert.match(where(csv('a,b\n"x"y,1\n'))[0], /^2:1 data file: invalid closing quote/);
  });
});

describe('data files: JSON', () => {
  const json = (text: string) => parseJsonData(text, path.join(tmp, 'd.json'));

  it('reads an array of objects, numbers as written', () => {
    const r = json(
      '[\n  { "name": "Tampa", "weight": 1500, "width": 48.00, "hazmat": false },\n  { "name": "Atlanta", "weight": 800, "width": 40, "hazmat": true }\n]',
    );
    assert.deepEqual(r.problems, undefined);
    assert.deepEqual(
      r.table!.rows.map((row) => Object.values(row.cells).map((c) => c.text)),
      [
        ['Tampa', '1500', '48.00', 'false'],
        ['Atlanta', '800', '40', 'true'],
      ],
    );
    assert.equal(r.table!.rows[1].cells.weight.location.line, 3);
  });

  it('rows with other keys, values that are not scalars and a root that is no array are located errors', () => {
    const r = json('[\n  { "a": 1, "b": 2 },\n  { "a": 1 },\n  { "a": [1], "b": 2 }\n]');
    assert.deepEqual(
      (r.problems ?? []).map((p) => `${p.location?.line} ${p.message}`),
      ['3 data file: row 2 has no "b"; every row has the keys of the first', '4 data file: row 3: "a" must be a string, number or boolean'],
    );
    assert.match(json('{ "a": 1 }').problems![0].message, /an array of objects/);
    assert.match(json('[{ "a": 1, "a": 2 }]').problems![0].message, /"a"/);
  });
});

describe('data-driven collections', () => {
  function lanes(extraConfig: Record<string, unknown> = {}) {
    write('lanes/collection.json', { data: 'lanes.csv', variables: { origin: 'collection' }, ...extraConfig });
    write('lanes/lanes.csv', 'name,bol,note\n"Tampa, FL",101,first\nAtlanta,102,second\n,103,third\n');
    write('lanes/1-create.carrier.json', req({ billOfLadingId: '{{bol}}', memo: 'PO {{bol}}' }, { capture: { pro: 'PdfDocument' } }));
    write('lanes/2-follow.carrier.json', req({ billOfLadingId: 7, memo: '{{pro}}' }, { expect: { reply: { PdfDocument: '{{pro}}' } } }));
  }

  it('runs each file once per row, row by row, named by the name column or the row number', () => {
    lanes();
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.tests.map((t) => t.name),
      [
        '1-create.carrier.json [soap11] [row 1: Tampa, FL]',
        '2-follow.carrier.json [soap11] [row 1: Tampa, FL]',
        '1-create.carrier.json [soap11] [row 2: Atlanta]',
        '2-follow.carrier.json [soap11] [row 2: Atlanta]',
        '1-create.carrier.json [soap11] [row 3]',
        '2-follow.carrier.json [soap11] [row 3]',
      ],
    );
    const bound = loadRun(context, ['lanes'], { baseDir: tmp, binding: 'all' });
    assert.deepEqual(
      bound.tests.slice(0, 3).map((t) => t.name),
      [
        '1-create.carrier.json [soap11] [row 1: Tampa, FL]',
        '1-create.carrier.json [soap12] [row 1: Tampa, FL]',
        '1-create.carrier.json [get] [row 1: Tampa, FL]',
      ],
    );
    assert.equal(bound.tests[1].id, `${path.join(tmp, 'lanes/1-create.carrier.json')}#soap12#row=1`);
    assert.deepEqual(
      plan.tests.map((t) => t.position),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(plan.dataFiles, [path.join(tmp, 'lanes/lanes.csv')]);
  });

  it("captures are per row: row 2 of a later file gets row 2's value; a failed row skips only its own dependents", async () => {
    lanes();
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    assert.deepEqual(plan.tests[3].dependsOn, [plan.tests[2].id], 'row 2 of 2-follow waits for row 2 of 1-create');
    const backend = fakeBackend((call) => {
      // 2-follow echoes the PRO it was sent; 1-create has none for row 2's BOL.
      if (call.test.file.endsWith('2-follow.carrier.json')) return reply({ PdfDocument: call.request.params.memo });
      const bol = call.request.params.billOfLadingId;
      return reply(bol === 102 ? {} : { PdfDocument: `PRO-${String(bol)}` });
    });
    const report = await executePlan(plan, { backend, concurrency: 3 });
    const byName = new Map(report.results.map((r) => [r.test.name, r]));
    assert.equal(byName.get('2-follow.carrier.json [soap11] [row 1: Tampa, FL]')!.status, 'passed');
    assert.equal(byName.get('2-follow.carrier.json [soap11] [row 3]')!.status, 'passed');
    const follows = backend.calls
      .filter((c) => c.test.file.endsWith('2-follow.carrier.json'))
      .map((c) => c.request.params.memo)
      .sort();
    assert.deepEqual(follows, ['PRO-101', 'PRO-103'], "each row its own capture, never another row's");
    assert.equal(byName.get('1-create.carrier.json [soap11] [row 2: Atlanta]')!.status, 'failed');
    assert.equal(
      byName.get('2-follow.carrier.json [soap11] [row 2: Atlanta]')!.skipReason,
      'needs {{pro}} from 1-create.carrier.json [soap11] [row 2: Atlanta], which failed',
    );
  });

  it('a cell filling a whole field takes its catalog type; inside text it stays text; a cell not of the type is an error at its cell', async () => {
    lanes();
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    const backend = fakeBackend(() => reply({ PdfDocument: 'P' }));
    await executePlan(plan, { backend });
    const first = backend.calls[0].request.params;
    assert.equal(first.billOfLadingId, 101, 'the int field gets the int');
    assert.equal(first.memo, 'PO 101', 'inside text, text');

    write('lanes/lanes.csv', 'name,bol,note\nTampa,1O1,first\n');
    const bad = loadRun(context, ['lanes'], { baseDir: tmp });
    assert.deepEqual(
      bad.problems.map((p) => `${path.basename(p.location!.file)}:${p.location!.line}:${p.location!.column} ${p.message}`),
      ['lanes.csv:2:7 data row 1 (Tampa), column bol: "1O1" is not an int, which params.billOfLadingId of 1-create.carrier.json needs'],
    );
    const ran = fakeBackend(() => reply({ PdfDocument: 'P' }));
    const report = await executePlan(bad, { backend: ran });
    assert.equal(report.results[0].status, 'failed', 'the row fails unsent in hosts that run anyway (the Test Explorer)');
    assert.equal(ran.calls.filter((c) => c.test.file.endsWith('1-create.carrier.json')).length, 0);
  });

  it('precedence: captures over --var over the row over the environment over the collection', async () => {
    write('p/collection.json', { data: 'rows.json', variables: { a: 'collection', b: 'collection', c: 'collection', d: 'collection', e: 'collection' } });
    write('p/rows.json', [{ a: 'row', b: 'row', c: 'row', d: 'row' }]);
    write('p/1.carrier.json', req({ billOfLadingId: 1 }, { capture: { a: 'PdfDocument' } }));
    write('p/2.carrier.json', req({ billOfLadingId: 2, memo: '{{a}} {{b}} {{c}} {{d}} {{e}}' }));
    const env: RunEnvironment = { name: 'sandbox', variables: { a: 'env', b: 'env', c: 'env', e: 'env' }, secretValues: [] };
    const backend = fakeBackend(() => reply({ PdfDocument: 'captured' }), env);
    await executePlan(loadRun(context, ['p'], { baseDir: tmp }), { backend, variables: { a: 'var', b: 'var' } });
    assert.equal(backend.calls[1].request.params.memo, 'captured var row row env');
  });

  it('subfolders inherit the data file unless they name their own; --data takes the place of both', () => {
    lanes();
    write('lanes/sub/x.carrier.json', req({ billOfLadingId: '{{bol}}' }));
    write('lanes/own/collection.json', { data: 'own.json' });
    write('lanes/own/own.json', [{ bol: 9 }]);
    write('lanes/own/y.carrier.json', req({ billOfLadingId: '{{bol}}' }));
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.tests.filter((t) => t.file.includes('/sub/')).map((t) => t.name),
      ['x.carrier.json [soap11] [row 1: Tampa, FL]', 'x.carrier.json [soap11] [row 2: Atlanta]', 'x.carrier.json [soap11] [row 3]'],
    );
    assert.deepEqual(
      plan.tests.filter((t) => t.file.includes('/own/')).map((t) => t.name),
      ['y.carrier.json [soap11] [row 1]'],
    );

    write('other.csv', 'bol\n5\n6\n');
    const over = loadRun(context, ['lanes/sub/x.carrier.json', 'lanes/own'], { baseDir: tmp, data: 'other.csv' });
    assert.deepEqual(
      over.tests.map((t) => t.name),
      ['x.carrier.json [soap11] [row 1]', 'x.carrier.json [soap11] [row 2]', 'y.carrier.json [soap11] [row 1]', 'y.carrier.json [soap11] [row 2]'],
    );
    assert.deepEqual(
      over.tests.map((t) => t.row?.values.bol),
      [5, 6, 5, 6],
    );
  });

  it('a data file that does not read stops the run at its place; its files are not run', () => {
    write('m/collection.json', '{\n  "data": "missing.csv"\n}');
    write('m/a.carrier.json', req({ billOfLadingId: 1 }));
    const plan = loadRun(context, ['m'], { baseDir: tmp });
    assert.deepEqual(
      plan.problems.map((p) => `${path.basename(p.location!.file)}:${p.location!.line}:${p.location!.column} ${p.message}`),
      ['collection.json:2:11 data file m/missing.csv does not exist'],
    );
    assert.match(plan.unavailable.get(plan.tests[0].id) ?? '', /data file m\/missing\.csv does not read/);
    write('m/missing.csv', 'a,a\n1,2\n');
    assert.match(loadRun(context, ['m'], { baseDir: tmp }).problems[0].message, /column "a" is named twice/);
  });

  it('a {{variable}} that no column, variable or capture defines is found before sending, where it is written', () => {
    write('u/collection.json', { data: 'rows.csv', variables: { known: 'x' } });
    write('u/rows.csv', 'destZip\n33635\n');
    write(
      'u/a.carrier.json',
      '{\n  "operation": "GetBillOfLadingPdf",\n  "version": "sandbox",\n  "params": { "billOfLadingId": "{{destzip}}", "memo": "{{known}} {{run.today}}" }\n}',
    );
    const plan = loadRun(context, ['u'], { baseDir: tmp });
    const problems = variableProblems(plan, { backend: fakeBackend(() => reply({})), variables: {} });
    assert.deepEqual(
      problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.message}`),
      ['4:33 {{destzip}} has no value: rows.csv has no column "destzip" (columns: destZip), and no variable or earlier capture defines it'],
    );
    assert.deepEqual(variableProblems(plan, { backend: fakeBackend(() => reply({})), variables: { destzip: '1' } }), [], '--var defines it');
  });

  it('a 5-row CSV with a quoted comma gives 5 passing testcases in JUnit, named by row, with the row in JSON', async () => {
    write('five/collection.json', { data: 'rows.csv' });
    write('five/rows.csv', 'name,bol\n"Burns, TN",1\nTampa,2\nAtlanta,3\nDallas,4\nDenver,5\n');
    write('five/quote.carrier.json', req({ billOfLadingId: '{{bol}}' }, { expect: { status: 200 } }));
    const report = await executePlan(loadRun(context, ['five'], { baseDir: tmp }), { backend: fakeBackend(() => reply({})) });
    const rel = relativeTo(tmp);
    const junit = junitXml(report, rel);
    assert.deepEqual(checkJunitStructure(junit), { suites: 1, cases: 5 });
    assert.ok(junit.includes('<testcase name="quote.carrier.json [soap11] [row 1: Burns, TN]"'), junit);
    assert.equal((junit.match(/<failure|<skipped/g) ?? []).length, 0);
    const json = JSON.parse(jsonReport(report, rel));
    assert.deepEqual(json.tests[0].row, { data: 'five/rows.csv', index: 1, name: 'Burns, TN', line: 2 });
    assert.equal(json.tests[0].id, 'five/quote.carrier.json#row=1');
  });

  it('the progress line names the shard and the data row the run is at; a log names the data file under the collection', async () => {
    lanes();
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    let screen = '';
    const tty = new CliReporter(
      {
        write: (t) => {
          screen += t;
        },
        columns: 200,
      },
      { rel: relativeTo(tmp), tty: true, color: false, redrawMs: 0, shard: { index: 2, total: 3, tests: 18 } },
    );
    await executePlan(plan, { backend: fakeBackend(() => reply({ PdfDocument: 'P' })) }, tty);
    const frames = screen.split('\r\x1b[2K').filter(Boolean);
    assert.ok(frames.includes('shard 2/3: 6 of 18 tests\n'), JSON.stringify(frames));
    assert.ok(
      frames.some((f) =>
        /^shard 2\/3 \[2\/6\] lanes\.csv row 2\/3 {2}✓ 2 {2}✗ 0 {2}○ 0 {2}running 1: 1-create\.carrier\.json \[soap11\] \[row 2: Atlanta\]$/.test(f),
      ),
      JSON.stringify(frames),
    );
    let log = '';
    await executePlan(
      plan,
      { backend: fakeBackend(() => reply({ PdfDocument: 'P' })) },
      new CliReporter(
        {
          write: (t) => {
            log += t;
          },
        },
        { rel: relativeTo(tmp), tty: false },
      ),
    );
    assert.match(log, /^lanes {2}\(settings: lanes\/collection\.json\) {2}\(data: lanes\/lanes\.csv, 3 rows\)$/m);
  });
});
