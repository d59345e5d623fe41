/**
 * Validates request-file text: syntax, the top level (operation, version, binding), the params
 * against the shape's generated schema, and the catalog rules a schema cannot state. Never throws
 * on bad input; every finding has a 0-based range and a JSON path.
 */
import type { CoreContext } from '../context';
import { overlayForFile, type ShapeOverlay } from '../contract/overlay';
import { isObject } from '../objects';
import { parseRequestFile } from '../requestFile/parse';
import type { ReadOptions } from '../requestFile/read';
import type { Finding, RequestFile } from '../requestFile/types';
import { lackingFindings } from './contractFindings';
import { ruleFindings } from './ruleFindings';
import { schemaFindings } from './schemaFindings';

export interface ValidationResult {
  readonly findings: Finding[];
  /** Present when the file names a shape and binding and has params, even if params have errors (sending a wrong request on purpose is a test). */
  readonly request?: RequestFile;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

export interface ValidateOptions extends Omit<ReadOptions, 'fileName'> {
  /**
   * The environment the file is sent to, when it is not the one the file names (`--env`, the
   * editor's selection). Its stored live contract, if any, is followed; the sandbox's never.
   */
  readonly environment?: string;
  /** The live contract to follow, found by the caller; null: the catalog alone, whatever is stored. */
  readonly overlay?: ShapeOverlay | null;
  /**
   * Where a stored contract is read, and the environment a file that names none follows (the
   * editor's selection). Without it validation reads nothing: the catalog alone.
   */
  readonly context?: ValidationContext;
}

/** What validation may read: files (a stored contract) and the face's default environment. */
export type ValidationContext = Pick<CoreContext, 'files' | 'defaultEnvironment'>;

/** The environment whose contract a file follows: the caller's, the file's own, else the face's default (CoreContext). */
export function environmentOfFile(
  context: Pick<CoreContext, 'defaultEnvironment'> | undefined,
  fileName: string | undefined,
  named: string | undefined,
  given?: string,
): string | undefined {
  return given ?? named ?? (fileName !== undefined ? context?.defaultEnvironment?.(fileName) : undefined);
}

export function validateRequestText(text: string, fileName?: string, options: ValidateOptions = {}): ValidationResult {
  const parsed = parseRequestFile(text, fileName, options);
  const findings = [...parsed.findings];
  const value = parsed.value as { params?: unknown; environment?: unknown } | undefined;
  const params = value && typeof value === 'object' ? value.params : undefined;
  if (parsed.shape && isObject(params)) {
    const named = typeof value?.environment === 'string' ? value.environment : undefined;
    const { context } = options;
    const overlay =
      options.overlay !== undefined
        ? (options.overlay ?? undefined)
        : context && overlayForFile(context, fileName, environmentOfFile(context, fileName, named, options.environment), parsed.shape);
    const rules = ruleFindings(parsed.shape, params, parsed.source);
    // The schema's date pattern is calendar-exact, so it refuses 30 February too, but only the
    // rules can say why: a value the rules call "not a real date" is reported once, by them.
    const impossible = new Set(rules.filter((f) => f.code === 'date').map((f) => f.path));
    const schema = schemaFindings(parsed.shape, params, parsed.source, overlay);
    findings.push(...(impossible.size ? schema.filter((f) => !impossible.has(f.path)) : schema), ...rules);
    if (overlay) findings.push(...lackingFindings(parsed.shape, params, parsed.source, overlay));
  }
  // A file that sends its values as written (a negative test): what is wrong in a value is said, and sent.
  if (parsed.request?.asWritten) {
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i];
      if (f.severity === 'error' && VALUE_CODES.has(f.code))
        findings[i] = { ...f, severity: 'warning', message: `${f.message} (sent as written: "asWritten": true)` };
    }
  }
  findings.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return { findings, ...(parsed.request ? { request: parsed.request } : {}) };
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

/**
 * Errors in a value (a wrong enumeration, a number that is not one, a bad date, a missing field):
 * the request can still be built exactly as written, and sending it is how a negative case is
 * tried against the service. An unknown field, a syntax error or an unknown operation leaves
 * nothing faithful to build.
 */
const VALUE_CODES: ReadonlySet<Finding['code']> = new Set(['enum', 'type', 'format', 'date', 'required', 'empty-list', 'suggested-value']);

/** The request, when it may be sent: with no errors, or (`anyway`) with errors in values only. */
export function sendableRequest(result: ValidationResult, anyway = false): RequestFile | undefined {
  if (!result.request) return undefined;
  const errors = result.findings.filter((f) => f.severity === 'error');
  if (!errors.length) return result.request;
  return anyway && errors.every((f) => VALUE_CODES.has(f.code)) ? result.request : undefined;
}
