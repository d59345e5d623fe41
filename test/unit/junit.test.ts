import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { checkJunitStructure } from './junit-structure';
import { jsonReport } from '../../src/core/runner/reporters/json';
import { junitXml, xmlAttr, xmlText } from '../../src/core/runner/reporters/junit';
import { relativeTo } from '../../src/core/runner/reporters/format';
import { CliReporter } from '../../src/core/runner/reporters/cli';
import type { PlannedCollection, PlannedTest, RunReport, TestResult } from '../../src/core/runner/types';

const base = '/work/ci';
const rel = relativeTo(base);
const loc = (file: string, line: number, column: number) => ({ file, line, column, endLine: line, endColumn: column + 5 });

function collection(name: string): PlannedCollection {
  return { folder: `${base}/${name}`, name, variables: {}, configFiles: [] };
}

function test(coll: PlannedCollection, file: string, binding = 'soap11' as const): PlannedTest {
  const full = `${coll.folder}/${file}`;
  return { id: full, file: full, name: `${file} [${binding}]`, collection: coll, binding, location: loc(full, 1, 1), dependsOn: [], captures: [] };
}

function sampleReport(): RunReport {
  const bol = collection('examples/collections/bill-of-lading-lifecycle');
  const errors = collection('examples/collections/error-cases');
  const t1 = test(bol, '01-create.carrier.json');
  const t2 = test(bol, '02-pdf.carrier.json');
  const t3 = test(bol, '03-labels.carrier.json');
  const t4 = test(errors, 'bad-label.carrier.json');
  const results: TestResult[] = [
    {
      test: t1,
      status: 'passed',
      failures: [],
      durationMs: 12.5,
      startedAt: '2026-01-05T10:00:00.000Z',
      captured: { bolId: '123456', pro: '056391174' },
      environment: 'sandbox',
      reply: { endpoint: 'http://127.0.0.1:4000/1.0.1/BillOfLadingService.asmx', status: 200, totalMs: 11 },
    },
    {
      test: t2,
      status: 'failed',
      durationMs: 1500,
      startedAt: '2026-01-05T10:00:00.020Z',
      captured: {},
      environment: 'sandbox',
      failures: [
        {
          kind: 'reply',
          message: 'Result.Charges[0].Amount: expected a number < 5 & "cheap", got "$1,234.56"',
          expected: '< 5',
          actual: '"$1,234.56"',
          path: 'Result.Charges[0].Amount',
          location: loc(t2.file, 14, 9),
        },
        { kind: 'maxMs', message: 'time: expected at most 1000 ms, took 1500 ms \u0007', location: loc(t2.file, 9, 5) },
      ],
    },
    {
      test: t3,
      status: 'skipped',
      failures: [],
      skipReason: 'needs {{bolId}} from 01-create.carrier.json [soap11], which failed',
      durationMs: 0,
      captured: {},
    },
    { test: t4, status: 'passed', failures: [], durationMs: 3, startedAt: '2026-01-05T10:00:01.000Z', captured: {} },
  ];
  return { summary: { total: 4, passed: 2, failed: 1, skipped: 1, durationMs: 1530, startedAt: '2026-01-05T10:00:00.000Z' }, results, problems: [] };
}

