/**
 * Carrier: Check Contract of Environment… and Carrier: Compare With Environment…, the editor's
 * faces of `carrier contract` and `carrier compare`: the same core functions, with a cancellable
 * progress, the report as a page (contractView.ts) and the two replies side by side in a diff
 * editor. A request to an address the workspace defines waits for Workspace Trust, as sends do.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  classifyExchange, compareExchanges, contractExitCode, keyDestination, VERDICT_PHRASES, writeEnvironmentNamespaces,
  type ContractReport, type Environment, type Exchange, type ReplyDifference,
} from '../../core';
import { readSettings } from '../config';
import { isRequestFileError, sendRequest } from '../core-adapter';
import { engine } from '../engineBundle';
import { activeFolder, folderOf, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import { REQUEST_LANGUAGE } from '../send/targetDocument';
import type { ContractSupport } from './contractSupport';
import { contractHtml, showContractView } from './contractView';

export const COMPARE_SCHEME = 'carrier-compare';

/** What Check Contract returns to a caller (another extension, the host tests). */
export interface ContractCommandResult {
  readonly exitCode: 0 | 1 | 2;
  readonly report: ContractReport;
  /** The page the view shows. */
  readonly html: string;
}

export interface ApplyResult {
  readonly changed: readonly string[];
  readonly environmentsFile: string;
  readonly contractFile: string;
}

export interface CompareCommandResult {
  readonly environments: readonly [string, string];
  readonly differences: readonly ReplyDifference[];
  readonly left: string;
  readonly right: string;
}

