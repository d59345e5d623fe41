/**
 * What a stored live contract (`carrier contract --write`) says of one shape's replies, for the
 * reply reader's contract findings (src/core/reply/contractCheck.ts): the elements it adds to a
 * reply record are known, and what it requires (minOccurs) is required. Built from the stored
 * report's reply-side differences, once per contract and shape.
 */
import { shapeLabel, type OperationDef } from '../catalog';
import type { ReplyContract } from '../reply/contractCheck';
import type { StoredContract } from './snapshot';

const built = new WeakMap<StoredContract, Map<string, ReplyContract | null>>();

/** Undefined when the stored contract says nothing of this shape's replies. */
export function replyContractOf(contract: StoredContract, op: OperationDef): ReplyContract | undefined {
  let perShape = built.get(contract);
  if (!perShape) built.set(contract, (perShape = new Map()));
  const key = shapeLabel(op);
  let found = perShape.get(key);
  if (found === undefined) perShape.set(key, (found = build(contract, op) ?? null));
  return found ?? undefined;
}

function build(contract: StoredContract, op: OperationDef): ReplyContract | undefined {
  const known = new Set<string>();
  const required = new Map<string, boolean>();
  for (const d of contract.report.differences) {
    if (d.direction !== 'reply' || d.version !== op.version || !d.operations?.includes(op.operation) || !d.record || !d.element) continue;
    const at = `${d.record}\u0000${d.element}`;
    if (d.kind === 'element-added') known.add(at);
    else if (d.kind === 'min-occurs' && d.live) required.set(at, !/minOccurs 0\b/.test(d.live));
  }
  if (!known.size && !required.size) return undefined;
  return {
    knows: (record, element) => known.has(`${record}\u0000${element}`),
    required: (record, element) => required.get(`${record}\u0000${element}`),
  };
}
