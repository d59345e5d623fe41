/**
 * The summary: what happened, in words. The request file's own expectations first when it has
 * some (as judged when the exchange was sent: each one checked, each failure at its line), then a
 * failure or fault spelled out once, the operation's own view of the reply (a price comparison, a
 * timeline, …) with the reply against its contract (contractView.ts: its findings before that
 * view), the remaining findings (each with a path links into the parsed tree), "the reply matches
 * its contract" when it does, and the exchange's facts.
 */
import { BINDING_LABELS, type Exchange, type Finding, type SoapFault } from '../../core/view';
import type { ExpectationReport, ExchangeView } from '../protocol';
import { h, icon, linkButton } from '../dom';
import { formatBytes, formatMs, formatTime } from '../format';
import { post } from '../vscodeApi';
import { contractFindingsOf, renderContract } from './contractView';
import { renderDomainView, type DomainActions } from './domain';
import { factsTable } from './headersTable';
import { outsideText } from './outsideText';
import { renderAttempts } from './attemptsView';

const SEVERITY_ICON = { error: 'error', warning: 'warning', info: 'info' } as const;

export interface SummaryContext extends DomainActions {
  readonly onPath: (path: string) => void;
}

export interface SummaryOutcome {
  readonly domain?: string;
  readonly expectations?: string;
  readonly checked?: readonly string[];
  readonly contract?: string;
}