export function registerContractCommands(environments: EnvironmentStore, keys: ApiKeys, sandbox: SandboxController, support: ContractSupport, log: Log): vscode.Disposable[] {
  const checked = new Map<string, { report: ContractReport; folder: string | undefined }>();
  const replies = new Map<string, string>();
  const changedReplies = new vscode.EventEmitter<vscode.Uri>();

  async function pickEnvironment(folder: string | undefined, placeHolder: string, exclude?: string): Promise<Environment | undefined> {
    const all = environments.definitions(folder).environments.filter((e) => e.name !== exclude);
    const picked = await vscode.window.showQuickPick(
      all.map((e) => ({ label: e.name, description: e.embedded ? 'embedded sandbox' : e.baseUrl, detail: e.description, environment: e })),
      { placeHolder },
    );
    return picked?.environment;
  }

  /** Restricted Mode sends nothing to an address a workspace file defines. */
  async function trusted(env: Environment): Promise<boolean> {
    if (env.embedded || vscode.workspace.isTrusted) return true;
    const choice = await vscode.window.showWarningMessage(`Carrier: "${env.name}" is defined by this workspace, which is in Restricted Mode: nothing is sent to ${keyDestination(env).label} until you trust it.`, 'Manage Workspace Trust');
    if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
    return false;
  }

  async function apply(name: string): Promise<ApplyResult | undefined> {
    const last = checked.get(name);
    if (!last) {
      void vscode.window.showErrorMessage(`Carrier: check the contract of "${name}" first.`);
      return undefined;
    }
    const loaded = environments.definitions(last.folder);
    if (!loaded.file) {
      void vscode.window.showErrorMessage(`Carrier: "${name}" has no entry in a carrier.environments.json to write to.`);
      return undefined;
    }
    const edit = writeEnvironmentNamespaces(loaded.file, name, last.report.suggestedNamespaces);
    const contractFile = engine().writeStoredContract(path.dirname(loaded.file), last.report);
    environments.refresh();
    support.contractsChanged();
    const said = `${edit.changed.length ? `Set ${edit.changed.join(', ')} of "${name}" in ${vscode.workspace.asRelativePath(loaded.file)}` : `The namespaces of "${name}" already were the live ones`}; the contract is stored in ${vscode.workspace.asRelativePath(contractFile)}: request files sent to "${name}" follow it.`;
    log.info(`contract: ${said}`);
    showContractView(last.report, actionsFor(last.report, last.folder), said);
    void vscode.window.showInformationMessage(`Carrier: ${said}`);
    return { changed: edit.changed, environmentsFile: loaded.file, contractFile };
  }

  function actionsFor(report: ContractReport, folder: string | undefined) {
    const env = environments.definitions(folder).environments.find((e) => e.name === report.environment);
    return {
      ...(env && !env.embedded && report.summary.unreadable === 0 ? { apply: async () => { await apply(report.environment); } } : {}),
      recheck: async () => { await check(report.environment, folder); },
    };
  }

  async function check(name?: string, folder: string | undefined = activeFolder()): Promise<ContractCommandResult | undefined> {
    // The check is about the file as it is now, whatever the watcher has seen of it yet.
    environments.refresh();
    const env = name ? environments.definitions(folder).environments.find((e) => e.name === name) : await pickEnvironment(folder, 'Check the live contract of which environment?');
    if (!env) {
      if (name) void vscode.window.showErrorMessage(`Carrier: no environment "${name}" in this workspace folder.`);
      return undefined;
    }
    if (!(await trusted(env))) return undefined;
    const abort = new AbortController();
    const { checkContract, ContractCancelled, ContractReadError } = engine();
    let report: ContractReport;
    try {
      report = (await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Carrier: checking the contract of "${env.name}"`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          return checkContract({
            environment: env,
            signal: abort.signal,
            resolveEmbedded: () => sandbox.start(),
            onProgress: (done, total, servicePath) => progress.report({ increment: 100 / total, message: `${servicePath} (${done}/${total})` }),
          });
        },
      )).report;
    } catch (err) {
      if (err instanceof ContractCancelled) {
        void vscode.window.showInformationMessage(`Carrier: the contract check of "${env.name}" was cancelled.`);
        return undefined;
      }
      if (err instanceof ContractReadError) {
        void vscode.window.showErrorMessage(`Carrier: ${err.message}`);
        return undefined;
      }
      throw err;
    }
    checked.set(env.name, { report, folder });
    const exitCode = contractExitCode(report);
    log.info(`contract of ${env.name}: ${report.summary.differences} differences (${report.summary.breaking} breaking), ${report.summary.unreadable} unreadable`);
    showContractView(report, actionsFor(report, folder));
    return { exitCode, report, html: contractHtml(report, '', Boolean(actionsFor(report, folder).apply)) };
  }

  /** The key for a comparison's send: stored for this very destination, or none (the sandbox needs none). */
  async function keyOf(env: Environment): Promise<{ key?: string } | undefined> {
    const found = await keys.lookup(env.name, keyDestination(env));
    if (found.key !== undefined || env.embedded) return { key: found.key };
    const choice = await vscode.window.showWarningMessage(`Carrier: no API key is stored for "${env.name}" (${keyDestination(env).label}); set one to compare with it.`, 'Set API Key');
    if (choice) await vscode.commands.executeCommand('carrier.setApiKey', env.name, keyDestination(env));
    return undefined;
  }

  async function compare(target?: vscode.Uri, otherName?: string): Promise<CompareCommandResult | undefined> {
    const doc = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== REQUEST_LANGUAGE) {
      void vscode.window.showErrorMessage('Carrier: open a request file (*.carrier.json) to compare its replies.');
      return undefined;
    }
    const text = doc.getText();
    const fileName = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const folder = folderOf(doc.uri);
    const { validateRequestText: coreValidate, sendableRequest, RequestFileError } = engine();
    const first = environments.resolve(doc.uri, coreValidate(text, fileName).request?.environment);
    if (typeof first === 'string') {
      void vscode.window.showErrorMessage(`Carrier: ${first}`);
      return undefined;
    }
    const a = first.environment;
    const b = otherName ? environments.definitions(folder).environments.find((e) => e.name === otherName) : await pickEnvironment(folder, `Compare the replies of ${a.name} with which environment?`, a.name);
    if (!b) {
      if (otherName) void vscode.window.showErrorMessage(`Carrier: no environment "${otherName}" in this workspace folder.`);
      return undefined;
    }
    const sides = [a, b] as const;
    for (const env of sides) if (!(await trusted(env))) return undefined;
    const credentials: Array<{ key?: string }> = [];
    for (const env of sides) {
      const k = await keyOf(env);
      if (!k) return undefined;
      credentials.push(k);
    }
    // Each side is the file as that environment's contract reads it.
    const requests = sides.map((env) => {
      const validation = coreValidate(text, fileName, { environment: env.name });
      const request = sendableRequest(validation);
      if (!request) throw new RequestFileError(fileName, validation.findings);
      return request;
    });
    const settings = readSettings(doc.uri);
    const abort = new AbortController();
    const exchanges = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Carrier: sending ${vscode.workspace.asRelativePath(doc.uri)} to ${a.name} and ${b.name}`, cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        return Promise.all(sides.map((env, i) => sendRequest({
          request: requests[i], fileName, environment: env, apiKey: credentials[i].key, defaultBinding: settings.defaultBinding,
          timeoutMs: settings.timeoutMs, maxReplyBytes: settings.maxReplyBytes, resolveEmbedded: () => sandbox.start(),
        }, abort.signal)));
      },
    );
    const names = [a.name, b.name] as const;
    const differences = compareExchanges(exchanges[0], exchanges[1], names);
    const base = path.basename(fileName).replace(/\.carrier\.json$/, '');
    const stamp = Date.now().toString(36);
    const uris = names.map((n) => vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${stamp}/${base}.${n}.reply.jsonc` }));
    const texts = exchanges.map((x, i) => replyText(x, names[i], names, differences));
    uris.forEach((u, i) => { replies.set(u.toString(), texts[i]); changedReplies.fire(u); });
    if (replies.size > 40) for (const k of [...replies.keys()].slice(0, replies.size - 40)) replies.delete(k);
    await vscode.commands.executeCommand('vscode.diff', uris[0], uris[1], `${base}: ${a.name} ↔ ${b.name} (${differences.length ? `${differences.length} difference${differences.length === 1 ? '' : 's'}` : 'the same structure'})`, { preview: false });
    log.info(`compare ${base}: ${a.name} ↔ ${b.name}: ${differences.map((d) => d.message).join('; ') || 'no differences'}`);
    return { environments: names, differences, left: texts[0], right: texts[1] };
  }

  return [
    changedReplies,
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, { onDidChange: changedReplies.event, provideTextDocumentContent: (uri) => replies.get(uri.toString()) ?? '' }),
    vscode.commands.registerCommand('carrier.checkContract', (name?: string) => check(typeof name === 'string' ? name : undefined)),
    vscode.commands.registerCommand('carrier.applyContract', (name: string) => apply(name)),
    vscode.commands.registerCommand('carrier.compareWithEnvironment', async (target?: vscode.Uri, other?: string) => {
      try {
        return await compare(target instanceof vscode.Uri ? target : undefined, typeof other === 'string' ? other : undefined);
      } catch (err) {
        if (!isRequestFileError(err)) throw err;
        void vscode.window.showErrorMessage(`Carrier: ${err.message.split('\n')[0]}`);
        return undefined;
      }
    }),
  ];
}

/**
 * One side of the comparison: the same header on both sides (so only what differs is marked),
 * then this side's outcome and its reply as read along the catalog (or its fault).
 */
function replyText(x: Exchange, name: string, names: readonly [string, string], differences: readonly ReplyDifference[]): string {
  const verdict = classifyExchange(x);
  const lines = [
    `// ${names[0]} ↔ ${names[1]}: ${differences.length ? `${differences.length} difference${differences.length === 1 ? '' : 's'} beyond the values` : 'the same structure'}`,
    ...differences.map((d) => `//   ${d.kind === 'only-in' ? `only in ${names[d.side!]}: ${d.path}` : d.message}`),
    '//',
    `// ${name}: ${x.reply ? `HTTP ${x.reply.status}` : 'no reply'} · ${verdict.ok ? VERDICT_PHRASES.success : `${VERDICT_PHRASES[verdict.kind]}: ${verdict.reason}`}`,
  ];
  const body = x.fault ? { fault: x.fault } : x.parsed !== undefined ? x.parsed : x.error ? { error: x.error } : null;
  return `${lines.join('\n')}\n${JSON.stringify(body, null, 2)}\n`;
}
