/**
 * load-report.html: one self-contained page (docs/load.md#the-html-report) — the run's figures,
 * the table per operation, thresholds, latency over time and the percentile distribution as
 * inline SVG. Nothing is loaded from anywhere and the page has no script; its
 * Content-Security-Policy is the run report's (runner/reporters/html.ts withPolicy), and its
 * style is the run report's with the charts' few rules after it.
 */
import { escapeHtml, reportHead, withPolicy } from '../runner/reporters/html';
import { REPORT_STYLE } from '../runner/reporters/htmlAssets';
import { duration } from '../runner/reporters/format';
import { percentileMs } from './histogram';
import { ALL_OPERATIONS, histogramOf, type LoadReport, type OperationLoad } from './report';

export interface LoadHtmlOptions {
  readonly title?: string;
  /** The run's last masking, over the whole page before its policy is taken. */
  readonly mask?: (text: string) => string;
  readonly now?: () => Date;
}

const CHART_STYLE = `
table.load { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
table.load th, table.load td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: right; }
table.load th:first-child, table.load td:first-child, table.load td.errors { text-align: left; }
table.load tr.all td { font-weight: 600; }
ul.thresholds { list-style: none; padding: 0; }
ul.thresholds .held { color: var(--pass); } ul.thresholds .crossed { color: var(--fail); font-weight: 600; }
svg.chart { width: 100%; max-width: 960px; height: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
svg.chart text { fill: var(--muted); font-size: 11px; }
svg.chart .axis { stroke: var(--line); }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .bars { fill: var(--accent); opacity: 0.35; }
svg.chart .errbars { fill: var(--fail); opacity: 0.6; }
.s0 { stroke: #1f77b4; } .s1 { stroke: #ff7f0e; } .s2 { stroke: #d62728; } .s3 { stroke: #2ca02c; } .s4 { stroke: #9467bd; } .s5 { stroke: #8c564b; }
.k0 { color: #1f77b4; } .k1 { color: #ff7f0e; } .k2 { color: #d62728; } .k3 { color: #2ca02c; } .k4 { color: #9467bd; } .k5 { color: #8c564b; }
.legend span { margin-right: 14px; font-weight: 600; }
`;

const W = 900;
const H = 260;
// Room above the top gridline for the axis's unit, so the two never overlap.
const PAD = { left: 56, right: 16, top: 26, bottom: 30 };

interface Series {
  readonly label: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
}

const num = (n: number) => (Math.round(n * 10) / 10).toString();
const fmtMs = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** A line chart of several series; `xTicks` label the x axis at their places. */
function lineChart(title: string, series: readonly Series[], xMax: number, xTicks: ReadonlyArray<readonly [number, string]>, yLabel: string): string {
  const yMax = Math.max(1e-3, ...series.flatMap((s) => s.points.map((p) => p[1])));
  const x = (v: number) => PAD.left + (xMax > 0 ? (v / xMax) * (W - PAD.left - PAD.right) : 0);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (f) =>
      `<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${num(y(yMax * f))}" y2="${num(y(yMax * f))}"/><text x="${PAD.left - 6}" y="${num(y(yMax * f) + 4)}" text-anchor="end">${escapeHtml(fmtMs(yMax * f))}</text>`,
  );
  const ticks = xTicks.map(([v, label]) => `<text x="${num(x(v))}" y="${H - 10}" text-anchor="middle">${escapeHtml(label)}</text>`);
  const lines = series.map(
    (s, i) =>
      `<polyline class="series s${i % 6}" points="${s.points.map(([a, b]) => `${num(x(a))},${num(y(b))}`).join(' ')}"><title>${escapeHtml(s.label)}</title></polyline>`,
  );
  const legend = series.map((s, i) => `<span class="k${i % 6}">${escapeHtml(s.label)}</span>`).join('');
  return `<figure><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${grid.join('')}${ticks.join('')}<text x="8" y="14">${escapeHtml(yLabel)}</text>${lines.join('')}</svg><figcaption class="legend">${legend}</figcaption></figure>`;
}

