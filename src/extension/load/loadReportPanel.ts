/**
 * The load report in the editor: core's load-report.html (src/core/load/html.ts) shown in a
 * webview panel as it is — no script (enableScripts false, and the page's own policy allows none)
 * and no resource of the extension (localResourceRoots empty): its policy allows only its own
 * style, by hash. A webview rather than the written file opened elsewhere: VS Code opens an .html
 * file as text, and a browser outside the editor is not where the command's user is looking.
 *
 * The one change is the theme: the page's colours follow the browser's light or dark
 * (prefers-color-scheme), which in a webview is not VS Code's theme, so a second style maps the
 * page's colour variables onto the theme's (the --vscode-* variables every webview gets) and its
 * hash is added to the page's style-src. The file written beside the JSON stays core's, unchanged.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';

export const LOAD_REPORT_VIEW = 'carrier.loadReport';

/**
 * The report's colour variables (src/core/runner/reporters/htmlAssets.ts REPORT_STYLE) as the editor's theme has them: the
 * charts.* colours, which each theme picks to read on its own background (testing.iconPassed is one pale green for all).
 */
const THEME_STYLE = `
:root { --fg: var(--vscode-editor-foreground); --bg: var(--vscode-editor-background); --muted: var(--vscode-descriptionForeground);
  --panel: var(--vscode-editorWidget-background); --line: var(--vscode-panel-border); --pass: var(--vscode-charts-green);
  --fail: var(--vscode-charts-red); --skip: var(--vscode-charts-yellow); --accent: var(--vscode-charts-blue); }
body.vscode-light, body.vscode-high-contrast-light { color-scheme: light; }
body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light) { color-scheme: dark; }
body { font-family: var(--vscode-font-family); padding: 0; }
`;

/** The page with the theme's style after its own, that style's hash allowed; the page unchanged if its policy is not the expected shape. */
export function themedReport(page: string): string {
  const hash = `'sha256-${createHash('sha256').update(THEME_STYLE).digest('base64')}'`;
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*?style-src )/;
  if (!policy.test(page) || !page.includes('</head>')) return page;
  return page.replace(policy, `$1${hash} `).replace('</head>', `<style>${THEME_STYLE}</style>\n</head>`);
}

/** One panel for load reports, reused: each run's report replaces the last. */
export class LoadReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  show(title: string, page: string): vscode.WebviewPanel {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        LOAD_REPORT_VIEW,
        title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: false, enableCommandUris: false, localResourceRoots: [] },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = title;
    this.panel.webview.html = themedReport(page);
    this.panel.reveal(undefined, false);
    return this.panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
