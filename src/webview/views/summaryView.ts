/**
 * The summary: what happened, in words. Faults and in-body errors are spelled out, each finding
 * with a path links into the parsed tree.
 */
import { BINDING_LABELS, type Exchange, type Finding, type SoapFault } from '../../core/view';
import { h, icon, linkButton } from '../dom';
import { formatBytes, formatMs, formatTime } from '../format';
import { post } from '../vscodeApi';
import { factsTable } from './headersTable';

const SEVERITY_ICON = { error: 'error', warning: 'warning', info: 'info' } as const;

export function renderSummary(panel: HTMLElement, exchange: Exchange, onPath: (path: string) => void): void {
  if (exchange.error) {
    panel.append(h('div', { className: 'callout callout-error', role: 'alert' },
      icon('error'), h('div', {}, h('strong', {}, `Request failed (${exchange.error.kind})`), h('p', {}, exchange.error.message))));
  }
  if (exchange.fault) panel.append(faultCallout(exchange.fault));
  if (exchange.findings.length > 0) {
    panel.append(h('h2', {}, 'Findings'), h('ul', { className: 'findings' }, ...exchange.findings.map((f) => findingItem(f, onPath))));
  } else if (!exchange.error && !exchange.fault) {
    panel.append(h('div', { className: 'callout callout-ok' }, icon('pass'), h('div', {}, 'No fault and no error in the reply.')));
  }
  const source = exchange.source;
  panel.append(
    h('h2', {}, 'Exchange'),
    factsTable([
      ['Operation', exchange.operation && `${exchange.operation}${exchange.version ? ` ${exchange.version}` : ''}`],
      ['Binding', exchange.binding && BINDING_LABELS[exchange.binding]],
      ['Environment', exchange.environment],
      ['Endpoint', exchange.endpoint ?? exchange.request.url],
      ['HTTP status', exchange.reply && `${exchange.reply.status} ${exchange.reply.statusText}`],
      ['Started', formatTime(exchange.startedAt)],
      ['Time', exchange.timing && formatMs(exchange.timing.totalMs)],
      ['Reply size', exchange.reply && formatBytes(exchange.reply.size)],
      ['Documents', exchange.documents.length > 0 ? exchange.documents.map((d) => d.name).join(', ') : undefined],
      ['Request file', source ? linkButton(decodeURIComponent(source.replace(/^file:\/\//, '')), () => post({ type: 'openSource', exchangeId: exchange.id }), 'Open the request file') : undefined],
    ], 'Exchange facts'),
  );
}

function faultCallout(fault: SoapFault): HTMLElement {
  return h('div', { className: 'callout callout-error', role: 'alert' },
    icon('error'),
    h('div', {},
      h('strong', {}, `SOAP ${fault.soapVersion} fault: ${fault.reason || '(no reason given)'}`),
      factsTable([
        ['Code', fault.code],
        ['Subcodes', fault.subcodes.length > 0 ? fault.subcodes.join(' › ') : undefined],
        ['Actor', fault.actor],
        ['Role', fault.role],
      ], 'Fault'),
      fault.detail !== undefined ? h('details', {}, h('summary', {}, 'Detail'), h('pre', { className: 'code raw' }, JSON.stringify(fault.detail, null, 2))) : null,
    ),
  );
}

function findingItem(f: Finding, onPath: (path: string) => void): HTMLElement {
  return h('li', { className: `finding sev-${f.severity}` },
    icon(SEVERITY_ICON[f.severity], f.severity),
    h('span', { className: 'finding-kind' }, f.kind),
    h('span', { className: 'finding-message' }, f.message),
    f.path ? linkButton(h('code', {}, f.path), () => onPath(f.path!), 'Show in the parsed reply', 'finding-path') : null,
  );
}
