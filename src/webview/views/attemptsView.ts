/**
 * A send that waited (`retry`, docs/request-files.md#retry): which attempt this exchange is, and
 * every attempt up to it with its status and verdict. History keeps each attempt as its own entry.
 */
import type { ExchangeAttempt, Exchange } from '../../core/view';
import { h, icon } from '../dom';
import { formatMs } from '../format';
import { outsideText } from './outsideText';

/** `attempt 3 of 10, 4.2 s` — the exchange's own time. */
export function attemptLine(attempt: ExchangeAttempt, exchange: Exchange): string {
  return `attempt ${attempt.number} of ${attempt.of}${exchange.timing ? `, ${formatMs(exchange.timing.totalMs)}` : ''}`;
}

/** What became of the waiting, once it is over; while it goes on, which attempt this is. */
export function attemptOutcome(attempt: ExchangeAttempt): string {
  if (attempt.heldAt !== undefined) return `until held at attempt ${attempt.heldAt}`;
  if (attempt.cancelled) return 'cancelled while waiting';
  return attempt.last ? `until never held in ${attempt.attempts.length} attempts` : 'until has not held yet';
}

export function renderAttempts(attempt: ExchangeAttempt, exchange: Exchange): HTMLElement {
  const held = attempt.heldAt !== undefined;
  const tone = held ? 'ok' : attempt.last ? 'error' : 'expected';
  return h(
    'div',
    { className: `callout attempts callout-${tone}`, role: 'status', attrs: { 'aria-label': `${attemptLine(attempt, exchange)}: ${attemptOutcome(attempt)}` } },
    icon(held ? 'pass' : attempt.last ? 'error' : 'sync'),
    h(
      'div',
      {},
      h('strong', {}, `${attemptLine(attempt, exchange)} — ${attemptOutcome(attempt)}`),
      h('p', {}, 'Waits until: ', outsideText(attempt.until, 200)),
      h(
        'ol',
        { className: 'attempt-list' },
        ...attempt.attempts.map((a) =>
          h(
            'li',
            { className: a.number === attempt.number ? 'current' : '' },
            `attempt ${a.number}: ${a.status !== undefined ? `HTTP ${a.status}, ` : ''}`,
            outsideText(a.verdict, 80),
            `${a.durationMs !== undefined ? `, ${formatMs(a.durationMs)}` : ''}${a.waitedMs ? ` (after ${formatMs(a.waitedMs)} waiting)` : ''}${a.held ? ' — until held' : ''}`,
            a.note && !a.held ? h('span', { className: 'attempt-note' }, ' — ', outsideText(a.note, 300)) : '',
          ),
        ),
      ),
    ),
  );
}
