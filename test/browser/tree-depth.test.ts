/**
 * The results panel's tree (src/webview/views/treeView.ts) in Chromium on a parsed reply as deep
 * as the XML parser allows: revealing the deepest value expands every level, the keyboard walks
 * the visible rows, and nothing overflows the stack; a 200,000-item list opens in slices.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { MAX_DEPTH, parseXml } from '../../src/core/xml/dom';
import { readGeneric } from '../../src/core/xml/read';
import { launchChromium } from './browser-kit';

const ENTRY = `
import { createTree } from './src/webview/views/treeView';
(window as any).createTree = createTree;
`;

/** The tree view bundled for the page, with a stand-in for the VS Code webview API. */
function bundle(): string {
  const out = buildSync({
    stdin: { contents: ENTRY, resolveDir: path.join(__dirname, '../..'), loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
  });
  return `window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return {}; }, setState() {} });\n${out.outputFiles[0].text}`;
}

describe('results panel tree in Chromium: deep and wide replies', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle() });
  });
  after(async () => {
    await browser?.close();
  });

  it(`reveals a value ${MAX_DEPTH} levels down, and the keyboard walks every visible row`, async () => {
    const xml = `${'<Nest>'.repeat(MAX_DEPTH - 1)}<Leaf>needle</Leaf>${'</Nest>'.repeat(MAX_DEPTH - 1)}`;
    // The reply's own root, as parseReply keeps an unknown one: MAX_DEPTH levels in all.
    const data = { Nest: readGeneric(parseXml(xml)) };
    const leafPath = `${'Nest.'.repeat(MAX_DEPTH - 1)}Leaf`;
    // As JSON: playwright's own argument serialiser recurses, and the panel gets its data as a message anyway.
    const result = await page.evaluate(
      ({ json, leafPath }) => {
        const data: unknown = JSON.parse(json);
        const tree = (
          window as unknown as { createTree: (d: unknown) => { element: HTMLElement; reveal(p: string): boolean; stats(): { renderedNodes: number } } }
        ).createTree(data);
        document.body.replaceChildren(tree.element);
        const revealed = tree.reveal(leafPath);
        const focused = document.activeElement as HTMLElement;
        const level = focused.getAttribute('aria-level');
        focused.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
        const home = (document.activeElement as HTMLElement).getAttribute('aria-level');
        (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
        const end = (document.activeElement as HTMLElement).getAttribute('aria-level');
        const indent = getComputedStyle(focused.querySelector('.row-line')!).getPropertyValue('--level');
        return { revealed, level, home, end, indent, rendered: tree.stats().renderedNodes, text: focused.textContent };
      },
      { json: JSON.stringify(data), leafPath },
    );
    assert.equal(result.revealed, true);
    assert.equal(result.level, String(MAX_DEPTH));
    assert.equal(result.home, '1');
    assert.equal(result.end, String(MAX_DEPTH));
    assert.equal(result.indent.trim(), '40', 'indentation is capped, aria-level is not');
    assert.ok(result.rendered <= MAX_DEPTH, `${result.rendered} rows built`);
    assert.match(result.text ?? '', /Leaf: needle/);
  });

  it('opens a 200,000-item list a slice at a time', async () => {
    const rendered = await page.evaluate(() => {
      const data = { Result: Array.from({ length: 200_000 }, (_, i) => ({ ShipmentNumber: String(i) })) };
      const tree = (
        window as unknown as { createTree: (d: unknown) => { element: HTMLElement; stats(): { renderedNodes: number; totalNodes: number } } }
      ).createTree(data);
      document.body.replaceChildren(tree.element);
      return tree.stats();
    });
    assert.ok(rendered.renderedNodes < 1000, JSON.stringify(rendered));
  });
});
