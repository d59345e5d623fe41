/**
 * report.html: one self-contained page a person opens from a CI artifact, offline, in any
 * browser. The tests are written into the page as HTML (readable without scripts), grouped by
 * collection; a small script filters them and shows an exchange on demand from a JSON block.
 *
 * Its Content-Security-Policy allows nothing but its own inline style and script, by their
 * hashes: no network, no other script. The page is masked as a whole before the hashes are
 * taken (`mask`, the run's final masking), so masking can never break the policy, and the JSON
 * block's strings are masked before they are escaped for the page.
 *
 * The header says the verdict: red when a test failed or the report is incomplete (a merge that is
 * not one whole run, RunReport.incompleteReasons), with every reason listed under the counts —
 * counts of the tests that arrived must never read as a pass of the run.
 */
import { createHash } from 'node:crypto';
import { looksLikeXml, prettyText } from '../../xml/pretty';
import { isFlaky, type ExchangeTranscript, type Failure, type RunReport, type TestResult, type TranscriptMessage, type UntilAttempts } from '../types';
import { duration, where, type Relative } from './format';
import { REPORT_SCRIPT, REPORT_STYLE } from './htmlAssets';
import { relativeId } from './json';

export interface HtmlReportOptions {
  /** The run's final masking: applied to every text of the page. */
  readonly mask?: (text: string) => string;
  /** Shown as the page's heading. */
  readonly title?: string;
  /** Clock for "written at", for tests. */
  readonly now?: () => Date;
}

// Escapes as XML spells them, so the final masking finds a secret escaped for the page too (redact.ts).
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const MARKS = { passed: '✓', failed: '✗', skipped: '○' } as const;

