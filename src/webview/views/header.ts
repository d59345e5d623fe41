/** The line that stays above the tabs: outcome, operation, and the numbers people look for first. */
import type { Exchange } from '../../core/exchange';
import { BINDING_LABELS } from '../../core/catalog/types';
import { h, icon } from '../dom';
import { formatBytes, formatMs } from '../format';

export interface Outcome {
  readonly label: string;
  readonly tone: 'ok' | 'warn' | 'error';
}

export function outcomeOf(exchange: Exchange): Outcome {
  if (exchange.error) return { label: `Failed: ${exchange.error.kind}`, tone: 'error' };
  if (exchange.fault) return { label: `${exchange.reply?.status ?? ''} SOAP fault`.trim(), tone: 'error' };
  const reply = exchange.reply;
  const status = reply ? `${reply.status} ${reply.statusText}`.trim() : 'No reply';
  if (reply && (reply.status < 200 || reply.status >= 300)) return { label: status, tone: 'error' };
  if (exchange.findings.some((f) => f.severity === 'error')) return { label: `${status} · error in reply`, tone: 'warn' };
  return { label: status, tone: 'ok' };
}

export function titleOf(exchange: Exchange): string {
  return exchange.operation ? `${exchange.operation}${exchange.version ? ` ${exchange.version}` : ''}` : `${exchange.request.method} ${exchange.request.url}`;
}

export function renderHeader(exchange: Exchange): HTMLElement {
  const outcome = outcomeOf(exchange);
  const meta = [
    exchange.environment,
    exchange.binding && BINDING_LABELS[exchange.binding],
    exchange.timing && formatMs(exchange.timing.totalMs),
    exchange.reply && formatBytes(exchange.reply.size),
  ].filter((m): m is string => Boolean(m));
  const iconName = outcome.tone === 'ok' ? 'pass-filled' : outcome.tone === 'warn' ? 'warning' : 'error';
  return h('header', { className: 'header' },
    h('span', { className: `pill pill-${outcome.tone}` }, icon(iconName), outcome.label),
    h('h1', {}, titleOf(exchange)),
    h('span', { className: 'meta' }, meta.join(' · ')),
  );
}
