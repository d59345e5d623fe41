/**
 * The sandbox's own reply to every operation shape's sample request, over the bindings asked
 * for and with each API key given: the real replies the reply readers are held against
 * (reply-readers-equal.test.ts).
 */
import { operations, type Binding, type OperationDef } from '../../src/core/catalog';
import type { Exchange } from '../../src/core/exchange';
import { sampleRequestFile } from '../../src/core/generate/samples';
import { send } from '../../src/core/send';
import { validateRequestText } from '../../src/core/validation/validate';
import { startSandbox } from '../../src/sandbox/server';
import { nodeContext } from '../../src/host';
import { environmentAt } from './transport-support';

export interface SampleReply {
  readonly op: OperationDef;
  readonly binding: Binding;
  readonly reply: NonNullable<Exchange['reply']>;
}

/** `''` as a key sends with an empty APIKey on purpose (the sandbox answers with a fault). */
export async function sampleReplies(bindings: (op: OperationDef) => readonly Binding[], apiKeys: readonly string[]): Promise<SampleReply[]> {
  const out: SampleReply[] = [];
  const context = nodeContext();
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  try {
    const environment = environmentAt(sandbox.url);
    for (const op of operations) {
      for (const binding of bindings(op)) {
        const text = JSON.stringify({ ...sampleRequestFile(op, binding), binding });
        const { request } = validateRequestText(text, `${op.operation}.carrier.json`);
        if (!request) continue;
        for (const apiKey of apiKeys) {
          const x = await send({ context, request, environment, apiKey, withoutKey: apiKey === '' });
          if (x.reply) out.push({ op, binding, reply: x.reply });
        }
      }
    }
  } finally {
    await sandbox.close();
    await context.http.close();
  }
  return out;
}
