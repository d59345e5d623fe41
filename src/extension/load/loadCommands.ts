/**
 * Carrier: Run Load Test…, the editor's face of `carrier load` (docs/load.md#in-vs-code): on a
 * folder of request files (the explorer's menu, or a picker from the palette), virtual users,
 * duration, rate (blank: the closed model) and thresholds are asked in turn; core's startLoad runs
 * through the engine with the Test Explorer's backend (testing/editorBackend.ts: the status bar's
 * environment, keys from SecretStorage, the extension's sandbox) under a cancellable progress
 * updated each second; the JSON and HTML reports are written to reports/ at the workspace
 * folder's root, as `carrier load -r json,html` writes them, and the HTML one is shown
 * (loadReportPanel.ts). A cancelled run still reports what it measured.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadReport, PlannedRun, Threshold } from '../../core';
import { readSettings } from '../config';
import { setContext } from '../contextKeys';
import { engine } from '../engineBundle';
import { activeFolder, folderOf, type EnvironmentStore } from '../environments/environmentStore';
import { guarded } from '../errors';
import type { Log } from '../log';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import { editorBackend, type EditorBackend } from '../testing/editorBackend';
import { LoadReportPanel } from './loadReportPanel';
import { requestFolders } from './requestFolders';

export const DEFAULT_LOAD_USERS = 10;
export const DEFAULT_LOAD_DURATION = '30s';
/** `carrier load`'s default --out (src/cli/commands/load.ts), at the workspace folder's root. */
const REPORTS_FOLDER = 'reports';
const REPORT_FILES = { json: 'load-report.json', html: 'load-report.html' } as const;
const STEPS = 4;

/** Answers given as an argument skip their question (tests, other extensions). */
export interface LoadAnswers {
  readonly vus?: number;
  /** `30s`, `2m`, `500ms`; a bare number is seconds. */
  readonly duration?: string;
  /** `200/s`, `6000/m`; empty: the closed model. */
  readonly rate?: string;
  /** `GetRateQuote:p95<800ms`, `*:errors<1%`…; empty: none. */
  readonly thresholds?: readonly string[];
}

/** What the command returns: the summary it showed, the report and where it was written. */
export interface LoadCommandResult {
  readonly summary: string;
  readonly cancelled: boolean;
  readonly report: LoadReport;
  readonly jsonFile?: string;
  readonly htmlFile?: string;
  /** The report panel's title, as its tab shows it. */
  readonly panelTitle: string;
}

interface LoadContext {
  readonly environments: EnvironmentStore;
  readonly keys: ApiKeys;
  readonly sandbox: SandboxController;
  readonly log: Log;
  readonly panel: LoadReportPanel;
  /** The runs under way, each stopped by its AbortController. */
  readonly running: Set<AbortController>;
}

export function registerLoadCommands(environments: EnvironmentStore, keys: ApiKeys, sandbox: SandboxController, log: Log): vscode.Disposable[] {
  const panel = new LoadReportPanel();
  const ctx: LoadContext = { environments, keys, sandbox, log, panel, running: new Set() };
  let result: LoadCommandResult | undefined;
  const run = guarded(log, 'Run Load Test', async (target?: unknown, answers?: LoadAnswers) => {
    result = await loadCommand(ctx, target instanceof vscode.Uri ? target : undefined, answers ?? {});
  });
  return [
    panel,
    vscode.commands.registerCommand('carrier.runLoad', async (target?: unknown, answers?: LoadAnswers) => {
      result = undefined;
      await run(target, answers);
      return result;
    }),
    // The progress notification's Cancel, from the palette; true when there was a run to cancel (the host tests wait for one).
    vscode.commands.registerCommand('carrier.cancelLoad', () => {
      for (const a of ctx.running) a.abort();
      return ctx.running.size > 0;
    }),
    { dispose: () => ctx.running.forEach((a) => a.abort()) },
  ];
}

