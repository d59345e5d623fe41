/** The typed side of acquireVsCodeApi: the webview's only channel to the extension. */
import type { FromWebview, PanelState } from './protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page load.
const api = acquireVsCodeApi();

export function post(message: FromWebview): void {
  api.postMessage(message);
}

export function getState(): PanelState {
  const s = api.getState();
  return typeof s === 'object' && s !== null ? (s as PanelState) : {};
}

export function setState(state: PanelState): void {
  api.setState(state);
}

export function copy(text: string, what: string): void {
  post({ type: 'copy', text, what });
}
