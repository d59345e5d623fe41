/**
 * Offsets and 0-based ranges in a file turned into the 1-based line:column locations the runner
 * reports, so every failure can point at the expectation that produced it.
 */
import type { Node } from 'jsonc-parser';
import { LineIndex as ZeroBasedLines } from '../requestFile/lineIndex';
import type { Range } from '../requestFile/types';
import type { SourceLocation } from './types';

export function fromRange(file: string, range: Range): SourceLocation {
  return { file, line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

export class LineIndex {
  private readonly lines: ZeroBasedLines;
  constructor(
    readonly file: string,
    text: string,
  ) {
    this.lines = new ZeroBasedLines(text);
  }

  range(offset: number, length: number): SourceLocation {
    return fromRange(this.file, this.lines.range(offset, length));
  }

  /** A property node's key, or any other node itself. */
  of(node: Node): SourceLocation {
    const target = node.type === 'property' && node.children?.[0] ? node.children[0] : node;
    return this.range(target.offset, target.length);
  }
}