async function loadCommand(ctx: LoadContext, target: vscode.Uri | undefined, answers: LoadAnswers): Promise<LoadCommandResult | undefined> {
  const folder = target ?? (await chooseFolder());
  if (!folder) return undefined;
  const root = folderOf(folder) ?? activeFolder();
  if (!root || folder.scheme !== 'file') {
    void vscode.window.showErrorMessage('Carrier: a load test runs the request files of a folder in an open workspace.');
    return undefined;
  }
  const out = path.join(root, REPORTS_FOLDER);
  const { loadRun, validateRequestText } = engine();
  // The environments as the file is now, whatever the watcher has seen of it yet.
  ctx.environments.refresh();
  const plan = loadRun([folder.fsPath], { baseDir: root, validate: (text, fileName) => validateRequestText(text, fileName).findings, exclude: [out] });
  const relFolder = vscode.workspace.asRelativePath(folder, false);
  if (plan.problems.length) return refuse(ctx, `${relFolder} has ${count(plan.problems.length, 'problem')} in its files to load`, plan.problems);
  if (!plan.tests.length) {
    void vscode.window.showWarningMessage(`Carrier: no request files in ${relFolder} to load.`);
    return undefined;
  }
  const sent = new Set(plan.tests.map((t) => t.operation ?? path.basename(t.file)));

  const vus = answers.vus ?? (await askUsers());
  if (vus === undefined) return undefined;
  const durationMs = answers.duration !== undefined ? parseDuration(answers.duration) : await askDuration();
  if (durationMs === undefined) return undefined;
  const rate = answers.rate !== undefined ? parseRate(answers.rate) : await askRate();
  if (rate === undefined) return undefined;
  const thresholds = answers.thresholds !== undefined ? readThresholds(answers.thresholds.join(' '), sent) : await askThresholds(sent);
  if (thresholds === undefined || typeof thresholds === 'string') {
    if (typeof thresholds === 'string') void vscode.window.showErrorMessage(`Carrier: ${thresholds}`);
    return undefined;
  }

  const secrets = new Set<string>();
  const backend = await editorBackend(root, ctx, secrets);
  try {
    const problems = [
      ...backend.problems,
      ...engine().environmentProblems(plan, { backend }),
      ...engine().variableProblems(plan, { backend }),
      ...creatingProblems(ctx, plan, backend, root),
    ];
    if (problems.length) return refuse(ctx, `the load of ${relFolder} cannot start`, problems, secrets);
    const { report, cancelled } = await runWithProgress(ctx, plan, backend, relFolder, {
      vus,
      durationMs,
      ...(rate !== 'closed' ? { ratePerSecond: rate } : {}),
      timeoutMs: readSettings(folder).timeoutMs,
    });
    const judged = thresholds.length ? { ...report, thresholds: engine().judgeThresholds(thresholds, report) } : report;
    return await finish(ctx, judged, cancelled, relFolder, out, secrets);
  } finally {
    await backend.close();
  }
}

/** Says why nothing was sent: the first problem in the message, all of them in the log. */
function refuse(ctx: LoadContext, what: string, problems: readonly { readonly message: string }[], secrets?: ReadonlySet<string>): undefined {
  const mask = (t: string) => (secrets ? engine().redactFinalText(t, secrets) : t);
  for (const p of problems) ctx.log.warn(`load: ${mask(p.message)}`);
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more in the log)` : '';
  void vscode.window.showErrorMessage(`Carrier: ${what}; nothing was sent. ${mask(problems[0].message)}${more}`);
  return undefined;
}

/**
 * Tests that would create shipments or pickups where `carrier load` refuses them: anywhere but an
 * embedded sandbox or an environment marked `"probe": true` (docs/load.md#creating-operations).
 */
function creatingProblems(ctx: LoadContext, plan: PlannedRun, backend: EditorBackend, root: string): Array<{ message: string }> {
  const { CREATING_OPERATIONS, creatingAllowed, environmentNameOf } = engine();
  const defined = ctx.environments.definitions(root).environments;
  const said = new Set<string>();
  const problems: Array<{ message: string }> = [];
  for (const test of plan.tests) {
    if (!test.operation || !CREATING_OPERATIONS.includes(test.operation)) continue;
    const env = backend.environment(environmentNameOf(test, plan.files.get(test.file), {}));
    // An environment that cannot be had is said by environmentProblems.
    if (typeof env === 'string') continue;
    const def = defined.find((e) => e.name === env.name);
    if (!def || creatingAllowed(def) || said.has(`${test.operation}\0${env.name}`)) continue;
    said.add(`${test.operation}\0${env.name}`);
    problems.push({
      message: `${test.operation} creates shipments and pickups: a load test sends it only to an embedded sandbox or an environment marked "probe": true, and ${env.name} is neither`,
    });
  }
  return problems;
}

// ---- the questions ----

async function chooseFolder(): Promise<vscode.Uri | undefined> {
  const folders = await requestFolders();
  if (!folders.length) {
    void vscode.window.showWarningMessage('Carrier: no folder of this workspace holds request files (*.carrier.json) to load.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    folders.map((uri) => ({ label: `$(folder) ${vscode.workspace.asRelativePath(uri, true)}`, uri })),
    { title: `Carrier: Run Load Test (1/${STEPS + 1})`, placeHolder: 'Folder whose request files to load, in collection order' },
  );
  return pick?.uri;
}

const WHOLE = /^\d+$/;

async function askUsers(): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Carrier: Run Load Test (2/${STEPS + 1})`,
    prompt: 'Virtual users: each runs the files in collection order, again and again (with a rate, the most at once)',
    value: String(DEFAULT_LOAD_USERS),
    validateInput: (v) => (WHOLE.test(v.trim()) && Number(v) >= 1 && Number(v) <= 10_000 ? undefined : 'A whole number from 1 to 10000'),
  });
  return text === undefined ? undefined : Number(text.trim());
}

