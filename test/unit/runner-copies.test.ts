/**
 * Files of the same text in one folder are read, validated and compiled once per run
 * (runner/loadFile.ts requestFileLoader); each still reports under its own name: its request,
 * its expectations' failures, its file problems.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Exchange } from '../../src/core/exchange';
import { executePlan, loadRun, type RunnerBackend, type SendCall } from '../../src/core/runner';
import { validateRequestText } from '../../src/core/validation/validate';
import { nodeContext } from '../../src/host';

const context = nodeContext();
after(() => context.http.close());

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-copies-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const FILE = {
  operation: 'GetBillOfLadingPdf',
  version: 'sandbox',
  params: { billOfLadingId: 1 },
  expect: { status: 200, reply: { PdfDocument: { equals: 'a PDF' } } },
};

function write(rel: string, text: string): string {
  const file = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function backend(): RunnerBackend & { calls: SendCall[] } {
  const calls: SendCall[] = [];
  const exchange: Exchange = {
    id: 'x',
    startedAt: new Date().toISOString(),
    request: { method: 'POST', url: 'http://127.0.0.1/', headers: [], body: '' },
    reply: { status: 500, statusText: 'Internal Server Error', headers: [], bodyText: '', size: 0 },
    timing: { totalMs: 1 },
    findings: [],
    documents: [],
    parsed: { PdfDocument: 'JVBER' },
  };
  return {
    calls,
    environment: () => ({ name: 'sandbox', variables: {}, secretValues: [] }),
    async send(call) {
      calls.push(call);
      return exchange;
    },
  };
}

describe('runner: copies of one file', () => {
  it('are validated once per folder, and every failure names its own file at the same place', async () => {
    const text = `${JSON.stringify(FILE, null, 2)}\n`;
    const files = ['c/1.carrier.json', 'c/2.carrier.json', 'c/3.carrier.json', 'd/4.carrier.json'].map((f) => write(f, text));
    const validated: string[] = [];
    const plan = loadRun(context, ['c', 'd'], {
      baseDir: tmp,
      validate: (t, fileName) => {
        validated.push(path.relative(tmp, fileName));
        return validateRequestText(t, fileName).findings;
      },
    });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(validated, ['c/1.carrier.json', 'd/4.carrier.json'], 'once per folder and text');

    const b = backend();
    const report = await executePlan(plan, { backend: b });
    assert.equal(report.summary.failed, 4);
    assert.deepEqual(
      b.calls.map((c) => c.request.fileName),
      files,
    );
    for (const result of report.results) {
      const places = result.failures.map((f) => `${f.location?.file}:${f.location?.line}:${f.location?.column}`);
      // "status" is on line 8 and PdfDocument's "equals" on line 11 of the pretty-printed file.
      assert.deepEqual(places, [`${result.test.file}:8:5`, `${result.test.file}:11:9`], result.failures.map((f) => f.message).join('\n'));
    }
    assert.notEqual(plan.files.get(files[0])!.locate(['params']).file, plan.files.get(files[1])!.locate(['params']).file);
    assert.equal(plan.files.get(files[1])!.locate(['params']).file, files[1]);
  });

  it('each copy sends its number literals as written', async () => {
    const text = '{ "operation": "GetBillOfLadingPdf", "version": "sandbox", "params": { "billOfLadingId": 1.0 } }\n';
    ['c/1.carrier.json', 'c/2.carrier.json'].forEach((f) => write(f, text));
    const plan = loadRun(context, ['c'], { baseDir: tmp });
    const b = backend();
    await executePlan(plan, { backend: b });
    assert.deepEqual(
      b.calls.map((c) => c.request.rawNumbers.get('/params/billOfLadingId')),
      ['1.0', '1.0'],
    );
  });

  it('a broken text copied is a problem of each copy, at its own name', () => {
    const text =
      '{\n  "operation": "GetBillOfLadingPdf",\n  "version": "sandbox",\n  "params": { "billOfLadingId": 1 },\n  "expect": { "status": "two hundred" }\n}\n';
    const files = ['c/1.carrier.json', 'c/2.carrier.json'].map((f) => write(f, text));
    const plan = loadRun(context, ['c'], { baseDir: tmp, validate: (t, fileName) => validateRequestText(t, fileName).findings });
    assert.deepEqual(
      plan.problems.map((p) => p.location?.file),
      files,
    );
    assert.equal(plan.problems[0].location?.line, plan.problems[1].location?.line);
  });
});
