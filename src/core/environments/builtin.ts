/** The built-in environment: the embedded sandbox, always present and the default. */
import { DEFAULT_NAMESPACES } from '../catalog';
import type { Environment } from './types';

export const SANDBOX_ENVIRONMENT = 'sandbox';
/** The baseUrl value that means "the in-process sandbox on a free loopback port". */
export const EMBEDDED_BASE_URL = 'embedded';
/**
 * What `carrier envelope` shows as the embedded sandbox's address, since no sandbox is started
 * just to print a request. `.invalid` is reserved (RFC 2606): it can never resolve by accident.
 */
export const EMBEDDED_DISPLAY_URL = 'http://embedded-sandbox.invalid';
/** The key used for the sandbox when none is set: it accepts any non-empty key. */
export const SANDBOX_DEFAULT_KEY = 'sandbox-key';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;

export function sandboxEnvironment(): Environment {
  return {
    name: SANDBOX_ENVIRONMENT,
    description: 'Embedded sandbox on this machine',
    baseUrl: EMBEDDED_BASE_URL,
    embedded: true,
    namespaces: DEFAULT_NAMESPACES,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxReplyBytes: DEFAULT_MAX_REPLY_BYTES,
    variables: {},
    secrets: [],
    builtIn: true,
  };
}

/**
 * What makes two embedded sandboxes differ — their namespaces, their clock rate and whether they
 * keep replies — as a key: a face starts one sandbox per key (src/cli/embeddedSandbox.ts, the
 * editor's SandboxController).
 */
export function embeddedSandboxKey(environment: Partial<Pick<Environment, 'namespaces' | 'sandbox'>>): string {
  return JSON.stringify([environment.namespaces ?? null, environment.sandbox?.clockRate ?? 1, environment.sandbox?.replyMemo === true]);
}
