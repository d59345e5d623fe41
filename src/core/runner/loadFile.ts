/**
 * One request file read for running: parsed and checked once, its expectations and captures
 * compiled, the variables it uses listed. Everything per-send later is substitution only.
 */
import { findNodeAtLocation } from 'jsonc-parser';
import * as path from 'node:path';
import type { OperationDef, XsdType } from '../catalog/types';
import type { CoreContext } from '../context';
import { replyOverlayForFile } from '../contract/overlay';
import {
  FileTextError,
  findVariables,
  JsonSource,
  parseRequestFile,
  readTextFile,
  wholeVariable,
  type Finding as FileFinding,
  type JsonPath,
  type ParsedRequestFile,
  type RequestFile,
} from '../requestFile';
import { resolveParams } from '../validation/catalogPath';
import { environmentOfFile } from '../validation/validate';
import {
  compileCapture,
  compileExpect,
  compileRetry,
  compileSnapshot,
  EMPTY_EXPECT,
  type CompiledCapture,
  type CompiledExpect,
  type CompiledRetry,
  type ReplyContext,
} from './compileExpect';
import { tooLargeMessage } from './discover';
import type { CompiledSnapshot } from './snapshot';
import { fromRange, LineIndex } from './locate';
import type { Failure, SourceLocation } from './types';
import { referencedNames, variableReferences } from './variables';

export interface LoadedFile {
  readonly file: string;
  readonly request?: RequestFile;
  readonly shape?: OperationDef;
  readonly expect: CompiledExpect;
  readonly captures: readonly CompiledCapture[];
  /** `retry`: send again until its `until` holds (docs/request-files.md#retry); absent when the file does not wait. */
  readonly retry?: CompiledRetry;
  /** `snapshot` (docs/collections.md#snapshots): the reply held against its kept snapshot; absent when the file says nothing. */
  readonly snapshot?: CompiledSnapshot;
  /** Variable names the params and the expectations refer to. */
  readonly uses: readonly string[];
  /** Where each used name is first written (params, then expect): for a name nothing defines. */
  readonly useLocations: ReadonlyMap<string, SourceLocation>;
  /**
   * Names written as a whole params value (`"Weight": "{{weight}}"`) with the catalog type of
   * each field they fill: a data cell there takes that type (rows.ts).
   */
  readonly wholeFields: ReadonlyMap<string, readonly WholeField[]>;
  /** The request object's opening brace. */
  readonly location: SourceLocation;
  /**
   * A copy of another file's text (requestFileLoader): the expectations and captures as that file
   * compiled them, their locations naming its `file`. The runner judges with these and renames
   * only the failures, so a passing copy copies nothing; `expect` and `captures` above are this
   * file's own, made when first read.
   */
  readonly compiledFrom?: {
    readonly file: string;
    readonly expect: CompiledExpect;
    readonly captures: readonly CompiledCapture[];
    readonly retry?: CompiledRetry;
  };
  /** Errors: the file cannot run. */
  readonly problems: readonly Failure[];
  readonly warnings: readonly Failure[];
  /** Where a JSON path of the file is written (for messages about a `{{variable}}` in params). */
  locate(path: JsonPath): SourceLocation;
}

export interface WholeField {
  readonly type: XsdType;
  /** The params path, for messages (`params.request.Items[0].Weight`). */
  readonly path: JsonPath;
}

/** Extra checks of a file's params (the validator), given the text and file name. */
export type FileValidator = (text: string, fileName: string) => readonly FileFinding[];

/** What loading reads: the files, and the environment a file that names none follows (CoreContext). */
export type LoadContext = Pick<CoreContext, 'files' | 'defaultEnvironment'>;

/** Reads a file's text; a host with unsaved editor contents supplies its own. */
export type FileReader = (file: string) => string;

export function loadRequestFile(context: LoadContext, file: string, validate?: FileValidator, read?: FileReader): LoadedFile {
  return requestFileLoader(context, validate, read)(file);
}

/**
 * What a file's reply paths are checked against: its shape, and the names the stored live
 * contract of the environment it is sent to (`environment`, else its own) adds to reply records.
 */
