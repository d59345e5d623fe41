import type * as vscode from 'vscode';

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
