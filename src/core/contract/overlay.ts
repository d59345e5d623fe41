/**
 * What a stored contract changes for request files of one shape: the elements the live service
 * adds to each request record (accepted, typed by their XSD type, written at their place) and the
 * ones it lacks (a warning). Built from the report's request-side differences; the reply side and
 * everything else stay the catalog's — except the names the live contract adds to reply records,
 * which reply paths in `expect` and `capture` may then name (src/core/runner/replyPathCheck.ts).
 */
import * as path from 'node:path';
import { shapeLabel, type OperationDef } from '../catalog';
import { SANDBOX_ENVIRONMENT } from '../environments/builtin';
import { environmentsFolderFrom } from '../environments/where';
import type { CoreContext } from '../context';
import { contractFileFor, readStoredContract, type StoredContract } from './snapshot';
import type { AddedElement } from './types';

export interface ShapeOverlay {
  readonly environment: string;
  readonly checkedAt: string;
  /** The snapshot file, for messages ("from .carrier/contracts/live.json"). */
  readonly file?: string;
  /** Elements the live contract adds to a request record (the operation's name for its parameters), in live order. */
  added(record: string): readonly AddedElement[];
  /** The live contract has no `element` in this request record. */
  lacks(record: string, element: string): boolean;
  /** Neither additions nor omissions anywhere in the shape's request. */
  readonly empty: boolean;
  /** Elements the live contract adds to a reply record (the catalog's record name), in live order. */
  replyAdded(record: string): readonly AddedElement[];
}

const overlays = new WeakMap<StoredContract, Map<string, ShapeOverlay>>();

export function shapeOverlay(contract: StoredContract, op: OperationDef, file?: string): ShapeOverlay {
  let perShape = overlays.get(contract);
  if (!perShape) overlays.set(contract, (perShape = new Map()));
  const key = `${shapeLabel(op)}\u0000${file ?? ''}`;
  const had = perShape.get(key);
  if (had) return had;
  const added = new Map<string, AddedElement[]>();
  const replyAdded = new Map<string, AddedElement[]>();
  const lacking = new Set<string>();
  for (const d of contract.report.differences) {
    if (d.direction === 'reply' && d.kind === 'element-added' && d.added && d.record && d.version === op.version && d.operations?.includes(op.operation)) {
      addOnce(replyAdded, d.record, d.added);
      continue;
    }
    if (d.direction !== 'request' || d.version !== op.version || !d.operations?.includes(op.operation) || !d.record) continue;
    if (d.kind === 'element-added' && d.added) {
      addOnce(added, d.record, d.added);
    } else if (d.kind === 'element-missing' && d.element) {
      lacking.add(`${d.record}\u0000${d.element}`);
    }
  }
  for (const list of [...added.values(), ...replyAdded.values()]) list.sort((a, b) => a.position - b.position);
  const overlay: ShapeOverlay = {
    environment: contract.environment,
    checkedAt: contract.checkedAt,
    ...(file !== undefined ? { file } : {}),
    added: (record) => added.get(record) ?? [],
    lacks: (record, element) => lacking.has(`${record}\u0000${element}`),
    empty: added.size === 0 && lacking.size === 0,
    replyAdded: (record) => replyAdded.get(record) ?? [],
  };
  perShape.set(key, overlay);
  return overlay;
}

/** `element` in `record`'s list of `into`, once: a report names an element once per binding it was seen over. */
function addOnce(into: Map<string, AddedElement[]>, record: string, element: AddedElement): void {
  const list = into.get(record) ?? [];
  if (!list.some((a) => a.name === element.name)) list.push(element);
  into.set(record, list);
}

/**
 * The stored contract a request file follows: that of the environment it is sent to, stored
 * beside the environments file that governs the file's folder. The sandbox keeps the catalog's.
 */
export function contractForFile(
  context: Pick<CoreContext, 'files'>,
  fileName: string,
  environment: string | undefined,
): { contract: StoredContract; file: string } | undefined {
  if (!environment || environment === SANDBOX_ENVIRONMENT) return undefined;
  const folder = environmentsFolderFrom(context, path.dirname(path.resolve(fileName)));
  if (!folder) return undefined;
  const file = contractFileFor(folder, environment);
  const contract = readStoredContract(context, file);
  return contract ? { contract, file } : undefined;
}

/** The overlay of a shape for a request file, when its environment has a stored contract that changes the shape. */
export function overlayForFile(
  context: Pick<CoreContext, 'files'>,
  fileName: string | undefined,
  environment: string | undefined,
  op: OperationDef,
): ShapeOverlay | undefined {
  if (fileName === undefined) return undefined;
  const found = contractForFile(context, fileName, environment);
  if (!found) return undefined;
  const overlay = shapeOverlay(found.contract, op, found.file);
  return overlay.empty ? undefined : overlay;
}

/** The overlay of a shape for an environment whose stored contract file is known. */
export function overlayForContractFile(context: Pick<CoreContext, 'files'>, file: string | undefined, op: OperationDef): ShapeOverlay | undefined {
  if (file === undefined) return undefined;
  const contract = readStoredContract(context, file);
  if (!contract) return undefined;
  const overlay = shapeOverlay(contract, op, file);
  return overlay.empty ? undefined : overlay;
}

/**
 * The overlay of a shape for a request file's reply paths: kept even when the request side is
 * unchanged (overlayForFile leaves those out), since the live contract may add to the replies alone.
 */
export function replyOverlayForFile(
  context: Pick<CoreContext, 'files'>,
  fileName: string | undefined,
  environment: string | undefined,
  op: OperationDef,
): ShapeOverlay | undefined {
  if (fileName === undefined) return undefined;
  const found = contractForFile(context, fileName, environment);
  return found ? shapeOverlay(found.contract, op, found.file) : undefined;
}
