/** What one line of the benchmark table says, and how a row module produces lines. */

export interface Figure {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
}

export interface Target {
  /** `min`: the ratio must be at least `value`; `max`: at most. */
  readonly kind: 'min' | 'max';
  readonly value: number;
  /** As printed, e.g. "≥ 3×". */
  readonly text: string;
}

export interface RowResult {
  /** Stable id for the JSON output and for `--only` (e.g. `client-overhead.c16`). */
  readonly id: string;
  readonly measured: string;
  readonly a: Figure;
  readonly b: Figure;
  /** As the target reads it; stated so a reader knows which way round it is. */
  readonly ratio: number;
  readonly ratioText: string;
  /** Absent for an informational line (nothing was promised about it). */
  readonly target?: Target;
  readonly runs: number;
  readonly note?: string;
  /** Each run's A and B, in the order measured (in the --json report only): whether one side led in every run, not just in the medians. */
  readonly samples?: { readonly a: readonly number[]; readonly b: readonly number[] };
  /** With `--repeat N`: the ratio each run of the table gave (the line's ratio is their median). */
  readonly repeats?: readonly number[];
}

export interface BenchContext {
  /** Base URL of the sandbox the rows send to (another process, on loopback). */
  readonly sandboxUrl: string;
  /** Interleaved runs per line; at least 5. */
  readonly runs: number;
  /** Scratch folder, removed at the end. */
  readonly tmp: string;
  readonly root: string;
  readonly log: (line: string) => void;
}

export interface BenchRow {
  /** Prefix of its results' ids; `--only <id>` selects the row. */
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<RowResult[]>;
}

export const atLeast = (value: number, unit = '×'): Target => ({ kind: 'min', value, text: `≥ ${value}${unit}` });
export const atMost = (value: number, unit = '×'): Target => ({ kind: 'max', value, text: `≤ ${value}${unit}` });