function replyContext(context: LoadContext | undefined, parsed: ParsedRequestFile, file: string, environment?: string): ReplyContext | undefined {
  if (!parsed.shape) return undefined;
  const overlay = context && replyOverlayForFile(context, file, environmentOfFile(context, file, parsed.request?.environment, environment), parsed.shape);
  return { shape: parsed.shape, ...(overlay ? { added: (record: string) => overlay.replyAdded(record).map((a) => a.name) } : {}) };
}

/**
 * A loader for one run: files of the same text in the same folder (hence the same environments
 * and stored contract, which validation reads) are parsed, validated and compiled once, and the
 * others get that compiled form with their own name in every location. Collections of copies,
 * generated or data-like, then cost one compile rather than one per file.
 */
export function requestFileLoader(
  context: LoadContext,
  validate?: FileValidator,
  read: FileReader = (f) => readTextFile(context, f),
  environment?: string,
): (file: string) => LoadedFile {
  // By folder, then by text: the text itself is the key, never copied into a longer one.
  const compiled = new Map<string, Map<string, LoadedFile>>();
  return (file) => {
    let text: string;
    try {
      text = read(file);
    } catch (e) {
      const at = e instanceof FileTextError && e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : { line: 1, column: 1 };
      const location = { file, ...at, endLine: at.line, endColumn: at.column };
      // Too large: said as discovery says it (a folder's regular files are sized only here).
      const message = e instanceof FileTextError && e.size !== undefined ? tooLargeMessage(file, e.size) : `cannot read ${file}: ${(e as Error).message}`;
      return {
        file,
        expect: EMPTY_EXPECT,
        captures: [],
        uses: [],
        useLocations: new Map(),
        wholeFields: new Map(),
        location,
        problems: [{ kind: 'file', message, location }],
        warnings: [],
        locate: () => location,
      };
    }
    const folder = path.dirname(file);
    let byText = compiled.get(folder);
    if (!byText) compiled.set(folder, (byText = new Map()));
    const first = byText.get(text);
    if (first) return new CopiedFile(first, file);
    const loaded = compileRequestFile(text, file, validate, environment, context);
    byText.set(text, loaded);
    return loaded;
  };
}

/**
 * `original` as the compile of `file`, a file of the same text and folder: only the names differ.
 * The expectations and captures, whose every location names the file, are copied only when
 * read: the runner judges with the original's (compiledFrom) and renames its failures. A class
 * rather than an object of getters and closures: a run of thousands of copies keeps one small
 * object per copy, all of one shape, their methods shared.
 */
class CopiedFile implements LoadedFile {
  readonly request: RequestFile | undefined;
  readonly shape: OperationDef | undefined;
  readonly uses: readonly string[];
  readonly useLocations: ReadonlyMap<string, SourceLocation>;
  readonly wholeFields: ReadonlyMap<string, readonly WholeField[]>;
  readonly location: SourceLocation;
  readonly problems: readonly Failure[];
  readonly warnings: readonly Failure[];
  private expectCopy: CompiledExpect | undefined = undefined;
  private capturesCopy: readonly CompiledCapture[] | undefined = undefined;
  private retryCopy: CompiledRetry | undefined = undefined;
  private snapshotCopy: CompiledSnapshot | undefined = undefined;

  constructor(
    readonly compiledFrom: LoadedFile,
    readonly file: string,
  ) {
    const original = compiledFrom;
    this.request = original.request && { ...original.request, fileName: file };
    this.shape = original.shape;
    this.uses = original.uses;
    this.useLocations = original.useLocations.size ? new Map([...original.useLocations].map(([name, l]) => [name, this.at(l)])) : original.useLocations;
    this.wholeFields = original.wholeFields;
    this.location = this.at(original.location);
    this.problems = original.problems.length ? original.problems.map((p) => (p.location ? { ...p, location: this.at(p.location) } : p)) : original.problems;
    this.warnings = original.warnings.length ? original.warnings.map((p) => (p.location ? { ...p, location: this.at(p.location) } : p)) : original.warnings;
  }

