/**
 * Offset → line/character in O(log n): line starts are found once, then every finding is a
 * binary search (a 500-item file with many findings must not rescan its text per finding).
 */
import type { Position, Range } from './types';

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // \r\n, \n and a lone \r each end a line, as in VS Code.
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }

  range(offset: number, length: number): Range {
    return { start: this.position(offset), end: this.position(offset + Math.max(0, length)) };
  }
}
