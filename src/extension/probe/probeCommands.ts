/**
 * Carrier: Probe Operation…, the editor's face of `carrier probe` (docs/probe.md#in-vs-code): the
 * operation (or a request file's), the binding and the number of examples are asked in turn; core's
 * runProbe runs through the engine with the extension's context, on the environment the status bar
 * has selected, under a cancellable progress; the failures are written as request files to
 * probe-failures/ at the workspace folder's root, the first opened and the folder revealed.
 */
import * as vscode from 'vscode';
import type { Binding, Environment, OperationDef, ProbeResult, ShapeResult } from '../../core';
import { setContext } from '../contextKeys';
import { keyDestination } from '../coreLight';
import { listShapes, type ShapeInfo } from '../core-adapter';
import { engine } from '../engineBundle';
import { activeFolder, folderOf, type EnvironmentStore } from '../environments/environmentStore';
import { guarded } from '../errors';
import type { Log } from '../log';
import { explainRestricted, mayReach } from '../restrictedMode';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';

export const DEFAULT_PROBE_EXAMPLES = 30;
/** As `carrier probe` without --seed: the same requests on the same day (src/cli/commands/probe.ts). */
const SEED = 1;
const FAILURES_FOLDER = 'probe-failures';

/** Answers given as an argument skip their question (tests, other extensions). */
export interface ProbeAnswers {
  readonly operation?: string;
  readonly version?: string;
  /** A binding, or `all` each shape offers. */
  readonly binding?: Binding | 'all';
  readonly maxExamples?: number;
}

/** What the command returns: the summary it showed and where the failures went. */
export interface ProbeCommandResult {
  readonly environment: string;
  readonly seed: number;
  readonly summary: string;
  readonly cancelled: boolean;
  readonly shapes: readonly ShapeResult[];
  readonly properties: ProbeResult['properties'];
  /** The failure files written, as paths. */
  readonly files: readonly string[];
  /** Creating operations left out on an environment not marked `"probe": true`. */
  readonly skipped: readonly string[];
}

export function registerProbeCommands(environments: EnvironmentStore, keys: ApiKeys, sandbox: SandboxController, log: Log): vscode.Disposable[] {
  const ctx: ProbeContext = { environments, keys, sandbox, log, running: new Set() };
  let result: ProbeCommandResult | undefined;
  const run = guarded(log, 'Probe Operation', async (target?: unknown, answers?: ProbeAnswers) => {
    result = await probeCommand(ctx, target instanceof vscode.Uri ? target : undefined, answers ?? {});
  });
  return [
    vscode.commands.registerCommand('carrier.probe', async (target?: unknown, answers?: ProbeAnswers) => {
      result = undefined;
      await run(target, answers);
      return result;
    }),
    // The progress notification's Cancel, from the palette (a hidden notification has none to click).
    // True when there was a probe to cancel (the host tests wait for one).
    vscode.commands.registerCommand('carrier.cancelProbe', () => {
      for (const a of ctx.running) a.abort();
      return ctx.running.size > 0;
    }),
    { dispose: () => ctx.running.forEach((a) => a.abort()) },
  ];
}

interface ProbeContext {
  readonly environments: EnvironmentStore;
  readonly keys: ApiKeys;
  readonly sandbox: SandboxController;
  readonly log: Log;
  /** The probes under way, each stopped by its AbortController. */
  readonly running: Set<AbortController>;
}

async function probeCommand(ctx: ProbeContext, target: vscode.Uri | undefined, answers: ProbeAnswers): Promise<ProbeCommandResult | undefined> {
  const fromFile = target ? await fileShape(target) : undefined;
  if (target && !fromFile) return undefined;
  const shapes = fromFile ? [fromFile.shape] : await chooseShapes(answers);
  if (!shapes?.length) return undefined;
  const binding = answers.binding ?? (await chooseBinding(shapes));
  if (binding === undefined) return undefined;
  const maxExamples = answers.maxExamples ?? (await chooseCount());
  if (maxExamples === undefined) return undefined;

  // The environments as the file is now, whatever the watcher has seen of it yet.
  ctx.environments.refresh();
  const resolved = target
    ? ctx.environments.resolve(target, fromFile?.environment)
    : { environment: ctx.environments.selectedEnvironment(), folder: activeFolder() };
  if (typeof resolved === 'string') {
    void vscode.window.showErrorMessage(`Carrier: ${resolved}`);
    return undefined;
  }
  const { environment } = resolved;
  const folder = (target && folderOf(target)) ?? resolved.folder ?? activeFolder();
  const credentials = await keyFor(ctx, environment);
  if (!credentials) return undefined;

  const { CREATING_OPERATIONS, creatingAllowed, operations } = engine();
  // Each send of these books a shipment or a pickup: never on a service someone else uses (docs/probe.md).
  const skipped = creatingAllowed(environment) ? [] : [...new Set(shapes.filter((s) => CREATING_OPERATIONS.includes(s.operation)).map((s) => s.operation))];
  const probed = shapes
    .filter((s) => !skipped.includes(s.operation))
    .map((s) => operations.find((o) => o.operation === s.operation && o.version === s.version)!);
  const skippedLine = skipped.length
    ? `skipped ${skipped.join(', ')}: they create shipments and pickups, probed on an embedded sandbox only (or where "probe": true marks the environment)`
    : '';
  if (skippedLine) ctx.log.info(`probe: ${skippedLine}`);
  if (!probed.length) {
    void vscode.window.showWarningMessage(`Carrier: nothing to probe on "${environment.name}": ${skippedLine}.`);
    return { environment: environment.name, seed: SEED, summary: skippedLine, cancelled: false, shapes: [], properties: [], files: [], skipped };
  }

  const { result, cancelled } = await runWithProgress(ctx, environment, credentials.key, probed, binding, maxExamples);
  const files = await writeFailures(ctx, folder, result);
  const summary = summaryOf(environment.name, result, files.length, cancelled, skippedLine);
  ctx.log.info(`probe: ${summary}`);
  if (result.failures.length || cancelled) void vscode.window.showWarningMessage(`Carrier: ${summary}`);
  else void vscode.window.showInformationMessage(`Carrier: ${summary}`);
  if (files.length) {
    await vscode.window.showTextDocument(files[0], { preview: false });
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.joinPath(files[0], '..'));
  }
  return {
    environment: environment.name,
    seed: SEED,
    summary,
    cancelled,
    shapes: result.shapes,
    properties: result.properties,
    files: files.map((f) => f.fsPath),
    skipped,
  };
}

