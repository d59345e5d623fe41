/** The results webview's entry: receives exchanges from the extension and renders them. */
import { renderExchange, renderMessage } from './app';
import { isToWebview } from './messages';
import type { ExchangeDetail, ExchangeView, TabId } from './protocol';
import { getState, post, setState } from './vscodeApi';

const root = document.getElementById('app')!;
let renderSeq = 0;
/** The view on screen, while its detail (a large reply's parsed reply) is still to come. */
let awaiting: ExchangeView | undefined;

/** The head of a large reply with its detail in place: the whole view. */
function withDetail(view: ExchangeView, detail: ExchangeDetail): ExchangeView {
  const ex = view.exchange;
  return {
    ...view,
    detailPending: false,
    bodyTruncatedFrom: detail.bodyTruncatedFrom,
    exchange: { ...ex, parsed: detail.parsed, reply: ex.reply && detail.bodyText !== undefined ? { ...ex.reply, bodyText: detail.bodyText } : ex.reply },
  };
}

function show(view: ExchangeView, tab: TabId | undefined): void {
  const seq = ++renderSeq;
  const exchangeId = view.exchange.id;
  awaiting = view.detailPending ? view : undefined;
  const onTab = (t: TabId): void => {
    setState({ exchangeId, tab: t });
    post({ type: 'tabChanged', tab: t });
  };
  const focusedTab = document.activeElement?.getAttribute('role') === 'tab' ? document.activeElement.id : undefined;
  renderExchange(root, view, tab, onTab).then(
    (report) => {
      // A newer exchange arrived while this one's PDFs were drawing: its report is stale.
      if (seq !== renderSeq) return;
      setState({ exchangeId, tab: report.tab });
      if (focusedTab) document.getElementById(focusedTab)?.focus();
      if (!view.detailPending) {
        post({ type: 'rendered', report });
        return;
      }
      // The header is drawn; ask for the heavy part once it has been painted.
      requestAnimationFrame(() => setTimeout(() => seq === renderSeq && post({ type: 'needDetail', exchangeId }), 0));
    },
    (err: unknown) => post({ type: 'error', message: `render failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` }),
  );
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isToWebview(message)) return;
  switch (message.type) {
    case 'show': {
      const exchangeId = message.view.exchange.id;
      show(message.view, message.tab ?? (getState().exchangeId === exchangeId ? getState().tab : undefined));
      return;
    }
    case 'detail':
      // Drawn again whole, on the tab the user is on now.
      if (awaiting?.exchange.id === message.detail.exchangeId) show(withDetail(awaiting, message.detail), getState().tab);
      return;
    case 'empty':
      renderSeq++;
      awaiting = undefined;
      setState({});
      renderMessage(root, message.message);
      return;
  }
});

window.addEventListener('error', (e) => post({ type: 'error', message: `${e.message} (${e.filename}:${e.lineno})` }));
window.addEventListener('unhandledrejection', (e) => post({ type: 'error', message: `unhandled: ${String(e.reason)}` }));

post({ type: 'ready' });
