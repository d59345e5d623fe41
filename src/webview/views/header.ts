/** The line that stays above the tabs: outcome, operation, and the numbers people look for first. */
import { BINDING_LABELS, classifyExchange, exchangeTitle, type Exchange, type VerdictTone } from '../../core/view';
import { h, icon } from '../dom';
import { formatBytes, formatMs } from '../format';

const ICON: Record<VerdictTone, string> = { ok: 'pass-filled', warn: 'warning', error: 'error', neutral: 'circle-large-outline' };

export function renderHeader(exchange: Exchange): HTMLElement {
  const verdict = classifyExchange(exchange);
  const meta = [
    exchange.environment,
    exchange.binding && BINDING_LABELS[exchange.binding],
    exchange.timing && formatMs(exchange.timing.totalMs),
    exchange.reply && formatBytes(exchange.reply.size),
  ].filter((m): m is string => Boolean(m));
  return h('header', { className: 'header' },
    h('span', { className: `pill pill-${verdict.tone}`, title: verdict.reason }, icon(ICON[verdict.tone]), verdict.label),
    h('h1', {}, exchangeTitle(exchange)),
    h('span', { className: 'meta' }, meta.join(' · ')),
  );
}