/** The shape a request file names, and its own environment; undefined when it names none (said). */
async function fileShape(uri: vscode.Uri): Promise<{ shape: ShapeInfo; environment?: string } | undefined> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const fileName = uri.scheme === 'file' ? uri.fsPath : uri.toString();
  const request = engine().validateRequestText(doc.getText(), fileName).request;
  const shape = request && listShapes().find((s) => s.operation === request.operation && s.version === request.version);
  if (!shape) {
    void vscode.window.showErrorMessage(`Carrier: ${vscode.workspace.asRelativePath(uri)} names no operation and version of the catalog to probe.`);
    return undefined;
  }
  return { shape, ...(request.environment ? { environment: request.environment } : {}) };
}

const EVERY_OPERATION = Symbol('every operation');

async function chooseShapes(answers: ProbeAnswers): Promise<ShapeInfo[] | undefined> {
  const all = listShapes();
  if (answers.operation) {
    const found = all.filter((s) => s.operation === answers.operation && (answers.version === undefined || s.version === answers.version));
    if (!found.length)
      void vscode.window.showErrorMessage(`Carrier: no operation ${answers.operation}${answers.version ? ` ${answers.version}` : ''} in the catalog.`);
    return found;
  }
  const items: Array<vscode.QuickPickItem & { shape: ShapeInfo | typeof EVERY_OPERATION }> = [
    { label: '$(list-flat) Every operation', detail: 'each operation at each version, as carrier probe does', shape: EVERY_OPERATION },
    ...all.map((shape) => ({ label: shape.operation, description: shape.version, detail: shape.description, shape })),
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Carrier: Probe Operation (1/3)',
    placeHolder: 'Operation and version to probe',
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  return pick.shape === EVERY_OPERATION ? all : [pick.shape];
}

async function chooseBinding(shapes: readonly ShapeInfo[]): Promise<Binding | 'all' | undefined> {
  const offered = [...new Set(shapes.flatMap((s) => s.bindings))];
  if (offered.length === 1) return offered[0];
  const { BINDING_LABELS } = engine();
  const items: Array<vscode.QuickPickItem & { binding: Binding | 'all' }> = [
    ...offered.map((b) => ({ label: BINDING_LABELS[b], description: b, binding: b })),
    { label: 'All bindings', description: 'all', detail: offered.map((b) => BINDING_LABELS[b]).join(', '), binding: 'all' as const },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Carrier: Probe Operation (2/3)', placeHolder: 'Binding to send over' });
  return pick?.binding;
}

async function chooseCount(): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Carrier: Probe Operation (3/3)',
    prompt: 'Examples per operation and binding: half valid, half invalid',
    value: String(DEFAULT_PROBE_EXAMPLES),
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 10_000 ? undefined : 'A whole number from 1 to 10000'),
  });
  return text === undefined ? undefined : Number(text.trim());
}

/** The key stored for `env`'s destination; the sandbox needs none. Undefined when nothing may be sent (said). */
async function keyFor(ctx: ProbeContext, env: Environment): Promise<{ key?: string } | undefined> {
  const to = keyDestination(env);
  if (!mayReach(env)) {
    await explainRestricted(
      `Carrier: "${env.name}" is defined by this workspace, which is in Restricted Mode: nothing is probed at ${to.label} until you trust it. The sandbox works as usual.`,
    );
    return undefined;
  }
  const found = await ctx.keys.lookup(env.name, to);
  if (found.key !== undefined || env.embedded) return { key: found.key };
  const choice = await vscode.window.showWarningMessage(`Carrier: no API key is stored for "${env.name}" (${to.label}); set one to probe it.`, 'Set API Key');
  if (choice) await vscode.commands.executeCommand('carrier.setApiKey', env.name, to);
  return undefined;
}

