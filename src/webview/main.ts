/** The results webview's entry: receives exchanges from the extension and renders them. */
import { renderExchange, renderMessage } from './app';
import { isToWebview } from './messages';
import type { TabId } from './protocol';
import { getState, post, setState } from './vscodeApi';

const root = document.getElementById('app')!;
let renderSeq = 0;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isToWebview(message)) return;
  switch (message.type) {
    case 'show': {
      const seq = ++renderSeq;
      const exchangeId = message.view.exchange.id;
      const tab = message.tab ?? (getState().exchangeId === exchangeId ? getState().tab : undefined);
      const onTab = (t: TabId): void => {
        setState({ exchangeId, tab: t });
        post({ type: 'tabChanged', tab: t });
      };
      renderExchange(root, message.view, tab, onTab).then(
        (report) => {
          // A newer exchange arrived while this one's PDFs were drawing: its report is stale.
          if (seq !== renderSeq) return;
          setState({ exchangeId, tab: report.tab });
          post({ type: 'rendered', report });
        },
        (err: unknown) => post({ type: 'error', message: `render failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` }),
      );
      return;
    }
    case 'empty':
      renderSeq++;
      setState({});
      renderMessage(root, message.message);
      return;
  }
});

window.addEventListener('error', (e) => post({ type: 'error', message: `${e.message} (${e.filename}:${e.lineno})` }));
window.addEventListener('unhandledrejection', (e) => post({ type: 'error', message: `unhandled: ${String(e.reason)}` }));

post({ type: 'ready' });