/** Requests and errors per interval, as bars. */
function throughputChart(report: LoadReport): string {
  const t = report.timeline;
  if (!t.length) return '';
  const per = 1000 / report.intervalMs;
  const xMax = Math.max(report.durationMs, t[t.length - 1].atMs + report.intervalMs);
  const yMax = Math.max(1, ...t.map((i) => i.count * per));
  const bw = Math.max(1, ((W - PAD.left - PAD.right) * report.intervalMs) / xMax - 1);
  const x = (v: number) => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const h = (v: number) => (v / yMax) * (H - PAD.top - PAD.bottom);
  const bars = t.map(
    (i) =>
      `<rect class="bars" x="${num(x(i.atMs))}" y="${num(H - PAD.bottom - h(i.count * per))}" width="${num(bw)}" height="${num(h(i.count * per))}"><title>${escapeHtml(`${duration(i.atMs)}: ${num(i.count * per)} req/s, ${i.errors} errors`)}</title></rect>` +
      (i.errors
        ? `<rect class="errbars" x="${num(x(i.atMs))}" y="${num(H - PAD.bottom - h(i.errors * per))}" width="${num(bw)}" height="${num(h(i.errors * per))}"/>`
        : ''),
  );
  const grid = [0, 0.5, 1].map(
    (f) =>
      `<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${num(H - PAD.bottom - h(yMax * f))}" y2="${num(H - PAD.bottom - h(yMax * f))}"/><text x="${PAD.left - 6}" y="${num(H - PAD.bottom - h(yMax * f) + 4)}" text-anchor="end">${escapeHtml(num(yMax * f))}</text>`,
  );
  return `<figure><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Requests per second over time"><title>Requests per second over time (errors in red)</title>${grid.join('')}${timeTicks(
    xMax,
  )
    .map(([v, l]) => `<text x="${num(x(v))}" y="${H - 10}" text-anchor="middle">${escapeHtml(l)}</text>`)
    .join('')}<text x="8" y="14">req/s</text>${bars.join('')}</svg><figcaption class="legend">requests per second; errors in red</figcaption></figure>`;
}

