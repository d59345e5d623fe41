/**
 * Each test's part of report.json (runner/reporters/json.ts jsonTestPart), printed two arrays deep
 * so that JSON.stringify indents it as it stands in `tests`: exactly the text of printing the item
 * alone and indenting every line after, the exchange last on one line, whatever the strings in it
 * (unicode, control characters, lone surrogates, `</`) and whichever optional members it has.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { relativeTo } from '../../src/core/runner/reporters/format';
import { jsonTestItem, jsonTestPart } from '../../src/core/runner/reporters/json';
import type { ExchangeTranscript, Failure, PlannedCollection, PlannedTest, SourceLocation, TestResult } from '../../src/core/runner/types';

const base = '/work/ci';
const rel = relativeTo(base);

/** The part as it was made before: the item printed alone, each newline indented, the exchange put in before its closing brace. */
function indentedAfter(r: TestResult): string {
  const item = JSON.stringify(jsonTestItem(r, rel), null, 2).replace(/\n/g, '\n    ');
  const exchange = r.transcriptJson?.() ?? (r.transcript ? JSON.stringify(r.transcript) : undefined);
  return exchange === undefined ? `    ${item}` : `    ${item.slice(0, -'\n    }'.length)},\n      "exchange": ${exchange}\n    }`;
}

// Strings JSON.stringify escapes, or that are easy to get wrong: quotes, backslashes, control
// characters, U+2028, lone surrogates, a pair, `</`, the report's mask.
const odd = fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\u2029', '\ud800', '\udfff', '😀', '</', '•', 'é', ' ', '#');
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: odd }), fc.string({ unit: fc.oneof(odd, fc.string({ maxLength: 1 })) }));
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 1e-7, Number.NaN, Infinity));
const file = fc.oneof(
  text.map((t) => `${base}/${t}`),
  text,
);

