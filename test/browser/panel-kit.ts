/**
 * The results panel's webview (src/webview/app.ts) on a page of its own in Chromium: bundled
 * with esbuild as the extension's build does, styled by media/panel.css and the codicons, under a
 * theme's colours, with a stand-in for VS Code's webview API that records what the page posts.
 * Exchanges come from the embedded sandbox over real HTTP, as a send from the editor gets them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { sandboxEnvironment } from '../../src/core/environments';
import type { Exchange } from '../../src/core/exchange';
import { judgeSentFile } from '../../src/core/runner/judge';
import { sendRequestFile, type SendContext } from '../../src/core/send';
import { toExchangeView } from '../../src/extension/panel/exchangeView';
import type { ExchangeView, FromWebview, RenderReport, TabId } from '../../src/webview/protocol';

const ROOT = path.resolve(__dirname, '../..');
export const EXAMPLES = path.join(ROOT, 'examples');

/** A key long enough that masking it cannot touch a reply's words. */
export const TEST_KEY = 'panel-browser-test-key-0123456789';

const ENTRY = `
import { renderExchange } from './src/webview/app';
(window as any).renderExchange = renderExchange;
`;

let bundled: string | undefined;
function bundle(): string {
  bundled ??= buildSync({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
  }).outputFiles[0].text;
  return bundled;
}

/** The codicon font inlined: the page has no origin to load it from. */
function codiconsCss(): string {
  const dir = path.join(ROOT, 'node_modules/@vscode/codicons/dist');
  const font = fs.readFileSync(path.join(dir, 'codicon.ttf')).toString('base64');
  return fs.readFileSync(path.join(dir, 'codicon.css'), 'utf8').replace(/url\("\.\/codicon\.ttf[^"]*"\)/, `url(data:font/ttf;base64,${font})`);
}

export type ThemeName = 'light' | 'dark' | 'high-contrast';

/**
 * The theme variables panel.css reads, with the values VS Code's Light Modern, Dark Modern and
 * High Contrast themes give them (the UI tests, test/ui/results-panel.test.ts, check the real ones).
 */
const THEMES: Record<ThemeName, { bodyClass: string; vars: Record<string, string> }> = {
  light: {
    bodyClass: 'vscode-light',
    vars: {
      foreground: '#3b3b3b',
      descriptionForeground: '#3b3b3b',
      'editor-background': '#ffffff',
      'editor-foreground': '#3b3b3b',
      'panel-border': '#e5e5e5',
      'widget-border': '#e5e5e5',
      focusBorder: '#005fb8',
      'panelTitle-activeBorder': '#005fb8',
      'panelTitle-activeForeground': '#3b3b3b',
      'panelTitle-inactiveForeground': '#3b3b3b',
      'tab-activeForeground': '#3b3b3b',
      'tab-inactiveForeground': '#868686',
      'button-background': '#005fb8',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#0258a8',
      'button-border': '#0000001a',
      'button-secondaryBackground': '#e5e5e5',
      'button-secondaryForeground': '#3b3b3b',
      'button-secondaryHoverBackground': '#cccccc',
      'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b',
      'textLink-foreground': '#005fb8',
      'textLink-activeForeground': '#005fb8',
      errorForeground: '#f85149',
      'editorWarning-foreground': '#bf8803',
      'editorInfo-foreground': '#1a85ff',
      'testing-iconPassed': '#388a34',
      'charts-blue': '#1a85ff',
      'editorWidget-background': '#f8f8f8',
      'textCodeBlock-background': '#f8f8f8',
      'inputValidation-errorBorder': '#be1100',
      'inputValidation-errorBackground': '#f2dede',
      'icon-foreground': '#3b3b3b',
      'input-background': '#ffffff',
      'input-border': '#cecece',
      'input-foreground': '#3b3b3b',
      'toolbar-hoverBackground': 'rgba(184, 184, 184, 0.31)',
    },
  },
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      foreground: '#cccccc',
      descriptionForeground: '#9d9d9d',
      'editor-background': '#1f1f1f',
      'editor-foreground': '#cccccc',
      'panel-border': '#2b2b2b',
      'widget-border': '#313131',
      focusBorder: '#0078d4',
      'panelTitle-activeBorder': '#0078d4',
      'panelTitle-activeForeground': '#cccccc',
      'panelTitle-inactiveForeground': '#9d9d9d',
      'tab-activeForeground': '#ffffff',
      'tab-inactiveForeground': '#9d9d9d',
      'button-background': '#0078d4',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#026ec1',
      'button-border': '#ffffff12',
      'button-secondaryBackground': '#313131',
      'button-secondaryForeground': '#cccccc',
      'button-secondaryHoverBackground': '#3c3c3c',
      'badge-background': '#616161',
      'badge-foreground': '#f8f8f8',
      'textLink-foreground': '#4daafc',
      'textLink-activeForeground': '#4daafc',
      errorForeground: '#f85149',
      'editorWarning-foreground': '#cca700',
      'editorInfo-foreground': '#3794ff',
      'testing-iconPassed': '#73c991',
      'charts-blue': '#3794ff',
      'editorWidget-background': '#202020',
      'textCodeBlock-background': '#2b2b2b',
      'inputValidation-errorBorder': '#be1100',
      'inputValidation-errorBackground': '#5a1d1d',
      'icon-foreground': '#cccccc',
      'input-background': '#313131',
      'input-border': '#3c3c3c',
      'input-foreground': '#cccccc',
      'toolbar-hoverBackground': 'rgba(90, 93, 94, 0.31)',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      foreground: '#ffffff',
      descriptionForeground: 'rgba(255, 255, 255, 0.7)',
      'editor-background': '#000000',
      'editor-foreground': '#ffffff',
      'panel-border': '#6fc3df',
      'widget-border': '#6fc3df',
      contrastBorder: '#6fc3df',
      contrastActiveBorder: '#f38518',
      focusBorder: '#f38518',
      'panelTitle-activeBorder': '#6fc3df',
      'panelTitle-activeForeground': '#ffffff',
      'panelTitle-inactiveForeground': '#ffffff',
      'tab-activeForeground': '#ffffff',
      'tab-inactiveForeground': '#ffffff',
      'button-background': '#000000',
      'button-foreground': '#ffffff',
      'button-border': '#6fc3df',
      'button-secondaryBackground': '#000000',
      'button-secondaryForeground': '#ffffff',
      'badge-background': '#000000',
      'badge-foreground': '#ffffff',
      'textLink-foreground': '#21a6ff',
      'textLink-activeForeground': '#21a6ff',
      errorForeground: '#f48771',
      'editorWarning-foreground': '#ffd370',
      'editorInfo-foreground': '#3794ff',
      'testing-iconPassed': '#73c991',
      'charts-blue': '#3794ff',
      'editorWidget-background': '#0c141f',
      'textCodeBlock-background': '#000000',
      'inputValidation-errorBorder': '#f48771',
      'inputValidation-errorBackground': '#5a1d1d',
      'icon-foreground': '#ffffff',
      'input-background': '#000000',
      'input-border': '#6fc3df',
      'input-foreground': '#ffffff',
    },
  },
};

