/** New Request…, Import SOAP Envelope…, Open WSDL: documents made from the catalog by core. */
import * as vscode from 'vscode';
import { readSettings } from '../config';
import { importEnvelope, requestTemplate, wsdlFor } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
import { guarded } from '../errors';
import type { SandboxController } from '../sandbox/sandboxController';
import type { Log } from '../log';
import { pickShape } from '../pickShape';

export function registerAuthoringCommands(environments: EnvironmentStore, sandbox: SandboxController, log: Log): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'carrier.newRequest',
      guarded(log, 'New Request', async () => {
        const shape = await pickShape('Carrier: New Request');
        if (!shape) return;
        const text = requestTemplate(shape, readSettings().defaultBinding);
        await openUntitled(`${shape.operation}-${shape.version}.carrier.json`, text, 'carrier-request');
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.importEnvelope',
      guarded(log, 'Import SOAP Envelope', async () => {
        const xml = await readEnvelope();
        if (xml === undefined) return;
        const { text, suggestedName } = importEnvelope(xml, environments.selectedEnvironment());
        await openUntitled(suggestedName.endsWith('.carrier.json') ? suggestedName : `${suggestedName}.carrier.json`, text, 'carrier-request');
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.openWsdl',
      guarded(log, 'Open WSDL', async () => {
        const shape = await pickShape('Carrier: Open WSDL');
        if (!shape) return;
        const doc = await vscode.workspace.openTextDocument({ content: wsdlFor(shape, environments.selectedEnvironment(), sandbox.url), language: 'xml' });
        await vscode.window.showTextDocument(doc, { preview: false });
      }),
    ),
  ];
}

/** An untitled editor that saves next to the workspace's other requests under a sensible name. */
async function openUntitled(fileName: string, content: string, language: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const doc = folder
    ? await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, fileName).with({ scheme: 'untitled' }))
    : await vscode.workspace.openTextDocument({ language, content });
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (folder) await editor.edit((b) => b.insert(new vscode.Position(0, 0), content));
  if (doc.languageId !== language) await vscode.languages.setTextDocumentLanguage(doc, language);
}

async function readEnvelope(): Promise<string | undefined> {
  const source = await vscode.window.showQuickPick(
    [
      { label: '$(clippy) From the clipboard', id: 'clipboard' as const },
      { label: '$(file) From a file…', id: 'file' as const },
    ],
    { title: 'Carrier: Import SOAP Envelope', placeHolder: 'Where is the envelope?' },
  );
  if (!source) return undefined;
  if (source.id === 'clipboard') {
    const text = await vscode.env.clipboard.readText();
    if (!text.trim().startsWith('<')) {
      void vscode.window.showWarningMessage('Carrier: the clipboard does not hold XML.');
      return undefined;
    }
    return text;
  }
  const [file] =
    (await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'SOAP envelopes': ['xml', 'txt', 'soap'], 'All files': ['*'] },
      title: 'Import SOAP Envelope',
    })) ?? [];
  return file && new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
}