function timeTicks(xMax: number): Array<[number, string]> {
  const steps = [1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
  const step = steps.find((s) => xMax / s <= 10) ?? 7_200_000;
  const ticks: Array<[number, string]> = [];
  // The origin is a time of the run, not a latency: `0 s`.
  for (let v = 0; v <= xMax; v += step) ticks.push([v, v ? duration(v) : '0 s']);
  return ticks;
}

/** p50, p95, p99 of each interval over the run. */
function latencyOverTime(report: LoadReport): string {
  if (!report.timeline.length) return '';
  const decoded = report.timeline.map((i) => ({ at: i.atMs + report.intervalMs / 2, h: histogramOf(i) }));
  const series: Series[] = [50, 95, 99].map((p) => ({ label: `p${p}`, points: decoded.map((d) => [d.at, percentileMs(d.h, p)] as const) }));
  const xMax = Math.max(report.durationMs, report.timeline[report.timeline.length - 1].atMs + report.intervalMs);
  return lineChart('Latency over time (ms): p50, p95, p99 of each interval', series, xMax, timeTicks(xMax), 'ms');
}

/** Percentiles on a scale of nines: 0, 90, 99, 99.9, 99.99. */
const PERCENTILES = [0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96, 97, 97.5, 98, 98.5, 99, 99.25, 99.5, 99.75, 99.9, 99.95, 99.99, 100];
const nines = (p: number) => Math.min(4.5, -Math.log10(Math.max(1e-5, 1 - p / 100)));

function percentileChart(report: LoadReport): string {
  const rows: OperationLoad[] = [...report.operations.filter((o) => o.count).slice(0, 5), ...(report.operations.length > 1 ? [report.overall] : [])];
  if (!rows.some((r) => r.count)) return '';
  const series = rows.map((o) => {
    const h = histogramOf(o);
    return { label: o.name === ALL_OPERATIONS ? 'all' : o.name, points: PERCENTILES.map((p) => [nines(p), percentileMs(h, p)] as const) };
  });
  const ticks: Array<[number, string]> = [
    [0, '0%'],
    [1, '90%'],
    [2, '99%'],
    [3, '99.9%'],
    [4, '99.99%'],
  ];
  return lineChart('Latency by percentile (ms)', series, 4.5, ticks, 'ms');
}

function tableHtml(report: LoadReport): string {
  const row = (o: OperationLoad, all: boolean) => {
    const l = o.latency;
    const errors = Object.entries(o.errorClasses)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    return `<tr${all ? ' class="all"' : ''}><td>${escapeHtml(all ? 'all' : o.name)}</td><td>${o.count}${o.skipped ? ` (+${o.skipped} skipped)` : ''}</td><td>${o.ratePerSecond.toFixed(1)}</td>${[l.minMs, l.p50Ms, l.p90Ms, l.p95Ms, l.p99Ms, l.maxMs].map((v) => `<td>${fmtMs(v)}</td>`).join('')}<td>${o.errors}</td><td class="errors">${escapeHtml(errors)}</td></tr>`;
  };
  return `<table class="load"><thead><tr><th>operation</th><th>count</th><th>req/s</th><th>min</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>max</th><th>errors</th><th>by class</th></tr></thead><tbody>${report.operations.map((o) => row(o, false)).join('')}${row(report.overall, true)}</tbody></table><p class="note">latencies in milliseconds${report.model === 'open' ? ', counted from when each iteration was meant to start' : ''}</p>`;
}

export function loadHtmlReport(report: LoadReport, options: LoadHtmlOptions = {}): string {
  const title = options.title ?? 'Carrier load report';
  const crossed = report.thresholds?.filter((t) => !t.held) ?? [];
  const incomplete = report.incompleteReasons ?? [];
  const failed = crossed.length > 0 || incomplete.length > 0;
  const o = report.overall;
  const verdict = failed
    ? `✗ ${[crossed.length ? `${crossed.length} threshold${crossed.length === 1 ? '' : 's'} crossed` : '', incomplete.length ? 'the merge is incomplete' : ''].filter(Boolean).join('; ')}`
    : report.thresholds?.length
      ? '✓ Every threshold held'
      : `${o.errors} errors in ${o.count} requests`;
  const tile = (label: string, value: string) => `<li><b>${escapeHtml(value)}</b>${escapeHtml(label)}</li>`;
  const thresholds = report.thresholds?.length
    ? `<h2>Thresholds</h2><ul class="thresholds">${report.thresholds.map((t) => `<li class="${t.held ? 'held' : 'crossed'}">${t.held ? '✓' : '✗'} ${escapeHtml(t.threshold)}: ${escapeHtml(t.measured)}</li>`).join('')}</ul>`
    : '';
  const setting = [
    `started ${report.startedAt}`,
    report.model === 'open' ? `open model, ${report.ratePerSecond}/s, at most ${report.vus} users` : `${report.vus} users`,
    report.rampMs ? `ramp ${duration(report.rampMs)}` : '',
    report.environments.length ? `environment ${report.environments.join(', ')}` : '',
    report.shard ? `shard ${report.shard.index}/${report.shard.total}` : '',
    report.mergedFrom ? `merged from ${report.mergedFrom} reports` : '',
    report.shards?.length ? `shards ${report.shards.map((s) => `${s.index}/${s.total}`).join(', ')}` : '',
    report.cancelled ? 'cancelled' : '',
    `written ${(options.now?.() ?? new Date()).toISOString()}`,
  ].filter(Boolean);
  const page = `${reportHead(`${title}: ${incomplete.length ? 'incomplete, ' : ''}${o.count} requests, ${o.errors} errors`, `${REPORT_STYLE}${CHART_STYLE}`)}
<body>
<header class="summary ${failed ? 'failed' : 'passed'}">
<h1>${escapeHtml(title)}</h1>
<p class="verdict">${escapeHtml(verdict)}</p>
<p class="sub">${escapeHtml(setting.join(' · '))}</p>
<ul class="tiles">${tile('requests', String(o.count))}${tile('req/s', o.ratePerSecond.toFixed(1))}${tile('p50 ms', fmtMs(o.latency.p50Ms))}${tile('p95 ms', fmtMs(o.latency.p95Ms))}${tile('p99 ms', fmtMs(o.latency.p99Ms))}${tile('errors', String(o.errors))}${tile('iterations', String(report.iterations))}${tile('duration', duration(report.durationMs))}</ul>
</header>
<main>
${
  // The run report's red box (runner/reporters/html.ts): a merge that is not one whole load says why first.
  incomplete.length
    ? `<section class="incomplete" role="alert"><h2>Incomplete report: not one whole load</h2><ul>${incomplete.map((r) => `<li>${escapeHtml(r.message)}</li>`).join('')}</ul></section>`
    : ''
}
${thresholds}
<h2>Operations</h2>
${tableHtml(report)}
<h2>Latency over time</h2>
${latencyOverTime(report)}
${throughputChart(report)}
<h2>Latency by percentile</h2>
${percentileChart(report)}
</main>
</body>
</html>
`;
  return withPolicy((options.mask ?? ((s: string) => s))(page));
}