  get expect(): CompiledExpect {
    return (this.expectCopy ??= withFileName(this.compiledFrom.expect, this.compiledFrom.file, this.file));
  }

  get captures(): readonly CompiledCapture[] {
    const captures = this.compiledFrom.captures;
    return (this.capturesCopy ??= captures.length ? withFileName(captures, this.compiledFrom.file, this.file) : captures);
  }

  get retry(): CompiledRetry | undefined {
    const retry = this.compiledFrom.retry;
    return retry && (this.retryCopy ??= withFileName(retry, this.compiledFrom.file, this.file));
  }

  get snapshot(): CompiledSnapshot | undefined {
    const snapshot = this.compiledFrom.snapshot;
    return snapshot && (this.snapshotCopy ??= withFileName(snapshot, this.compiledFrom.file, this.file));
  }

  locate(p: JsonPath): SourceLocation {
    return this.at(this.compiledFrom.locate(p));
  }

  /** A location in the original as one in this file. */
  private at(l: SourceLocation): SourceLocation {
    return l.file === this.compiledFrom.file ? { ...l, file: this.file } : l;
  }
}

/**
 * A copy of compiled expectations with every `file: from` (their locations) as `file: to`. Plain
 * objects and arrays are copied, with a stack rather than recursion (an `equals` value is the
 * file's JSON, of any depth); anything else (patterns, numbers as parsed) is shared as it is.
 */
function withFileName<T>(value: T, from: string, to: string): T {
  const plain = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype);
  if (!plain(value)) return value;
  const copy = (v: Record<string, unknown>): Record<string, unknown> => (Array.isArray(v) ? new Array(v.length) : {}) as Record<string, unknown>;
  const root = copy(value);
  const stack: Array<[Record<string, unknown>, Record<string, unknown>]> = [[value, root]];
  while (stack.length) {
    const [source, target] = stack.pop()!;
    for (const k of Object.keys(source)) {
      const v = source[k];
      if (k === 'file' && v === from) target[k] = to;
      else if (plain(v)) {
        const c = copy(v);
        target[k] = c;
        stack.push([v, c]);
      } else target[k] = v;
    }
  }
  return root as T;
}

/**
 * `environment`: where the run sends the file (`--env`), when not the file's own: its stored
 * contract's reply names are known. Without a context no stored contract is read: the catalog's names alone.
 */
