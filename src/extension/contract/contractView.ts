/**
 * The contract report as a page to read: the namespaces (what the environment has, what the live
 * service uses), then one section per service path with the most serious first, each difference
 * as a row with its severity, where it is and what differs. Apply sets the namespaces and stores
 * the contract; Check Again runs the check anew. One panel per environment.
 */
import * as vscode from 'vscode';
import type { ContractReport, NamespaceRole } from '../../core';
import { engine } from '../engineBundle';

export interface ContractViewActions {
  /** Undefined when there is nothing to apply to (the sandbox, or a report that could not be read). */
  readonly apply?: () => Promise<void>;
  readonly recheck: () => Promise<void>;
}

const ROLES: readonly NamespaceRole[] = ['service', 'data', 'pickup'];
const panels = new Map<string, vscode.WebviewPanel>();
/** Each panel answers its buttons with the actions of the report it shows now, not of an earlier one. */
const listeners = new Map<string, vscode.Disposable>();

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** When the check ran, as a person reads a date and time here (the ISO stamp stays in the tooltip); the stamp itself when it is not one. */
export function checkedWhen(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function contractViewTitle(environment: string): string {
  return `Contract: ${environment}`;
}

export function showContractView(report: ContractReport, actions: ContractViewActions, applied?: string): vscode.WebviewPanel {
  let panel = panels.get(report.environment);
  if (!panel) {
    panel = vscode.window.createWebviewPanel('carrier.contract', contractViewTitle(report.environment), vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
    });
    const created = panel;
    panels.set(report.environment, created);
    created.onDidDispose(() => {
      panels.delete(report.environment);
      listeners.get(report.environment)?.dispose();
      listeners.delete(report.environment);
    });
  } else {
    panel.reveal();
  }
  listeners.get(report.environment)?.dispose();
  listeners.set(
    report.environment,
    panel.webview.onDidReceiveMessage(async (message: { type?: string }) => {
      if (message.type === 'apply' && actions.apply) await actions.apply();
      if (message.type === 'recheck') await actions.recheck();
    }),
  );
  panel.webview.html = contractHtml(report, nonce(), Boolean(actions.apply), applied);
  return panel;
}

function nonce(): string {
  let out = '';
  for (let i = 0; i < 24; i++) out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 62)];
  return out;
}

/** The page, for the panel (and for tests: it is the view's whole content). */
export function contractHtml(report: ContractReport, scriptNonce: string, canApply: boolean, applied?: string): string {
  const { summary } = report;
  const verdict = summary.unreadable
    ? `${summary.unreadable} service path${summary.unreadable === 1 ? '' : 's'} could not be read`
    : summary.differences === 0
      ? 'The live contract is as the catalog has it'
      : `${summary.differences} difference${summary.differences === 1 ? '' : 's'}: ${summary.breaking} breaking, ${summary.changed} changed, ${summary.added} added`;
  const namespaceRows = ROLES.map((role) => {
    const n = report.namespaces[role];
    const state = n.live === undefined ? 'unseen' : n.differs ? 'breaking' : 'same';
    const live = n.live === undefined ? '<em>not seen in the live contract</em>' : esc(n.live || '(no namespace)');
    return `<tr class="${state}"><th>${esc(engine().ROLE_PLACEHOLDERS[role])}</th><td><code>${esc(n.environment)}</code></td><td><code>${live}</code></td><td>${n.differs ? `set <code>${engine().ROLE_SETTINGS[role]}</code>` : n.live === undefined ? '' : '✓'}</td></tr>`;
  }).join('');
  const { reportGroups, differenceScope } = engine();
  const groups = reportGroups(report)
    .map((g) => {
      const s = g.service;
      const head = `<h2>${esc(s.path)} <small>${esc(s.service)} ${esc(s.version)}</small></h2>`;
      if (s.status === 'error') return `<section class="error">${head}<p class="breaking">Cannot be read: ${esc(s.error ?? '')}</p></section>`;
      const targets = s.targetNamespaces.length
        ? `<p class="muted">Target namespace${s.targetNamespaces.length === 1 ? '' : 's'}: ${s.targetNamespaces.map((u) => `<code>${esc(u || '(none)')}</code>`).join(', ')}</p>`
        : '';
      if (!g.differences.length) return `<section>${head}${targets}<p class="same">✓ As the catalog has it</p></section>`;
      const rows = g.differences
        .map((d) => `<tr class="${d.severity}"><td class="sev">${d.severity}</td><td>${esc(differenceScope(d))}</td><td>${esc(d.message)}</td></tr>`)
        .join('');
      return `<section>${head}${targets}<table class="diffs"><thead><tr><th>Severity</th><th>Where</th><th>What differs</th></tr></thead><tbody>${rows}</tbody></table></section>`;
    })
    .join('');
  const apply = canApply && summary.unreadable === 0 ? '<button id="apply">Apply: set the namespaces and store the contract</button>' : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${scriptNonce}';">
<title>${esc(contractViewTitle(report.environment))}</title>
<style>
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 1.5em 2em; line-height: 1.45; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.15em; margin: 1.4em 0 0.3em; } h2 small { font-weight: normal; opacity: 0.75; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); }
code { font-family: var(--vscode-editor-font-family); } .muted { opacity: 0.75; margin: 0.2em 0; }
.sev { font-weight: 600; white-space: nowrap; } tr.breaking .sev, p.breaking, tr.breaking th { color: var(--vscode-errorForeground, #c33); }
tr.changed .sev { color: var(--vscode-editorWarning-foreground, #b80); } tr.added .sev { color: var(--vscode-charts-blue, #37c); }
.same { color: var(--vscode-testing-iconPassed, #393); } .verdict { font-size: 1.1em; margin: 0.4em 0 1em; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 5px 12px; margin-right: 8px; cursor: pointer; }
button.secondary { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
.applied { padding: 6px 10px; border-left: 3px solid var(--vscode-testing-iconPassed, #393); margin: 0.8em 0; }
</style></head><body>
<h1>Contract of “${esc(report.environment)}”</h1>
<p class="muted">${esc(report.baseUrl)} · checked <time datetime="${esc(report.checkedAt)}" title="${esc(report.checkedAt)}">${esc(checkedWhen(report.checkedAt))}</time></p>
<p class="verdict">${esc(verdict)}</p>
${applied ? `<p class="applied">${esc(applied)}</p>` : ''}
<p>${apply}<button id="recheck" class="secondary">Check Again</button></p>
<h2>Namespaces</h2>
<table><thead><tr><th>Role</th><th>Environment</th><th>Live service</th><th></th></tr></thead><tbody>${namespaceRows}</tbody></table>
${groups}
<script nonce="${scriptNonce}">
const vscode = acquireVsCodeApi();
for (const id of ['apply', 'recheck']) document.getElementById(id)?.addEventListener('click', () => vscode.postMessage({ type: id }));
</script>
</body></html>`;
}