describe('junit reporter', () => {
  it('writes the JUnit XSD structure with consistent counts', () => {
    const xml = junitXml(sampleReport(), rel, 'ci-host');
    assert.deepEqual(checkJunitStructure(xml), { suites: 2, cases: 4 });
  });

  it('puts suites per folder, name = file × binding, time in seconds, failure message + details, skipped', () => {
    const xml = junitXml(sampleReport(), rel, 'ci-host');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(xml);
    const [bol, errors] = doc.testsuites.testsuite;
    assert.equal(bol.name, 'examples/collections/bill-of-lading-lifecycle');
    assert.equal(errors.name, 'examples/collections/error-cases');
    const [created, pdf, labels] = bol.testcase;
    assert.equal(created.name, '01-create.carrier.json [soap11]');
    assert.equal(created.time, '0.013');
    assert.match(created['system-out'], /captured: bolId=123456, pro=056391174/);
    assert.equal(pdf.time, '1.500');
    assert.equal(pdf.failure.type, 'reply');
    assert.equal(pdf.failure.message, 'Result.Charges[0].Amount: expected a number < 5 & "cheap", got "$1,234.56" (and 1 more)');
    assert.match(pdf.failure['#text'], /examples\/collections\/bill-of-lading-lifecycle\/02-pdf\.carrier\.json:14:9 {2}Result\.Charges\[0\]\.Amount/);
    assert.match(pdf.failure['#text'], /reply path: Result\.Charges\[0\]\.Amount/);
    assert.match(pdf.failure['#text'], /02-pdf\.carrier\.json:9:5 {2}time: expected at most 1000 ms/);
    assert.equal(labels.skipped.message, 'needs {{bolId}} from 01-create.carrier.json [soap11], which failed');
    assert.equal(doc.testsuites.tests, '4');
    assert.equal(bol.properties.property.value, 'sandbox');
  });

  it('escapes markup and drops characters XML 1.0 cannot carry', () => {
    assert.equal(xmlText('a < b & c > d'), 'a &lt; b &amp; c &gt; d');
    assert.equal(xmlAttr('say "hi"\nbye'), 'say &quot;hi&quot;&#10;bye');
    assert.equal(xmlText('bell\u0007'), 'bell\uFFFD');
    assert.ok(!junitXml(sampleReport(), rel).includes('\u0007'));
  });

  it('escapes any text as the whole chain of replacements does, text with nothing to escape coming back as it is', () => {
    // eslint-disable-next-line no-control-regex -- the control characters are what it finds
    const invalid = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
    const text = (s: string) => s.replace(invalid, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const attr = (s: string) => text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
    const odd = fc.constantFrom(
      '&',
      '<',
      '>',
      '"',
      "'",
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u0007',
      '\u001f',
      '\ud800',
      '\udfff',
      '\ufffe',
      '\uffff',
      '😀',
      '•',
      'a',
      ' ',
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: odd }), fc.string({ unit: fc.oneof(odd, fc.string({ unit: 'binary', maxLength: 1 })) })),
        (s) => {
          assert.equal(xmlText(s), text(s));
          assert.equal(xmlAttr(s), attr(s));
        },
      ),
      { numRuns: 5000 },
    );
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      assert.equal(xmlText(s), text(s), c.toString(16));
      assert.equal(xmlAttr(s), attr(s), c.toString(16));
    }
  });
});

/** The sample run as a merge that is not one whole run: a shard missing, another run with other options. */
function incompleteReport(): RunReport {
  return {
    ...sampleReport(),
    incompleteReasons: [
      { kind: 'missing-shard', shard: 3, total: 3, tests: 5, message: "shard 3/3 missing: its tests (5 of the run's 9) are not in this report" },
      {
        kind: 'options-differs',
        file: 'shards/<2>/report.json',
        shard: 2,
        total: 3,
        options: ['environment'],
        message: 'shards/<2>/report.json (shard 2/3) ran with other options: --env staging here, not given in the others',
      },
    ],
  };
}

describe('junit reporter, a report that is not one whole run', () => {
  const parse = (xml: string) =>
    new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(xml).testsuites;

  it('opens with a testsuite of one <error> testcase per reason, counted in errors and tests on both levels', () => {
    const xml = junitXml(incompleteReport(), rel, 'ci-host');
    assert.deepEqual(checkJunitStructure(xml), { suites: 3, cases: 6 });
    const root = parse(xml);
    assert.deepEqual([root.tests, root.failures, root.errors, root.skipped], ['6', '1', '2', '1'], 'the failure and the skip of the tests are still counted');
    const [incomplete, ...collections] = root.testsuite;
    assert.deepEqual([incomplete.name, incomplete.tests, incomplete.errors, incomplete.failures], ['incomplete report', '2', '2', '0']);
    assert.ok(collections.every((s: { errors: string }) => s.errors === '0'));
    const [missing, differs] = incomplete.testcase;
    assert.equal(missing.name, 'shard 3/3 missing');
    assert.equal(missing.error.type, 'missing-shard');
    assert.equal(missing.error.message, "shard 3/3 missing: its tests (5 of the run's 9) are not in this report");
    assert.match(missing.error['#text'], /^shard 3\/3 missing: .*\nThis report does not hold the whole run/);
    assert.equal(differs.name, 'shards/<2>/report.json, shard 2/3: options differ');
    assert.equal(differs.file, 'shards/<2>/report.json');
    assert.equal(differs.error.type, 'options-differs');
    assert.ok(xml.includes('name="shards/&lt;2&gt;/report.json, shard 2/3: options differ"'), 'escaped as any attribute');
  });

  it('a whole run has no such suite and no errors', () => {
    const root = parse(junitXml(sampleReport(), rel, 'ci-host'));
    assert.equal(root.errors, '0');
    assert.ok(!root.testsuite.some((s: { name: string }) => s.name === 'incomplete report'));
  });

  it('report.json says incomplete: true with the reasons, first; a whole run says neither', () => {
    const json = JSON.parse(jsonReport(incompleteReport(), rel));
    assert.deepEqual(Object.keys(json).slice(0, 4), ['format', 'version', 'incomplete', 'incompleteReasons']);
    assert.equal(json.incomplete, true);
    assert.deepEqual(json.incompleteReasons, incompleteReport().incompleteReasons);
    const whole = JSON.parse(jsonReport(sampleReport(), rel));
    assert.ok(!('incomplete' in whole) && !('incompleteReasons' in whole));
  });

  it('the cli reporter prints the reasons under the counts', () => {
    let out = '';
    const r = new CliReporter(
      {
        write: (t: string) => {
          out += t;
        },
      },
      { rel, tty: false },
    );
    r.runEnd(incompleteReport());
    assert.ok(
      out.endsWith(
        "4 tests: 2 passed, 1 failed, 1 skipped in 1.53 s\nIncomplete report: not one whole run\n  ✗ shard 3/3 missing: its tests (5 of the run's 9) are not in this report\n  ✗ shards/<2>/report.json (shard 2/3) ran with other options: --env staging here, not given in the others\n",
      ),
      out,
    );
    out = '';
    r.runEnd(sampleReport());
    assert.doesNotMatch(out, /Incomplete/);
  });
});

