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
  const compiled = new Map<string, LoadedFile>();
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
    const key = `${path.dirname(file)}\0${text}`;
    const first = compiled.get(key);
    if (first) return renamed(first, file);
    const loaded = compileRequestFile(text, file, validate, environment, context);
    compiled.set(key, loaded);
    return loaded;
  };
}

/**
 * `loaded` as the compile of `file`, a file of the same text and folder: only the names differ.
 * The expectations and captures, whose every location names the file, are copied only when
 * read: the runner judges with the first file's (compiledFrom) and renames its failures.
 */
function renamed(loaded: LoadedFile, file: string): LoadedFile {
  const from = loaded.file;
  const at = (l: SourceLocation): SourceLocation => (l.file === from ? { ...l, file } : l);
  let expect: CompiledExpect | undefined;
  let captures: readonly CompiledCapture[] | undefined;
  let retry: CompiledRetry | undefined;
  let snapshot: CompiledSnapshot | undefined;
  return {
    ...loaded,
    file,
    ...(loaded.request ? { request: { ...loaded.request, fileName: file } } : {}),
    get expect() {
      return (expect ??= withFileName(loaded.expect, from, file));
    },
    get captures() {
      return (captures ??= loaded.captures.length ? withFileName(loaded.captures, from, file) : loaded.captures);
    },
    get retry() {
      return loaded.retry && (retry ??= withFileName(loaded.retry, from, file));
    },
    get snapshot() {
      return loaded.snapshot && (snapshot ??= withFileName(loaded.snapshot, from, file));
    },
    compiledFrom: { file: from, expect: loaded.expect, captures: loaded.captures, ...(loaded.retry ? { retry: loaded.retry } : {}) },
    useLocations: loaded.useLocations.size ? new Map([...loaded.useLocations].map(([name, l]) => [name, at(l)])) : loaded.useLocations,
    location: at(loaded.location),
    problems: loaded.problems.length ? loaded.problems.map((p) => (p.location ? { ...p, location: at(p.location) } : p)) : loaded.problems,
    warnings: loaded.warnings.length ? loaded.warnings.map((p) => (p.location ? { ...p, location: at(p.location) } : p)) : loaded.warnings,
    locate: (p) => at(loaded.locate(p)),
  };
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
  const locate = (p: JsonPath) => fromRange(file, parsed.source.rangeOf(p));
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
    for (const use of findVariables(parsed.request.params, ['params'])) if (!useLocations.has(use.name)) useLocations.set(use.name, locate(use.path));
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
    locate,
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
