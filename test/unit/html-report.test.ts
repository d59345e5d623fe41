/**
 * report.html as text: one file with nothing to fetch, a Content-Security-Policy whose hashes are
 * those of its own style and script, every value escaped (a test name or a reply cannot open a
 * tag or close the JSON block), and no spelling of a secret after the run's final masking — in
 * the markup, the attributes and the exchanges' JSON alike.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Redactor } from '../../src/core/redact';
import { htmlReport } from '../../src/core/runner/reporters/html';
import { relativeTo } from '../../src/core/runner/reporters/format';
import type { PlannedCollection, PlannedTest, RunReport, TestResult } from '../../src/core/runner';

const BASE = path.resolve('/repo');
const SECRET = `S3cr<&>"'et-9f8e7d6c5b4a`;

const collection: PlannedCollection = { folder: path.join(BASE, 'suite'), name: 'suite', title: 'A <b>suite</b>', configFiles: [], variables: {} };

function test(name: string, row?: number): PlannedTest {
  const file = path.join(BASE, 'suite', 'a.carrier.json');
  return {
    id: `${file}${row ? `#row=${row}` : ''}`,
    file,
    name,
    collection,
    binding: 'soap11',
    operation: 'GetRateQuote',
    version: '1.0.1',
    location: { file, line: 1, column: 1, endLine: 1, endColumn: 2 },
    dependsOn: [],
    captures: [],
    position: row ?? 0,
    ...(row
      ? {
          row: {
            file: path.join(BASE, 'suite', 'rows.csv'),
            index: row,
            count: 2,
            name: `lane ${row}`,
            location: { file: path.join(BASE, 'suite', 'rows.csv'), line: row + 1, column: 1, endLine: row + 1, endColumn: 2 },
            values: {},
            texts: {},
          },
        }
      : {}),
  };
}

function report(): RunReport {
  const failed: TestResult = {
    test: test('a.carrier.json [soap11] [row 1: <script>alert(1)</script>]', 1),
    status: 'failed',
    failures: [
      {
        kind: 'reply',
        message: `Result.Key: expected "${SECRET}", got "x"`,
        expected: `equals "${SECRET}"`,
        actual: '"x"',
        path: 'Result.Key',
        location: { file: path.join(BASE, 'suite', 'a.carrier.json'), line: 12, column: 7, endLine: 12, endColumn: 20 },
      },
    ],
    durationMs: 12,
    captured: {},
    environment: 'staging',
    transcript: {
      request: {
        method: 'POST',
        url: `https://svc.example/x?key=${encodeURIComponent(SECRET)}`,
        headers: [['X-Key', SECRET]],
        body: `<a><APIKey>${SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</APIKey></a>`,
      },
      reply: { status: 200, statusText: 'OK', headers: [], body: `<r>echo ${SECRET} </script><script>alert(2)</script></r>`, bodyCut: 10 },
    },
  };
  const passed: TestResult = {
    test: test('a.carrier.json [soap11] [row 2: lane 2]', 2),
    status: 'passed',
    failures: [],
    durationMs: 3,
    captured: { pro: '123' },
  };
  const skipped: TestResult = {
    test: test('b.carrier.json [soap11]'),
    status: 'skipped',
    failures: [],
    skipReason: 'needs {{pro}}',
    durationMs: 0,
    captured: {},
  };
  return {
    summary: { total: 3, passed: 1, failed: 1, skipped: 1, durationMs: 15, startedAt: '2026-11-18T10:00:00.000Z' },
    results: [failed, passed, skipped],
    problems: [],
    shard: { index: 2, total: 3, tests: 9 },
  };
}

const masker = new Redactor([SECRET], { derived: true });
const render = () => htmlReport(report(), relativeTo(BASE), { mask: (t) => masker.text(t), now: () => new Date('2026-11-18T10:01:00Z') });

describe('report.html', () => {
  it('allows only its own style and script, by hash, and loads nothing', () => {
    const html = render();
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1, 'one script that runs');
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t, 'utf8').digest('base64')}'`;
    assert.equal(csp, `default-src 'none'; style-src ${hash(style)}; script-src ${hash(scripts[0])}; img-src data:; base-uri 'none'; form-action 'none'`);
    assert.doesNotMatch(html, /\b(src|href)=|url\(|@import/, 'no resource to fetch');
    assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/, 'no inline style or handler attributes the policy would refuse');
  });

  it('escapes names and bodies: nothing in a report opens a tag or ends the JSON block', () => {
    const html = render();
    assert.ok(html.includes('a.carrier.json [soap11] [row 1: &lt;script&gt;alert(1)&lt;/script&gt;]'));
    assert.ok(html.includes('— A &lt;b&gt;suite&lt;/b&gt;'));
    const json = /<script type="application\/json" id="exchanges">([\s\S]*?)<\/script>/.exec(html)![1];
    assert.doesNotMatch(json, /</, 'the JSON block has no < at all');
    const data = JSON.parse(json);
    assert.ok(
      data['0'].reply.body.includes('</script>') && data['0'].reply.body.includes('<script>alert(2)</script>'),
      'the reply reads back as it was, as data',
    );
    assert.equal(data['0'].reply.bodyCut, 10);
    assert.equal(Object.keys(data).length, 1, 'only tests with an exchange');
  });

  it('shows the summary, the shard, the failure with expected, actual and file:line:col, the row and the skip reason', () => {
    const html = render();
    assert.match(html, /<title>Carrier run report: 1 passed, 1 failed, 1 skipped<\/title>/);
    assert.ok(html.includes('shard 2/3 (3 of 9 tests)'));
    assert.ok(html.includes('<div class="where">suite/a.carrier.json:12:7</div>'));
    assert.ok(html.includes('<span>actual</span><pre>&quot;x&quot;</pre>'));
    assert.ok(html.includes('suite/rows.csv:3 (row 2: lane 2)'));
    assert.ok(html.includes('skipped: needs {{pro}}'));
    assert.match(html, /<li class="test failed" data-status="failed" data-search="[^"]*"><details open>/, 'failures open');
  });

  it('a report that is not one whole run: a red summary naming every reason, escaped, the policy still by hash', () => {
    const incomplete: RunReport = {
      ...report(),
      incompleteReasons: [
        { kind: 'missing-shard', shard: 3, total: 3, tests: 3, message: "shard 3/3 missing: its tests (3 of the run's 9) are not in this report" },
        { kind: 'commit-differs', file: 'shards/<b>/report.json', message: 'shards/<b>/report.json ran commit bbbbbbbbbbbb, the others aaaaaaaaaaaa' },
      ],
    };
    const html = htmlReport(incomplete, relativeTo(BASE), { now: () => new Date('2026-11-18T10:01:00Z') });
    assert.match(html, /<title>Carrier run report: incomplete, 1 passed, 1 failed, 1 skipped<\/title>/);
    assert.match(
      html,
      /<header class="summary failed">\n<h1>Carrier run report<\/h1>\n<p class="verdict">✗ Failed: 1 test failed; the report is incomplete<\/p>/,
    );
    assert.ok(
      html.includes(
        '<section class="incomplete" role="alert"><h2>Incomplete report: not one whole run</h2><ul><li>shard 3/3 missing: its tests (3 of the run&apos;s 9) are not in this report</li><li>shards/&lt;b&gt;/report.json ran commit bbbbbbbbbbbb, the others aaaaaaaaaaaa</li></ul></section>',
      ),
    );
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1];
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t, 'utf8').digest('base64')}'`;
    assert.equal(
      csp,
      `default-src 'none'; style-src ${hash(/<style>([\s\S]*?)<\/style>/.exec(html)![1])}; script-src ${hash(/<script>([\s\S]*?)<\/script>/.exec(html)![1])}; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/);
  });

  it('the summary is green only when nothing failed and nothing is missing', () => {
    const passing: RunReport = {
      ...report(),
      summary: { total: 1, passed: 1, failed: 0, skipped: 0, durationMs: 3, startedAt: '2026-11-18T10:00:00.000Z' },
      results: [report().results[1]],
    };
    const html = htmlReport(passing, relativeTo(BASE));
    assert.match(html, /<header class="summary passed">\n<h1>Carrier run report<\/h1>\n<p class="verdict">✓ Passed<\/p>/);
    assert.doesNotMatch(html, /class="incomplete"/);
    assert.match(render(), /<header class="summary failed">\n<h1>Carrier run report<\/h1>\n<p class="verdict">✗ Failed: 1 test failed<\/p>/);
  });

  it('holds no spelling of a secret after the final masking: markup, attributes, URLs, headers and the JSON block', () => {
    const html = render();
    assert.ok(!html.includes('9f8e7d6c5b4a'), 'no trace of the secret');
    const data = JSON.parse(/<script type="application\/json" id="exchanges">([\s\S]*?)<\/script>/.exec(html)![1]);
    assert.equal(data['0'].request.headers[0][1], '••••');
    assert.match(data['0'].request.url, /key=••••$/);
    assert.match(data['0'].request.body, /<APIKey>••••<\/APIKey>/);
    assert.ok(html.includes('expected &quot;••••&quot;'));
  });
});