export function renderSummary(panel: HTMLElement, view: ExchangeView, ctx: SummaryContext): SummaryOutcome {
  const exchange = view.exchange;
  const expectations = view.expectations && expectationsCallout(exchange, view.expectations);
  if (expectations) panel.append(expectations.element);
  if (exchange.attempt) panel.append(renderAttempts(exchange.attempt, exchange));
  if (exchange.error) {
    panel.append(
      h(
        'div',
        { className: 'callout callout-error', role: 'alert' },
        icon('error'),
        h('div', {}, h('strong', {}, 'Request failed (', outsideText(exchange.error.kind, 200), ')'), h('p', {}, outsideText(exchange.error.message))),
      ),
    );
  }
  if (exchange.fault) panel.append(faultCallout(exchange.fault, view.expectations?.passed === true));
  // What the contract found comes before the operation's own view, which shows a reply a typed
  // client may not have read; a reply that matches its contract says so after the findings.
  const contract = renderContract(exchange, ctx.onPath, view.expectations?.strictContract === true);
  if (contract?.findings) panel.append(contract.element);
  const domain = renderDomainView(exchange, ctx);
  if (domain) panel.append(domain.element);
  // A fault or a failed request is already spelled out above, the contract's findings in their
  // own section; listing them again as findings says it twice.
  const inContract = new Set(contract ? contractFindingsOf(exchange) : []);
  const findings = exchange.findings.filter(
    (f) => !inContract.has(f) && !(exchange.fault && f.kind === 'fault') && !(exchange.error && f.kind === 'transport' && f.message === exchange.error.message),
  );
  if (findings.length > 0) {
    panel.append(h('h2', {}, 'Findings'), h('ul', { className: 'findings' }, ...findings.map((f) => findingItem(f, ctx.onPath))));
  } else if (!exchange.error && !exchange.fault && !domain) {
    panel.append(h('div', { className: 'callout callout-ok' }, icon('pass'), h('div', {}, 'No fault and no error in the reply.')));
  }
  if (contract && !contract.findings) panel.append(contract.element);
  const source = exchange.source;
  panel.append(
    h('h2', {}, 'Exchange'),
    factsTable(
      [
        ['Operation', exchange.operation && `${exchange.operation}${exchange.version ? ` ${exchange.version}` : ''}`],
        ['Binding', exchange.binding && BINDING_LABELS[exchange.binding]],
        ['Environment', exchange.environment],
        ['Endpoint', exchange.endpoint ?? exchange.request.url],
        ['HTTP status', exchange.reply && `${exchange.reply.status} ${exchange.reply.statusText}`],
        ['Started', formatTime(exchange.startedAt)],
        ['Time', exchange.timing && formatMs(exchange.timing.totalMs)],
        ['Reply size', exchange.reply && formatBytes(exchange.reply.size)],
        ['Documents', exchange.documents.length > 0 ? exchange.documents.map((d) => d.name).join(', ') : undefined],
        [
          'Request file',
          source
            ? linkButton(
                decodeURIComponent(source.replace(/^file:\/\//, '')),
                () => post({ type: 'openSource', exchangeId: exchange.id }),
                'Open the request file',
              )
            : undefined,
        ],
      ],
      'Exchange facts',
    ),
  );
  return { domain: domain?.id, expectations: expectations?.line, checked: expectations?.checked, contract: contract?.line };
}

/** "3/3 expectations held": the judgement of the file's expect made when the exchange was sent. */
export function expectationsLine(report: ExpectationReport): string {
  const base = `${report.held}/${report.total} expectation${report.total === 1 ? '' : 's'} held`;
  const implied = report.failures.filter((f) => f.implied).length;
  return implied > 0 && report.held === report.total ? `${base}, but the reply fails what every request expects` : base;
}

/** One expectation as the report says it was checked: `✓ status 200 (line 5)`. */
const checkedText = (c: ExpectationReport['checked'][number]) => `${c.held ? '✓' : '✗'} ${c.text} (line ${c.line})`;

function expectationsCallout(exchange: Exchange, report: ExpectationReport): { element: HTMLElement; line: string; checked: string[] } {
  const line = expectationsLine(report);
  const open = (l?: number, c?: number) => post({ type: 'openSource', exchangeId: exchange.id, line: l, column: c });
  const at = (l: number, c?: number) => linkButton(`line ${l}`, () => open(l, c), `Open ${report.file} at line ${l}`, 'finding-path');
  const element = h(
    'div',
    {
      className: `callout expectations ${report.passed ? 'callout-ok' : 'callout-error'}`,
      role: 'status',
      attrs: { 'aria-label': `${line} in ${report.file}` },
    },
    icon(report.passed ? 'pass' : 'error'),
    h(
      'div',
      { className: 'expectations-body' },
      h('strong', { className: 'expectations-line' }, line),
      h(
        'span',
        { className: 'muted' },
        ' · the expect of ',
        linkButton(report.file, () => open(), 'Open the request file'),
        ', as sent',
      ),
      report.checked.length > 0
        ? h(
            'ul',
            { className: 'expectation-checks', attrs: { 'aria-label': 'Expectations checked' } },
            ...report.checked.map((c) =>
              h(
                'li',
                { className: `expectation-check ${c.held ? 'held' : 'failed'}` },
                icon(c.held ? 'pass' : 'error', c.held ? 'held' : 'did not hold'),
                h('span', {}, h('code', { className: 'expectation-text' }, c.text), ' ', at(c.line, c.column)),
              ),
            ),
          )
        : null,
      report.failures.length > 0
        ? h(
            'ul',
            { className: 'expectation-failures', attrs: { 'aria-label': 'What did not hold' } },
            ...report.failures.map((f) =>
              h(
                'li',
                {},
                h('span', {}, f.implied ? `Not stated, but expected of every request: ${f.message}` : f.message),
                f.line !== undefined ? [' ', at(f.line, f.column)] : null,
              ),
            ),
          )
        : null,
    ),
  );
  return { element, line, checked: report.checked.map(checkedText) };
}

function faultCallout(fault: SoapFault, expected: boolean): HTMLElement {
  return h(
    'div',
    { className: `callout ${expected ? 'callout-expected' : 'callout-error'}`, role: expected ? 'note' : 'alert' },
    icon(expected ? 'info' : 'error'),
    h(
      'div',
      {},
      h(
        'strong',
        { className: 'fault-reason' },
        `SOAP ${fault.soapVersion} fault${expected ? ' (as the request file expects)' : ''}: `,
        fault.reason ? outsideText(fault.reason) : '(no reason given)',
      ),
      factsTable(
        [
          ['Code', outsideText(fault.code, 500)],
          ['Subcodes', fault.subcodes.length > 0 ? outsideText(fault.subcodes.join(' › '), 500) : undefined],
          ['Actor', fault.actor && outsideText(fault.actor, 500)],
          ['Role', fault.role && outsideText(fault.role, 500)],
        ],
        'Fault',
      ),
      fault.detail !== undefined
        ? h('details', {}, h('summary', {}, 'Detail'), h('pre', { className: 'code raw' }, JSON.stringify(fault.detail, null, 2)))
        : null,
    ),
  );
}

function findingItem(f: Finding, onPath: (path: string) => void): HTMLElement {
  return h(
    'li',
    { className: `finding sev-${f.severity}` },
    icon(SEVERITY_ICON[f.severity], f.severity),
    h('span', { className: 'finding-kind' }, f.kind),
    h('span', { className: 'finding-message' }, outsideText(f.message)),
    f.path ? linkButton(h('code', {}, f.path), () => onPath(f.path!), 'Show in the parsed reply', 'finding-path') : null,
  );
}
