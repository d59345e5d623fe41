/** Where the time went: connect, TLS, upload (relayed traffic), waiting for the first byte, download. */
import type { Exchange, Timing } from '../../core/view';
import { append, h, icon } from '../dom';
import { formatMs } from '../format';

const PHASES: ReadonlyArray<{ key: keyof Timing; label: string; cls: string }> = [
  { key: 'connectMs', label: 'Connect', cls: 'phase-connect' },
  { key: 'tlsMs', label: 'TLS handshake', cls: 'phase-tls' },
  { key: 'uploadMs', label: 'Upload', cls: 'phase-upload' },
  { key: 'firstByteMs', label: 'Waiting (first byte)', cls: 'phase-wait' },
  { key: 'downloadMs', label: 'Download', cls: 'phase-download' },
];

/** Errors that end an exchange before any connection to the service is open. */
const NO_CONNECTION = new Set(['connect', 'dns', 'proxy']);

export function renderTiming(panel: HTMLElement, exchange: Exchange): void {
  const timing = exchange.timing;
  if (!timing) {
    panel.append(h('p', { className: 'muted' }, 'No timing: the request was not sent.'));
    return;
  }
  const total = Math.max(timing.totalMs, 0.001);
  const present = PHASES.filter((p) => timing[p.key] !== undefined);
  // The inspector's upload phase runs from the client's first byte to the last sent on, so a
  // connection opened to the target meanwhile lies within it: the bar draws what adds up.
  const withinUpload = (p: (typeof PHASES)[number]) => timing.uploadMs !== undefined && (p.key === 'connectMs' || p.key === 'tlsMs');
  const label = (p: (typeof PHASES)[number]) => (withinUpload(p) ? `${p.label} (within the upload)` : p.label);
  const bar = h('div', { className: 'timing-bar', role: 'img', attrs: { 'aria-label': `Total ${formatMs(timing.totalMs)}` } });
  for (const p of present.filter((q) => !withinUpload(q))) {
    const seg = h('span', { className: `seg-phase ${p.cls}`, title: `${p.label}: ${formatMs(timing[p.key])}` });
    seg.style.width = `${Math.max(0.5, ((timing[p.key] as number) / total) * 100)}%`;
    bar.appendChild(seg);
  }
  append(
    panel,
    present.length > 0 ? bar : null,
    h(
      'table',
      { className: 'kv timing' },
      h('caption', { className: 'visually-hidden' }, 'Timing phases'),
      h(
        'tbody',
        {},
        ...present.map((p) =>
          h(
            'tr',
            {},
            h('th', { attrs: { scope: 'row' } }, h('span', { className: `swatch ${p.cls}`, attrs: { 'aria-hidden': 'true' } }), label(p)),
            h('td', { className: 'num' }, formatMs(timing[p.key])),
          ),
        ),
        h('tr', { className: 'total' }, h('th', { attrs: { scope: 'row' } }, 'Total'), h('td', { className: 'num' }, formatMs(timing.totalMs))),
      ),
    ),
    timingNote(exchange, timing, present.length),
  );
}

/**
 * What the phases mean for this exchange. Only the phases that happened are measured, so an
 * empty list has two opposite readings: a kept-alive connection (nothing to open), or a
 * connection that never opened at all. The exchange's error tells them apart.
 */
function timingNote(exchange: Exchange, timing: Timing, phases: number): HTMLElement | null {
  const error = exchange.error;
  if (error && timing.connectMs === undefined && NO_CONNECTION.has(error.kind)) {
    return h(
      'p',
      { className: 'notice error timing-note' },
      icon('debug-disconnect'),
      ` The connection never opened (${error.kind}): the ${formatMs(timing.totalMs)} went into trying. ${error.message}`,
    );
  }
  if (error) {
    return h(
      'p',
      { className: 'notice error timing-note' },
      icon('warning'),
      phases === 0
        ? ` The exchange ended with ${error.kind} before any phase was measured (on a reused connection, or before one opened).`
        : ` The exchange ended with ${error.kind} before a complete reply: only the phases above happened.`,
    );
  }
  if (phases === 0) return h('p', { className: 'muted timing-note' }, 'The connection was reused: only the total is known.');
  if (timing.connectMs === undefined) return h('p', { className: 'muted timing-note' }, 'The connection was reused, so there is no connect phase.');
  return null;
}
