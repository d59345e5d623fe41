/**
 * The standard RunnerBackend: environments from `carrier.environments.json`, API keys from the
 * given variables (CARRIER_API_KEY…), sends through core/send with its pooled client. Embedded
 * environments reach the sandbox the caller provides (the CLI starts one per run, the extension
 * has its own): core does not start servers.
 *
 * Core never reads process.env: the caller's context carries the variables (the CLI its
 * environment, the extension none: it reads its secret storage into `apiKeys`).
 *
 * It stands above both the runner (src/core/runner/, which knows only the RunnerBackend it is
 * given) and send (src/core/send.ts), so neither imports the other.
 */
import { apiKeyFromVariables, findEnvironment, loadEnvironmentsFrom, missingApiKeyMessage, type Environment, type LoadedEnvironments } from './environments';
import * as path from 'node:path';
import { findShape, shapeLabel } from './catalog';
import type { CoreContext } from './context';
import type { ShapeOverlay } from './contract/overlay';
import { contractOverlay, prepareRequest, type PreparedRequest } from './envelope/prepare';
import type { RequestFile } from './requestFile';
import { ReplyMemos } from './replyMemo';
import { send, type SendInput } from './send';
import type { RunEnvironment, RunnerBackend, SendCall } from './runner/backend';
import type { Failure } from './runner/types';

export interface RunBackendOptions {
  /** The files, variables, clock and dispatchers of the face that runs (src/core/context.ts). */
  readonly context: CoreContext;
  /** Where to look for carrier.environments.json, in turn (environments/where.ts): the run's folders, then the working directory. */
  readonly environmentsFrom: readonly string[];
  /**
   * The environments as the caller already holds them, read from `environmentsFrom` (the
   * extension's, with the environments it adds for its session: a replay of recordings); read
   * here when absent.
   */
  readonly environments?: LoadedEnvironments;
  /**
   * Keys by environment name from elsewhere (the extension reads its secret storage before the
   * run, since that is asynchronous); over the context's variables.
   */
  readonly apiKeys?: Readonly<Record<string, string>>;
  /**
   * The embedded sandbox's base URL, started by the caller on first use for the embedded
   * environment asked (its namespaces and sandbox settings, e.g. a clock rate); needed for embedded environments.
   */
  readonly embeddedUrl?: (environment: Environment) => Promise<string>;
}

export interface StandardBackend extends RunnerBackend {
  /** Problems reading carrier.environments.json: usage errors before the run. */
  readonly problems: readonly Failure[];
  /** Every secret value of the environments resolved so far: what the run's final texts must not show. */
  secretValues(): string[];
}

/** A send's input as made for one request object, and what it was made for. */
interface Made {
  readonly environment: RunEnvironment;
  readonly binding: SendCall['binding'];
  readonly signal: AbortSignal;
  readonly timeoutMs: number | undefined;
  readonly judgedOnly: boolean;
  readonly input: SendInput;
}

interface Resolved {
  readonly environment: Environment;
  readonly apiKey?: string;
  readonly run: RunEnvironment;
}