async function runWithProgress(
  ctx: ProbeContext,
  environment: Environment,
  apiKey: string | undefined,
  shapes: readonly OperationDef[],
  binding: Binding | 'all',
  maxExamples: number,
): Promise<{ result: ProbeResult; cancelled: boolean }> {
  const abort = new AbortController();
  ctx.running.add(abort);
  setContext('carrier.probing', true);
  try {
    return await probeWith(ctx, abort, environment, apiKey, shapes, binding, maxExamples);
  } finally {
    ctx.running.delete(abort);
    setContext('carrier.probing', ctx.running.size > 0);
  }
}

async function probeWith(
  ctx: ProbeContext,
  abort: AbortController,
  environment: Environment,
  apiKey: string | undefined,
  shapes: readonly OperationDef[],
  binding: Binding | 'all',
  maxExamples: number,
): Promise<{ result: ProbeResult; cancelled: boolean }> {
  const total = Math.max(1, engine().probeRounds(shapes, binding));
  // Shapes that ended before a cancel: the one under way when it came saw its sends cut, so its "failures" are not the service's.
  const finished: ShapeResult[] = [];
  const label = shapes.length === 1 ? `${shapes[0].operation} ${shapes[0].version}` : `${shapes.length} operations`;
  const { result, day } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Carrier: probing ${label} on ${environment.name}`, cancellable: true },
    (progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      let current = '';
      let sent = 0;
      return engine().probe({
        shapes,
        binding,
        seed: SEED,
        maxExamples,
        environment,
        ...(apiKey !== undefined ? { apiKey } : {}),
        resolveEmbedded: () => ctx.sandbox.start(),
        signal: abort.signal,
        onSend: (e) => {
          const shape = `${e.operation} ${e.version} ${e.binding}`;
          if (shape !== current) [current, sent] = [shape, 0];
          sent++;
          // Shrinking a failure sends more than were drawn: the count stops at the number asked for.
          progress.report({ message: `${shape}: ${Math.min(sent, maxExamples)} of ${maxExamples}` });
        },
        onShape: (s) => {
          if (abort.signal.aborted) return;
          finished.push(s);
          progress.report({ increment: 100 / total });
          const failed = s.failures.length ? `, ${s.failures.length} failed: ${s.failures.map((f) => f.property).join(', ')}` : '';
          const notSent = s.notSent ? `, ${s.notSent} not sendable` : '';
          ctx.log.info(`probe: ${s.failures.length ? '✗' : '✓'} ${s.operation} ${s.version} ${s.binding}: ${s.examples} examples${notSent}${failed}`);
        },
      });
    },
  );
  ctx.log.info(`probe on ${environment.name}, seed ${SEED}, ${maxExamples} examples per shape, pickups on ${day.us}`);
  if (!abort.signal.aborted) return { result, cancelled: false };
  const failures = finished.flatMap((s) => s.failures);
  return { result: { ...result, shapes: finished, failures }, cancelled: true };
}

/** The failures as request files in probe-failures/ at the workspace folder's root (core's failureFiles, as `carrier probe --out`). */
async function writeFailures(ctx: ProbeContext, folder: string | undefined, result: ProbeResult): Promise<vscode.Uri[]> {
  if (!result.failures.length) return [];
  const files = engine().failureFiles(result.failures, result.seed);
  if (!folder) {
    ctx.log.warn(`probe: ${files.length} failures not written: open a folder to keep them in`);
    return [];
  }
  const out = vscode.Uri.joinPath(vscode.Uri.file(folder), FAILURES_FOLDER);
  const written: vscode.Uri[] = [];
  for (const [i, f] of files.entries()) {
    const uri = vscode.Uri.joinPath(out, f.name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(f.text));
    const failure = result.failures[i];
    ctx.log.info(
      `probe: ${failure.property}: ${failure.operation} ${failure.version} ${failure.binding}: ${failure.reason} → ${vscode.workspace.asRelativePath(uri)}`,
    );
    written.push(uri);
  }
  return written;
}

function summaryOf(environment: string, result: ProbeResult, written: number, cancelled: boolean, skippedLine: string): string {
  const checked = result.properties.filter((p) => p.checked);
  // From the failures kept, not the counts: after a cancel, the shape cut short is left out of both.
  const failed = [...new Set(result.failures.map((f) => f.property))];
  const examples = result.shapes.reduce((n, s) => n + s.examples, 0);
  const held = failed.length
    ? `${failed.length} of ${checked.length} properties failed (${failed.join(', ')}), ${result.failures.length} failure${result.failures.length === 1 ? '' : 's'}${written ? ` written to ${FAILURES_FOLDER}/` : ''}`
    : `every property held (${checked.length} properties, ${examples} examples)`;
  return `${cancelled ? 'probe cancelled; before that, ' : 'probe '}on ${environment}: ${held}${skippedLine ? `; ${skippedLine}` : ''}.`;
}
