import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Exchange } from '../../src/core/exchange';
import { runVariables } from '../../src/core/requestFile/runVariables';
import { validateRequestText } from '../../src/core/validation/validate';
import {
  executePlan,
  loadRun,
  naturalSort,
  type PlannedTest,
  type RunEnvironment,
  type RunnerBackend,
  type ExchangeTranscript,
  type SendCall,
  type TestResult,
  type TranscriptStore,
} from '../../src/core/runner';
import { nodeContext } from '../../src/host';

// ---- fixtures ----

const context = nodeContext();
after(() => context.http.close());

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-runner-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, content: unknown): string {
  const file = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/**
 * A request file: GetBillOfLadingPdf with a label so the fake backend knows what to answer. Its
 * reply has one element, PdfDocument; files whose captures name BolID or WebProNumber are
 * CreateBillOfLading files (CREATE), since reply paths are held against the file's operation.
 */
function req(label: string, extra: Record<string, unknown> = {}, params: Record<string, unknown> = { billOfLadingId: 1 }) {
  return { operation: 'GetBillOfLadingPdf', version: 'sandbox', description: label, params, ...extra };
}
const CREATE = { operation: 'CreateBillOfLading', version: '1.0.1' };

const sandboxEnv: RunEnvironment = { name: 'sandbox', variables: {}, secretValues: [] };

function reply(parsed: unknown, over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x',
    startedAt: new Date().toISOString(),
    request: { method: 'POST', url: 'http://127.0.0.1/', headers: [], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
    timing: { totalMs: 1 },
    findings: [],
    documents: [],
    parsed,
    ...over,
  };
}

/** A backend answering from a function of the call; records every call. */
function fakeBackend(
  answer: (call: SendCall) => Exchange | Promise<Exchange>,
  envs: Record<string, RunEnvironment> = { sandbox: sandboxEnv },
): RunnerBackend & { calls: SendCall[] } {
  const calls: SendCall[] = [];
  return {
    calls,
    environment: (name) => envs[name ?? 'sandbox'] ?? `unknown environment "${name}"`,
    async send(call) {
      calls.push(call);
      return answer(call);
    },
  };
}

function collect() {
  const events: string[] = [];
  const results: TestResult[] = [];
  return {
    events,
    results,
    observer: {
      runStart: (tests: readonly PlannedTest[]) => events.push(`runStart ${tests.length}`),
      testStart: (t: PlannedTest) => events.push(`start ${t.name}`),
      testEnd: (r: TestResult) => {
        events.push(`end ${r.test.name} ${r.status}`);
        results.push(r);
      },
      runEnd: () => events.push('runEnd'),
    },
  };
}

// ---- ordering and collections ----

describe('runner: collections and order', () => {
  it('sorts file names naturally: 2 before 10, case-insensitive, leading zeros', () => {
    assert.deepEqual(naturalSort(['10-b', '2-a', '1-z', 'B', 'a', '02-c', 'x10', 'x9']), ['1-z', '2-a', '02-c', '10-b', 'a', 'B', 'x9', 'x10']);
  });

  it('runs a folder in natural order, subfolders as their own collections after its files', () => {
    write('c/10-last.carrier.json', req('10'));
    write('c/2-second.carrier.json', req('2'));
    write('c/1-first.carrier.json', req('1'));
    write('c/notes.json', { not: 'a request file' });
    write('c/sub/a.carrier.json', req('sub'));
    const plan = loadRun(context, ['c'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.tests.map((t) => `${t.collection.name}/${path.basename(t.file)}`),
      ['c/1-first.carrier.json', 'c/2-second.carrier.json', 'c/10-last.carrier.json', 'c/sub/a.carrier.json'],
    );
  });

  it('collection.json sets order (rest natural), variables, environment and concurrency; subfolders inherit', async () => {
    write('c/a.carrier.json', req('a', {}, { billOfLadingId: '{{bol}}' }));
    write('c/b.carrier.json', req('b'));
    write('c/c.carrier.json', req('c'));
    write('c/collection.json', { order: ['c.carrier.json', 'sub'], variables: { bol: 77 }, environment: 'staging', concurrency: 3 });
    write('c/sub/x.carrier.json', req('x'));
    write('c/sub/collection.json', { concurrency: 1 });
    const plan = loadRun(context, ['c'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.tests.map((t) => path.basename(t.file)),
      ['c.carrier.json', 'x.carrier.json', 'a.carrier.json', 'b.carrier.json'],
    );
    const sub = plan.tests[1].collection;
    assert.deepEqual([sub.name, sub.environment, sub.concurrency, sub.variables.bol], ['c/sub', 'staging', 1, '77']);
    const backend = fakeBackend(() => reply({ PdfDocument: 'JVBER' }), { staging: { name: 'staging', variables: {}, secretValues: [] } });
    const report = await executePlan(plan, { backend });
    assert.equal(report.summary.passed, 4);
    const a = backend.calls.find((c) => c.test.name.startsWith('a.'))!;
    assert.equal(a.request.params.billOfLadingId, '77', 'collection variable filled in');
    assert.ok(backend.calls.every((c) => c.environment.name === 'staging'));
  });

  it('reports bad collection.json settings and unknown order entries with locations', () => {
    write('c/a.carrier.json', req('a'));
    write('c/collection.json', '{\n  "order": ["missing.carrier.json"],\n  "concurrency": 0,\n  "colour": "red"\n}');
    const plan = loadRun(context, ['c'], { baseDir: tmp });
    const messages = plan.problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.message}`);
    assert.ok(
      messages.some((m) => /^3:18 "concurrency" must be a whole number/.test(m)),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => /^4:3 "colour" is not a collection.json setting/.test(m)),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => /^2:13 collection.json "order" names "missing.carrier.json"/.test(m)),
      messages.join('\n'),
    );
  });

  it("a file named on its own belongs to its folder's collection; missing paths and empty folders are problems", () => {
    write('c/collection.json', { variables: { v: 'x' } });
    const file = write('c/one.carrier.json', req('one'));
    fs.mkdirSync(path.join(tmp, 'empty'));
    const plan = loadRun(context, [file, 'nope', 'empty', file], { baseDir: tmp });
    assert.equal(plan.tests.length, 1, 'the same file twice runs once');
    assert.equal(plan.tests[0].collection.variables.v, 'x');
    assert.deepEqual(
      plan.problems.map((p) => p.message),
      ['no such file or folder: nope', 'no request files (*.carrier.json) in empty'],
    );
  });

  it('--binding all makes one test per binding the operation offers', () => {
    write('c/pdf.carrier.json', req('pdf'));
    write('c/quote.carrier.json', { operation: 'GetRateQuote', version: '1.0.3', params: {} });
    const plan = loadRun(context, ['c'], { baseDir: tmp, binding: 'all' });
    assert.deepEqual(
      plan.tests.map((t) => t.name),
      [
        'pdf.carrier.json [soap11]',
        'pdf.carrier.json [soap12]',
        'pdf.carrier.json [get]',
        'pdf.carrier.json [post]',
        'quote.carrier.json [soap11]',
        'quote.carrier.json [soap12]',
      ],
    );
    const one = loadRun(context, ['c'], { baseDir: tmp, binding: 'get' });
    assert.match(one.unavailable.get(one.tests[1].id) ?? '', /GetRateQuote 1\.0\.3 does not offer the get binding/);
  });
});

// ---- captures and dependencies ----

describe('runner: capture and dependencies', () => {
  function lifecycle() {
    write('flow/1-create.carrier.json', req('create', { ...CREATE, capture: { bolId: 'BolID', pro: 'WebProNumber' } }));
    write('flow/2-pdf.carrier.json', req('pdf', { expect: { reply: { PdfDocument: '{{bolId}}' } } }, { billOfLadingId: '{{bolId}}' }));
    write('flow/3-trace.carrier.json', req('trace', {}, { billOfLadingId: 5, note: 'PRO {{pro}}' }));
    write('flow/4-alone.carrier.json', req('alone'));
  }

  it('passes captured values on, typed as the reply typed them, and links dependents to producers', async () => {
    lifecycle();
    const plan = loadRun(context, ['flow'], { baseDir: tmp });
    const [create, pdf, trace, alone] = plan.tests;
    assert.deepEqual(create.captures, ['bolId', 'pro']);
    assert.deepEqual(pdf.dependsOn, [create.id]);
    assert.deepEqual(trace.dependsOn, [create.id]);
    assert.deepEqual(alone.dependsOn, []);
    const backend = fakeBackend((call) => (call.test === create ? reply({ BolID: 123456, WebProNumber: '056391174' }) : reply({ PdfDocument: 123456 })));
    const c = collect();
    const report = await executePlan(plan, { backend }, c.observer);
    assert.deepEqual(report.summary, { ...report.summary, total: 4, passed: 4, failed: 0, skipped: 0 });
    assert.equal(backend.calls[1].request.params.billOfLadingId, 123456, 'a captured int stays a number');
    assert.equal(backend.calls[2].request.params.note, 'PRO 056391174');
    assert.deepEqual(c.results[0].captured, { bolId: '123456', pro: '056391174' });
    assert.deepEqual(c.events, [
      'runStart 4',
      'start 1-create.carrier.json [soap11]',
      'end 1-create.carrier.json [soap11] passed',
      'start 2-pdf.carrier.json [soap11]',
      'end 2-pdf.carrier.json [soap11] passed',
      'start 3-trace.carrier.json [soap11]',
      'end 3-trace.carrier.json [soap11] passed',
      'start 4-alone.carrier.json [soap11]',
      'end 4-alone.carrier.json [soap11] passed',
      'runEnd',
    ]);
  });

  it('a capture whose path has no value fails its request; dependents are skipped with the reason', async () => {
    lifecycle();
    const plan = loadRun(context, ['flow'], { baseDir: tmp });
    const backend = fakeBackend(() => reply({ WebProNumber: '' }));
    const report = await executePlan(plan, { backend });
    const [create, pdf, trace, alone] = report.results;
    assert.equal(create.status, 'failed');
    assert.deepEqual(
      create.failures.map((f) => f.message),
      ['capture bolId: BolID has no value to capture (found nothing there)', 'capture pro: WebProNumber has no value to capture (found an empty value)'],
    );
    assert.equal(create.failures[0].location?.line, 9, "the capture entry's line");
    assert.equal(pdf.status, 'skipped');
    assert.equal(pdf.skipReason, 'needs {{bolId}} from 1-create.carrier.json [soap11], which failed');
    assert.equal(trace.skipReason, 'needs {{pro}} from 1-create.carrier.json [soap11], which failed');
    assert.equal(alone.status, 'passed', 'independent files still run');
    assert.equal(backend.calls.length, 2);
  });

  it('a {{variable}} nobody defines fails its request at the place it is written', async () => {
    write('v/a.carrier.json', req('a', {}, { billOfLadingId: '{{missing}}' }));
    const report = await executePlan(loadRun(context, ['v'], { baseDir: tmp }), { backend: fakeBackend(() => reply({})) });
    const [f] = report.results[0].failures;
    assert.equal(f.kind, 'variable');
    assert.match(f.message, /\{\{missing\}\} has no value/);
    assert.equal(f.location?.line, 6);
  });

  it('--bail skips everything after the first failure', async () => {
    write('b/1.carrier.json', req('1', { expect: { status: 201 } }));
    write('b/2.carrier.json', req('2'));
    write('b/3.carrier.json', req('3'));
    const report = await executePlan(loadRun(context, ['b'], { baseDir: tmp }), { backend: fakeBackend(() => reply({})), bail: true });
    assert.deepEqual(
      report.results.map((r) => r.status),
      ['failed', 'skipped', 'skipped'],
    );
    assert.equal(report.results[1].skipReason, 'not run: --bail after 1.carrier.json [soap11] failed');
  });

  it('only: runs the selected tests and the producers they need', async () => {
    lifecycle();
    const plan = loadRun(context, ['flow'], { baseDir: tmp });
    const backend = fakeBackend(() => reply({ BolID: 1, WebProNumber: '056391174' }));
    const report = await executePlan(plan, { backend, only: [plan.tests[2].id] });
    assert.deepEqual(
      report.results.map((r) => path.basename(r.test.file)),
      ['1-create.carrier.json', '3-trace.carrier.json'],
    );
  });

  it('secret values never reach results', async () => {
    write('s/a.carrier.json', req('a', { expect: { reply: { PdfDocument: '{{token}}' } } }));
    const env: RunEnvironment = { name: 'sandbox', variables: { token: 'S3cr3t-T0ken' }, secretValues: ['S3cr3t-T0ken'] };
    const report = await executePlan(loadRun(context, ['s'], { baseDir: tmp }), {
      backend: fakeBackend(() => reply({ PdfDocument: 'other' }), { sandbox: env }),
    });
    const text = JSON.stringify(report.results[0].failures);
    assert.ok(!text.includes('S3cr3t-T0ken'), text);
    assert.match(text, /••••/);
  });

  it('cancelling skips what has not started', async () => {
    write('x/1.carrier.json', req('1'));
    write('x/2.carrier.json', req('2'));
    const abort = new AbortController();
    const backend = fakeBackend(() => {
      abort.abort();
      return reply({});
    });
    const report = await executePlan(loadRun(context, ['x'], { baseDir: tmp }), { backend, signal: abort.signal });
    assert.deepEqual(
      report.results.map((r) => r.skipReason ?? r.status),
      ['passed', 'cancelled'],
    );
  });
});

// ---- concurrency against a real (slow) local server ----

describe('runner: concurrency', () => {
  let server: http.Server;
  let url: string;
  before(async () => {
    server = http.createServer((req, res) => setTimeout(() => res.end('ok'), Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? 150)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // The first fetch of a process sets up its client; keep that out of the measured requests.
    await (await fetch(`${url}?ms=0`)).text();
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  /** A backend that really does HTTP to the slow server, recording when each request was in flight. */
  function timedBackend() {
    const spans = new Map<string, { start: number; end: number }>();
    const backend = fakeBackend(async (call) => {
      const start = performance.now();
      await (await fetch(`${url}?ms=150`, { signal: call.signal })).text();
      spans.set(path.basename(call.test.file), { start, end: performance.now() });
      return reply({ BolID: 7 });
    });
    return { backend, spans };
  }

  const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

  it('two independent requests overlap in time with --concurrency 2', async () => {
    write('p/a.carrier.json', req('a'));
    write('p/b.carrier.json', req('b'));
    const { backend, spans } = timedBackend();
    const report = await executePlan(loadRun(context, ['p'], { baseDir: tmp }), { backend, concurrency: 2 });
    assert.equal(report.summary.passed, 2);
    const [a, b] = [spans.get('a.carrier.json')!, spans.get('b.carrier.json')!];
    assert.ok(overlap(a, b), JSON.stringify([...spans]));
  });

  it('without --concurrency requests go one after another', async () => {
    write('p/a.carrier.json', req('a'));
    write('p/b.carrier.json', req('b'));
    const { backend, spans } = timedBackend();
    await executePlan(loadRun(context, ['p'], { baseDir: tmp }), { backend });
    assert.ok(!overlap(spans.get('a.carrier.json')!, spans.get('b.carrier.json')!));
  });

  it('a dependent request waits for its producer while independent ones run alongside', async () => {
    write('d/1-create.carrier.json', req('create', { ...CREATE, capture: { bolId: 'BolID' } }));
    write('d/2-uses.carrier.json', req('uses', {}, { billOfLadingId: '{{bolId}}' }));
    write('d/3-free.carrier.json', req('free'));
    const { backend, spans } = timedBackend();
    const report = await executePlan(loadRun(context, ['d'], { baseDir: tmp }), { backend, concurrency: 4 });
    assert.equal(report.summary.passed, 3);
    const create = spans.get('1-create.carrier.json')!;
    assert.ok(spans.get('2-uses.carrier.json')!.start >= create.end, 'the consumer started after its producer ended');
    assert.ok(overlap(create, spans.get('3-free.carrier.json')!), 'the independent file ran alongside');
  });

  it('collection.json concurrency caps its collection under a higher --concurrency', async () => {
    write('q/a.carrier.json', req('a'));
    write('q/b.carrier.json', req('b'));
    write('q/collection.json', { concurrency: 1 });
    const { backend, spans } = timedBackend();
    await executePlan(loadRun(context, ['q'], { baseDir: tmp }), { backend, concurrency: 8 });
    assert.ok(!overlap(spans.get('a.carrier.json')!, spans.get('b.carrier.json')!));
  });

  it('collections run one after another', async () => {
    write('r1/a.carrier.json', req('a'));
    write('r2/b.carrier.json', req('b'));
    const { backend, spans } = timedBackend();
    await executePlan(loadRun(context, ['r1', 'r2'], { baseDir: tmp }), { backend, concurrency: 4 });
    assert.ok(spans.get('b.carrier.json')!.start >= spans.get('a.carrier.json')!.end);
  });
});

// ---- variables the runner provides, and variables in patterns ----

describe('runner: variables', () => {
  it('run.* variables: today, the next business day on the carrier calendar, an id', () => {
    const wednesday = runVariables(new Date('2026-11-25T15:00:00Z'), 'abc123');
    assert.deepEqual(wednesday, {
      'run.id': 'abc123',
      'run.today': '11/25/2026',
      'run.nextBusinessDay': '11/30/2026', // Thanksgiving and the Friday after are carrier holidays
      'run.date': '2026-11-25',
      'run.timestamp': '2026-11-25T15:00:00Z',
    });
    assert.equal(runVariables(new Date('2026-11-21T23:00:00Z'))['run.nextBusinessDay'], '11/23/2026', 'Saturday → Monday');
  });

  it('fills run.* and captured values into params and expectations, matching variables in patterns literally', async () => {
    write('v/1.carrier.json', req('1', { capture: { when: 'PdfDocument' } }));
    write(
      'v/2.carrier.json',
      req('2', { expect: { reply: { PdfDocument: { matches: '^due {{when}} \\(day {{run.today}}\\)$' } } } }, { billOfLadingId: 1, note: '{{run.id}}' }),
    );
    const backend = fakeBackend((call) =>
      call.test.name.startsWith('1') ? reply({ PdfDocument: '11/23/2026' }) : reply({ PdfDocument: 'due 11/23/2026 (day 11/21/2026)' }),
    );
    const report = await executePlan(loadRun(context, ['v'], { baseDir: tmp }), { backend, runVariables: { 'run.id': 'r1', 'run.today': '11/21/2026' } });
    assert.deepEqual(
      report.results.map((r) => r.failures.map((f) => f.message)),
      [[], []],
    );
    assert.equal(backend.calls[1].request.params.note, 'r1');
    const wrong = await executePlan(loadRun(context, ['v'], { baseDir: tmp }), { backend, runVariables: { 'run.id': 'r1', 'run.today': '11/22/2026' } });
    assert.match(wrong.results[1].failures[0].message, /expected text matching \/\^due 11\\\/23\\\/2026 \\\(day 11\\\/22\\\/2026\\\)\$\//);
  });

  it('finds the variables a file uses even after the validator has looked at it', () => {
    write('w/1.carrier.json', req('1', { ...CREATE, capture: { bolId: 'BolID' } }));
    write('w/2.carrier.json', req('2', {}, { billOfLadingId: '{{bolId}}' }));
    // The validator scans for {{…}} with a shared global regex; the runner must not depend on its state.
    const plan = loadRun(context, ['w'], { baseDir: tmp, validate: (text, file) => validateRequestText(text, file).findings });
    assert.deepEqual(plan.files.get(plan.tests[1].file)!.uses, ['bolId']);
    assert.deepEqual(plan.tests[1].dependsOn, [plan.tests[0].id]);
  });
});

describe('runner: what a result keeps', () => {
  it('a transcript kept by the store is read back from it, for the result and for each earlier attempt', async () => {
    write('k/1.carrier.json', req('1', { expect: { status: 200 } }));
    write('k/2.carrier.json', req('2', { expect: { status: 200 } }));
    let calls = 0;
    // The first send of 1 fails (500), its retry passes; 2 passes at once.
    const backend = fakeBackend(() =>
      calls++ === 0
        ? reply({ PdfDocument: 'x' }, { reply: { status: 500, statusText: 'Error', headers: [], bodyText: '', size: 0 } })
        : reply({ PdfDocument: 'x' }),
    );
    const kept: ExchangeTranscript[] = [];
    const reads: number[] = [];
    const store: TranscriptStore = {
      keep(transcript) {
        const i = kept.push(transcript) - 1;
        return Object.assign(
          () => {
            reads.push(i);
            return kept[i];
          },
          { json: () => JSON.stringify(kept[i]) },
        );
      },
    };
    const report = await executePlan(loadRun(context, ['k'], { baseDir: tmp }), { backend, retries: 1, transcripts: true, transcriptStore: store });
    const [first, second] = report.results;
    assert.equal(first.status, 'passed');
    assert.equal(first.attempts?.length, 1);
    assert.equal(kept.length, 3, 'one transcript per send');
    assert.deepEqual(reads, [], 'nothing read back until asked');
    assert.equal(first.attempts![0].transcript?.reply?.status, 500);
    assert.equal(first.transcript?.reply?.status, 200);
    assert.equal(second.transcript, kept[2]);
    assert.deepEqual(reads, [0, 1, 2]);
    assert.equal(first.transcriptJson?.(), JSON.stringify(kept[1]));
    // As any other field to whoever lists a result's fields; its JSON, not.
    assert.ok(Object.keys(second).includes('transcript'));
    assert.ok(!Object.keys(second).includes('transcriptJson'));
    assert.deepEqual(second.captured, {});
    assert.deepEqual(second.failures, []);
  });

  it('a copy of another file keeps that file as its compiled form', () => {
    const files = ['c/1.carrier.json', 'c/2.carrier.json'].map((f) => write(f, req('same', { capture: { doc: 'PdfDocument' } })));
    const plan = loadRun(context, ['c'], { baseDir: tmp });
    const [original, copy] = files.map((f) => plan.files.get(f)!);
    assert.equal(original.compiledFrom, undefined);
    assert.equal(copy.compiledFrom, original);
    assert.equal(copy.request?.fileName, files[1]);
    assert.deepEqual(
      copy.captures.map((c) => [c.name, c.location.file]),
      [['doc', files[1]]],
    );
    assert.deepEqual(plan.tests[1].captures, ['doc']);
  });
});
