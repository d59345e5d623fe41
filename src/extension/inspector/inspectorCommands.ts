/**
 * Carrier: Start / Stop Traffic Inspector, copy its URL, and the Traffic Inspector view's
 * commands: open an exchange in the results panel, save one as a request file, clear the list.
 */
import * as vscode from 'vscode';
import { recordedAsRequestFile, type RecordedExchange } from '../core-adapter';
import { guarded, reportError } from '../errors';
import type { HistoryStore } from '../history/historyStore';
import type { Log } from '../log';
import type { ResultsPanel } from '../panel/resultsPanel';
import type { ApiKeys } from '../secrets/apiKeys';
import type { InspectorController } from './inspectorController';
import { rowOf } from './inspectorTree';
import { saveRequestFile } from '../saveRequestFile';
import type { VerdictKind } from '../../core';
import { classifyExchange } from '../coreLight';

/** What the view shows for one exchange, for tests and other extensions (the TreeView API cannot be read back): see api.ts. */
export interface InspectorRow {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly contextValue: string;
  /** Core's verdict on the exchange (src/core/verdict.ts). */
  readonly verdict: VerdictKind;
  readonly operation?: string;
  readonly binding?: string;
  readonly status?: number;
}

const REQUEST_SUFFIX = '.carrier.json';

function requestFileName(r: RecordedExchange): string {
  const label = r.recognition.kind === 'operation' ? `${r.recognition.operation}-${r.recognition.version}` : 'request';
  return `${label.replace(/[^\w.-]+/g, '_')}-recorded-${String(r.seq).padStart(3, '0')}${REQUEST_SUFFIX}`;
}

export function registerInspectorCommands(
  inspector: InspectorController,
  history: HistoryStore,
  panel: ResultsPanel,
  keys: ApiKeys,
  log: Log,
): vscode.Disposable[] {
  const entryOf = (arg: unknown): RecordedExchange | undefined => {
    const id = typeof arg === 'string' ? arg : (arg as RecordedExchange | undefined)?.exchange?.id;
    return id ? inspector.find(id) : undefined;
  };

  return [
    // Returns the URL, so a caller (another extension, a test) can point a client at it.
    vscode.commands.registerCommand('carrier.inspector.start', async (): Promise<string | undefined> => {
      try {
        const already = inspector.url;
        const url = await inspector.start();
        if (!already) {
          void vscode.window
            .showInformationMessage(`Carrier: traffic inspector on ${url}, forwarding to ${inspector.target}. Point your program at it.`, 'Copy URL')
            .then((choice) => {
              if (choice === 'Copy URL') void vscode.commands.executeCommand('carrier.inspector.copyUrl');
            });
        }
        return url;
      } catch (err) {
        await reportError(log, 'Start Traffic Inspector', err);
        return undefined;
      }
    }),
    vscode.commands.registerCommand(
      'carrier.inspector.stop',
      guarded(log, 'Stop Traffic Inspector', async () => {
        await inspector.stop();
        vscode.window.setStatusBarMessage('$(radio-tower) Carrier traffic inspector stopped', 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.inspector.copyUrl',
      guarded(log, 'Copy Traffic Inspector URL', async () => {
        if (!inspector.url) return;
        await vscode.env.clipboard.writeText(inspector.url);
        vscode.window.setStatusBarMessage(`$(copy) Copied ${inspector.url}`, 2500);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.inspector.menu',
      guarded(log, 'Traffic Inspector', async () => {
        if (!inspector.url) return;
        const picked = await vscode.window.showQuickPick(
          [
            { label: '$(copy) Copy URL', description: inspector.url, id: 'copy' as const },
            { label: '$(list-flat) Show Exchanges', id: 'show' as const },
            { label: '$(debug-stop) Stop Traffic Inspector', id: 'stop' as const },
          ],
          { title: `Carrier traffic inspector → ${inspector.target}` },
        );
        if (picked?.id === 'copy') await vscode.commands.executeCommand('carrier.inspector.copyUrl');
        if (picked?.id === 'show') await vscode.commands.executeCommand('carrier.inspector.focus');
        if (picked?.id === 'stop') await vscode.commands.executeCommand('carrier.inspector.stop');
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.inspector.open',
      guarded(log, 'Open Recorded Exchange', async (arg?: unknown) => {
        const r = entryOf(arg);
        if (!r) return;
        // Through history, so the panel's actions (whole body, save a document) and a reload find it.
        await history.add(r.exchange);
        await panel.show(r.exchange, { preserveFocus: false });
      }),
    ),
    vscode.commands.registerCommand('carrier.inspector.saveAsRequestFile', async (arg?: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> => {
      try {
        const r = entryOf(arg);
        if (!r) return undefined;
        // Hidden from the file whatever address they were stored for.
        const hidden = inspector.environment ? await keys.values(inspector.environment) : [];
        const text = recordedAsRequestFile(r, hidden);
        if (!text) {
          void vscode.window.showWarningMessage('Carrier: only a call of the service (with its whole request body recorded) can become a request file.');
          return undefined;
        }
        const uri = await saveRequestFile(text, requestFileName(r), target);
        if (uri) log.info(`saved recorded exchange #${r.seq} as ${uri.toString(true)}`);
        return uri;
      } catch (err) {
        await reportError(log, 'Save as Request File', err);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('carrier.inspector.clear', () => inspector.clear()),
  ];
}

/** The view's rows as it shows them. */
export function inspectorRows(inspector: InspectorController): InspectorRow[] {
  return inspector.exchanges().map((r) => {
    const item = rowOf(r);
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    return {
      id: r.exchange.id,
      label,
      description: String(item.description ?? ''),
      contextValue: item.contextValue ?? '',
      verdict: classifyExchange(r.exchange).kind,
      ...(r.exchange.operation ? { operation: r.exchange.operation } : {}),
      ...(r.exchange.binding ? { binding: r.exchange.binding } : {}),
      ...(r.exchange.reply ? { status: r.exchange.reply.status } : {}),
    };
  });
}
