/**
 * What a request file (`*.carrier.json`) reads into, and what the reader and the validator report
 * about it. Positions are 0-based like VS Code's; `formatFinding` gives the 1-based CLI form.
 */
import type { JSONPath } from 'jsonc-parser';
import type { Binding } from '../catalog/types';
import type { Severity } from '../exchange';

export type { Severity };
export type JsonPath = JSONPath;

export interface Position {
  readonly line: number;
  /** UTF-16 code units from the start of the line, as VS Code counts. */
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** A stable identifier of the kind of problem, for quick fixes and tests. */
export type FindingCode =
  | 'syntax'
  | 'trailing-comma'
  | 'duplicate-key'
  | 'not-an-object'
  | 'operation'
  | 'version'
  | 'binding'
  | 'top-level-key'
  | 'top-level-type'
  | 'capture'
  | 'unknown-field'
  | 'enum'
  | 'type'
  | 'required'
  | 'empty-list'
  | 'format'
  /** A date in the right form that names no real day (30 February): said once, by the rules (validation/ruleFindings.ts). */
  | 'date'
  | 'suggested-value'
  | 'api-key'
  /** A mistake in `expect` or `capture` (src/core/runner/compileExpect.ts). */
  | 'expect'
  /** A mistake in `retry` (src/core/runner/compileExpect.ts `compileRetry`). */
  | 'retry';

export interface Finding {
  readonly severity: Severity;
  readonly message: string;
  /** Where in the file, e.g. `params.request.Accessorials[2]`; empty for the whole file. */
  readonly path: string;
  readonly range: Range;
  readonly code: FindingCode;
  /** A replacement value the message proposes ("did you mean …"), for a quick fix. */
  readonly suggestion?: string;
}

/**
 * A request file read against the catalog: the shape is resolved (version filled in where the
 * operation has one, binding defaulted). Params are the file's values, `{{variables}}` untouched.
 */
export interface RequestFile {
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  /** True when the file names the binding itself (false: the default was applied). */
  readonly bindingGiven: boolean;
  readonly environment?: string;
  readonly description?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly expect?: Readonly<Record<string, unknown>>;
  readonly capture?: Readonly<Record<string, string>>;
  /** `asWritten`: the params go out exactly as written, contract or not (a negative test). */
  readonly asWritten?: boolean;
  /** `tags`: for choosing tests (`carrier run --tag`) and the Test Explorer's tags. */
  readonly tags?: readonly string[];
  /** `retry` as written: send again until its `until` holds (compiled by src/core/runner/compileExpect.ts `compileRetry`). */
  readonly retry?: Readonly<Record<string, unknown>>;
  readonly fileName?: string;
  /**
   * The source text of every JSON number literal, keyed by `numberKey(path)` (a JSON pointer
   * such as `/params/request/Items/0/Width`), so `48.00` and `0.10` reach the wire as written.
   * Computed on first read: validating does not pay for it.
   */
  readonly rawNumbers: ReadonlyMap<string, string>;
}
