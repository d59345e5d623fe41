/**
 * The top level of a request file: which shape it names (operation, version, binding) and the
 * format's own keys. Params are left to the validator, which knows the shape's schema.
 */
import { ALL_BINDINGS, findShape, operationNames, shapeLabel, shapesOf, type Binding, type OperationDef } from '../catalog';
import { isObject } from '../objects';
import { DEFAULT_BINDING, REQUEST_FILE_KEY_NAMES } from './format';
import { formatPath } from './jsonPath';
import type { JsonSource, RangePart } from './source';
import { closest, didYouMean } from './suggest';
import type { Finding, FindingCode, JsonPath, RequestFile } from './types';
import { tagProblem } from './tags';
import { isVariableName } from './variables';

export interface ReadOptions {
  readonly fileName?: string;
  /** Used when the file names no binding (e.g. the `carrier.defaultBinding` setting); soap11 if the shape does not offer it. */
  readonly defaultBinding?: Binding;
}

export interface ReadResult {
  /** Present when the file names a shape, a binding it offers, and has a params object. */
  readonly request?: RequestFile;
  /** The shape the file names, even when something else at the top level is wrong. */
  readonly shape?: OperationDef;
  readonly findings: Finding[];
}

type Obj = Record<string, unknown>;
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const list = (items: readonly string[]) => items.join(', ');

export function readRequestFile(value: unknown, source: JsonSource, options: ReadOptions = {}): ReadResult {
  const findings: Finding[] = [];
  const report = (code: FindingCode, path: JsonPath, message: string, part: RangePart = 'value', suggestion?: string) =>
    findings.push({
      severity: 'error',
      code,
      message,
      path: formatPath(path),
      range: source.rangeOf(path, part),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });

  if (!isObject(value)) {
    report('not-an-object', [], 'a request file is a JSON object with "operation" and "params"');
    return { findings };
  }

  for (const key of Object.keys(value)) {
    if ((REQUEST_FILE_KEY_NAMES as string[]).includes(key)) continue;
    const guess = closest(key, REQUEST_FILE_KEY_NAMES);
    report('top-level-key', [key], `"${key}" is not a request-file key${guess ? didYouMean(guess) : ` (keys: ${list(REQUEST_FILE_KEY_NAMES)})`}`, 'key', guess);
  }
  if (has(value, 'asWritten') && typeof value.asWritten !== 'boolean') report('top-level-type', ['asWritten'], '"asWritten" must be true or false');
  for (const key of ['$schema', 'environment', 'description'] as const) {
    if (has(value, key) && typeof value[key] !== 'string') report('top-level-type', [key], `"${key}" must be a string`);
  }
  if (has(value, 'expect') && !isObject(value.expect)) report('top-level-type', ['expect'], '"expect" must be an object');
  // Only its type here: its parts are compiled with `expect` (src/core/runner/compileExpect.ts compileRetry).
  if (has(value, 'retry') && !isObject(value.retry))
    report('top-level-type', ['retry'], '"retry" must be an object: { "until": { …as in expect… }, "attempts": 10, "delayMs": 1000 }');
  // Only its type here: its ignore paths are compiled with `expect` (src/core/runner/compileExpect.ts compileSnapshot).
  if (has(value, 'snapshot') && typeof value.snapshot !== 'boolean' && !isObject(value.snapshot))
    report('top-level-type', ['snapshot'], '"snapshot" must be true, false or an object: { "ignore": ["Result.Charges[*].Amount"] }');
  const capture = readCapture(value, report);
  const tags = readTags(value, report);

  const shape = readShape(value, report);
  const binding = shape ? readBinding(value, shape, options.defaultBinding, report) : undefined;

  const params = value.params;
  if (!has(value, 'params')) report('top-level-type', [], '"params" is missing: the operation\'s parameters go in "params": { … }');
  else if (!isObject(params)) report('top-level-type', ['params'], '"params" must be an object of the operation\'s parameters by name');

  if (!shape || !binding || !isObject(params)) return { shape, findings };
  const request: RequestFile = {
    operation: shape.operation,
    version: shape.version,
    binding,
    bindingGiven: has(value, 'binding'),
    ...(typeof value.environment === 'string' ? { environment: value.environment } : {}),
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    params,
    ...(isObject(value.expect) ? { expect: value.expect } : {}),
    ...(capture ? { capture } : {}),
    ...(tags ? { tags } : {}),
    ...(value.asWritten === true ? { asWritten: true } : {}),
    ...(isObject(value.retry) ? { retry: value.retry } : {}),
    ...(options.fileName !== undefined ? { fileName: options.fileName } : {}),
    get rawNumbers() {
      return source.rawNumbers();
    },
  };
  return { request, shape, findings };
}

