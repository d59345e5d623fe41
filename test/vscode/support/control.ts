/**
 * The suite's line back to scripts/vscode-host/run-tests.js (CARRIER_TEST_CONTROL_URL): results
 * and screenshots of the real workbench page, which only the runner's browser can take.
 */
export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  failures: Array<{ title: string; message: string }>;
  tests: Array<{ title: string; state: 'passed' | 'failed' | 'pending'; durationMs: number }>;
}

function controlUrl(): string | undefined {
  return process.env.CARRIER_TEST_CONTROL_URL;
}

export async function reportResult(result: SuiteResult): Promise<void> {
  const base = controlUrl();
  if (!base) return;
  await fetch(`${base}/result`, { method: 'POST', body: JSON.stringify(result) });
}

/**
 * Asks the runner to screenshot the whole workbench page; resolves with the PNG's path, or
 * undefined when the host has no browser to shoot (desktop VS Code through test-electron).
 */
export async function screenshot(name: string): Promise<string | undefined> {
  const base = controlUrl();
  if (!base) return undefined;
  const res = await fetch(`${base}/screenshot?name=${encodeURIComponent(name)}`, { method: 'POST' });
  if (!res.ok) return undefined;
  const body = (await res.json()) as { file?: string };
  return body.file;
}

/**
 * Types into the workbench page as a person would (into the input box a command just opened,
 * by default) and presses Enter until the box closes. `waitForValue` first waits for a
 * pre-filled value so it is replaced, not raced. False when there is no browser.
 */
export async function typeIntoWorkbench(text: string, options: { selector?: string; waitForValue?: boolean } = {}): Promise<boolean> {
  const base = controlUrl();
  if (!base) return false;
  const res = await fetch(`${base}/type`, {
    method: 'POST',
    body: JSON.stringify({ text, selector: options.selector ?? '.quick-input-widget input', waitForValue: options.waitForValue ?? false }),
  });
  return res.ok;
}

/** Accepts what an input box proposes (a save dialog's default path): Enter, once it is filled in. */
export async function acceptInWorkbench(selector = '.quick-input-widget input'): Promise<boolean> {
  const base = controlUrl();
  if (!base) return false;
  const res = await fetch(`${base}/type`, { method: 'POST', body: JSON.stringify({ text: null, selector, waitForValue: true }) });
  return res.ok;
}

export function hasBrowserHost(): boolean {
  return controlUrl() !== undefined && process.env.CARRIER_TEST_BROWSER === '1';
}

export type WebviewOp =
  | { action: 'waitFor'; selector: string; state?: 'visible' | 'attached' | 'hidden'; timeoutMs?: number }
  | { action: 'click'; selector: string }
  | { action: 'press'; key: string; selector?: string }
  | { action: 'fill'; selector: string; text: string }
  | { action: 'text'; selector: string }
  | { action: 'attr'; selector: string; name: string }
  | { action: 'count'; selector: string }
  | { action: 'focused' };

export interface WebviewResult {
  ok?: boolean;
  text?: string | null;
  value?: string | null;
  count?: number;
  id?: string;
  role?: string | null;
  expanded?: string | null;
  selected?: string | null;
  inView?: boolean;
  error?: string;
}

/** Acts inside the results webview through the runner's browser (clicks, keys, reading text). */
export async function webview(op: WebviewOp): Promise<WebviewResult> {
  const base = controlUrl();
  if (!base) throw new Error('webview actions need the runner');
  const res = await fetch(`${base}/webview`, { method: 'POST', body: JSON.stringify(op) });
  const body = (await res.json()) as WebviewResult;
  if (!res.ok) throw new Error(`webview ${op.action} failed: ${body.error}`);
  return body;
}

export type WorkbenchOp =
  { action: 'click'; selector: string; hasText?: string; timeoutMs?: number } | { action: 'text'; selector: string; hasText?: string; timeoutMs?: number };

/** Reads or clicks in the workbench page itself (a modal dialog and its buttons). */
export async function workbench(op: WorkbenchOp): Promise<{ ok?: boolean; text?: string | null }> {
  const base = controlUrl();
  if (!base) throw new Error('workbench actions need the runner');
  const res = await fetch(`${base}/workbench`, { method: 'POST', body: JSON.stringify(op) });
  const body = (await res.json()) as { ok?: boolean; text?: string | null; error?: string };
  if (!res.ok) throw new Error(`workbench ${op.action} failed: ${body.error}`);
  return body;
}
