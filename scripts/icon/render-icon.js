#!/usr/bin/env node
// Renders media/icon.svg to media/icon.png (128x128, transparent corners) with Debian's chromium,
// the marketplace's required icon format. Run after editing the SVG; the PNG is committed.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { chromiumLaunchOptions, REPO_ROOT } = require('../vscode-host/code-server-process');

const SIZE = 128;

async function main() {
  const svg = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const out = path.join(REPO_ROOT, 'media', 'icon.png');
    await page.locator('svg').screenshot({ path: out, omitBackground: true });
    console.log(`wrote ${path.relative(process.cwd(), out)} (${fs.statSync(out).size} bytes)`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