const location: fc.Arbitrary<SourceLocation> = fc.record({ file, line: number, column: number, endLine: number, endColumn: number });
const failure: fc.Arbitrary<Failure> = fc.record(
  {
    kind: fc.constantFrom('status', 'reply', 'contract', 'transport'),
    message: text,
    expected: text,
    actual: text,
    expectedValue: text,
    path: text,
    location,
  },
  { requiredKeys: ['kind', 'message'] },
);
const reply = fc.record({ endpoint: text, status: number, totalMs: number, fault: text }, { requiredKeys: [] });
const transcript: fc.Arbitrary<ExchangeTranscript> = fc.record(
  {
    request: fc.record({ method: text, url: text, headers: fc.array(fc.tuple(text, text), { maxLength: 3 }), body: text }),
    reply: fc.record(
      { status: number, statusText: text, headers: fc.array(fc.tuple(text, text), { maxLength: 3 }), body: text, bodyCut: number },
      { requiredKeys: ['status', 'statusText', 'headers', 'body'] },
    ),
    error: text,
  },
  { requiredKeys: ['request'] },
);
const attempt = fc.record(
  { failures: fc.array(failure, { maxLength: 2 }), startedAt: text, durationMs: number, reply, transcript },
  { requiredKeys: ['failures', 'durationMs'] },
);
const waited = fc.record(
  {
    max: number,
    heldAt: maybe(number),
    cancelled: maybe(fc.boolean()),
    each: fc.array(
      fc.record({
        number,
        id: text,
        startedAt: text,
        status: maybe(number),
        verdict: text,
        tone: fc.constantFrom('ok', 'error', 'warn'),
        durationMs: maybe(number),
        held: fc.boolean(),
        waitedMs: number,
        note: maybe(text),
        transcript: maybe(transcript),
      }),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: ['max', 'each'] },
);

const result = fc
  .record({
    file,
    hash: maybe(text),
    name: text,
    collectionName: text,
    title: maybe(text),
    configFiles: fc.array(file, { maxLength: 3 }),
    together: maybe(file),
    operation: maybe(text),
    version: maybe(text),
    binding: maybe(fc.constantFrom('soap11', 'soap12', 'get', 'post')),
    position: maybe(number),
    row: maybe(fc.record({ file, index: number, count: number, name: maybe(text), location })),
    tags: maybe(fc.array(text, { maxLength: 3 })),
    dependsOn: fc.array(fc.tuple(file, maybe(text)), { maxLength: 3 }),
    status: fc.constantFrom('passed', 'failed', 'skipped'),
    failures: fc.array(failure, { maxLength: 3 }),
    warnings: maybe(fc.array(failure, { maxLength: 2 })),
    skipReason: maybe(text),
    startedAt: maybe(text),
    durationMs: number,
    captured: fc.dictionary(text, text, { maxKeys: 4 }),
    environment: maybe(text),
    reply: maybe(reply),
    exchange: fc.oneof(
      fc.constant(undefined),
      transcript.map((t) => ({ transcript: t })),
      transcript.map((t) => ({ kept: JSON.stringify(t) })),
    ),
    attempts: maybe(fc.array(attempt, { maxLength: 2 })),
    notRetried: maybe(text),
    untilAttempts: maybe(waited),
    snapshot: maybe(fc.record({ file, status: fc.constantFrom('matched', 'written', 'updated', 'differs', 'missing'), text: maybe(text) })),
  })
  .map((g): TestResult => {
    const collection: PlannedCollection = {
      folder: base,
      name: g.collectionName,
      variables: {},
      configFiles: g.configFiles,
      ...(g.title !== undefined ? { title: g.title } : {}),
      ...(g.together !== undefined ? { together: g.together } : {}),
    };
    const test: PlannedTest = {
      id: g.hash === undefined ? g.file : `${g.file}#${g.hash}`,
      file: g.file,
      name: g.name,
      collection,
      location: { file: g.file, line: 1, column: 1, endLine: 1, endColumn: 2 },
      dependsOn: g.dependsOn.map(([f, h]) => (h === undefined ? f : `${f}#${h}`)),
      captures: [],
      operation: g.operation,
      version: g.version,
      binding: g.binding,
      position: g.position,
      row: g.row && { ...g.row, values: {}, texts: {} },
      tags: g.tags,
    };
    const kept = g.exchange && 'kept' in g.exchange ? g.exchange.kept : undefined;
    return {
      test,
      status: g.status,
      failures: g.failures,
      warnings: g.warnings,
      skipReason: g.skipReason,
      startedAt: g.startedAt,
      durationMs: g.durationMs,
      captured: g.captured,
      environment: g.environment,
      reply: g.reply,
      attempts: g.attempts,
      notRetried: g.notRetried,
      untilAttempts: g.untilAttempts,
      snapshot: g.snapshot,
      ...(g.exchange && 'transcript' in g.exchange ? { transcript: g.exchange.transcript } : {}),
      ...(kept !== undefined ? { transcriptJson: () => kept } : {}),
    };
  });

describe("a test's part of the JSON report", () => {
  it('is the item printed alone and indented line by line, the exchange last on one line, for any test', () => {
    fc.assert(
      fc.property(result, (r) => {
        const part = jsonTestPart(r, rel);
        assert.equal(part, indentedAfter(r));
        // And it reads back as the item and its exchange.
        const exchange = r.transcriptJson?.() ?? (r.transcript ? JSON.stringify(r.transcript) : undefined);
        const item = JSON.parse(JSON.stringify(jsonTestItem(r, rel))) as Record<string, unknown>;
        assert.deepEqual(JSON.parse(part), exchange === undefined ? item : { ...item, exchange: JSON.parse(exchange) as unknown });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every optional member, in order, when a test has them all', () => {
    const r = fc.sample(result, { numRuns: 1, seed: 7 })[0];
    const full: TestResult = {
      ...r,
      status: 'passed',
      test: {
        ...r.test,
        id: `${base}/a.carrier.json#soap12`,
        collection: { ...r.test.collection, title: 'Rates </script>', together: `${base}/c` },
        position: 3,
        row: {
          file: `${base}/rows.csv`,
          index: 2,
          count: 9,
          name: 'row\u2028two',
          location: { file: `${base}/rows.csv`, line: 3, column: 1, endLine: 3, endColumn: 4 },
          values: {},
          texts: {},
        },
        tags: ['smoke', '\ud800'],
        dependsOn: [`${base}/b.carrier.json#soap11`],
      },
      warnings: [{ kind: 'contract', message: 'unknown element \u0001' }],
      attempts: [{ failures: [{ kind: 'status', message: 'HTTP 500' }], durationMs: 1.23456, startedAt: 'then' }],
      notRetried: 'uses captured values',
      snapshot: { file: `${base}/__snapshots__/a.snap`, status: 'differs', text: 'never written' },
      untilAttempts: { max: 3, heldAt: 2, each: [{ number: 1, id: 'x', startedAt: 's', verdict: '200 OK', tone: 'ok', held: false, waitedMs: 0 }] },
      reply: { endpoint: 'http://h/x', status: 200, totalMs: 1.5, fault: 'soap:Server' },
      transcriptJson: () => '{"request":{"method":"POST"}}',
    };
    const part = jsonTestPart(full, rel);
    assert.equal(part, indentedAfter(full));
    const keys = Object.keys(JSON.parse(part) as object);
    for (const key of [
      'collectionTitle',
      'warnings',
      'position',
      'row',
      'keepTogether',
      'tags',
      'flaky',
      'notRetried',
      'snapshot',
      'waited',
      'attempts',
      'exchange',
    ])
      assert.ok(keys.includes(key), key);
    assert.equal(keys.at(-1), 'exchange');
    assert.ok(!part.includes('never written'), "a differing snapshot's text is never in the report");
  });
});
