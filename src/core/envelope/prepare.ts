/**
 * From a request file (or anything shaped like one) and an environment to the exact request:
 * shape and binding resolved, `{{variables}}` substituted, the key put first, number literals
 * kept as written — plus the redacted copy for every display. Shared by send, `carrier envelope`,
 * Show Envelope and Copy as curl, so what is shown is what is sent.
 */
import { BINDING_LABELS, findShape, offers, shapeLabel, type Binding, type OperationDef } from '../catalog';
import { contractForFile, overlayForContractFile, overlayForFile, type ShapeOverlay } from '../contract/overlay';
import { replyContractOf } from '../contract/replyContract';
import { readStoredContract } from '../contract/snapshot';
import type { ReplyContract } from '../reply/contractCheck';
import { EMBEDDED_DISPLAY_URL, SANDBOX_DEFAULT_KEY } from '../environments/builtin';
import type { Environment } from '../environments/types';
import type { HttpRequestSpec } from '../exchange';
import { Redactor, secretValues } from '../redact';
import { numberKey } from '../requestFile/jsonPath';
import type { CoreContext } from '../context';
import { withRunVariables } from '../requestFile/runVariables';
import { mentionsVariable, substituteVariables, UnknownVariableError } from '../requestFile/variables';
import type { PathSegment } from '../xml/write';
import { buildHttpRequest } from './build';
import { EnvelopeError } from './errors';

/** What a request needs; a parsed RequestFile is one. */
export interface SendableRequest {
  readonly operation: string;
  readonly version?: string;
  readonly binding?: Binding;
  readonly params: Readonly<Record<string, unknown>>;
  /** Source text of number literals by JSON pointer (`/params/request/Items/0/Width`). */
  readonly rawNumbers?: ReadonlyMap<string, string>;
  readonly fileName?: string;
  /** The file's `asWritten`: values the contract refuses go out as written. */
  readonly asWritten?: boolean;
}

export type RequestErrorKind = 'shape' | 'binding' | 'variables' | 'value' | 'api-key' | 'sandbox' | 'file';

