/** Where the time went: connect, TLS, waiting for the first byte, download. */
import type { Timing } from '../../core/view';
import { append, h } from '../dom';
import { formatMs } from '../format';

const PHASES: ReadonlyArray<{ key: keyof Timing; label: string; cls: string }> = [
  { key: 'connectMs', label: 'Connect', cls: 'phase-connect' },
  { key: 'tlsMs', label: 'TLS handshake', cls: 'phase-tls' },
  { key: 'firstByteMs', label: 'Waiting (first byte)', cls: 'phase-wait' },
  { key: 'downloadMs', label: 'Download', cls: 'phase-download' },
];

export function renderTiming(panel: HTMLElement, timing: Timing | undefined): void {
  if (!timing) {
    panel.append(h('p', { className: 'muted' }, 'No timing: the request was not sent.'));
    return;
  }
  const total = Math.max(timing.totalMs, 0.001);
  const present = PHASES.filter((p) => timing[p.key] !== undefined);
  const bar = h('div', { className: 'timing-bar', role: 'img', attrs: { 'aria-label': `Total ${formatMs(timing.totalMs)}` } });
  for (const p of present) {
    const seg = h('span', { className: `seg-phase ${p.cls}`, title: `${p.label}: ${formatMs(timing[p.key])}` });
    seg.style.width = `${Math.max(0.5, ((timing[p.key] as number) / total) * 100)}%`;
    bar.appendChild(seg);
  }
  append(panel,
    bar,
    h('table', { className: 'kv timing' },
      h('caption', { className: 'visually-hidden' }, 'Timing phases'),
      h('tbody', {},
        ...present.map((p) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, h('span', { className: `swatch ${p.cls}`, attrs: { 'aria-hidden': 'true' } }), p.label), h('td', { className: 'num' }, formatMs(timing[p.key])))),
        h('tr', { className: 'total' }, h('th', { attrs: { scope: 'row' } }, 'Total'), h('td', { className: 'num' }, formatMs(timing.totalMs))),
      ),
    ),
    present.length === 0 ? h('p', { className: 'muted' }, 'The connection was reused: only the total is known.') : null,
  );
}
