/**
 * Carrier: Check Contract of Environment… and Carrier: Compare With Environment…, the editor's
 * faces of `carrier contract` and `carrier compare`: the same core functions, with a cancellable
 * progress, the report as a page (contractView.ts) and the two replies side by side in a diff
 * editor. A request to an address the workspace defines waits for Workspace Trust, as sends do.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContractReport, Environment, Exchange, ReplyDifference } from '../../core';
import { readSettings } from '../config';
import { sendRequest } from '../core-adapter';
import { classifyExchange, keyDestination, VERDICT_PHRASES } from '../coreLight';
import { engine, isEngineError } from '../engineBundle';
import { activeFolder, folderOf, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import { explainRestricted, mayReach } from '../restrictedMode';
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

/** What the contract commands share: the extension's parts, the last report per environment, the compared replies. */
interface ContractContext {
  readonly environments: EnvironmentStore;
  readonly keys: ApiKeys;
  readonly sandbox: SandboxController;
  readonly support: ContractSupport;
  readonly log: Log;
  /** The last check per environment name, and the folder whose environments file defined it. */
  readonly checked: Map<string, { report: ContractReport; folder: string | undefined }>;
  readonly replies: CompareReplies;
}

export function registerContractCommands(
  environments: EnvironmentStore,
  keys: ApiKeys,
  sandbox: SandboxController,
  support: ContractSupport,
  log: Log,
): vscode.Disposable[] {
  const replies = new CompareReplies();
  const ctx: ContractContext = { environments, keys, sandbox, support, log, checked: new Map(), replies };
  return [
    replies,
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, replies),
    vscode.commands.registerCommand('carrier.checkContract', (name?: string) => checkContract(ctx, typeof name === 'string' ? name : undefined)),
    vscode.commands.registerCommand('carrier.applyContract', (name: string) => applyContract(ctx, name)),
    vscode.commands.registerCommand('carrier.compareWithEnvironment', async (target?: vscode.Uri, other?: string) => {
      try {
        return await compareWithEnvironment(ctx, target instanceof vscode.Uri ? target : undefined, typeof other === 'string' ? other : undefined);
      } catch (err) {
        if (!isEngineError(err, 'request-file')) throw err;
        void vscode.window.showErrorMessage(`Carrier: ${err.message.split('\n')[0]}`);
        return undefined;
      }
    }),
  ];
}

