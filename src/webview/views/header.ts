/** The line that stays above the tabs: outcome, operation, and the numbers people look for first. */
import { BINDING_LABELS, classifyExchange, exchangeTitle, type Exchange, type VerdictTone } from '../../core/view';
import type { ExchangeView } from '../protocol';
import { h, icon } from '../dom';
import { formatBytes, formatMs } from '../format';
import { expectationsLine } from './summaryView';
import { attemptLine, attemptOutcome } from './attemptsView';

const ICON: Record<VerdictTone, string> = { ok: 'pass-filled', warn: 'warning', error: 'error', neutral: 'circle-large-outline' };

/**
 * The operation as the header names it. The bill-of-lading read operations live at the literal
 * version path `sandbox` (src/core/catalog/services/billOfLading.ts); beside the environment that
 * is usually also called sandbox the header would read "sandbox" twice for two different things,
 * so a version that is not a version number is left to the Summary's facts.
 */
export function headerTitle(x: Exchange): string {
  return x.operation && x.version && !/^\d/.test(x.version) ? x.operation : exchangeTitle(x);
}

export function renderHeader(view: ExchangeView): HTMLElement {
  const exchange = view.exchange;
  const verdict = classifyExchange(exchange);
  const report = view.expectations;
  // A fault the request file expects is not the red alarm an unexpected one is: the expectations
  // say how it went. A reply that breaks its contract stays red whatever the file says.
  const expected = report?.passed === true && !verdict.ok && verdict.kind !== 'contract-error';
  const tone: VerdictTone = expected ? 'neutral' : verdict.tone;
  const meta: Array<HTMLElement | string> = [];
  if (exchange.environment) meta.push(h('span', { title: 'Environment' }, icon('server-environment', 'Environment'), ` ${exchange.environment}`));
  if (exchange.binding) meta.push(BINDING_LABELS[exchange.binding]);
  if (exchange.timing) meta.push(formatMs(exchange.timing.totalMs));
  if (exchange.reply) meta.push(formatBytes(exchange.reply.size));
  if (exchange.wire?.answered)
    meta.push(
      h(
        'span',
        { title: 'The traffic inspector answered: the target could not be reached or did not answer' },
        icon('warning'),
        ' reply made by the inspector',
      ),
    );
  const metaLine = h('span', { className: 'meta' });
  meta.forEach((m, i) => metaLine.append(...(i > 0 ? [' · ', m] : [m])));
  return h(
    'header',
    { className: 'header' },
    h(
      'span',
      { className: `pill pill-${tone}`, title: expected ? `${verdict.reason} (as the request file expects)` : verdict.reason },
      icon(ICON[tone]),
      verdict.label,
    ),
    report
      ? h(
          'span',
          { className: `pill pill-${report.passed ? 'ok' : 'error'} pill-expect`, title: `The expect of ${report.file}` },
          icon(report.passed ? 'pass-filled' : 'error'),
          expectationsLine(report),
        )
      : null,
    exchange.attempt
      ? h(
          'span',
          {
            className: `pill pill-${exchange.attempt.heldAt !== undefined ? 'ok' : exchange.attempt.last ? 'error' : 'neutral'} pill-attempt`,
            title: attemptOutcome(exchange.attempt),
          },
          icon('sync'),
          attemptLine(exchange.attempt, exchange),
        )
      : null,
    h('h1', {}, headerTitle(exchange)),
    metaLine,
  );
}
