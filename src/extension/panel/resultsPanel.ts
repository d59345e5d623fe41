/**
 * The one results panel. It is reused for every exchange (like a browser's response pane), can
 * be restored after a window reload by the serializer, and re-sends its exchange whenever the
 * webview reloads (retainContextWhenHidden is off to keep memory low with large replies). It shows
 * the judgement the exchange carries (its verdict, the request file's `expect` as judged when it
 * was sent) and judges nothing itself.
 */
import * as vscode from 'vscode';
import type { Exchange } from '../../core';
import { isFromWebview, RESULTS_VIEW_TYPE, type FromWebview, type PanelState, type RenderReport, type TabId, type ToWebview } from '../../webview/protocol';
import type { HistoryStore } from '../history/historyStore';
import type { Log } from '../log';
import { toDetail, toHeadView } from './exchangeView';
import { sourceUri } from './requestSource';
import { openFollowUp } from './followUp';
import { copyText, openFullBody, openSource, saveDocument } from './panelActions';
import { createNonce, localResourceRoots, panelResources, renderPanelHtml } from './panelHtml';

/** A request file as the panel names it: relative to its workspace folder. */
function displayPath(file: string): string {
  const uri = sourceUri({ source: file });
  return uri ? vscode.workspace.asRelativePath(uri, true) : file;
}

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: ToWebview | undefined;
  private current: { exchange: Exchange; trimmed: boolean } | undefined;
  private tab: TabId | undefined;
  private readonly rendered = new vscode.EventEmitter<RenderReport>();
  /** What the webview reports after each render: the tests' view of what a user sees. */
  readonly onDidRender = this.rendered.event;

  /** The exchange whose detail the webview has drawn: from then on the panel needs no more of it than History keeps. */
  private detailSent: string | undefined;
  private readonly historyChanged: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly history: HistoryStore,
    private readonly log: Log,
  ) {
    // A send shows its result before History has written it: let go once History has it.
    this.historyChanged = history.onDidChange(() => {
      if (this.detailSent !== undefined && this.current?.exchange.id === this.detailSent && !this.current.trimmed) void this.letGoOfWhole(this.detailSent);
    });
  }

  /** `viewColumn`: where the caller wants the panel (a send puts it beside the editor that sent); by default beside the active editor, or where it already is. */
  async show(exchange: Exchange, options: { preserveFocus?: boolean; trimmed?: boolean; viewColumn?: vscode.ViewColumn } = {}): Promise<void> {
    // A new exchange opens on the tab that suits it (a fault on the summary, a PDF on the
    // documents); the remembered tab is only for showing the same exchange again.
    if (this.current?.exchange.id !== exchange.id) this.tab = undefined;
    this.current = { exchange, trimmed: options.trimmed ?? false };
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        RESULTS_VIEW_TYPE,
        'Carrier Results',
        { viewColumn: options.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: options.preserveFocus ?? true },
        {
          enableScripts: true,
          enableFindWidget: true,
          localResourceRoots: localResourceRoots(this.extensionUri),
        },
      );
      this.attach(panel);
    } else {
      this.panel.reveal(options.viewColumn, options.preserveFocus ?? true);
    }
    this.updateTitle();
    this.post(this.showMessage());
  }

  async showById(id: string): Promise<void> {
    const loaded = await this.history.get(id);
    if (!loaded) {
      void vscode.window.showWarningMessage('Carrier: that exchange is no longer in history.');
      return;
    }
    await this.show(loaded.exchange, { trimmed: loaded.trimmed, preserveFocus: false });
  }

  /** Shows the last exchange again, if the panel was closed. */
  async reveal(): Promise<boolean> {
    if (this.panel) {
      this.panel.reveal();
      return true;
    }
    if (!this.current) return false;
    await this.show(this.current.exchange, { trimmed: this.current.trimmed, preserveFocus: false });
    return true;
  }

  /** Called by the serializer after a window reload. */
  async restore(panel: vscode.WebviewPanel, state: PanelState | undefined): Promise<void> {
    this.panel?.dispose();
    this.tab = state?.tab;
    const loaded = state?.exchangeId ? await this.history.get(state.exchangeId) : undefined;
    this.current = loaded && { exchange: loaded.exchange, trimmed: loaded.trimmed };
    panel.webview.options = { enableScripts: true, localResourceRoots: localResourceRoots(this.extensionUri) };
    this.attach(panel);
    this.updateTitle();
    this.post(this.current ? this.showMessage() : { type: 'empty', message: 'This result is no longer in history. Send the request again to see it here.' });
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'carrier.svg');
    panel.webview.html = renderPanelHtml(panel.webview, panelResources(panel.webview, this.extensionUri), createNonce());
    const subscriptions = [
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (isFromWebview(m)) void this.onMessage(m);
      }),
    ];
    panel.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.panel === panel) {
        this.panel = undefined;
        this.ready = false;
      }
    });
  }

  private showMessage(): ToWebview {
    const c = this.current!;
    // The expectations are the exchange's own judgement (made when it was sent), whatever the file says now.
    // A large reply's header goes first; its parsed reply when the webview asks (`needDetail`).
    return { type: 'show', view: toHeadView(c.exchange, c.trimmed, displayPath), tab: this.tab };
  }

  /**
   * Once a large exchange's detail is drawn, the panel holds it as History does (trimmed, its
   * whole body in a file): the extension host gives back the tens of megabytes of its body and tree.
   */
  private async letGoOfWhole(id: string): Promise<void> {
    const kept = await this.history.get(id);
    if (kept?.trimmed && this.current?.exchange.id === id) this.current = { exchange: kept.exchange, trimmed: true };
  }

  private updateTitle(): void {
    if (!this.panel) return;
    const ex = this.current?.exchange;
    // As the panel's header (src/webview/views/header.ts): the version path `sandbox` is no version number.
    this.panel.title = ex?.operation ? `Carrier: ${ex.operation}${ex.version && /^\d/.test(ex.version) ? ` ${ex.version}` : ''}` : 'Carrier Results';
  }

  // The webview drops messages sent before its script runs; hold the latest until it says ready.
  private post(message: ToWebview): void {
    if (!this.panel) return;
    if (!this.ready) {
      this.pending = message;
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  private async onMessage(m: FromWebview): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          this.ready = true;
          if (this.pending) {
            void this.panel?.webview.postMessage(this.pending);
            this.pending = undefined;
          } else if (this.current) {
            // A webview that was hidden and came back has lost its page: send the exchange again.
            void this.panel?.webview.postMessage(this.showMessage());
          }
          return;
        case 'rendered':
          this.log.debug(`results panel rendered ${m.report.exchangeId}: ${m.report.tree.renderedNodes} tree rows, ${m.report.documents.length} document(s)`);
          this.rendered.fire(m.report);
          return;
        case 'needDetail':
          if (this.current?.exchange.id === m.exchangeId) {
            await this.panel?.webview.postMessage({ type: 'detail', detail: toDetail(this.current.exchange) } satisfies ToWebview);
            this.detailSent = m.exchangeId;
            await this.letGoOfWhole(m.exchangeId);
          }
          return;
        case 'tabChanged':
          this.tab = m.tab;
          return;
        case 'copy':
          return await copyText(m.text, m.what);
        case 'openFullBody':
          return await openFullBody(this.history, m.exchangeId);
        case 'saveDocument':
          return await saveDocument(this.history, m.exchangeId, m.index, this.log);
        case 'openSource':
          return await openSource(this.current?.exchange, m.line, m.column, this.panel?.viewColumn);
        case 'followUp':
          if (this.current?.exchange.id === m.exchangeId) await openFollowUp(this.current.exchange, m.request, this.panel?.viewColumn);
          return;
        case 'error':
          this.log.error(`results panel: ${m.message}`);
          return;
      }
    } catch (err) {
      this.log.error(`results panel action ${m.type} failed: ${err instanceof Error ? err.message : String(err)}`);
      void vscode.window.showErrorMessage(`Carrier: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  dispose(): void {
    this.historyChanged.dispose();
    this.panel?.dispose();
    this.rendered.dispose();
  }
}
