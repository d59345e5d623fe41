/**
 * What a stored contract changes for request files of one shape: the elements the live service
 * adds to each request record (accepted, typed by their XSD type, written at their place) and the
 * ones it lacks (a warning). Built from the report's request-side differences; the reply side and
 * everything else stay the catalog's.
 */
import * as path from 'node:path';
import { shapeLabel, type OperationDef } from '../catalog';
import { SANDBOX_ENVIRONMENT } from '../environments/builtin';
import { environmentsFolderFrom } from '../environments/where';
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
}

const overlays = new WeakMap<StoredContract, Map<string, ShapeOverlay>>();

export function shapeOverlay(contract: StoredContract, op: OperationDef, file?: string): ShapeOverlay {
  let perShape = overlays.get(contract);
  if (!perShape) overlays.set(contract, (perShape = new Map()));
  const key = `${shapeLabel(op)}\u0000${file ?? ''}`;
  const had = perShape.get(key);
  if (had) return had;
  const added = new Map<string, AddedElement[]>();
  const lacking = new Set<string>();
  for (const d of contract.report.differences) {
    if (d.direction !== 'request' || d.version !== op.version || !d.operations?.includes(op.operation) || !d.record) continue;
    if (d.kind === 'element-added' && d.added) {
      const list = added.get(d.record) ?? [];
      if (!list.some((a) => a.name === d.added!.name)) list.push(d.added);
      added.set(d.record, list);
    } else if (d.kind === 'element-missing' && d.element) {
      lacking.add(`${d.record}\u0000${d.element}`);
    }
  }
  for (const list of added.values()) list.sort((a, b) => a.position - b.position);
  const overlay: ShapeOverlay = {
    environment: contract.environment,
    checkedAt: contract.checkedAt,
    ...(file !== undefined ? { file } : {}),
    added: (record) => added.get(record) ?? [],
    lacks: (record, element) => lacking.has(`${record}\u0000${element}`),
    empty: added.size === 0 && lacking.size === 0,
  };
  perShape.set(key, overlay);
  return overlay;
}

/**
 * The stored contract a request file follows: that of the environment it is sent to, stored
 * beside the environments file that governs the file's folder. The sandbox keeps the catalog's.
 */
export function contractForFile(fileName: string, environment: string | undefined): { contract: StoredContract; file: string } | undefined {
  if (!environment || environment === SANDBOX_ENVIRONMENT) return undefined;
  const folder = environmentsFolderFrom(path.dirname(path.resolve(fileName)));
  if (!folder) return undefined;
  const file = contractFileFor(folder, environment);
  const contract = readStoredContract(file);
  return contract ? { contract, file } : undefined;
}

/** The overlay of a shape for a request file, when its environment has a stored contract that changes the shape. */
export function overlayForFile(fileName: string | undefined, environment: string | undefined, op: OperationDef): ShapeOverlay | undefined {
  if (fileName === undefined) return undefined;
  const found = contractForFile(fileName, environment);
  if (!found) return undefined;
  const overlay = shapeOverlay(found.contract, op, found.file);
  return overlay.empty ? undefined : overlay;
}

/** The overlay of a shape for an environment whose stored contract file is known. */
export function overlayForContractFile(file: string | undefined, op: OperationDef): ShapeOverlay | undefined {
  if (file === undefined) return undefined;
  const contract = readStoredContract(file);
  if (!contract) return undefined;
  const overlay = shapeOverlay(contract, op, file);
  return overlay.empty ? undefined : overlay;
}
