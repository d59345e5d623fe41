/**
 * Reply paths of `expect.reply` and `capture` held against the catalog when a file is read. A
 * path naming an element the reply does not have never finds a value: `absent: true` or
 * `count: 0` on it would hold whatever the service sends, and a capture would always fail. Such a
 * path is a file error, with the name the record does have closest to it.
 *
 * Known are the fields of the operation's reply records at the file's version, and:
 *  - anything below an open record (fields "not expanded", docs/carrier-facts.md#gaps);
 *  - the names a stored live contract adds to a reply record (src/core/contract/overlay.ts);
 *  - a path another version of the operation has: `"Result.MyCarrierID": { "absent": true }` in
 *    a 1.0.1 file checks that 1.0.1 does not answer with 1.0.0's field (the parser keeps elements
 *    the contract does not name, src/core/xml/read.ts).
 * A single element indexed counts as a one-item list, as replyPath.ts reads it: `[0]`, `[-1]`,
 * `[*]` and `[?]` work on it; `[1]` never finds anything.
 */
import { getRecord, shapeLabel, shapesOf } from '../catalog';
import type { OperationDef, RecordDef } from '../catalog/types';
import { closest } from '../requestFile/suggest';
import type { PathStep, ReplyPath } from './replyPath';

/** The element names a live contract adds to a reply record (by its catalog name). */
export type ReplyAdditions = (record: string) => readonly string[];

const NONE: ReplyAdditions = () => [];

/** Where a walk along the catalog is: a record, a simple value, or a list of either. */
interface Place {
  readonly record?: RecordDef;
  /** The XSD type of a simple value. */
  readonly scalar?: string;
  readonly list: boolean;
}

/** Why `path` names nothing the shape's reply can have; undefined when it can (or the catalog cannot tell). */
export function replyPathProblem(shape: OperationDef, path: ReplyPath, added: ReplyAdditions = NONE): string | undefined {
  const problem = walk(shape, path.steps, added);
  if (problem === undefined) return undefined;
  const elsewhere = shapesOf(shape.operation).some((other) => other !== shape && walk(other, path.steps, NONE) === undefined);
  return elsewhere ? undefined : problem;
}

function walk(shape: OperationDef, steps: readonly PathStep[], added: ReplyAdditions): string | undefined {
  // undefined: a place the catalog does not describe, where any path goes on.
  let at: Place | undefined = { record: getRecord(shape.result), list: false };
  let written = '';
  for (const step of steps) {
    if (!at) return undefined;
    if (step.kind === 'key') {
      if (at.list) return `${written || '$'} is a list; pick items with [n], [*] (every) or [?] (some) before .${step.name}`;
      if (!at.record) return `${written} is a single ${at.scalar ?? 'simple'} value, with no ${step.name} inside`;
      const next = member(shape, at.record, step.name, written, added);
      if (typeof next === 'string') return next;
      at = next;
    } else if (at.list) {
      at = { ...at, list: false };
    } else if (step.kind === 'index' && step.index !== 0 && step.index !== -1) {
      return `${written || '$'} is a single element, read as a one-item list: [${step.index}] is never there (use [0])`;
    }
    written = append(written, step);
  }
  return undefined;
}

/** The place of `record`'s field `name`; a message when the record has none. */
function member(shape: OperationDef, record: RecordDef, name: string, written: string, added: ReplyAdditions): Place | undefined | string {
  if (record.open) return undefined;
  const field = record.fields.find((f) => f.name === name);
  if (field) {
    return {
      ...(field.record ? { record: getRecord(field.record) } : {}),
      ...(field.type !== 'record' ? { scalar: field.type } : {}),
      list: !!field.list,
    };
  }
  const live = added(record.name);
  if (live.includes(name)) return undefined;
  const suggestion = closest(name, [...record.fields.map((f) => f.name), ...live]);
  return `the ${shapeLabel(shape)} reply has no ${name}${written ? ` in ${written}` : ''}${suggestion ? `; did you mean ${suggestion}?` : ''}`;
}

function append(path: string, step: PathStep): string {
  switch (step.kind) {
    case 'key':
      return path ? `${path}.${step.name}` : step.name;
    case 'index':
      return `${path}[${step.index}]`;
    case 'every':
      return `${path}[*]`;
    case 'some':
      return `${path}[?]`;
  }
}
