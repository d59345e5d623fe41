/** Wires the extension's parts together; each part lives in its own module and does one job. */
import * as vscode from 'vscode';
import { createApi, type CarrierApi } from './api';
import { closeEngine } from './engineBundle';
import { registerAuthoringCommands } from './authoring/authoringCommands';
import { readSettings } from './config';
import { registerContractCommands } from './contract/contractCommands';
import { ContractSupport } from './contract/contractSupport';
import { watchEnvironmentsFile } from './environments/environmentsFile';
import { createEnvironmentStatus } from './environments/environmentStatus';
import { EnvironmentStore } from './environments/environmentStore';
import { registerSelectEnvironment } from './environments/selectEnvironment';
import { registerHistoryCommands } from './history/historyCommands';
import { HistoryStore } from './history/historyStore';
import { HistoryTreeProvider } from './history/historyTree';
import { inspectorRows, registerInspectorCommands } from './inspector/inspectorCommands';
import { InspectorController } from './inspector/inspectorController';
import { createInspectorStatus } from './inspector/inspectorStatus';
import { InspectorTreeProvider } from './inspector/inspectorTree';
import { registerCodeLens } from './language/codeLens';
import { registerDiagnostics } from './language/diagnostics';
import { registerJsonService } from './language/jsonService';
import { registerLoadCommands } from './load/loadCommands';
import { watchRequestFolders } from './load/requestFolders';
import { createLog } from './log';
import { registerBodyDocuments } from './panel/bodyDocuments';
import { registerPanelSerializer } from './panel/panelSerializer';
import { registerProbeCommands } from './probe/probeCommands';
import { ResultsPanel } from './panel/resultsPanel';
import { registerOpenServicePage } from './sandbox/openServicePage';
import { registerReplayCommands } from './sandbox/replayCommands';
import { ReplayController } from './sandbox/replayController';
import { registerSandboxCommands } from './sandbox/sandboxCommands';
import { SandboxController } from './sandbox/sandboxController';
import { registerApiKeyCommands } from './secrets/apiKeyCommands';
import { ApiKeys } from './secrets/apiKeys';
import { SendController } from './send/sendController';
import { registerSendCommands } from './send/sendCommands';
import { registerTestExplorer } from './testing/testExplorer';

export function activate(context: vscode.ExtensionContext): CarrierApi {
  const log = createLog();
  const keys = new ApiKeys(context.secrets);
  const environments = new EnvironmentStore(context.workspaceState);
  const history = new HistoryStore(context.workspaceState, context.storageUri, () => readSettings().historySize);
  const panel = new ResultsPanel(context.extensionUri, history, log);
  const sandbox = new SandboxController(environments, log, context.storageUri && vscode.Uri.joinPath(context.storageUri, 'sandbox').fsPath);
  const replays = new ReplayController(environments, log);
  const sender = new SendController(environments, keys, sandbox, history, panel, log);
  const inspector = new InspectorController(environments, keys, sandbox, log);
  const testExplorer = registerTestExplorer(environments, keys, sandbox, log);
  const contracts = new ContractSupport(environments);

  context.subscriptions.push(
    log,
    keys,
    environments,
    history,
    panel,
    sandbox,
    sender,
    createEnvironmentStatus(environments, keys),
    watchEnvironmentsFile(environments),
    registerSelectEnvironment(environments, keys, log),
    ...registerApiKeyCommands(keys, environments, log),
    vscode.window.createTreeView('carrier.history', { treeDataProvider: new HistoryTreeProvider(history) }),
    ...registerHistoryCommands(history, panel, log),
    registerPanelSerializer(panel),
    registerBodyDocuments(history),
    ...registerSendCommands(sender, environments, sandbox, log),
    ...registerSandboxCommands(sandbox, log),
    replays,
    ...registerReplayCommands(replays, log),
    registerOpenServicePage(sandbox, log),
    inspector,
    createInspectorStatus(inspector),
    vscode.window.createTreeView('carrier.inspector', { treeDataProvider: new InspectorTreeProvider(inspector) }),
    ...registerInspectorCommands(inspector, history, panel, keys, log),
    ...registerAuthoringCommands(environments, sandbox, log),
    contracts,
    ...registerContractCommands(environments, keys, sandbox, contracts, log),
    ...registerProbeCommands(environments, keys, sandbox, log),
    ...registerLoadCommands(environments, keys, sandbox, log),
    watchRequestFolders(),
    registerDiagnostics(contracts.onDidChange),
    registerJsonService(context.extensionUri),
    registerCodeLens(),
    testExplorer,
    vscode.commands.registerCommand('carrier.showLog', () => log.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('carrier.history.size')) void history.enforceCapacity();
    }),
  );
  log.info(`Carrier Workbench ${context.extension.packageJSON.version} activated`);
  return createApi(context, panel, history, keys, { ...testExplorer.hooks, inspectorRows: () => inspectorRows(inspector) });
}

export function deactivate(): Promise<void> {
  // Everything else, the sandbox included, is disposed through context.subscriptions; the
  // engine's pooled connections are closed here, without loading the engine if it never was.
  return closeEngine();
}
