/** Lays out one exchange: header, tabs, and the report of what ended up on screen. */
import type { ExchangeView, FollowUp, RenderReport, TabId } from './protocol';
import { h, icon } from './dom';

import { Tabs } from './tabs';
import { hasDomainView } from './views/domain';
import { renderDocuments } from './views/documentsView';
import { exchangeTitle } from '../core/view';
import { renderHeader } from './views/header';
import { renderReply } from './views/replyView';
import { renderRequest } from './views/requestView';
import { renderSummary, type SummaryOutcome } from './views/summaryView';
import { renderTiming } from './views/timingView';
import { createTree, type TreeHandle } from './views/treeView';
import { post } from './vscodeApi';

/**
 * A failure first shows what went wrong, a request file's expectations how they went, an
 * operation with a view of its own that view; otherwise what the reply carried.
 */
function defaultTab(view: ExchangeView): TabId {
  const ex = view.exchange;
  if (view.expectations || hasDomainView(ex)) return 'summary';
  // A large reply's parsed part is on its way: its Summary is where it will show.
  if (view.detailPending && ex.documents.length === 0) return 'summary';
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
  let summary: SummaryOutcome = {};

  const showPath = (path: string): void => {
    tabs?.select('tree', false);
    if (!tree?.reveal(path)) tree?.element.querySelector<HTMLElement>('input')?.focus();
  };
  const showDocument = (path?: string): void => {
    tabs?.select('documents', false);
    const panel = document.getElementById('panel-documents');
    const target =
      (path !== undefined ? Array.from(panel?.querySelectorAll<HTMLElement>('[data-doc-path]') ?? []).find((e) => e.dataset.docPath === path) : undefined) ??
      panel?.querySelector<HTMLElement>('[data-doc-path]');
    target?.scrollIntoView({ block: 'start' });
    (target?.querySelector<HTMLElement>('.pdf-stage, button') ?? document.getElementById('tab-documents'))?.focus();
  };
  const followUp = (request: FollowUp): void => post({ type: 'followUp', exchangeId: ex.id, request });

  tabs = new Tabs(
    [
      {
        id: 'summary',
        label: 'Summary',
        icon: 'info',
        badge: attentionBadge(ex),
        render: (p) => {
          if (view.detailPending) p.append(loading());
          summary = renderSummary(p, view, { onPath: showPath, showDocuments: () => showDocument(), followUp });
        },
      },
      {
        id: 'tree',
        label: 'Parsed',
        icon: 'list-tree',
        render: (p) => {
          if (view.detailPending) {
            p.append(loading());
            return;
          }
          if (ex.parsed === undefined) {
            p.append(h('p', { className: 'muted' }, view.trimmed ? 'The parsed reply was too large to keep in history.' : 'There is no parsed reply.'));
            return;
          }
          tree = createTree(ex.parsed, { documents: ex.documents, onDocument: showDocument });
          p.append(tree.element);
        },
      },
      {
        id: 'documents',
        label: 'Documents',
        icon: 'file-pdf',
        badge: ex.documents.length > 0 ? String(ex.documents.length) : undefined,
        render: (p) => {
          documents = renderDocuments(p, ex);
        },
      },
      { id: 'reply', label: 'Reply', icon: 'arrow-left', render: (p) => renderReply(p, view) },
      { id: 'request', label: 'Request', icon: 'arrow-right', render: (p) => renderRequest(p, ex.request, ex.wire) },
      { id: 'timing', label: 'Timing', icon: 'watch', render: (p) => renderTiming(p, ex) },
    ],
    preferred ?? defaultTab(view),
    onTab,
  );

  // The summary, the tree and the documents are what the report describes, so they are built up
  // front; the raw views wait until someone opens them.
  tabs.build('summary');
  tabs.build('tree');
  tabs.build('documents');
  // The header and the tab strip stay on screen together while a long Summary or tree scrolls.
  root.replaceChildren(h('div', { className: 'panel-top' }, renderHeader(view), tabs.list), tabs.panels);

  const docs = await documents;
  const stats = tree?.stats() ?? { totalNodes: 0, renderedNodes: 0, capped: false };
  return {
    exchangeId: ex.id,
    tab: tabs.current,
    summary: {
      title: exchangeTitle(ex),
      findings: ex.findings.length,
      domain: summary.domain,
      expectations: summary.expectations,
      checked: summary.checked,
      contract: summary.contract,
    },
    tree: stats,
    rawBodyChars: ex.reply?.bodyText.length ?? 0,
    documents: docs,
  };
}

/** Said while a large reply's parsed part is still on its way (main.ts asks for it after the header is drawn). */
function loading(): HTMLElement {
  const spinner = icon('loading');
  spinner.classList.add('codicon-modifier-spin');
  return h('p', { className: 'notice loading', role: 'status' }, spinner, ' Reading the parsed reply…');
}

/**
 * The Summary's badge counts what needs attention: errors and warnings. A clean reply's notes
 * (info findings, such as a rate quote's fuel-surcharge message) are no reason to look.
 */
function attentionBadge(ex: ExchangeView['exchange']): string | undefined {
  const n = ex.findings.filter((f) => f.severity !== 'info').length;
  return n > 0 ? String(n) : undefined;
}

export function renderMessage(root: HTMLElement, message: string): void {
  root.replaceChildren(h('p', { className: 'placeholder' }, message));
}
