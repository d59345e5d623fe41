/**
 * The text of a request file and what is derived from it on demand: the jsonc syntax tree (for
 * ranges of findings and raw number literals) and the line index. Both are built only when first
 * asked for, so a file with no findings costs no more than its JSON.parse.
 */
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { tooDeepAt } from './depth';
import { LineIndex } from './lineIndex';
import { numberKey } from './jsonPath';
import type { JsonPath, Range } from './types';

/** Which part of a located property a finding points at. */
export type RangePart = 'value' | 'key';

export class JsonSource {
  private treeCache: Node | null | undefined;
  private linesCache: LineIndex | undefined;
  private numbersCache: Map<string, string> | undefined;

  private shallow = false;

  constructor(readonly text: string) {}

  /** The text is known to nest no deeper than MAX_JSON_DEPTH (parseJson measured it): the tree needs no scan first. */
  knownShallow(): void {
    this.shallow = true;
  }

  get tree(): Node | undefined {
    // jsonc-parser builds the tree one call per level: a text nested too deep has none (depth.ts).
    if (this.treeCache === undefined)
      this.treeCache =
        !this.shallow && tooDeepAt(this.text) >= 0 ? null : (parseTree(this.text, [], { allowTrailingComma: true, disallowComments: false }) ?? null);
    return this.treeCache ?? undefined;
  }

  get lines(): LineIndex {
    return (this.linesCache ??= new LineIndex(this.text));
  }

  range(offset: number, length: number): Range {
    return this.lines.range(offset, length);
  }

  /** The node at `path`, or the nearest ancestor that exists, and whether it was exact. */
  nodeAt(path: JsonPath): { node: Node; exact: boolean } | undefined {
    const root = this.tree;
    if (!root) return undefined;
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? root : findNodeAtLocation(root, path.slice(0, n));
      if (node) return { node, exact: n === path.length };
    }
    return undefined;
  }

  /**
   * Where to underline a finding about `path`. A path that does not exist (a missing field)
   * points at its nearest existing ancestor: that object's key, or its opening brace, rather
   * than the whole (possibly very long) object.
   */
  rangeOf(path: JsonPath, part: RangePart = 'value'): Range {
    const found = this.nodeAt(path);
    if (!found) return this.range(0, 0);
    const { node, exact } = found;
    const property = node.parent?.type === 'property' ? node.parent : undefined;
    const key = property?.children?.[0];
    if (exact && part === 'key' && key) return this.range(key.offset, key.length);
    if (exact && node.type !== 'object' && node.type !== 'array') return this.range(node.offset, node.length);
    if (key) return this.range(key.offset, key.length);
    if (exact && node.type === 'array' && node.length <= 80) return this.range(node.offset, node.length);
    return this.range(node.offset, 1);
  }

  /** The source text of every number literal, keyed by JSON pointer. */
  rawNumbers(): Map<string, string> {
    if (this.numbersCache) return this.numbersCache;
    const out = new Map<string, string>();
    const walk = (node: Node, path: JsonPath): void => {
      if (node.type === 'number') out.set(numberKey(path), this.text.slice(node.offset, node.offset + node.length));
      else if (node.type === 'object') {
        for (const prop of node.children ?? []) {
          const [key, value] = prop.children ?? [];
          if (key && value) walk(value, [...path, key.value as string]);
        }
      } else if (node.type === 'array') (node.children ?? []).forEach((child, i) => walk(child, [...path, i]));
    };
    const root = this.tree;
    if (root) walk(root, []);
    return (this.numbersCache = out);
  }
}