/** The two sides of recent comparisons, as the diff editor reads them (the last 40 kept). */
class CompareReplies implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  trim(): void {
    if (this.texts.size > 40) for (const k of [...this.texts.keys()].slice(0, this.texts.size - 40)) this.texts.delete(k);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const ENVIRONMENTS_FILE = 'carrier.environments.json';

/** What the picker offers when nothing but the sandbox is defined: an environment to describe. */
const DESCRIBE_ANOTHER = Symbol('describe another environment');

async function pickEnvironment(ctx: ContractContext, folder: string | undefined, placeHolder: string, exclude?: string): Promise<Environment | undefined> {
  const all = ctx.environments.definitions(folder).environments.filter((e) => e.name !== exclude);
  const items: Array<vscode.QuickPickItem & { environment: Environment | typeof DESCRIBE_ANOTHER }> = all.map((e) => ({
    label: e.name,
    description: e.embedded ? 'embedded sandbox' : e.baseUrl,
    detail: e.description,
    environment: e,
  }));
  // A comparison with nothing left to pick, or a check with only the sandbox's own contract to read, is a dead
  // end: say so, and offer the way out.
  const deadEnd = exclude === undefined ? all.every((e) => e.embedded) : all.length === 0;
  if (deadEnd)
    items.push({
      label: `$(add) ${all.length ? 'No real environment' : 'No other environment'}: describe one in ${ENVIRONMENTS_FILE}…`,
      detail: 'Only the built-in sandbox is defined here: add the carrier’s test service.',
      alwaysShow: true,
      environment: DESCRIBE_ANOTHER,
    });
  const picked = await vscode.window.showQuickPick(items, { placeHolder: deadEnd && !all.length ? `${placeHolder} (none defined yet)` : placeHolder });
  if (picked?.environment !== DESCRIBE_ANOTHER) return picked?.environment;
  await describeEnvironment(ctx, folder);
  return undefined;
}

const NEW_ENVIRONMENTS_FILE = `{
  // Environments besides the built-in "sandbox": the carrier's test or production service
  // (docs/environments.md). API keys never go here: Carrier: Set API Key keeps them in
  // VS Code's secret storage.
}
`;

/**
 * Opens the environments file that `folder`'s requests go by (made, with a comment, when there is
 * none) and adds an entry as a snippet: the name, description and baseUrl to tab through. The
 * edit is left unsaved, so the person fills it in and saves it (the file watcher reads it then).
 */
async function describeEnvironment(ctx: ContractContext, folder: string | undefined): Promise<void> {
  // The file as it is now, whatever the watcher has seen of it yet: one that exists is never written over.
  ctx.environments.refresh();
  const existing = ctx.environments.definitions(folder).file;
  if (!existing && !folder) {
    void vscode.window.showErrorMessage(`Carrier: open a folder to keep a ${ENVIRONMENTS_FILE} in.`);
    return;
  }
  const file = existing ? vscode.Uri.file(existing) : vscode.Uri.joinPath(vscode.Uri.file(folder!), ENVIRONMENTS_FILE);
  if (!existing) await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(NEW_ENVIRONMENTS_FILE));
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
  const text = editor.document.getText();
  const names = new Set(ctx.environments.definitions(folder).environments.map((e) => e.name));
  const name = ['staging', 'test', 'production'].find((n) => !names.has(n) && !text.includes(`"${n}"`)) ?? `staging-${names.size + 1}`;
  const at = entryPlace(text);
  if (!at) {
    void vscode.window.showWarningMessage(`Carrier: ${vscode.workspace.asRelativePath(file)} is not a JSON object yet: add an environment to it by hand.`);
    return;
  }
  const entry = new vscode.SnippetString()
    .appendText(`${at.before}  "`)
    .appendPlaceholder(name)
    .appendText('": {\n    "description": "')
    .appendPlaceholder('The carrier’s test service')
    .appendText('",\n    "baseUrl": "')
    .appendPlaceholder('https://staging.carrier.example')
    .appendText(`"\n  }${at.after}`);
  // As laid out above: the editor would otherwise indent each line again by the insertion line's indentation.
  await editor.insertSnippet(entry, editor.document.positionAt(at.offset), { undoStopBefore: true, undoStopAfter: true, keepWhitespace: true });
  ctx.log.info(`compare: an environment "${name}" to describe in ${file.fsPath}`);
  void vscode.window.showInformationMessage(
    `Carrier: describe "${name}" in ${vscode.workspace.asRelativePath(file)} and save it; its API key goes in with Carrier: Set API Key. Then compare again.`,
  );
}

/**
 * Where a new entry goes in the environments file's text, and what goes around it: after the last
 * entry, with a comma; in an object with none, before its closing brace, after any comment.
 */
function entryPlace(text: string): { offset: number; before: string; after: string } | undefined {
  const { getLanguageService, TextDocument } = engine();
  const root = getLanguageService({}).parseJSONDocument(TextDocument.create('file:///environments.json', 'jsonc', 1, text)).root;
  if (root?.type !== 'object') return undefined;
  const last = root.properties.at(-1);
  if (last) return { offset: last.offset + last.length, before: ',\n', after: '' };
  const close = root.offset + root.length - 1;
  return { offset: close, before: text[close - 1] === '\n' ? '' : '\n', after: '\n' };
}

/** Restricted Mode sends nothing to an address a workspace file defines (restrictedMode.ts). */
async function reachable(env: Environment): Promise<boolean> {
  if (mayReach(env)) return true;
  await explainRestricted(
    `Carrier: "${env.name}" is defined by this workspace, which is in Restricted Mode: nothing is sent to ${keyDestination(env).label} until you trust it.`,
  );
  return false;
}

// ---- Check Contract, Apply ----