export function createRunBackend(options: RunBackendOptions): StandardBackend {
  const { context } = options;
  const loaded = options.environments ?? loadEnvironmentsFrom(context, options.environmentsFrom);
  const problems: Failure[] = loaded.problems
    .filter((p) => p.severity === 'error')
    .map((p) => ({
      kind: 'environment',
      message: p.message,
      ...(loaded.file
        ? {
            location: {
              file: loaded.file,
              line: p.range.start.line + 1,
              column: p.range.start.character + 1,
              endLine: p.range.end.line + 1,
              endColumn: p.range.end.character + 1,
            },
          }
        : {}),
    }));
  const resolved = new Map<string, Resolved | string>();
  const secrets = new Set<string>();

  const resolve = (name: string | undefined): Resolved | string => {
    const key = name ?? '\0default';
    const known = resolved.get(key);
    if (known) return known;
    let result: Resolved | string;
    const environment = findEnvironment(loaded, name);
    if (!environment) {
      result = `unknown environment "${name}" (environments: ${loaded.environments.map((e) => e.name).join(', ')})`;
    } else {
      const apiKey = options.apiKeys?.[environment.name] || apiKeyFromVariables(environment.name, context.env, environment.embedded)?.key;
      if (!apiKey && !environment.embedded) result = missingApiKeyMessage(environment.name);
      else {
        const secretValues = [apiKey, ...environment.secrets.map((s) => environment.variables[s])]
          .filter((v): v is string | number | boolean => v !== undefined && v !== '')
          .map(String);
        result = { environment, ...(apiKey ? { apiKey } : {}), run: { name: environment.name, variables: environment.variables, secretValues } };
        for (const v of secretValues) secrets.add(v);
      }
    }
    resolved.set(key, result);
    return result;
  };

  // The stored contract a file follows, looked up once per run for each folder, environment and shape (not once per send).
  const overlays = new Map<string, ShapeOverlay | null>();
  const overlayFor = (environment: Environment, call: SendCall, folder: string): ShapeOverlay | null | undefined => {
    const op = findShape(call.request.operation, call.request.version);
    if (!op) return undefined;
    const key = `${environment.name}\0${shapeLabel(op)}\0${folder}`;
    let overlay = overlays.get(key);
    if (overlay === undefined) overlays.set(key, (overlay = contractOverlay(context, environment, op, call.request.fileName) ?? null));
    return overlay;
  };

  /*
   * The request as prepared, per params object: a file without {{variables}} sends its very
   * params every time (and copies of one text share them, loadFile.ts), so its envelope is built
   * and redacted once; params with variables filled in are new objects and are prepared anew.
   * Kept from a params object's second send on, as inputs below: most of a run's files are sent
   * once, and a prepared request kept for the whole run (its envelope, its redacted copy, their
   * bytes) only grew the old generation (10,000 tests: 4 % more CPU and wall time, BENCHMARKS.md).
   * An embedded environment's is the check made before its sandbox starts, and its preparation
   * at the sandbox's address is kept beside it, per address.
   */
  const preparedByParams = new WeakMap<object, Map<string, PreparedRequest>>();
  const preparedOnce = new WeakSet<object>();
  const preparedFor = (input: SendInput & { request: RequestFile }, folder: string): PreparedRequest => {
    const { request } = input;
    let byKey = preparedByParams.get(request.params);
    if (!byKey) {
      if (!preparedOnce.has(request.params)) {
        preparedOnce.add(request.params);
        return prepareRequest(input);
      }
      preparedByParams.set(request.params, (byKey = new Map()));
    }
    const key = `${input.environment.name}\0${input.binding ?? ''}\0${request.operation}\0${request.version ?? ''}\0${folder}`;
    let prepared = byKey.get(key);
    if (!prepared) byKey.set(key, (prepared = prepareRequest(input)));
    return prepared;
  };
  const preparedAt = (input: SendInput): ((baseUrl: string) => PreparedRequest) => {
    let at: { readonly baseUrl: string; readonly prepared: PreparedRequest } | undefined;
    return (baseUrl) => {
      if (at?.baseUrl !== baseUrl) at = { baseUrl, prepared: prepareRequest({ ...input, baseUrl }) };
      return at.prepared;
    };
  };

  /** The readings of replies a judged-only send (a load run's) had, per prepared request (replyMemo.ts). */
  const replies = new ReplyMemos();

  /*
   * The send's input per request object, environment, binding, signal and timeout: a load or a
   * run sends one file's request object again and again, and each part of the input is the same
   * each time (the environment resolved, its stored contract, the prepared request).
   */
  const inputs = new WeakMap<RequestFile, Made[]>();
  /** Inputs kept per request object (a few environments or bindings; more are made each time). */
  const MAX_INPUTS = 8;
  /** Request objects sent once, whose input was not kept. */
  const sentOnce = new WeakSet<RequestFile>();

  /** A request file's folder: named per send, worked out once per file. */
  const folders = new WeakMap<RequestFile, string>();
  const folderOf = (request: RequestFile): string => {
    let folder = folders.get(request);
    if (folder === undefined) folders.set(request, (folder = request.fileName === undefined ? '' : path.dirname(request.fileName)));
    return folder;
  };

  const resolveEmbedded =
    options.embeddedUrl ??
    (async (_environment: Environment): Promise<string> => {
      throw new Error('this run has no embedded sandbox to send to');
    });

  return {
    problems,
    secretValues: () => [...secrets],
    environment(name) {
      const r = resolve(name);
      return typeof r === 'string' ? r : r.run;
    },
    send(call: SendCall & { readonly judgedOnly?: boolean }) {
      const judgedOnly = call.judgedOnly === true;
      const made = inputs.get(call.request);
      if (made)
        for (const m of made)
          if (
            m.environment === call.environment &&
            m.binding === call.binding &&
            m.signal === call.signal &&
            m.timeoutMs === call.timeoutMs &&
            m.judgedOnly === judgedOnly
          )
            return send(m.input);
      const r = resolve(call.environment.name);
      if (typeof r === 'string') throw new Error(r);
      const folder = folderOf(call.request);
      const overlay = overlayFor(r.environment, call, folder);
      const input = {
        context,
        request: call.request,
        environment: r.environment,
        ...(overlay !== undefined ? { overlay } : {}),
        ...(r.apiKey ? { apiKey: r.apiKey } : {}),
        binding: call.binding,
        signal: call.signal,
        resolveEmbedded: () => resolveEmbedded(r.environment),
        ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
        ...(call.request.fileName ? { source: call.request.fileName } : {}),
        ...(judgedOnly ? { judgedOnly, replies } : {}),
      };
      const prepared = preparedFor(input, folder);
      // Assigned, not spread: V8 gives each spread copy of an object holding a function (resolveEmbedded) a hidden class of its own, one per request file kept.
      const full: SendInput = Object.assign({}, input, { prepared }, r.environment.embedded ? { preparedAt: preparedAt(input) } : {});
      // Kept from a request object's second send on: most of a run's files are sent once.
      if (made || !sentOnce.has(call.request)) sentOnce.add(call.request);
      else inputs.set(call.request, []);
      const list = inputs.get(call.request);
      if (list && list.length < MAX_INPUTS)
        list.push({ environment: call.environment, binding: call.binding, signal: call.signal, timeoutMs: call.timeoutMs, judgedOnly, input: full });
      return send(full);
    },
    async close() {
      // Nothing of its own to release: the pooled dispatchers are the context's, the sandbox is the caller's; their owner closes them.
    },
  };
}
