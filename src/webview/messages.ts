/** Guards what arrives over postMessage before the webview trusts its shape. */
import type { ToWebview } from './protocol';

export function isToWebview(value: unknown): value is ToWebview {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown; view?: { exchange?: { id?: unknown } }; detail?: { exchangeId?: unknown } };
  if (m.type === 'show') return typeof m.view?.exchange?.id === 'string';
  if (m.type === 'detail') return typeof m.detail?.exchangeId === 'string';
  return m.type === 'empty';
}