async function applyContract(ctx: ContractContext, name: string): Promise<ApplyResult | undefined> {
  const last = ctx.checked.get(name);
  if (!last) {
    void vscode.window.showErrorMessage(`Carrier: check the contract of "${name}" first.`);
    return undefined;
  }
  const loaded = ctx.environments.definitions(last.folder);
  if (!loaded.file) {
    void vscode.window.showErrorMessage(`Carrier: "${name}" has no entry in a carrier.environments.json to write to.`);
    return undefined;
  }
  const { writeEnvironmentNamespaces, writeStoredContract } = engine();
  const edit = writeEnvironmentNamespaces(loaded.file, name, last.report.suggestedNamespaces);
  const contractFile = writeStoredContract(path.dirname(loaded.file), last.report);
  ctx.environments.refresh();
  ctx.support.contractsChanged();
  const said = `${edit.changed.length ? `Set ${edit.changed.join(', ')} of "${name}" in ${vscode.workspace.asRelativePath(loaded.file)}` : `The namespaces of "${name}" already were the live ones`}; the contract is stored in ${vscode.workspace.asRelativePath(contractFile)}: request files sent to "${name}" follow it.`;
  ctx.log.info(`contract: ${said}`);
  showContractView(last.report, actionsFor(ctx, last.report, last.folder), said);
  void vscode.window.showInformationMessage(`Carrier: ${said}`);
  return { changed: edit.changed, environmentsFile: loaded.file, contractFile };
}

/** The report page's buttons: Apply for a readable report of a real environment, Check Again always. */
function actionsFor(ctx: ContractContext, report: ContractReport, folder: string | undefined) {
  const env = ctx.environments.definitions(folder).environments.find((e) => e.name === report.environment);
  return {
    ...(env && !env.embedded && report.summary.unreadable === 0
      ? {
          apply: async () => {
            await applyContract(ctx, report.environment);
          },
        }
      : {}),
    recheck: async () => {
      await checkContract(ctx, report.environment, folder);
    },
  };
}

async function checkContract(ctx: ContractContext, name?: string, folder: string | undefined = activeFolder()): Promise<ContractCommandResult | undefined> {
  // The check is about the file as it is now, whatever the watcher has seen of it yet.
  ctx.environments.refresh();
  const env = name
    ? ctx.environments.definitions(folder).environments.find((e) => e.name === name)
    : await pickEnvironment(ctx, folder, 'Check the live contract of which environment?');
  if (!env) {
    if (name) void vscode.window.showErrorMessage(`Carrier: no environment "${name}" in this workspace folder.`);
    return undefined;
  }
  if (!(await reachable(env))) return undefined;
  const report = await readLiveContract(ctx, env);
  if (!report) return undefined;
  ctx.checked.set(env.name, { report, folder });
  const exitCode = engine().contractExitCode(report);
  ctx.log.info(
    `contract of ${env.name}: ${report.summary.differences} differences (${report.summary.breaking} breaking), ${report.summary.unreadable} unreadable`,
  );
  showContractView(report, actionsFor(ctx, report, folder));
  return { exitCode, report, html: contractHtml(report, '', Boolean(actionsFor(ctx, report, folder).apply)) };
}

