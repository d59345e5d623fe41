/** Save as Request File, as History and the Traffic Inspector both offer it: the dialog, the name made right, a confirmed replace. */
import * as vscode from 'vscode';

const REQUEST_SUFFIX = '.carrier.json';

/**
 * The name as a request file: one `.carrier.json` at the end, however the save dialog spelled it.
 * A dialog that appends its filter's extension when the name does not end in it (VS Code's own
 * dialog does, judging `x.carrier.json` by its last extension) wrote `….carrier.json.carrier.json`.
 */
export function requestFileUri(uri: vscode.Uri): vscode.Uri {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  let base = name;
  while (base.toLowerCase().endsWith(REQUEST_SUFFIX)) base = base.slice(0, -REQUEST_SUFFIX.length);
  if (base === name) base = base.replace(/\.json$/i, '');
  const fixed = `${base || 'request'}${REQUEST_SUFFIX}`;
  return fixed === name ? uri : uri.with({ path: `${uri.path.slice(0, uri.path.length - name.length)}${fixed}` });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks where (unless `target` is given), writes `text` there as a request file and opens it; the
 * file written, or undefined when the person backed out.
 */
export async function saveRequestFile(text: string, suggestedName: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const chosen =
    target ??
    (await vscode.window.showSaveDialog({
      title: 'Save as Request File',
      saveLabel: 'Save',
      defaultUri: folder ? vscode.Uri.joinPath(folder, suggestedName) : undefined,
      // Dialogs match a filter against the name's last extension only: `json` lets
      // `x.carrier.json` through as it is; requestFileUri puts `.carrier` back where missing.
      filters: { 'Carrier request files': ['json'] },
    }));
  if (!chosen) return undefined;
  const uri = requestFileUri(chosen);
  // The dialog asked before replacing the name it showed, not this one.
  if (uri.toString() !== chosen.toString() && (await exists(uri))) {
    const replace = await vscode.window.showWarningMessage(`Carrier: ${vscode.workspace.asRelativePath(uri)} exists. Replace it?`, 'Replace');
    if (replace !== 'Replace') return undefined;
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}
