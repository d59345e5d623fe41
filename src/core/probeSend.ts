/**
 * How a probe sends one example, for every face that probes (`carrier probe`, the editor's
 * Probe Operation): as written — a value out of its enumeration goes out as it is — and a binding
 * the operation lacks as the exact HTTP request (probe/wrongBinding.ts). A request core cannot
 * make is not sent, and says why; a sandbox that cannot start stops the probe. It stands above
 * probe/ and send.ts (.dependency-cruiser.cjs): the probe's own folder never sends.
 */
import { operations } from './catalog';
import type { CoreContext } from './context';
import { SANDBOX_DEFAULT_KEY, type Environment } from './environments';
import { RequestError } from './envelope';
import type { ProbeExample, SendOutcome } from './probe';
import { wrongBindingRequest } from './probe/wrongBinding';
import { send } from './send';

export interface ProbeSendInput {
  readonly context: Pick<CoreContext, 'files' | 'http' | 'clock' | 'defaultEnvironment'>;
  readonly environment: Environment;
  /** The environment's key; the sandbox's own for an embedded one when not given. */
  readonly apiKey?: string;
  /** The embedded sandbox's base URL, started on first need. */
  readonly resolveEmbedded: () => Promise<string>;
  readonly signal: AbortSignal;
  /** Who sent it, in each exchange's `source`. */
  readonly source: string;
  /** Told of each example's first send (progress). */
  readonly onSend?: (example: ProbeExample) => void;
}

export function probeSender(input: ProbeSendInput): (example: ProbeExample, attempt: 1 | 2) => Promise<SendOutcome> {
  const { context, environment, apiKey, resolveEmbedded, signal, source } = input;
  const key = apiKey ?? (environment.embedded ? SANDBOX_DEFAULT_KEY : '');
  return async (example, attempt) => {
    if (attempt === 1) input.onSend?.(example);
    const request = { operation: example.operation, version: example.version, binding: example.binding, params: example.params };
    try {
      if (example.mutation?.rule === 'wrong-binding') {
        const baseUrl = environment.embedded ? (await resolveEmbedded()).replace(/\/+$/, '') : environment.baseUrl;
        const shape = operations.find((o) => o.operation === example.operation && o.version === example.version)!;
        const prepared = wrongBindingRequest(shape, example.binding, example.params, environment.namespaces, baseUrl, key);
        const direct: Environment = { ...environment, embedded: false, baseUrl };
        return await send({ context, request, environment: direct, apiKey: key, prepared, signal, source });
      }
      return await send({ context, request, environment, ...(apiKey !== undefined ? { apiKey } : {}), asWritten: true, signal, source, resolveEmbedded });
    } catch (err) {
      if (!(err instanceof RequestError) || err.kind === 'sandbox') throw err;
      return { notSent: err.message };
    }
  };
}
