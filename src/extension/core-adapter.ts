/**
 * The extension's only door into src/core and src/sandbox. The core is written in parallel; every
 * function below whose body throws CoreNotWiredError is a marked wiring point: replace the body
 * with a call into the named module and the editor features behind it start working, with no
 * change anywhere else in src/extension.
 *
 * WIRING STATUS
 *   catalog shapes ........................ wired (src/core/catalog)
 *   validateRequestText (diagnostics) ..... NOT WIRED → src/core/validation/validate.ts
 *   sendRequestFile (Send, history resend)  NOT WIRED → src/core/send.ts
 *   previewRequest (Show Envelope, curl) .. NOT WIRED → src/core (envelope builder)
 *   startSandbox .......................... NOT WIRED → src/sandbox/server.ts
 *   listEnvironments ...................... partly: the embedded sandbox only; → core environments
 *   requestTemplate (New Request…) ........ NOT WIRED → core request-file writer
 *   importEnvelope (Import SOAP Envelope…)  NOT WIRED → core envelope reader
 *   wsdlFor (Open WSDL) ................... NOT WIRED → core WSDL generator
 *   completion ............................ by the JSON language server (jsonLanguageParticipants)
 *                                           once package.json `jsonValidation` points at the
 *                                           generated request-file schema
 */
import { operations, shapeLabel } from '../core/catalog';
import type { Binding } from '../core/catalog/types';
import type { Exchange, HttpRequestSpec, Severity } from '../core/exchange';

export class CoreNotWiredError extends Error {
  constructor(readonly feature: string, readonly module: string) {
    super(`${feature} is not connected yet: it waits for ${module} (see src/extension/core-adapter.ts).`);
    this.name = 'CoreNotWiredError';
  }
}

// ---- catalog ----

export interface ShapeInfo {
  readonly operation: string;
  readonly version: string;
  readonly label: string;
  readonly description: string;
  readonly bindings: readonly Binding[];
}

export function listShapes(): ShapeInfo[] {
  return operations.map((op) => ({
    operation: op.operation,
    version: op.version,
    label: shapeLabel(op),
    description: op.description,
    bindings: op.bindings,
  }));
}

// ---- validation ----

export interface Position0 { readonly line: number; readonly character: number }
export interface RequestFinding {
  readonly severity: Severity;
  readonly message: string;
  readonly range: { readonly start: Position0; readonly end: Position0 };
}
export interface ValidationResult {
  readonly findings: readonly RequestFinding[];
  /** The request as core understood it (operation, version, binding …). */
  readonly request?: { readonly operation?: string; readonly version?: string; readonly binding?: Binding };
}

/** Undefined while the validator is not wired: the editor then shows no diagnostics, not a false "all good". */
export function validateRequestText(_text: string, _fileName?: string): ValidationResult | undefined {
  // WIRING: return validateRequestText(text, fileName) from '../core/validation/validate'.
  return undefined;
}

// ---- environments ----

export interface EnvironmentDef {
  readonly name: string;
  readonly description?: string;
  /** Undefined for the embedded sandbox until it runs. */
  readonly baseUrl?: string;
  readonly embeddedSandbox?: boolean;
}

export const SANDBOX_ENVIRONMENT = 'sandbox';

export function listEnvironments(_workspaceFolder: string | undefined): EnvironmentDef[] {
  // WIRING: add the environments core reads from the workspace (base URL, namespaces).
  return [{ name: SANDBOX_ENVIRONMENT, description: 'Embedded sandbox on this machine', embeddedSandbox: true }];
}

// ---- sending ----

export interface SendInput {
  readonly text: string;
  readonly fileName: string;
  readonly environment: EnvironmentDef;
  /** Read from SecretStorage just before the call; core puts it on the wire and redacts it everywhere else. */
  readonly apiKey?: string;
  /** Overrides the binding the file names (Send with Binding…). */
  readonly binding?: Binding;
  readonly defaultBinding: Binding;
  readonly timeoutMs: number;
  readonly maxReplyBytes: number;
}

export async function sendRequestFile(_input: SendInput, _signal: AbortSignal): Promise<Exchange> {
  // WIRING: return sendRequestFile(...) from '../core/send' mapped from SendInput.
  throw new CoreNotWiredError('Send', 'src/core/send.ts');
}

/** The request as it would go on the wire, redacted: for Show Envelope and Copy as curl. */
export async function previewRequest(_input: Omit<SendInput, 'apiKey'>): Promise<HttpRequestSpec> {
  // WIRING: the core envelope builder used by sendRequestFile, without sending.
  throw new CoreNotWiredError('Show Envelope', 'the core envelope builder');
}

// ---- sandbox ----

export interface SandboxHandle {
  readonly url: string;
  close(): Promise<void>;
}

export async function startSandbox(): Promise<SandboxHandle> {
  // WIRING: return startSandbox({ port: 0, host: '127.0.0.1' }) from '../sandbox/server'.
  throw new CoreNotWiredError('Start Sandbox', 'src/sandbox/server.ts');
}

// ---- authoring ----

export function requestTemplate(_shape: ShapeInfo, _binding: Binding): string {
  // WIRING: the core writer of a new request file for a shape.
  throw new CoreNotWiredError('New Request', 'the core request-file writer');
}

export function importEnvelope(_xml: string): { text: string; suggestedName: string } {
  // WIRING: the core reader that turns a SOAP envelope into a request file.
  throw new CoreNotWiredError('Import SOAP Envelope', 'the core envelope reader');
}

export function wsdlFor(_shape: ShapeInfo, _environment: EnvironmentDef): string {
  // WIRING: the core WSDL generator for the shape's service path.
  throw new CoreNotWiredError('Open WSDL', 'the core WSDL generator');
}
