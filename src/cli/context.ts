import type { CoreContext } from '../core';
import { nodeContext } from '../host';
import type { CliIo } from './command';

/**
 * What a command hands core (src/core/context.ts): Node's files and clock, its own pooled
 * dispatchers, and the variables it was started with (API keys). A command that sends closes its
 * dispatchers when it ends (`context.http.close()`), so the process exits without waiting on them.
 */
export function commandContext(io: CliIo): CoreContext {
  return nodeContext({ env: io.env });
}