/** JSON that cannot end the <script> element it sits in or be read as markup. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function exchangeForPage(t: ExchangeTranscript, mask: (s: string) => string): ExchangeTranscript {
  // Masked before pretty-printing: re-indenting can break a secret that is not well-formed XML over lines.
  const m = <T extends TranscriptMessage>(x: T): T => {
    const body = mask(x.body);
    return { ...x, headers: x.headers.map(([n, v]) => [mask(n), mask(v)] as const), body: looksLikeXml(body) ? prettyText(body) : body };
  };
  return {
    request: { ...m(t.request), method: mask(t.request.method), url: mask(t.request.url) },
    ...(t.reply ? { reply: { ...m(t.reply), statusText: mask(t.reply.statusText) } } : {}),
    ...(t.error ? { error: mask(t.error) } : {}),
  };
}

function failureHtml(f: Failure, rel: Relative): string {
  const rows: string[] = [];
  if (f.path) rows.push(`<span>reply path</span><code>${escapeHtml(f.path)}</code>`);
  if (f.expected !== undefined) rows.push(`<span>expected</span><pre>${escapeHtml(f.expected)}</pre>`);
  if (f.actual !== undefined) rows.push(`<span>actual</span><pre>${escapeHtml(f.actual)}</pre>`);
  return `<li><div class="message">${escapeHtml(f.message)}</div>${f.location ? `<div class="where">${escapeHtml(where(f.location, rel))}</div>` : ''}${rows.length ? `<div class="pair">${rows.join('')}</div>` : ''}</li>`;
}

function testHtml(r: TestResult, index: number, rel: Relative, hasExchange: boolean): string {
  const t = r.test;
  const facts: Array<[string, string]> = [['file', rel(t.file)]];
  if (t.operation) facts.push(['operation', `${t.operation} ${t.version ?? ''}`.trim()]);
  if (t.binding) facts.push(['binding', t.binding]);
  if (r.environment) facts.push(['environment', r.environment]);
  if (t.row) facts.push(['data row', `${rel(t.row.file)}:${t.row.location.line} (row ${t.row.index}${t.row.name ? `: ${t.row.name}` : ''})`]);
  if (r.startedAt) facts.push(['started', r.startedAt]);
  if (r.reply) {
    const { endpoint, status, totalMs, fault } = r.reply;
    facts.push([
      'reply',
      [
        endpoint,
        status !== undefined ? `HTTP ${status}` : undefined,
        totalMs !== undefined ? `${Math.round(totalMs)} ms` : undefined,
        fault ? `fault ${fault}` : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    ]);
  }
  if (t.tags?.length) facts.push(['tags', t.tags.join(', ')]);
  if (r.untilAttempts) facts.push(['waited', waitedFact(r.untilAttempts, r.durationMs)]);
  if (t.dependsOn.length) facts.push(['uses captures of', t.dependsOn.map((d) => relativeId(d, rel)).join(', ')]);
  const captured = Object.entries(r.captured);
  if (captured.length) facts.push(['captured', captured.map(([k, v]) => `${k}=${v}`).join(', ')]);
  const flaky = isFlaky(r);
  const attempts = r.attempts ?? [];
  const search = [
    t.name,
    rel(t.file),
    t.collection.name,
    t.collection.title ?? '',
    r.status,
    flaky ? 'flaky' : '',
    t.operation ?? '',
    r.environment ?? '',
    t.row?.name ?? '',
    ...(t.tags ?? []),
  ]
    .join(' ')
    .toLowerCase();
  const body = [
    `<dl>${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`,
    r.status === 'skipped' ? `<p class="skip">skipped: ${escapeHtml(r.skipReason ?? 'not run')}</p>` : '',
    flaky ? `<p class="skip flaky-note">flaky: failed ${attempts.length} time${attempts.length === 1 ? '' : 's'}, then passed</p>` : '',
    r.status === 'failed' && attempts.length ? `<p class="skip">failed all ${attempts.length + 1} attempts</p>` : '',
    r.notRetried ? `<p class="skip">${escapeHtml(r.notRetried)}</p>` : '',
    r.untilAttempts ? untilAttemptsHtml(r.untilAttempts) : '',
    ...attempts.map(
      (a, n) =>
        `<ol class="failures attempt" aria-label="attempt ${n + 1}"><li><div class="message">attempt ${n + 1}${a.reply?.status !== undefined ? ` (HTTP ${a.reply.status})` : ''}:</div></li>${a.failures.map((f) => failureHtml(f, rel)).join('')}</ol>`,
    ),
    r.failures.length ? `<ol class="failures">${r.failures.map((f) => failureHtml(f, rel)).join('')}</ol>` : '',
    r.warnings?.length ? `<ol class="failures warnings" aria-label="contract warnings">${r.warnings.map((f) => failureHtml(f, rel)).join('')}</ol>` : '',
    hasExchange ? `<button type="button" class="show-exchange" data-test="${index}">Show exchange</button><div class="exchange" hidden></div>` : '',
  ].join('');
  return `<li class="test ${r.status}${flaky ? ' flaky' : ''}" data-status="${r.status}" data-search="${escapeHtml(search)}"><details${r.status === 'failed' || flaky ? ' open' : ''}><summary><span class="mark" aria-label="${r.status}">${MARKS[r.status]}</span><span class="name">${escapeHtml(t.name)}</span><span class="meta">${escapeHtml([r.environment, duration(r.durationMs)].filter(Boolean).join(' · '))}</span></summary><div class="body">${body}</div></details></li>`;
}

function hashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export const CSP_PLACEHOLDER = '\u0000csp\u0000';

export function htmlReport(report: RunReport, rel: Relative, options: HtmlReportOptions = {}): string {
  const mask = options.mask ?? ((s: string) => s);
  const s = report.summary;
  const title = options.title ?? 'Carrier run report';
  const groups = new Map<string, TestResult[]>();
  for (const r of report.results) {
    const list = groups.get(r.test.collection.name);
    if (list) list.push(r);
    else groups.set(r.test.collection.name, [r]);
  }
  const exchanges: Record<string, ExchangeTranscript> = {};
  report.results.forEach((r, i) => {
    if (r.transcript) exchanges[i] = exchangeForPage(r.transcript, mask);
  });
  const indexOf = new Map(report.results.map((r, i) => [r, i]));

  const scope = report.shard
    ? `shard ${report.shard.index}/${report.shard.total} (${s.total} of ${report.shard.tests} tests)`
    : report.mergedFrom
      ? `merged from ${report.mergedFrom.length} report${report.mergedFrom.length === 1 ? '' : 's'}${
          report.mergedFrom.some((m) => m.shard)
            ? ` (shards ${report.mergedFrom
                .filter((m) => m.shard)
                .map((m) => `${m.shard!.index}/${m.shard!.total}`)
                .join(', ')})`
            : ''
        }`
      : '';
  const environments = [...new Set(report.results.map((r) => r.environment).filter((e): e is string => !!e))];
  const tile = (cls: string, label: string, value: string) => `<li class="${cls}"><b>${escapeHtml(value)}</b>${escapeHtml(label)}</li>`;
  const sections = [...groups]
    .map(([name, results]) => {
      const count = (st: TestResult['status']) => results.filter((r) => r.status === st).length;
      const collectionTitle = results[0].test.collection.title;
      return `<section class="collection" data-collection="${escapeHtml(name)}"><h2>${escapeHtml(name)}${collectionTitle ? ` <span class="title">— ${escapeHtml(collectionTitle)}</span>` : ''}<span class="counts">${results.length} tests · ${count('passed')} passed · ${count('failed')} failed · ${count('skipped')} skipped</span></h2><ul class="tests">${results.map((r) => testHtml(r, indexOf.get(r)!, rel, r.transcript !== undefined)).join('')}</ul></section>`;
    })
    .join('\n');
  const incomplete = report.incompleteReasons ?? [];
  const failed = s.failed > 0 || incomplete.length > 0;
  const verdict = failed
    ? `✗ Failed: ${[s.failed ? `${s.failed} test${s.failed === 1 ? '' : 's'} failed` : '', incomplete.length ? 'the report is incomplete' : ''].filter(Boolean).join('; ')}`
    : `✓ Passed${s.flaky ? ` (${s.flaky} flaky)` : ''}`;
  const incompleteHtml = incomplete.length
    ? `<section class="incomplete" role="alert"><h2>Incomplete report: not one whole run</h2><ul>${incomplete.map((r) => `<li>${escapeHtml(r.message)}</li>`).join('')}</ul></section>`
    : '';
  const problems = report.problems.length
    ? `<section class="problems"><h2>Problems</h2><ol class="failures">${report.problems.map((p) => failureHtml(p, rel)).join('')}</ol></section>`
    : '';

  const page = `${reportHead(`${title}: ${incomplete.length ? 'incomplete, ' : ''}${s.passed} passed${s.flaky ? ` (${s.flaky} flaky)` : ''}, ${s.failed} failed, ${s.skipped} skipped`, REPORT_STYLE)}
<body>
<header class="summary ${failed ? 'failed' : 'passed'}">
<h1>${escapeHtml(title)}</h1>
<p class="verdict">${escapeHtml(verdict)}</p>
<p class="sub">${escapeHtml([`started ${s.startedAt}`, scope, environments.length ? `environment ${environments.join(', ')}` : '', `written ${(options.now?.() ?? new Date()).toISOString()}`].filter(Boolean).join(' · '))}</p>
<ul class="tiles">${tile('total', 'tests', String(s.total))}${tile('passed', 'passed', String(s.passed))}${tile('failed', 'failed', String(s.failed))}${s.flaky ? tile('flaky', 'flaky', String(s.flaky)) : ''}${tile('skipped', 'skipped', String(s.skipped))}${tile('duration', 'duration', duration(s.durationMs))}</ul>
${incompleteHtml}
</header>
<main>
<div class="filters" role="search">
<input type="search" id="filter" placeholder="Filter by test, file, collection or row name" aria-label="Filter tests">
<label><input type="checkbox" name="status" value="failed" checked> failed</label>
<label><input type="checkbox" name="status" value="passed" checked> passed</label>
<label><input type="checkbox" name="status" value="skipped" checked> skipped</label>
<span id="shown" aria-live="polite">${s.total} tests</span>
</div>
<noscript><p class="note">Filtering and exchanges need scripts; every test is listed below.</p></noscript>
${problems}
${sections}
</main>
<script type="application/json" id="exchanges">${scriptJson(exchanges)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
  return withPolicy(mask(page));
}

/**
 * A report page with its Content-Security-Policy, at CSP_PLACEHOLDER: nothing but its own inline
 * style and script (none when it has no script), by their hashes, taken from the page as it
 * stands after masking, whatever masking changed. The load report's page is sealed here too
 * (src/core/load/html.ts).
 */