/** The request cannot be made (nothing was sent): a usage or file problem, not a network one. */
export class RequestError extends Error {
  constructor(
    readonly kind: RequestErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export interface PrepareInput {
  readonly request: SendableRequest;
  readonly environment: Environment;
  /** Undefined: the sandbox's default key for an embedded environment, else a RequestError. */
  readonly apiKey?: string;
  /** Send with an empty APIKey on purpose (the editor's "Send Without Key"): how the service answers a missing key. */
  readonly withoutKey?: boolean;
  /** Overrides the file's binding. */
  readonly binding?: Binding;
  /** Values for `{{name}}` on top of the environment's (captured values, the extension's secrets). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** More variable names to treat as secret, on top of the environment's list. */
  readonly secretVariables?: readonly string[];
  /** The base URL to put in the request; defaults to the environment's (a placeholder when embedded). */
  readonly baseUrl?: string;
  /** Scalars of the wrong type go out as written: "Send anyway" on a file with value errors. */
  readonly asWritten?: boolean;
  /** The live contract to follow; undefined: the environment's stored one, if any; null: the catalog alone. */
  readonly overlay?: ShapeOverlay | null;
  /** Where the environment's stored contract is read; without, the catalog alone (send() always gives its own). */
  readonly context?: Pick<CoreContext, 'files'>;
}

export interface PreparedRequest {
  readonly op: OperationDef;
  readonly binding: Binding;
  /** The exact request, key included: for the wire only. */
  readonly spec: HttpRequestSpec;
  /** The same request with every secret replaced by ••••: for everything else. */
  readonly display: HttpRequestSpec;
  readonly redactor: Redactor;
  /** What the environment's stored live contract says of the replies, where it says anything (contract/replyContract.ts). */
  readonly replyContract?: ReplyContract;
}

export function prepareRequest(input: PrepareInput): PreparedRequest {
  const { request, environment } = input;
  const op = findShape(request.operation, request.version);
  if (!op) throw new RequestError('shape', `${request.operation}${request.version ? ` ${request.version}` : ''} is not an operation shape of the service`);
  const binding = input.binding ?? request.binding ?? 'soap11';
  if (!offers(op, binding)) {
    throw new RequestError(
      'binding',
      `${shapeLabel(op)} does not offer ${BINDING_LABELS[binding]}; it offers ${op.bindings.map((b) => BINDING_LABELS[b]).join(', ')}`,
    );
  }
  const apiKey = input.withoutKey ? '' : input.apiKey || (environment.embedded ? SANDBOX_DEFAULT_KEY : undefined);
  if (apiKey === undefined) throw new RequestError('api-key', `No API key for environment "${environment.name}"`);

  // Read only below: the environment's own object and list serve when nothing is added to them.
  const given = input.variables ? { ...environment.variables, ...input.variables } : environment.variables;
  const secrets = input.secretVariables?.length ? [...environment.secrets, ...input.secretVariables] : environment.secrets;
  const substituting = mentionsVariable(request.params);
  // A single send understands the run.* variables a collection run provides ({{run.nextBusinessDay}}).
  const variables = substituting || secrets.some((s) => s.startsWith('run.')) ? withRunVariables(given) : given;
  const redactor = redactorFor(environment, [apiKey, ...secretValues(undefined, variables, secrets)]);
  let params: Readonly<Record<string, unknown>> = request.params;
  if (substituting) {
    try {
      params = substituteVariables({ ...request.params }, variables, ['params']);
    } catch (err) {
      if (err instanceof UnknownVariableError) throw new RequestError('variables', redactor.text(err.message));
      throw err;
    }
  }
  const raw = request.rawNumbers;
  const rawNumber = raw ? (path: readonly PathSegment[]) => raw.get(numberKey(['params', ...path])) : undefined;
  const baseUrl = input.baseUrl ?? (environment.embedded ? EMBEDDED_DISPLAY_URL : environment.baseUrl);
  let spec: HttpRequestSpec;
  try {
    const overlay =
      input.overlay !== undefined ? (input.overlay ?? undefined) : input.context && contractOverlay(input.context, environment, op, request.fileName);
    spec = buildHttpRequest({
      op,
      binding,
      baseUrl,
      namespaces: environment.namespaces,
      params,
      apiKey,
      rawNumber,
      // "Send anyway" from the editor, or a request file that says so (a negative test).
      asWritten: input.asWritten === true || request.asWritten === true,
      ...(overlay ? { overlay } : {}),
    });
  } catch (err) {
    if (err instanceof EnvelopeError) throw new RequestError('value', redactor.text(err.message));
    throw err;
  }
  const replyContract = input.context && replyContractFor(input.context, environment, op, request.fileName);
  return { op, binding, spec, display: redactor.request(spec), redactor, ...(replyContract ? { replyContract } : {}) };
}

/** The stored live contract's word on the replies, found as contractOverlay finds the request side. */
function replyContractFor(
  context: Pick<CoreContext, 'files'>,
  environment: Environment,
  op: OperationDef,
  fileName: string | undefined,
): ReplyContract | undefined {
  if (environment.embedded) return undefined;
  const own = ownContractFile(context, environment);
  const stored =
    own !== undefined ? readStoredContract(context, own) : fileName !== undefined ? contractForFile(context, fileName, environment.name)?.contract : undefined;
  return stored && replyContractOf(stored, op);
}

/** The environment's own stored contract file, when one has been stored (`contractFile` says where it would be). */
function ownContractFile(context: Pick<CoreContext, 'files'>, environment: Environment): string | undefined {
  const file = environment.contractFile;
  return file !== undefined && context.files.stat(file)?.isFile ? file : undefined;
}

/** The last redactor made for each environment: a run's requests share one (and its compiled patterns). */
const redactors = new WeakMap<Environment, { readonly secrets: ReadonlyArray<string | undefined>; readonly redactor: Redactor }>();

function redactorFor(environment: Environment, secrets: ReadonlyArray<string | undefined>): Redactor {
  const had = redactors.get(environment);
  if (had && sameSecrets(had.secrets, secrets)) return had.redactor;
  const redactor = new Redactor(secrets);
  redactors.set(environment, { secrets, redactor });
  return redactor;
}

function sameSecrets(a: ReadonlyArray<string | undefined>, b: ReadonlyArray<string | undefined>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The stored live contract of the environment, as validation finds it: the environment's own
 * (found when it was loaded), else the one beside the environments file that governs the request
 * file. The sandbox keeps the catalog's.
 */
export function contractOverlay(
  context: Pick<CoreContext, 'files'>,
  environment: Environment,
  op: OperationDef,
  fileName: string | undefined,
): ShapeOverlay | undefined {
  if (environment.embedded) return undefined;
  const own = ownContractFile(context, environment);
  return own !== undefined ? overlayForContractFile(context, own, op) : overlayForFile(context, fileName, environment.name, op);
}

/** Stands in for a key nobody has set yet; redacted like a real one, so it shows as ••••. */
const PREVIEW_KEY = 'no-api-key-set';

/**
 * The request as Show Envelope, Copy as curl and `carrier envelope` show it: redacted, and built
 * even when no key is set yet (the key is •••• either way). `keyMissing` says when that happened.
 */
export function previewRequest(input: PrepareInput): PreparedRequest & { readonly keyMissing: boolean } {
  const keyMissing = !input.apiKey && !input.environment.embedded;
  return { ...prepareRequest({ ...input, apiKey: keyMissing ? PREVIEW_KEY : input.apiKey }), keyMissing };
}
