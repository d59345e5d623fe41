/**
 * The entry of dist/engine.js, and the one door through which the extension reaches core at run
 * time (docs/architecture.md#the-engine-door): core's validation (with the generated validators),
 * sending (undici), the runner (re2js, csv-parse), load runs and their reports, the contract
 * check, the traffic inspector, the sandbox's page links, VS Code's JSON language service, and the
 * light helpers (labels, paths, samples) the commands use once a feature runs. Activation loads none of it; engineBundle.ts
 * requires this bundle on first use (typed as `Engine`), so dist/extension.js stays small
 * (bench/rows/bundle.ts). The only other value imports of core are coreLight.ts's short list.
 *
 * The extension's core context (src/core/context.ts) lives here, once: Node's files, the pooled
 * dispatchers (closed by `closeEngine` when the extension deactivates), no environment variables
 * (API keys come from secret storage), and the default environment validation follows
 * (`setDefaultEnvironment`, handed on by engineBundle.ts when the bundle loads). The functions
 * below that touch it are core's with the context bound. Core's error classes never cross:
 * every function that can throw one is wrapped (`door`) so it throws a plain Error with a `code`
 * (EngineErrorCode) and, for a request file, its `findings`; the extension checks that field
 * (engineBundle.ts `isEngineError`), never a class or a name.
 */
import {
  checkContract as coreCheckContract,
  compileExpectations as coreCompileExpectations,
  contractCompletions as coreContractCompletions,
  contractHover as coreContractHover,
  ContractCancelled,
  ContractReadError,
  createRunBackend as coreCreateRunBackend,
  judgeSentFile as coreJudgeSentFile,
  sendFileUntil as coreSendFileUntil,
  loadRun as coreLoadRun,
  previewRequest as corePreviewRequest,
  RequestError,
  RequestFileError,
  send as coreSend,
  sendableRequest,
  validateRequestText as coreValidateRequestText,
  writeEnvironmentNamespaces as coreWriteEnvironmentNamespaces,
  writeStoredContract as coreWriteStoredContract,
  type CheckContractInput,
  type ContractReport,
  type CoreFiles,
  type Exchange,
  type LoadOptions,
  type NamespaceRole,
  type PrepareInput,
  type RequestFile,
  type RequestErrorKind,
  type RunBackendOptions,
  type SendInput,
  type SentFile,
  type SendUntilInput,
  type ValidateOptions,
  type ValidationResult,
} from '../core';
import { nextPickupDay, probeSender, runProbe, type Environment, type PickupDay, type ProbeExample, type ProbeInput, type ProbeResult } from '../core';
import { nodeContext } from '../host';

export {
  probeRounds,
  ALL_BINDINGS,
  ALL_OPERATIONS,
  BINDING_LABELS,
  COLLECTION_FILE,
  compareExchanges,
  contractExitCode,
  CREATING_OPERATIONS,
  creatingAllowed,
  failureFiles,
  differenceScope,
  environmentNameOf,
  environmentProblems,
  EMBEDDED_DISPLAY_URL,
  ENTRY_SCHEMA,
  executePlan,
  exchangeTitle,
  findShape,
  formatPath,
  isNeverRunFolder,
  judgeThresholds,
  loadHtmlReport,
  loadTable,
  MASK,
  naturalCompare,
  operations,
  parsePath,
  parseThreshold,
  recognizeEnvelopeText,
  redactFinalText,
  REQUEST_FILE_SUFFIX,
  reportGroups,
  requestFileFromRecognized,
  retryBrief,
  ROLE_PLACEHOLDERS,
  ROLE_SETTINGS,
  rowLabel,
  sampleRequestFile,
  secretValues,
  sendableRequest,
  servicePath,
  shapeLabel,
  shapesAtPath,
  startLoad,
  TEMPLATE,
  thresholdLines,
  toCurl,
  variableProblems,
  waitedLines,
  waitedText,
  duration,
} from '../core';
export { DEFAULT_KEEP_BYTES, ExchangeStore, recordedRequestFile, startInspector, tlsOptionsOf } from '../inspector';
export { operationPageUrl } from '../sandbox/pages/links';
export { getLanguageService, MarkupKind, TextDocument } from 'vscode-json-languageservice';

// ---- errors, as data ----

/** What went wrong, as the extension tells it apart: a field, not a class. */
export type EngineErrorCode =
  /** The request file has errors (its `findings`): nothing was sent. */
  | 'request-file'
  /** The request cannot be made (a missing key, variable, sandbox…; `kind` says which): nothing was sent. */
  | 'request'
  /** A contract check stopped by its signal: nothing was concluded. */
  | 'contract-cancelled'
  /** A live contract that could not be read (its `url`). */
  | 'contract-read';

export interface EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly findings?: readonly ValidationResult['findings'][number][];
  readonly kind?: RequestErrorKind;
  readonly url?: string;
}

function tagged(err: Error, data: Omit<EngineError, keyof Error>): EngineError {
  const out = Object.assign(new Error(err.message), data);
  out.stack = err.stack;
  return out;
}