function themeCss(theme: ThemeName): string {
  const vars = Object.entries(THEMES[theme].vars)
    .map(([k, v]) => `--vscode-${k}: ${v};`)
    .join(' ');
  return `:root { ${vars} --vscode-font-family: system-ui, "Ubuntu", "Droid Sans", sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: "Droid Sans Mono", "DejaVu Sans Mono", monospace; --vscode-editor-font-size: 13px; }`;
}

/** What the page posted to the "extension" since it opened (copy, followUp, openSource, …). */
export async function posted(page: Page): Promise<FromWebview[]> {
  return page.evaluate(() => (window as unknown as { posted: FromWebview[] }).posted.slice());
}

/**
 * A page holding the panel as VS Code would: about as wide as the panel beside an editor at
 * 1440×900, in the given theme.
 */
export async function openPanelPage(browser: Browser, theme: ThemeName = 'light', width = 700): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('pageerror', (err) => console.log(`    [page error] ${err.message}`));
  await page.setContent(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body class="${THEMES[theme].bodyClass}"><main id="app"></main></body></html>`,
  );
  await page.addStyleTag({ content: themeCss(theme) });
  await page.addStyleTag({ content: codiconsCss() });
  await page.addStyleTag({ path: path.join(ROOT, 'media/panel.css') });
  await page.addScriptTag({
    content: 'window.posted = []; window.acquireVsCodeApi = () => ({ postMessage(m) { window.posted.push(m); }, getState() { return {}; }, setState() {} });',
  });
  await page.addScriptTag({ content: bundle() });
  return page;
}

export async function render(page: Page, view: ExchangeView, tab?: TabId): Promise<RenderReport> {
  await page.evaluate(() => {
    (window as unknown as { posted: unknown[] }).posted.length = 0;
  });
  // As JSON: the panel gets its data as a message, and playwright's own serialiser recurses.
  return page.evaluate(
    async ({ json, tab }) => {
      const w = window as unknown as {
        renderExchange: (root: HTMLElement, view: unknown, tab: string | undefined, onTab: () => void) => Promise<RenderReport>;
      };
      return w.renderExchange(document.getElementById('app')!, JSON.parse(json), tab, () => undefined);
    },
    { json: JSON.stringify(view), tab },
  );
}

/** Sends an example request file to a sandbox at `url` through the suite's `context`, as the editor's send does; `edit` changes its text first. */
export async function sendExample(
  context: SendContext,
  url: string,
  relative: string,
  variables: Record<string, string> = {},
  edit: (text: string) => string = (t) => t,
): Promise<Exchange> {
  const fileName = path.join(EXAMPLES, relative);
  const environment = { ...sandboxEnvironment(), baseUrl: url, embedded: false, variables };
  return sendRequestFile({ context, text: edit(fs.readFileSync(fileName, 'utf8')), fileName, environment, apiKey: TEST_KEY });
}

/**
 * Sends an example and judges it against the file's `expect` as sent, as a send from the editor
 * does (src/extension/send/sendController.ts, core's judgeSentFile).
 */
export async function sendJudgedExample(context: SendContext, url: string, relative: string, edit: (text: string) => string = (t) => t): Promise<Exchange> {
  const fileName = path.join(EXAMPLES, relative);
  const text = edit(fs.readFileSync(fileName, 'utf8'));
  const exchange = await sendExample(context, url, relative, {}, () => text);
  return judgeSentFile(exchange, { text, fileName, variables: {}, secrets: [] });
}

/** The view the extension posts for an exchange (src/extension/panel/exchangeView.ts), its file named relative to the examples. */
export function viewOf(exchange: Exchange): ExchangeView {
  return toExchangeView(exchange, false, (file) => path.relative(EXAMPLES, file));
}
