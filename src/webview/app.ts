/** Lays out one exchange: header, tabs, and the report of what ended up on screen. */
import type { ExchangeView, RenderReport, TabId } from './protocol';
import { h } from './dom';

import { Tabs } from './tabs';
import { renderDocuments } from './views/documentsView';
import { exchangeTitle } from '../core/view';
import { renderHeader } from './views/header';
import { renderReply } from './views/replyView';
import { renderRequest } from './views/requestView';
import { renderSummary } from './views/summaryView';
import { renderTiming } from './views/timingView';
import { createTree, type TreeHandle } from './views/treeView';

/** A failure first shows what went wrong; otherwise what the reply carried. */
function defaultTab(view: ExchangeView): TabId {
  const ex = view.exchange;
  if (ex.error || ex.fault || ex.findings.some((f) => f.severity === 'error')) return 'summary';
  if (ex.documents.length > 0) return 'documents';
  if (ex.parsed !== undefined) return 'tree';
  return 'reply';
}

export async function renderExchange(root: HTMLElement, view: ExchangeView, preferred: TabId | undefined, onTab: (tab: TabId) => void): Promise<RenderReport> {
  const ex = view.exchange;
  let tree: TreeHandle | undefined;
  let documents: Promise<RenderReport['documents']> = Promise.resolve([]);
  let tabs: Tabs | undefined;

  const showPath = (path: string): void => {
    tabs?.select('tree', false);
    if (!tree?.reveal(path)) tree?.element.querySelector<HTMLElement>('input')?.focus();
  };

  tabs = new Tabs([
    { id: 'summary', label: 'Summary', icon: 'info', badge: ex.findings.length > 0 ? String(ex.findings.length) : undefined, render: (p) => renderSummary(p, ex, showPath) },
    {
      id: 'tree', label: 'Parsed', icon: 'list-tree', render: (p) => {
        if (ex.parsed === undefined) {
          p.append(h('p', { className: 'muted' }, view.trimmed ? 'The parsed reply was too large to keep in history.' : 'There is no parsed reply.'));
          return;
        }
        tree = createTree(ex.parsed);
        p.append(tree.element);
      },
    },
    { id: 'documents', label: 'Documents', icon: 'file-pdf', badge: ex.documents.length > 0 ? String(ex.documents.length) : undefined, render: (p) => { documents = renderDocuments(p, ex); } },
    { id: 'reply', label: 'Reply', icon: 'arrow-left', render: (p) => renderReply(p, view) },
    { id: 'request', label: 'Request', icon: 'arrow-right', render: (p) => renderRequest(p, ex.request) },
    { id: 'timing', label: 'Timing', icon: 'watch', render: (p) => renderTiming(p, ex.timing) },
  ], preferred ?? defaultTab(view), onTab);

  // The tree and the documents are what the report describes, so they are built up front; the
  // raw views wait until someone opens them.
  tabs.build('tree');
  tabs.build('documents');
  root.replaceChildren(renderHeader(ex), tabs.element);

  const docs = await documents;
  const stats = tree?.stats() ?? { totalNodes: 0, renderedNodes: 0, capped: false };
  return {
    exchangeId: ex.id,
    tab: tabs.current,
    summary: { title: exchangeTitle(ex), findings: ex.findings.length },
    tree: stats,
    rawBodyChars: ex.reply?.bodyText.length ?? 0,
    documents: docs,
  };
}

export function renderMessage(root: HTMLElement, message: string): void {
  root.replaceChildren(h('p', { className: 'placeholder' }, message));
}