async function askDuration(): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Carrier: Run Load Test (3/${STEPS + 1})`,
    prompt: 'How long requests are started for: 30s, 2m, 500ms',
    value: DEFAULT_LOAD_DURATION,
    validateInput: (v) => (parseDuration(v) === undefined ? 'A duration such as 30s, 2m or 500ms' : undefined),
  });
  return text === undefined ? undefined : parseDuration(text);
}

async function askRate(): Promise<number | 'closed' | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Carrier: Run Load Test (4/${STEPS + 1})`,
    prompt: 'Rate: iterations started per second (200/s, 6000/m), whatever the service does; blank: each user starts its next iteration when its last ends',
    placeHolder: 'blank: closed model',
    value: '',
    validateInput: (v) => (parseRate(v) === undefined ? 'Arrivals such as 200/s or 6000/m, or blank' : undefined),
  });
  return text === undefined ? undefined : parseRate(text);
}

async function askThresholds(sent: ReadonlySet<string>): Promise<Threshold[] | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Carrier: Run Load Test (5/${STEPS + 1})`,
    prompt: 'Thresholds, optional, separated by spaces: GetRateQuote:p95<800ms *:errors<1% *:rate>100/s',
    placeHolder: 'blank: none',
    value: '',
    validateInput: (v) => {
      const read = readThresholds(v, sent);
      return typeof read === 'string' ? read : undefined;
    },
  });
  if (text === undefined) return undefined;
  const read = readThresholds(text, sent);
  return typeof read === 'string' ? undefined : read;
}

/** `60s`, `2m`, `500ms`, `1.5s`; a bare number is seconds (as `carrier load --duration`); undefined when it is none of these or 0. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']);
  return ms > 0 ? ms : undefined;
}

/** `200/s`, `200`, `6000/m` per second (as `carrier load --rate`); blank is the closed model; undefined when unreadable. */
export function parseRate(text: string): number | 'closed' | undefined {
  if (!text.trim()) return 'closed';
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|m))?$/.exec(text.trim());
  if (!m || Number(m[1]) <= 0) return undefined;
  return m[2] === 'm' ? Number(m[1]) / 60 : Number(m[1]);
}

/** Thresholds separated by spaces or commas; a string says what is wrong (one the run cannot judge, as `carrier load` refuses). */
function readThresholds(text: string, sent: ReadonlySet<string>): Threshold[] | string {
  const { ALL_OPERATIONS, parseThreshold } = engine();
  const out: Threshold[] = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const t = parseThreshold(part);
    if (typeof t === 'string') return t;
    if (t.operation !== ALL_OPERATIONS && !sent.has(t.operation))
      return `${t.text}: this run sends no ${t.operation} (it sends ${[...sent].sort().join(', ')})`;
    out.push(t);
  }
  return out;
}

// ---- the run ----

interface RunSettings {
  readonly vus: number;
  readonly durationMs: number;
  readonly ratePerSecond?: number;
  readonly timeoutMs: number;
}

async function runWithProgress(
  ctx: LoadContext,
  plan: PlannedRun,
  backend: EditorBackend,
  relFolder: string,
  settings: RunSettings,
): Promise<{ report: LoadReport; cancelled: boolean }> {
  const abort = new AbortController();
  ctx.running.add(abort);
  setContext('carrier.loading', true);
  try {
    const { startLoad, duration } = engine();
    const model = settings.ratePerSecond !== undefined ? `${settings.ratePerSecond}/s, at most ${settings.vus} users` : `${settings.vus} users`;
    const report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Carrier: load of ${relFolder}, ${model}, ${duration(settings.durationMs)}`,
        cancellable: true,
      },
      async (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        const run = startLoad(plan, { backend, ...settings, signal: abort.signal });
        let shown = 0;
        // Once a second, as `carrier load` redraws its line on a terminal (src/cli/commands/load.ts).
        const timer = setInterval(() => {
          const p = run.progress();
          const done = Math.min(100, (p.elapsedMs / settings.durationMs) * 100);
          const errors = p.errors ? `${p.errors} error${p.errors === 1 ? '' : 's'}` : 'no errors';
          progress.report({
            increment: Math.max(0, done - shown),
            message: `${duration(p.elapsedMs)} · ${p.count} req · ${p.ratePerSecond.toFixed(1)} req/s · p95 ${p.p95Ms.toFixed(1)} ms · ${errors}${abort.signal.aborted ? ' · stopping' : ''}`,
          });
          shown = Math.max(shown, done);
        }, 1000);
        try {
          return await run.done;
        } finally {
          clearInterval(timer);
        }
      },
    );
    return { report, cancelled: report.cancelled === true };
  } finally {
    ctx.running.delete(abort);
    setContext('carrier.loading', ctx.running.size > 0);
  }
}