/** Core's error classes as plain errors with a `code`; anything else unchanged. */
function asData(err: unknown): unknown {
  if (err instanceof RequestFileError) return tagged(err, { code: 'request-file', findings: err.findings });
  if (err instanceof RequestError) return tagged(err, { code: 'request', kind: err.kind });
  if (err instanceof ContractCancelled) return tagged(err, { code: 'contract-cancelled' });
  if (err instanceof ContractReadError) return tagged(err, { code: 'contract-read', url: err.url });
  return err;
}

/** `fn`, whose errors (thrown or rejected) cross as data. */
function door<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      const result = fn(...args);
      return (
        result instanceof Promise
          ? result.catch((err: unknown) => {
              throw asData(err);
            })
          : result
      ) as R;
    } catch (err) {
      throw asData(err);
    }
  };
}

// ---- core, with the extension's context ----

const context = nodeContext();

/** The environment a request file that names none follows (the status bar's selection); undefined: none. */
export function setDefaultEnvironment(resolve: ((fileName: string) => string | undefined) | undefined): void {
  context.defaultEnvironment = resolve;
}

/**
 * The context's files, for what core reads and writes through them at the caller's say: a Test
 * Explorer run's reply snapshots (runTests.ts, docs/collections.md#snapshots).
 */
export const coreFiles = (): CoreFiles => context.files;

/** Closes the pooled connections (the extension deactivates). */
export function closeEngine(): Promise<void> {
  return context.http.close();
}

export const send = door((input: Omit<SendInput, 'context'>) => coreSend({ ...input, context }));
export const checkContract = door((input: Omit<CheckContractInput, 'context'>) => coreCheckContract({ ...input, context }));
export const validateRequestText = (text: string, fileName?: string, options: Omit<ValidateOptions, 'context'> = {}): ValidationResult =>
  coreValidateRequestText(text, fileName, { ...options, context });
export const previewRequest = (input: Omit<PrepareInput, 'context'>) => corePreviewRequest({ ...input, context });
export const loadRun = (inputs: readonly string[], options: LoadOptions) => coreLoadRun(context, inputs, options);
export const createRunBackend = (options: Omit<RunBackendOptions, 'context'>) => coreCreateRunBackend({ ...options, context });
export const compileExpectations = (text: string, file: string) => coreCompileExpectations(text, file, context);
export const judgeSentFile = (exchange: Exchange, sent: Omit<SentFile, 'context'>): Exchange => coreJudgeSentFile(exchange, { ...sent, context });
/** A send from the editor, judged once (judgeSentFile); a file with `retry` is sent until its `until` holds. */
export const sendFileUntil = door((input: Omit<SendUntilInput, 'context'>): Promise<Exchange> => coreSendFileUntil({ ...input, context }));
export const contractCompletions = (text: string, fileName: string, offset: number, environment?: string) =>
  coreContractCompletions(context, text, fileName, offset, environment);
export const contractHover = (text: string, fileName: string, offset: number, environment?: string) =>
  coreContractHover(context, text, fileName, offset, environment);
export const writeEnvironmentNamespaces = (file: string, environment: string, namespaces: Readonly<Partial<Record<NamespaceRole, string>>>) =>
  coreWriteEnvironmentNamespaces(context, file, environment, namespaces);
export const writeStoredContract = (environmentsFolder: string, report: ContractReport): string => coreWriteStoredContract(context, environmentsFolder, report);

/** The request core can send from `validation` (with `anyway`, one whose errors are all in values), else a 'request-file' error. */
export const requireSendable = door((validation: ValidationResult, fileName: string, anyway?: boolean): RequestFile => {
  const request = sendableRequest(validation, anyway);
  if (!request) throw new RequestFileError(fileName, validation.findings);
  return request;
});

/** What Probe Operation… hands the engine: runProbe's input but the sending, which the engine does with its context. */
export interface ProbeRunInput extends Omit<ProbeInput, 'send' | 'day'> {
  readonly environment: Environment;
  /** The key stored for the environment; the embedded sandbox is sent its default one without. */
  readonly apiKey?: string;
  /** The embedded sandbox's base URL, started on demand (the extension's SandboxController). */
  readonly resolveEmbedded: () => Promise<string>;
  /** Each distinct request, as it is sent (the progress counts them). */
  readonly onSend?: (example: ProbeExample) => void;
  readonly signal: AbortSignal;
}

/**
 * core's runProbe with the extension's context, each example sent as `carrier probe` sends it
 * (src/cli/commands/probe.ts): as written, a binding the operation lacks as the exact HTTP
 * request; a request core cannot make is not sent, a sandbox that cannot start stops the probe.
 */
export const probe = door(async (input: ProbeRunInput): Promise<{ result: ProbeResult; day: PickupDay }> => {
  const { environment, apiKey, resolveEmbedded, onSend, signal, ...rest } = input;
  // Pickups and transit times are asked for the next day the carrier works (docs/probe.md#examples).
  const day = nextPickupDay(new Date(context.clock.now()));
  const sendExample = probeSender({
    context,
    environment,
    ...(apiKey !== undefined ? { apiKey } : {}),
    resolveEmbedded,
    signal,
    source: 'Carrier: Probe Operation',
    ...(onSend ? { onSend } : {}),
  });
  return { result: await runProbe({ ...rest, day, signal, send: sendExample }), day };
});
