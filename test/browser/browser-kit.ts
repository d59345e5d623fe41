/**
 * Chromium for the browser tests: Debian's build (scripts/ensure-chromium.js installs it), driven
 * by playwright-core; nothing is downloaded. Screenshots go to test-results/browser/ for a person
 * to look at.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'browser');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** The visible part by default: operation pages with all their samples are very tall. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}
