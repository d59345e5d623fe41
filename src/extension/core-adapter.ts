/**
 * What the extension adds on top of core, kept in one place: a per-file validation cache
 * (diagnostics, CodeLens and the send commands share one result, and a send takes the request
 * validated there), the editor's shape of findings, the lazily required sandbox bundle and the
 * traffic inspector started for an environment. Everything of core it uses comes through the
 * engine (engineBundle.ts), required on first use, so activation loads none of it; from core it
 * imports only types.
 */
import type {
  Binding,
  Environment,
  Exchange,
  HttpRequestSpec,
  LoadedEnvironments,
  PlannedRun,
  RequestFile,
  SendInput as CoreSendInput,
  SnapshotOptions,
  Severity,
  StandardBackend,
  ValidationResult as CoreValidation,
} from '../core';
import type { InspectorHandle, RecordedExchange } from '../inspector';
import * as nodePath from 'node:path';
import { engine, type Engine } from './engineBundle';
import type * as SandboxBundle from '../sandbox/embedded';

// ---- catalog ----

export interface ShapeInfo {
  readonly operation: string;
  readonly version: string;
  readonly label: string;
  readonly description: string;
  readonly bindings: readonly Binding[];
}

export function listShapes(): ShapeInfo[] {
  const { operations, shapeLabel } = engine();
  return operations.map((op) => ({
    operation: op.operation,
    version: op.version,
    label: shapeLabel(op),
    description: op.description,
    bindings: op.bindings,
  }));
}

// ---- validation ----

export interface Position0 {
  readonly line: number;
  readonly character: number;
}
export interface RequestFinding {
  readonly severity: Severity;
  readonly message: string;
  readonly range: { readonly start: Position0; readonly end: Position0 };
  /** A stable kind of problem (core's FindingCode), for quick fixes. */
  readonly code?: string;
  /** Where in the file, in core's path spelling (src/core/path.ts); empty for the whole file. */
  readonly path?: string;
  /** The value a "did you mean" proposes. */
  readonly suggestion?: string;
}
export interface RequestInfo {
  readonly operation?: string;
  readonly version?: string;
  readonly binding?: Binding;
  /** True when the file names its binding; otherwise `carrier.defaultBinding` applies. */
  readonly bindingGiven?: boolean;
  /** Every binding the file's operation shape offers, in the catalog's order. */
  readonly bindings?: readonly Binding[];
  /** The environment the file names, if any; otherwise the selected one applies. */
  readonly environment?: string;
  readonly description?: string;
  /** The file waits (`retry`): what `until` checks, in brief, and the most attempts (the CodeLens says so). */
  readonly retry?: { readonly until: string; readonly attempts: number };
}
export interface ValidationResult {
  readonly findings: readonly RequestFinding[];
  readonly request?: RequestInfo;
  /**
   * What core can send: `clean` (no error in the request; `expect` mistakes do not count),
   * `anyway` (errors, all in values: built as written, "Send anyway") or `none`.
   */
  readonly sendable: 'clean' | 'anyway' | 'none';
}

interface Validated {
  readonly text: string;
  readonly core: CoreValidation;
  readonly result: ValidationResult;
}

/**
 * The last validation per file: diagnostics, CodeLens and the send commands ask about the same
 * text in turn, and a send takes the request validated here rather than validating it again.
 */
const lastValidation = new Map<string, Validated>();
const VALIDATIONS_KEPT = 32;

function validated(text: string, fileName?: string): Validated {
  const key = fileName ?? '';
  const last = lastValidation.get(key);
  if (last && last.text === text) return last;
  const { validateRequestText: coreValidate, compileExpectations, sendableRequest, findShape, retryBrief } = engine();
  const core = coreValidate(text, fileName);
  const { findings, request } = core;
  // Mistakes in expect/capture are shown too (carrier run would refuse them), but do not stop a send.
  const expectations = request ? compileExpectations(text, fileName ?? '') : [];
  const entry: Validated = {
    text,
    core,
    result: {
      findings: [
        ...findings.map((f) => ({
          severity: f.severity,
          message: f.message,
          range: f.range,
          code: f.code,
          path: f.path,
          ...(f.suggestion !== undefined ? { suggestion: f.suggestion } : {}),
        })),
        ...expectations.map((p): RequestFinding => ({
          severity: 'error',
          message: p.message,
          code: 'expect',
          range: p.location
            ? {
                start: { line: p.location.line - 1, character: p.location.column - 1 },
                end: { line: p.location.endLine - 1, character: p.location.endColumn - 1 },
              }
            : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        })),
      ],
      request: request && {
        operation: request.operation,
        version: request.version,
        binding: request.binding,
        bindingGiven: request.bindingGiven,
        bindings: findShape(request.operation, request.version)?.bindings,
        environment: request.environment,
        description: request.description,
        ...(request.retry ? { retry: retryBrief(request.retry) } : {}),
      },
      sendable: sendableRequest(core) ? 'clean' : sendableRequest(core, true) ? 'anyway' : 'none',
    },
  };
  lastValidation.delete(key);
  if (lastValidation.size >= VALIDATIONS_KEPT) lastValidation.delete(lastValidation.keys().next().value!);
  lastValidation.set(key, entry);
  return entry;
}

