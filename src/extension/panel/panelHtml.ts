/**
 * The results webview's document. Scripts run only with this load's nonce; everything else is
 * limited to the extension's own resources. pdf.js needs `blob:` workers (it wraps its module
 * worker in a same-origin blob) and `connect-src` to fetch its standard fonts.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface PanelResources {
  readonly script: vscode.Uri;
  readonly styles: vscode.Uri;
  readonly codicons: vscode.Uri;
  readonly pdfWorker: vscode.Uri;
  readonly standardFonts: vscode.Uri;
}

export function panelResources(webview: vscode.Webview, extensionUri: vscode.Uri): PanelResources {
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts));
  return {
    script: uri('dist', 'webview.js'),
    styles: uri('media', 'panel.css'),
    codicons: uri('dist', 'codicons', 'codicon.css'),
    pdfWorker: uri('dist', 'pdf.worker.min.mjs'),
    // pdf.js joins file names onto this, so it must end with a slash.
    standardFonts: vscode.Uri.parse(`${uri('dist', 'pdfjs', 'standard_fonts').toString()}/`),
  };
}

export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')];
}

export function renderPanelHtml(webview: vscode.Webview, resources: PanelResources, nonce: string): string {
  const src = webview.cspSource;
  const csp = [
    "default-src 'none'",
    `img-src ${src} data: blob:`,
    `style-src ${src} 'nonce-${nonce}'`,
    `font-src ${src} data:`,
    `script-src 'nonce-${nonce}' ${src}`,
    `worker-src ${src} blob:`,
    `connect-src ${src}`,
  ].join('; ');
  const attr = (u: vscode.Uri) => escapeAttribute(u.toString());
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${attr(resources.codicons)}" nonce="${nonce}">
  <link rel="stylesheet" href="${attr(resources.styles)}" nonce="${nonce}">
  <title>Carrier Results</title>
</head>
<body data-pdf-worker="${attr(resources.pdfWorker)}" data-standard-fonts="${attr(resources.standardFonts)}">
  <main id="app" aria-live="polite"><p class="placeholder">Loading…</p></main>
  <script nonce="${nonce}" src="${attr(resources.script)}"></script>
</body>
</html>`;
}

export function createNonce(): string {
  return randomBytes(24).toString('base64').replace(/[+/=]/g, '');
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