/** The live contract of `env` held against the catalog, under a cancellable progress; undefined when cancelled or unreadable (said). */
async function readLiveContract(ctx: ContractContext, env: Environment): Promise<ContractReport | undefined> {
  const abort = new AbortController();
  try {
    return (
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Carrier: checking the contract of "${env.name}"`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          return engine().checkContract({
            environment: env,
            signal: abort.signal,
            resolveEmbedded: () => ctx.sandbox.start(env),
            onProgress: (done, total, servicePath) => progress.report({ increment: 100 / total, message: `${servicePath} (${done}/${total})` }),
          });
        },
      )
    ).report;
  } catch (err) {
    if (isEngineError(err, 'contract-cancelled')) {
      void vscode.window.showInformationMessage(`Carrier: the contract check of "${env.name}" was cancelled.`);
      return undefined;
    }
    if (isEngineError(err, 'contract-read')) {
      void vscode.window.showErrorMessage(`Carrier: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

// ---- Compare With Environment ----

/** The key for a comparison's send: stored for this very destination, or none (the sandbox needs none). */
async function keyOf(ctx: ContractContext, env: Environment): Promise<{ key?: string } | undefined> {
  const found = await ctx.keys.lookup(env.name, keyDestination(env));
  if (found.key !== undefined || env.embedded) return { key: found.key };
  const choice = await vscode.window.showWarningMessage(
    `Carrier: no API key is stored for "${env.name}" (${keyDestination(env).label}); set one to compare with it.`,
    'Set API Key',
  );
  if (choice) await vscode.commands.executeCommand('carrier.setApiKey', env.name, keyDestination(env));
  return undefined;
}

async function compareWithEnvironment(ctx: ContractContext, target?: vscode.Uri, otherName?: string): Promise<CompareCommandResult | undefined> {
  const doc = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== REQUEST_LANGUAGE) {
    void vscode.window.showErrorMessage('Carrier: open a request file (*.carrier.json) to compare its replies.');
    return undefined;
  }
  const text = doc.getText();
  const fileName = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
  const sides = await compareSides(ctx, doc, text, fileName, otherName);
  if (!sides) return undefined;
  const credentials = await sideKeys(ctx, sides);
  if (!credentials) return undefined;
  const { validateRequestText, requireSendable } = engine();
  // Each side is the file as that environment's contract reads it.
  const requests = sides.map((env) => requireSendable(validateRequestText(text, fileName, { environment: env.name }), fileName));
  const settings = readSettings(doc.uri);
  const abort = new AbortController();
  const [a, b] = sides;
  const exchanges = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Carrier: sending ${vscode.workspace.asRelativePath(doc.uri)} to ${a.name} and ${b.name}`,
      cancellable: true,
    },
    (_progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      return Promise.all(
        sides.map((env, i) =>
          sendRequest(
            {
              request: requests[i],
              fileName,
              environment: env,
              apiKey: credentials[i].key,
              defaultBinding: settings.defaultBinding,
              timeoutMs: settings.timeoutMs,
              maxReplyBytes: settings.maxReplyBytes,
              resolveEmbedded: () => ctx.sandbox.start(env),
            },
            abort.signal,
          ),
        ),
      );
    },
  );
  return showComparison(ctx, fileName, [a.name, b.name], exchanges);
}

/** The file's own environment and the other one (named, or picked), both reachable; undefined when not (said). */
async function compareSides(
  ctx: ContractContext,
  doc: vscode.TextDocument,
  text: string,
  fileName: string,
  otherName: string | undefined,
): Promise<readonly [Environment, Environment] | undefined> {
  const folder = folderOf(doc.uri);
  // The environments as the files are now, whatever the watcher has seen of them yet (as Check Contract reads them).
  ctx.environments.refresh();
  const first = ctx.environments.resolve(doc.uri, engine().validateRequestText(text, fileName).request?.environment);
  if (typeof first === 'string') {
    void vscode.window.showErrorMessage(`Carrier: ${first}`);
    return undefined;
  }
  const a = first.environment;
  const b = otherName
    ? ctx.environments.definitions(folder).environments.find((e) => e.name === otherName)
    : await pickEnvironment(ctx, folder, `Compare the replies of ${a.name} with which environment?`, a.name);
  if (!b) {
    if (otherName) void vscode.window.showErrorMessage(`Carrier: no environment "${otherName}" in this workspace folder.`);
    return undefined;
  }
  const sides = [a, b] as const;
  for (const env of sides) if (!(await reachable(env))) return undefined;
  return sides;
}

/** Each side's key, asked for in turn; undefined when one is missing (said). */
async function sideKeys(ctx: ContractContext, sides: readonly Environment[]): Promise<Array<{ key?: string }> | undefined> {
  const credentials: Array<{ key?: string }> = [];
  for (const env of sides) {
    const k = await keyOf(ctx, env);
    if (!k) return undefined;
    credentials.push(k);
  }
  return credentials;
}

/** The two replies side by side in a diff editor, their differences in its title and the log. */
async function showComparison(
  ctx: ContractContext,
  fileName: string,
  names: readonly [string, string],
  exchanges: readonly Exchange[],
): Promise<CompareCommandResult> {
  const differences = engine().compareExchanges(exchanges[0], exchanges[1], names);
  const base = path.basename(fileName).replace(/\.carrier\.json$/, '');
  const stamp = Date.now().toString(36);
  const uris = names.map((n) => vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${stamp}/${base}.${n}.reply.jsonc` }));
  const texts = exchanges.map((x, i) => replyText(x, names[i], names, differences));
  uris.forEach((u, i) => ctx.replies.set(u, texts[i]));
  ctx.replies.trim();
  await vscode.commands.executeCommand(
    'vscode.diff',
    uris[0],
    uris[1],
    `${base}: ${names[0]} ↔ ${names[1]} (${differences.length ? `${differences.length} difference${differences.length === 1 ? '' : 's'}` : 'the same structure'})`,
    { preview: false },
  );
  ctx.log.info(`compare ${base}: ${names[0]} ↔ ${names[1]}: ${differences.map((d) => d.message).join('; ') || 'no differences'}`);
  return { environments: names, differences, left: texts[0], right: texts[1] };
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