/** Writes both reports (masked), shows the HTML one, says the summary. */
async function finish(
  ctx: LoadContext,
  report: LoadReport,
  cancelled: boolean,
  relFolder: string,
  out: string,
  secrets: ReadonlySet<string>,
): Promise<LoadCommandResult> {
  const { loadHtmlReport, loadTable, redactFinalText, thresholdLines } = engine();
  const mask = (text: string) => redactFinalText(text, secrets);
  const title = `Carrier load report: ${relFolder}`;
  const html = loadHtmlReport(report, { title, mask });
  const jsonFile = vscode.Uri.file(path.join(out, REPORT_FILES.json));
  const htmlFile = vscode.Uri.file(path.join(out, REPORT_FILES.html));
  await vscode.workspace.fs.writeFile(jsonFile, new TextEncoder().encode(mask(`${JSON.stringify(report, null, 2)}\n`)));
  await vscode.workspace.fs.writeFile(htmlFile, new TextEncoder().encode(html));
  ctx.log.info(`load of ${relFolder}:\n${mask(loadTable(report))}${report.thresholds ? mask(thresholdLines(report.thresholds)) : ''}`);
  ctx.log.info(`load: reports ${vscode.workspace.asRelativePath(jsonFile)}, ${vscode.workspace.asRelativePath(htmlFile)}`);
  const panelTitle = `Load: ${path.basename(relFolder) || relFolder}`;
  ctx.panel.show(panelTitle, html);

  const summary = mask(summaryOf(report, relFolder, cancelled));
  const crossed = report.thresholds?.some((t) => !t.held) ?? false;
  if (crossed || cancelled || !report.overall.count || report.overall.errors) void vscode.window.showWarningMessage(`Carrier: ${summary}`);
  else void vscode.window.showInformationMessage(`Carrier: ${summary}`);
  return { summary, cancelled, report, jsonFile: jsonFile.fsPath, htmlFile: htmlFile.fsPath, panelTitle };
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export function summaryOf(report: LoadReport, relFolder: string, cancelled: boolean): string {
  const o = report.overall;
  const where = report.environments.length ? ` on ${report.environments.join(', ')}` : '';
  const head = `${cancelled ? 'load cancelled; before that, ' : 'load '}of ${relFolder}${where}`;
  if (!o.count) return `${head}: no request was measured.`;
  const errors = o.errors
    ? `${count(o.errors, 'error')} (${Object.entries(o.errorClasses)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`
    : 'no errors';
  const figures = `${count(o.count, 'request')}, ${o.ratePerSecond.toFixed(1)} req/s, p95 ${o.latency.p95Ms.toFixed(1)} ms, ${errors}`;
  const judged = report.thresholds ?? [];
  const crossed = judged.filter((t) => !t.held);
  const thresholds = !judged.length
    ? ''
    : crossed.length
      ? `; ${crossed.map((t) => `threshold ${t.threshold} crossed (${t.measured})`).join(', ')}`
      : `; ${judged.length === 1 ? 'the threshold' : `every threshold (${judged.length})`} held`;
  return `${head}: ${figures}${thresholds}.`;
}