/**
 * The head every report page opens with: its policy to be sealed by withPolicy, no referrer, its
 * title and its one inline style. The run report and the load report (src/core/load/html.ts) alike.
 */
export function reportHead(title: string, style: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP_PLACEHOLDER}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>`;
}

export function withPolicy(page: string): string {
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
  const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1];
  const csp = `default-src 'none'; style-src ${hashOf(style)}; script-src ${script === undefined ? "'none'" : hashOf(script)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return page.replace(CSP_PLACEHOLDER, csp);
}

/** A test that waited (`retry`, docs/request-files.md#retry): `attempt 3 of 10, 4.20 s, until held`. */
function waitedFact(w: UntilAttempts, durationMs: number): string {
  return `attempt ${w.each.length} of ${w.max}, ${duration(durationMs)}, ${w.heldAt !== undefined ? 'until held' : w.cancelled ? 'cancelled' : 'until never held'}`;
}

/** Each attempt of a test that waited: status, verdict, time, and why `until` did not hold. */
function untilAttemptsHtml(w: UntilAttempts): string {
  const items = w.each.map(
    (a) =>
      `<li><div class="message">attempt ${a.number} of ${w.max}: ${escapeHtml(a.verdict)}${a.durationMs !== undefined ? `, ${escapeHtml(duration(a.durationMs))}` : ''}${a.waitedMs ? ` (after waiting ${escapeHtml(duration(a.waitedMs))})` : ''}${a.held ? ', until held' : ''}</div>${a.note && !a.held ? `<div class="where">${escapeHtml(a.note)}</div>` : ''}</li>`,
  );
  return `<ol class="failures until-attempts" aria-label="attempts">${items.join('')}</ol>`;
}
