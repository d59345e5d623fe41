/**
 * Completion and hovers for what a stored live contract adds: the editor's JSON service knows the
 * catalog's schema only, so the elements an environment's live service adds are offered and
 * explained from here, at the record the cursor is in. Plain data out; the extension turns it into
 * VS Code's items.
 */
import { getLocation, parse, type Node } from 'jsonc-parser';
import { findShape, type OperationDef } from '../catalog';
import { overlayForFile, type ShapeOverlay } from '../contract/overlay';
import type { AddedElement } from '../contract/types';
import { isObject } from '../objects';
import type { JsonPath } from '../requestFile/types';
import { recordAt, resolveParams } from './catalogPath';
import { contractSource, describeAdded } from './contractFindings';
import { environmentOfFile, type ValidationContext } from './validate';

export interface ContractCompletion {
  readonly name: string;
  /** One line: the XSD type and where it goes. */
  readonly detail: string;
  /** Markdown: where the element comes from. */
  readonly documentation: string;
  /** `"Name": value` with tab stops, as a VS Code snippet. */
  readonly snippet: string;
  /** The text to replace (the partly typed key with its quotes), as offsets; absent: insert at the cursor. */
  readonly replace?: { readonly start: number; readonly end: number };
}

interface AtRecord {
  readonly op: OperationDef;
  readonly overlay: ShapeOverlay;
  readonly value: Record<string, unknown>;
}

function atRecord(context: ValidationContext, text: string, fileName: string, environment: string | undefined): AtRecord | undefined {
  const value = parse(text, [], { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (!isObject(value) || typeof value.operation !== 'string') return undefined;
  const op = findShape(value.operation, typeof value.version === 'string' ? value.version : undefined);
  if (!op) return undefined;
  const named = typeof value.environment === 'string' ? value.environment : undefined;
  const overlay = overlayForFile(context, fileName, environmentOfFile(context, fileName, named, environment), op);
  return overlay ? { op, overlay, value } : undefined;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let at = root;
  for (const step of path) at = at !== null && typeof at === 'object' ? (at as Record<string | number, unknown>)[step] : undefined;
  return at;
}

function placeholder(a: AddedElement): string {
  const repeating = a.maxOccurs === 'unbounded' || a.maxOccurs > 1;
  const one =
    a.base === undefined
      ? '{$1}'
      : a.enumeration
        ? `"\${1|${a.enumeration.map((v) => v.replace(/[,|$}\\]/g, '\\$&')).join(',')}|}"`
        : ['int', 'long', 'short', 'byte', 'integer', 'float', 'double', 'decimal'].includes(a.base) || a.base.startsWith('unsigned')
          ? '${1:0}'
          : a.base === 'boolean'
            ? '${1|true,false|}'
            : '"$1"';
  return repeating ? `[${one}]` : one;
}

/** The added elements of the record whose object holds the cursor, not yet written there. */
export function contractCompletions(context: ValidationContext, text: string, fileName: string, offset: number, environment?: string): ContractCompletion[] {
  const ctx = atRecord(context, text, fileName, environment);
  if (!ctx) return [];
  const location = getLocation(text, offset);
  const inKey = location.isAtPropertyKey;
  // At a key, the path ends with the key being typed; the object holding it is one step up.
  const objectPath = inKey ? location.path.slice(0, -1) : location.path;
  if (objectPath[0] !== 'params' || (!inKey && location.previousNode !== undefined)) return [];
  const params = objectPath.slice(1);
  const record = params.length === 0 ? { name: ctx.op.operation } : recordAt(ctx.op, params);
  if (!record) return [];
  const present = valueAt(ctx.value, objectPath);
  const typed = inKey ? typedKey(text, location.previousNode, offset) : undefined;
  return ctx.overlay
    .added(record.name)
    .filter((a) => !(isObject(present) && Object.prototype.hasOwnProperty.call(present, a.name) && a.name !== typed?.name))
    .map((a) => ({
      name: a.name,
      detail: `${describeAdded(a)} — live contract of "${ctx.overlay.environment}"`,
      documentation: `**${a.name}** is not in the catalog: ${contractSource(ctx.overlay)} declares it in ${record.name}.`,
      snippet: `"${a.name}": ${placeholder(a)}`,
      ...(typed ? { replace: { start: typed.start, end: typed.end } } : {}),
    }));
}

/**
 * The key being typed, quotes included: a whole `"Key"` when its closing quote is on the line,
 * else (still being typed, the parser ran on to the end) up to the cursor.
 */
function typedKey(text: string, node: Node | undefined, cursor: number): { start: number; end: number; name: string } | undefined {
  if (!node || (node.type !== 'property' && node.type !== 'string') || text[node.offset] !== '"') return undefined;
  const close = text.indexOf('"', node.offset + 1);
  const lineEnd = text.indexOf('\n', node.offset);
  const whole = close >= cursor - 1 && (lineEnd < 0 || close < lineEnd) && !/[{}[\],:]/.test(text.slice(node.offset + 1, close));
  const end = whole ? close + 1 : cursor;
  return { start: node.offset, end, name: text.slice(node.offset + 1, whole ? close : cursor) };
}

/** Markdown for a key the live contract adds or lacks, when the cursor is on it. */
export function contractHover(
  context: ValidationContext,
  text: string,
  fileName: string,
  offset: number,
  environment?: string,
): { markdown: string; start: number; end: number } | undefined {
  const ctx = atRecord(context, text, fileName, environment);
  if (!ctx) return undefined;
  const location = getLocation(text, offset);
  const node = location.previousNode;
  if (!location.isAtPropertyKey || !node || (node.type !== 'property' && node.type !== 'string') || location.path[0] !== 'params') return undefined;
  const params = location.path.slice(1, -1);
  const name = String(location.path[location.path.length - 1]);
  const record = params.length === 0 ? { name: ctx.op.operation } : recordAt(ctx.op, params);
  if (!record) return undefined;
  const span = { start: node.offset, end: node.offset + node.length };
  const added = ctx.overlay.added(record.name).find((a) => a.name === name);
  if (added)
    return { ...span, markdown: `**${name}** — not in the catalog: ${contractSource(ctx.overlay)} declares it in ${record.name}: ${describeAdded(added)}.` };
  const field = resolveParams(ctx.op, [...params, name]);
  if (field && 'field' in field && ctx.overlay.lacks(record.name, name)) {
    return { ...span, markdown: `**${name}** — ${contractSource(ctx.overlay)} has no ${name} in ${record.name}: the live service will not read it.` };
  }
  return undefined;
}
