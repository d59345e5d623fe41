/** The reply: status, headers, and the body pretty or raw (capped; the full body opens in an editor). */
import type { ExchangeView } from '../protocol';
import { append, button, h, icon, linkButton } from '../dom';
import { formatBytes } from '../format';
import { copy, post } from '../vscodeApi';
import { looksLikeXml } from '../../core/view';
import { bodyBlock, PRETTY_LIMIT_CHARS, rawBlock } from './codeView';
import { headersTable } from './headersTable';

export function renderReply(panel: HTMLElement, view: ExchangeView): void {
  const { exchange } = view;
  const reply = exchange.reply;
  const answered = exchange.wire?.answered;
  if (!reply) {
    panel.append(
      answered
        ? h(
            'p',
            { className: 'notice warn' },
            icon('warning'),
            ` The target sent no reply: the traffic inspector answered the client itself with ${answered.status} ${answered.statusText} (the Summary says why).`,
          )
        : h('p', { className: 'muted' }, exchange.error ? 'No reply was received (see Summary).' : 'No reply.'),
    );
    return;
  }
  append(
    panel,
    h(
      'div',
      { className: 'request-line' },
      h('span', { className: `status-code ${reply.status >= 200 && reply.status < 300 ? 'ok' : 'bad'}` }, String(reply.status)),
      h('span', {}, reply.statusText),
      h('span', { className: 'muted' }, formatBytes(reply.size)),
    ),
    answered
      ? h(
          'p',
          { className: 'notice warn' },
          icon('warning'),
          ` This reply is the traffic inspector's own, not the target's: the target could not be reached or did not answer in time (the Summary says why).`,
        )
      : null,
    h('h2', {}, 'Headers'),
    headersTable(reply.headers, 'Reply headers'),
  );
  // Interim replies came before the final one, each relayed to the client as it came.
  const interim = exchange.wire?.interim ?? [];
  if (interim.length) {
    panel.append(h('h2', {}, interim.length === 1 ? 'Interim reply' : `Interim replies (${interim.length})`));
    for (const i of interim) {
      panel.append(
        h('div', { className: 'request-line' }, h('span', { className: 'status-code' }, String(i.status)), h('span', {}, i.statusText)),
        headersTable(i.headers, `Headers of the ${i.status} interim reply`),
      );
    }
  }
  if (exchange.wire?.replyTrailers) panel.append(h('h2', {}, 'Trailers'), headersTable(exchange.wire.replyTrailers, 'Reply trailers'));

  const body = reply.bodyText;
  const canPretty = looksLikeXml(body) && body.length <= PRETTY_LIMIT_CHARS;
  const holder = h('div', { className: 'body-holder' });
  let mode: 'pretty' | 'raw' = canPretty ? 'pretty' : 'raw';
  const prettyBtn = h('button', { className: 'seg', type: 'button', on: { click: () => setMode('pretty') } }, 'Pretty');
  const rawBtn = h('button', { className: 'seg', type: 'button', on: { click: () => setMode('raw') } }, 'Raw');
  prettyBtn.disabled = !canPretty;
  if (!canPretty) prettyBtn.title = looksLikeXml(body) ? 'Too large to colour; shown raw' : 'Not XML';
  const setMode = (m: 'pretty' | 'raw'): void => {
    mode = m;
    prettyBtn.setAttribute('aria-pressed', String(m === 'pretty'));
    rawBtn.setAttribute('aria-pressed', String(m === 'raw'));
    holder.replaceChildren(m === 'pretty' ? bodyBlock(body, 'Reply body') : rawBlock(body, 'Reply body, raw'));
  };

  append(
    panel,
    h(
      'div',
      { className: 'section-head' },
      h('h2', {}, 'Body'),
      h('div', { className: 'segmented', role: 'group', attrs: { 'aria-label': 'Body view' } }, prettyBtn, rawBtn),
      button('Copy', 'copy', () => copy(body, view.bodyTruncatedFrom ? 'the first 1 MB of the body' : 'reply body'), { secondary: true }),
      button('Open in Editor', 'go-to-file', () => post({ type: 'openFullBody', exchangeId: exchange.id }), {
        secondary: true,
        title: 'Open the full reply body in an editor',
      }),
    ),
    view.bodyTruncatedFrom !== undefined
      ? h(
          'p',
          { className: 'notice' },
          icon('info'),
          ` Showing the first ${formatBytes(body.length)} of ${formatBytes(view.bodyTruncatedFrom)}. `,
          linkButton('Open full body in an editor', () => post({ type: 'openFullBody', exchangeId: exchange.id })),
        )
      : null,
    view.trimmed ? h('p', { className: 'notice' }, icon('history'), ' This result was reloaded from history; large parts may have been dropped.') : null,
    holder,
  );
  setMode(mode);
}