export function validateRequestText(text: string, fileName?: string): ValidationResult {
  return validated(text, fileName).result;
}

/**
 * Forgets every kept validation: what a file's text means changed without the text changing (an
 * environment's stored live contract, or the selected environment, src/extension/contract/).
 */
export function forgetValidations(): void {
  lastValidation.clear();
}

/**
 * The request core can send from this text: one without errors, or with `anyway` one whose
 * errors are all in values. When there is none, an engine error with code 'request-file' and the
 * file's findings (isEngineError in engineBundle.ts).
 */
export function sendableRequestOf(text: string, fileName: string, anyway: boolean): RequestFile {
  return engine().requireSendable(validated(text, fileName).core, fileName, anyway);
}

// ---- environments ----

export interface EnvironmentDef {
  readonly name: string;
  readonly description?: string;
  /** Undefined for the embedded sandbox until it runs. */
  readonly baseUrl?: string;
  readonly embeddedSandbox?: boolean;
}

export interface EnvironmentProblemInfo {
  readonly file?: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly range: { readonly start: Position0; readonly end: Position0 };
}

// ---- sending ----

/**
 * One send from the editor: core's SendInput, with what the editor resolves around it — the file
 * (core's `source`), the binding a file that names none uses — and the limits always given.
 */
export interface SendInput extends Omit<
  CoreSendInput,
  'context' | 'request' | 'binding' | 'source' | 'signal' | 'prepared' | 'timeoutMs' | 'maxReplyBytes' | 'resolveEmbedded'
> {
  /** The request as validated (sendableRequestOf): core does not read the text again. */
  readonly request: RequestFile;
  readonly fileName: string;
  /** Overrides the file's binding (Send with Binding…). */
  readonly binding?: Binding;
  /** For a file that names no binding (the `carrier.defaultBinding` setting). */
  readonly defaultBinding: Binding;
  readonly timeoutMs: number;
  readonly maxReplyBytes: number;
  /** Starts (or finds) the embedded sandbox; core calls it only for an embedded environment. */
  readonly resolveEmbedded: () => Promise<string>;
}

function bindingFor(input: Pick<SendInput, 'request' | 'binding' | 'defaultBinding'>): Binding {
  return input.binding ?? (input.request.bindingGiven ? input.request.binding : input.defaultBinding);
}

export function sendRequest(input: SendInput, signal: AbortSignal): Promise<Exchange> {
  const { fileName, defaultBinding: _defaultBinding, ...rest } = input;
  return engine().send({ ...rest, binding: bindingFor(input), source: fileName, signal });
}

/**
 * The one judgement of a send from the editor (core's judgeSentFile, the engine `carrier run`
 * judges with): the request file's `expect` as it was sent — `text`, captured before sending —
 * with the variables of the environment the send resolved. History and the panel show the
 * exchange this returns and never judge it again.
 */
export function judgeSend(exchange: Exchange, sent: { readonly text: string; readonly fileName: string; readonly environment: Environment }): Exchange {
  return engine().judgeSentFile(exchange, {
    text: sent.text,
    fileName: sent.fileName,
    variables: sent.environment.variables,
    secrets: sent.environment.secrets,
  });
}

/**
 * A send from the editor with its one judgement (core's sendFileUntil): once, or — for a file
 * with `retry` — until its `until` holds, each attempt handed to `onAttempt` as History and the
 * panel keep it (the last judged by the file's `expect` as it was sent, `text`). Returns the last.
 */
export function sendJudged(
  input: SendInput,
  sent: { readonly text: string; readonly environment: Environment },
  signal: AbortSignal,
  hooks: {
    readonly onAttempt?: (exchange: Exchange) => void | Promise<void>;
    readonly onWait?: (next: { readonly attempt: number; readonly of: number; readonly delayMs: number }) => void;
  } = {},
): Promise<Exchange> {
  return engine().sendFileUntil({
    text: sent.text,
    fileName: input.fileName,
    variables: sent.environment.variables,
    secrets: sent.environment.secrets,
    send: () => sendRequest(input, signal),
    signal,
    ...hooks,
  });
}