export function compileRequestFile(text: string, file: string, validate?: FileValidator, environment?: string, context?: LoadContext): LoadedFile {
  const parsed = parseRequestFile(text, file);
  const lines = new LineIndex(file, text);
  const findings = [...parsed.findings, ...(parsed.request && validate ? validate(text, file) : [])];
  const toFailure = (f: FileFinding): Failure => ({ kind: 'file', message: f.message, location: fromRange(file, f.range) });
  const problems = findings.filter((f) => f.severity === 'error').map(toFailure);
  // Warnings are said before a run; info findings (unknown-but-kept, notes) are not worth a line.
  const warnings = findings.filter((f) => f.severity === 'warning').map(toFailure);

  const tree = parsed.source.tree;
  const location = tree ? lines.range(tree.offset, 1) : lines.range(0, 0);
  let expect = EMPTY_EXPECT;
  let captures: CompiledCapture[] = [];
  let retry: CompiledRetry | undefined;
  let snapshot: CompiledSnapshot | undefined;
  let uses: string[] = [];
  const useLocations = new Map<string, SourceLocation>();
  const wholeFields = new Map<string, WholeField[]>();
  if (tree && parsed.request) {
    const expectNode = findNodeAtLocation(tree, ['expect']);
    const reply = replyContext(context, parsed, file, environment);
    const e = compileExpect(expectNode, text, lines, reply);
    const c = compileCapture(findNodeAtLocation(tree, ['capture']), text, lines, reply);
    const retryNode = findNodeAtLocation(tree, ['retry']);
    const r = compileRetry(retryNode, text, lines, reply);
    const sn = compileSnapshot(findNodeAtLocation(tree, ['snapshot']), text, lines, reply);
    expect = e.expect;
    captures = c.captures;
    retry = r.retry;
    snapshot = sn.snapshot;
    problems.push(...e.problems, ...c.problems, ...r.problems, ...sn.problems);
    const expectText = expectNode ? text.slice(expectNode.offset, expectNode.offset + expectNode.length) : '';
    // `until` judges with variables as `expect` does: what it names is used too.
    const retryText = retryNode ? text.slice(retryNode.offset, retryNode.offset + retryNode.length) : '';
    uses = [...new Set([...stringsOf(parsed.request.params).flatMap(referencedNames), ...referencedNames(expectText), ...referencedNames(retryText)])];
    for (const use of findVariables(parsed.request.params, ['params']))
      if (!useLocations.has(use.name)) useLocations.set(use.name, fromRange(file, parsed.source.rangeOf(use.path)));
    for (const ref of variableReferences(expectText))
      if (!useLocations.has(ref.name)) useLocations.set(ref.name, lines.range(expectNode!.offset + ref.offset, ref.length));
    for (const ref of variableReferences(retryText))
      if (!useLocations.has(ref.name)) useLocations.set(ref.name, lines.range(retryNode!.offset + ref.offset, ref.length));
    if (parsed.shape) collectWholeFields(parsed.shape, parsed.request.params, wholeFields);
  }
  return {
    file,
    request: parsed.request,
    shape: parsed.shape,
    expect,
    captures,
    ...(retry ? { retry } : {}),
    ...(snapshot ? { snapshot } : {}),
    uses,
    useLocations,
    wholeFields,
    location,
    problems: dedupe(problems),
    warnings,
    locate: locator(file, text),
  };
}

/**
 * The mistakes in a file's `expect` and `capture` alone, as the runner compiles them: for
 * `carrier validate` and the editor, which check the rest of the file themselves.
 */
export function compileExpectations(text: string, file: string, context?: LoadContext): Failure[] {
  const parsed = parseRequestFile(text, file);
  const tree = parsed.source.tree;
  if (!tree || !parsed.request) return [];
  const lines = new LineIndex(file, text);
  const reply = replyContext(context, parsed, file);
  const e = compileExpect(findNodeAtLocation(tree, ['expect']), text, lines, reply);
  const c = compileCapture(findNodeAtLocation(tree, ['capture']), text, lines, reply);
  const r = compileRetry(findNodeAtLocation(tree, ['retry']), text, lines, reply);
  const sn = compileSnapshot(findNodeAtLocation(tree, ['snapshot']), text, lines, reply);
  return dedupe([...e.problems, ...c.problems, ...r.problems, ...sn.problems]);
}

/**
 * Where a JSON path of the file is written. Only its text is kept, not the parse: a run asks only
 * about a `{{variable}}` nothing defines, and a run of thousands of files need not hold each one's
 * syntax tree till its end for that.
 */
function locator(file: string, text: string): (path: JsonPath) => SourceLocation {
  let source: JsonSource | undefined;
  return (p) => fromRange(file, (source ??= new JsonSource(text)).rangeOf(p));
}

/** Each `"{{name}}"` that is a whole params value, with the catalog type of the field it fills. */
function collectWholeFields(shape: OperationDef, params: unknown, into: Map<string, WholeField[]>): void {
  const walk = (value: unknown, at: JsonPath): void => {
    const name = wholeVariable(value);
    if (name !== undefined) {
      const field = resolveParams(shape, at);
      if (field && 'field' in field && field.field.type !== 'record' && (field.item || !field.field.list)) {
        const list = into.get(name) ?? [];
        list.push({ type: field.field.type, path: ['params', ...at] });
        into.set(name, list);
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
  };
  walk(params, []);
}

/** Every string inside a JSON value (the params), where `{{variables}}` can be. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('{{')) out.push(value);
  } else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

/** The reader and the compiler may both report one mistake; keep the first report per place. */
function dedupe(problems: Failure[]): Failure[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = p.location ? `${p.location.line}:${p.location.column}` : p.message;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