type Report = (code: FindingCode, path: JsonPath, message: string, part?: RangePart, suggestion?: string) => void;

function readShape(file: Obj, report: Report): OperationDef | undefined {
  const operation = file.operation;
  if (!has(file, 'operation')) {
    report('operation', [], `"operation" is missing: name the operation to call (${list(operationNames())})`);
    return undefined;
  }
  if (typeof operation !== 'string') {
    report('operation', ['operation'], '"operation" must be a string, the name of the operation to call');
    return undefined;
  }
  const shapes = shapesOf(operation);
  if (shapes.length === 0) {
    const guess = closest(operation, operationNames());
    report(
      'operation',
      ['operation'],
      `"operation": "${operation}" is not an operation of the service${guess ? didYouMean(guess) : ` (operations: ${list(operationNames())})`}`,
      'value',
      guess,
    );
    return undefined;
  }
  const versions = shapes.map((s) => s.version);
  const offered = versions.length === 1 ? `${operation} has only version ${versions[0]}` : `${operation} has versions ${list(versions)}`;
  if (!has(file, 'version')) {
    const shape = findShape(operation);
    if (!shape) report('version', ['operation'], `"version" is missing — ${offered}; name one`);
    return shape;
  }
  if (typeof file.version !== 'string') {
    report('version', ['version'], `"version" must be a string — ${offered}`);
    return undefined;
  }
  const shape = findShape(operation, file.version);
  if (!shape) {
    const guess = versions.length === 1 ? versions[0] : closest(file.version, versions);
    report('version', ['version'], `"version": "${file.version}" — ${offered}`, 'value', guess);
  }
  return shape;
}

function readBinding(file: Obj, shape: OperationDef, fallback: Binding | undefined, report: Report): Binding | undefined {
  if (!has(file, 'binding')) {
    if (fallback && shape.bindings.includes(fallback)) return fallback;
    return shape.bindings.includes(DEFAULT_BINDING) ? DEFAULT_BINDING : shape.bindings[0];
  }
  const binding = file.binding;
  if (typeof binding !== 'string' || !(ALL_BINDINGS as readonly string[]).includes(binding)) {
    const shown = typeof binding === 'string' ? `"${binding}"` : JSON.stringify(binding);
    const guess = typeof binding === 'string' ? closest(binding, shape.bindings) : undefined;
    report('binding', ['binding'], `"binding": ${shown} is not a binding (${list(ALL_BINDINGS)})${didYouMean(guess)}`, 'value', guess);
    return undefined;
  }
  if (!shape.bindings.includes(binding as Binding)) {
    report('binding', ['binding'], `"binding": "${binding}" — ${shapeLabel(shape)} offers ${list(shape.bindings)}`, 'value', shape.bindings[0]);
    return undefined;
  }
  return binding as Binding;
}

function readCapture(file: Obj, report: Report): Record<string, string> | undefined {
  if (!has(file, 'capture')) return undefined;
  const capture = file.capture;
  if (!isObject(capture)) {
    report('capture', ['capture'], '"capture" must be an object: variable name → path in the reply');
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, path] of Object.entries(capture)) {
    if (!isVariableName(name))
      report('capture', ['capture', name], `capture: "${name}" is not a variable name (letters, digits, _ . - ; starting with a letter or _)`, 'key');
    if (typeof path !== 'string' || path.trim() === '')
      report('capture', ['capture', name], `${formatPath(['capture', name])} must be a path into the reply, e.g. "BolID"`);
    else out[name] = path;
  }
  return out;
}

/** `tags`: one word each (tags.ts), as collection.json's. */
function readTags(file: Obj, report: Report): string[] | undefined {
  if (!has(file, 'tags')) return undefined;
  const tags = file.tags;
  if (!Array.isArray(tags)) {
    report('top-level-type', ['tags'], '"tags" must be a list of tags: ["smoke", "bol"]');
    return undefined;
  }
  const out: string[] = [];
  tags.forEach((tag: unknown, i) => {
    const why = tagProblem(tag);
    if (why) report('top-level-type', ['tags', i], why);
    else if (!out.includes(tag as string)) out.push(tag as string);
  });
  return out;
}