export type PreviewInput = Omit<SendInput, 'apiKey' | 'withoutKey' | 'resolveEmbedded' | 'onPhase' | 'timeoutMs' | 'maxReplyBytes'> & {
  readonly sandboxUrl?: string;
};

/** The request as it would go on the wire, redacted: for Show Envelope and Copy as curl. */
export function previewRequest(input: PreviewInput): HttpRequestSpec {
  const { environment } = input;
  const { previewRequest: corePreview, EMBEDDED_DISPLAY_URL } = engine();
  const baseUrl = environment.embedded ? (input.sandboxUrl ?? EMBEDDED_DISPLAY_URL) : undefined;
  return corePreview({ request: input.request, environment, binding: bindingFor(input), asWritten: input.asWritten, ...(baseUrl ? { baseUrl } : {}) }).display;
}

// ---- sandbox ----

export interface SandboxHandle {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `sandbox` is the "sandbox" environment as the workspace defines it (its namespaces, its clock
 * rate, its reply memo). With `replay` it answers from recordings first (docs/sandbox.md#replaying-recordings); a
 * recording that does not read rejects with an error named `ReplayLoadError`, its `file` naming it.
 */
export async function startSandbox(options: {
  sandbox: Environment;
  dataDir?: string;
  log?: (line: string) => void;
  replay?: { readonly dirs: readonly string[]; readonly fallback: 'emulate' | 'fault' };
}): Promise<SandboxHandle> {
  // Loopback only, a free port: nothing outside this machine can reach it.
  const clockRate = options.sandbox.sandbox?.clockRate;
  const replyMemo = options.sandbox.sandbox?.replyMemo === true;
  return sandboxBundle().startSandbox({
    port: 0,
    host: '127.0.0.1',
    namespaces: options.sandbox.namespaces,
    dataDir: options.dataDir,
    log: options.log,
    ...(clockRate !== undefined ? { clockRate } : {}),
    // A replay answers from its recordings in their order: it keeps no replies.
    ...(replyMemo && !options.replay ? { replyMemo } : {}),
    ...(options.replay ? { replay: options.replay } : {}),
  });
}

// ---- authoring ----

export function requestTemplate(shape: ShapeInfo, binding: Binding): string {
  const { findShape, sampleRequestFile, TEMPLATE } = engine();
  const op = findShape(shape.operation, shape.version);
  if (!op) throw new Error(`${shape.label} is not in the catalog`);
  return `${JSON.stringify(sampleRequestFile(op, op.bindings.includes(binding) ? binding : undefined, TEMPLATE), null, 2)}\n`;
}

/**
 * A pasted envelope (or a whole HTTP request) as a request file. The environment's namespaces
 * are the first guess; the envelope's own namespace wins when they differ. The APIKey is never
 * carried over.
 */
export function importEnvelope(text: string, environment: Environment): { text: string; suggestedName: string } {
  const { namespaces } = environment;
  const { recognizeEnvelopeText, requestFileFromRecognized } = engine();
  const recognized = recognizeEnvelopeText(text, namespaces);
  if (recognized.kind !== 'operation') throw new Error(`That is not a request of the service: ${recognized.reason}`);
  return {
    text: requestFileFromRecognized(recognized, { comment: ['Imported from a SOAP envelope.'] }),
    suggestedName: `${recognized.operation}-${recognized.version}`,
  };
}

export function wsdlFor(shape: ShapeInfo, env: Environment, sandboxUrl: string | undefined): string {
  const { findShape, servicePath, shapesAtPath, EMBEDDED_DISPLAY_URL } = engine();
  const op = findShape(shape.operation, shape.version);
  if (!op) throw new Error(`${shape.label} is not in the catalog`);
  const path = servicePath(op);
  const baseUrl = env.embedded ? (sandboxUrl ?? EMBEDDED_DISPLAY_URL) : env.baseUrl;
  return sandboxBundle().wsdlFor(path, shapesAtPath(path), env.namespaces, baseUrl);
}

let loadedSandbox: typeof SandboxBundle | undefined;

/** dist/sandbox.js, beside this bundle; required at run time so esbuild leaves it out of extension.js. */
function sandboxBundle(): typeof SandboxBundle {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loadedSandbox ??= require(nodePath.join(__dirname, 'sandbox.js')) as typeof SandboxBundle;
  return loadedSandbox;
}

// ---- traffic inspector ----

export type { InspectorHandle, RecordedExchange };

export interface TrafficInspectorInput {
  readonly environment: Environment;
  /** Where to forward: the environment's base URL, or the running sandbox's. */
  readonly targetUrl: string;
  /** Values hidden in every recorded copy besides the keys found in requests (the stored API key). */
  readonly secrets: readonly string[];
  readonly log?: (line: string) => void;
}

/** A recording forward proxy on a free loopback port in front of the environment. */
export function startTrafficInspector(input: TrafficInspectorInput): Promise<InspectorHandle> {
  const env = input.environment;
  const { startInspector, tlsOptionsOf, secretValues } = engine();
  return startInspector({
    target: input.targetUrl,
    namespaces: env.namespaces,
    environment: env.name,
    host: '127.0.0.1',
    port: 0,
    secrets: [...input.secrets, ...secretValues(undefined, env.variables, env.secrets)],
    tls: env.embedded ? undefined : tlsOptionsOf(env),
    ...(input.log ? { log: input.log } : {}),
  });
}

/** A recorded call of the service as request-file text that makes it again; undefined for anything else. */
export function recordedAsRequestFile(recorded: RecordedExchange, secrets: readonly string[]): string | undefined {
  return engine().recordedRequestFile(recorded, secrets);
}

// ---- test runner (Test Explorer) ----

/** Core's natural order of names (file10 after file9), as `carrier run` orders a collection. */
export function naturalCompare(a: string, b: string): number {
  return engine().naturalCompare(a, b);
}

/** Text a run prints at its end, with `secrets` masked (core's redactFinalText). */
export function redactFinalText(...args: Parameters<Engine['redactFinalText']>): ReturnType<Engine['redactFinalText']> {
  return engine().redactFinalText(...args);
}

/**
 * Reply snapshots as a Test Explorer run keeps them: read and written through the engine's files,
 * compared, a missing one written as `carrier run` does; never --update-snapshots nor --ci
 * (accepting is the editor's Accept, snapshotDiffs.ts).
 */
export function runSnapshots(): SnapshotOptions {
  return { files: engine().coreFiles() };
}

/** The engine `carrier run` uses, over a plan from planTests. */
export function executePlan(...args: Parameters<Engine['executePlan']>): ReturnType<Engine['executePlan']> {
  return engine().executePlan(...args);
}
export type {
  PlannedRun,
  PlannedTest,
  RunObserver,
  RunReport,
  RunnerBackend,
  TestResult,
  SnapshotOutcome,
  SourceLocation,
  Failure as RunFailure,
  LoadedFile as LoadedRequest,
} from '../core';

/** What core's discovery calls a request file and a collection's settings, and which folders it never runs (src/core/runner/discover.ts). */
export function collectionNames(): { requestFileSuffix: string; collectionFile: string; isNeverRunFolder: (name: string) => boolean } {
  const { REQUEST_FILE_SUFFIX, COLLECTION_FILE, isNeverRunFolder } = engine();
  return { requestFileSuffix: REQUEST_FILE_SUFFIX, collectionFile: COLLECTION_FILE, isNeverRunFolder };
}

/**
 * The tests under `inputs`, listed as `carrier run` lists them (same discovery, parser and
 * validator) without sending anything; `read` supplies unsaved editor text.
 */
export function planTests(inputs: readonly string[], baseDir: string, read?: (file: string) => string): PlannedRun {
  const { loadRun, validateRequestText: coreValidate } = engine();
  return loadRun(inputs, { baseDir, validate: (text, fileName) => coreValidate(text, fileName).findings, ...(read ? { read } : {}) });
}

/**
 * The CLI's backend with the editor's keys, environments and sandbox. The engine's context has
 * no environment variables: the editor keeps keys in SecretStorage only and never takes
 * CARRIER_API_KEY from its own process environment (engine.ts). `environments` are the folder's
 * as the editor holds them, its session's included (environmentStore.ts).
 */
export function createTestBackend(
  workspaceFolder: string,
  environments: LoadedEnvironments,
  apiKeys: Readonly<Record<string, string>>,
  embeddedUrl: (environment: Environment) => Promise<string>,
): StandardBackend {
  return engine().createRunBackend({ environmentsFrom: [workspaceFolder], environments, apiKeys, embeddedUrl });
}

/** The running sandbox's page for one shape: its test form, parameters and samples. */
export function servicePageUrl(shape: ShapeInfo, sandboxUrl: string): string {
  const { findShape, operationPageUrl } = engine();
  const op = findShape(shape.operation, shape.version);
  if (!op) throw new Error(`${shape.label} is not in the catalog`);
  return operationPageUrl(sandboxUrl, op);
}