describe('json reporter', () => {
  it('writes every test with status, failures (expected, actual, path, relative location) and captures', () => {
    const json = JSON.parse(jsonReport(sampleReport(), rel));
    assert.equal(json.format, 'carrier-run-report');
    assert.deepEqual(json.summary, sampleReport().summary);
    assert.equal(json.tests.length, 4);
    const pdf = json.tests[1];
    assert.equal(pdf.id, 'examples/collections/bill-of-lading-lifecycle/02-pdf.carrier.json');
    assert.equal(pdf.status, 'failed');
    assert.deepEqual(pdf.failures[0], {
      kind: 'reply',
      message: 'Result.Charges[0].Amount: expected a number < 5 & "cheap", got "$1,234.56"',
      expected: '< 5',
      actual: '"$1,234.56"',
      path: 'Result.Charges[0].Amount',
      location: { file: 'examples/collections/bill-of-lading-lifecycle/02-pdf.carrier.json', line: 14, column: 9, endLine: 14, endColumn: 14 },
    });
    assert.deepEqual(json.tests[0].captured, { bolId: '123456', pro: '056391174' });
    assert.equal(json.tests[2].skipReason, 'needs {{bolId}} from 01-create.carrier.json [soap11], which failed');
  });
});

describe('cli reporter', () => {
  function run(tty: boolean) {
    let out = '';
    const r = new CliReporter(
      {
        write: (t: string) => {
          out += t;
        },
        isTTY: tty,
        columns: 80,
      },
      { rel, redrawMs: 0 },
    );
    const report = sampleReport();
    r.runStart(report.results.map((x) => x.test));
    for (const res of report.results) {
      if (res.status !== 'skipped') r.testStart(res.test);
      r.testEnd(res);
    }
    r.runEnd(report);
    return out;
  }
  it('prints plain lines when not a TTY, with failure locations and a summary', () => {
    const out = run(false);
    assert.ok(!out.includes('\x1b'), 'no escape codes in a log');
    assert.match(out, /^examples\/collections\/bill-of-lading-lifecycle$/m);
    assert.match(out, /✓ 01-create\.carrier\.json \[soap11\]/);
    assert.match(out, /✗ 02-pdf\.carrier\.json \[soap11\]/);
    assert.match(out, /examples\/collections\/bill-of-lading-lifecycle\/02-pdf\.carrier\.json:14:9 {2}Result\.Charges\[0\]\.Amount: expected/);
    assert.match(out, /○ 03-labels\.carrier\.json \[soap11\] {2}skipped: needs \{\{bolId\}\}/);
    assert.match(out, /4 tests: 2 passed, 1 failed, 1 skipped in 1\.53 s/);
  });
  it('redraws one progress line in place on a TTY and keeps only failures and skips', () => {
    /* eslint-disable no-control-regex -- the terminal escapes are what is checked */
    const out = run(true);
    assert.match(out, /\r\x1b\[2K\[0\/4\]/);
    assert.match(out, /\r\x1b\[2K\[4\/4\]/);
    assert.ok(!/✓\x1b\[0m 01-create/.test(out) && !out.includes('✓ 01-create'), 'passes are not printed as lines');
    assert.match(out, /02-pdf\.carrier\.json:14:9/);
    /* eslint-enable no-control-regex */
  });
});
