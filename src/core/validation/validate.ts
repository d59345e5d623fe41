/**
 * Validates request-file text: syntax, the top level (operation, version, binding), the params
 * against the shape's generated schema, and the catalog rules a schema cannot state. Never throws
 * on bad input; every finding has a 0-based range and a JSON path.
 */
import { parseRequestFile } from '../requestFile/parse';
import type { ReadOptions } from '../requestFile/read';
import type { Finding, RequestFile } from '../requestFile/types';
import { ruleFindings } from './ruleFindings';
import { schemaFindings } from './schemaFindings';

export interface ValidationResult {
  readonly findings: Finding[];
  /** Present when the file names a shape and binding and has params, even if params have errors (sending a wrong request on purpose is a test). */
  readonly request?: RequestFile;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

export function validateRequestText(text: string, fileName?: string, options: Omit<ReadOptions, 'fileName'> = {}): ValidationResult {
  const parsed = parseRequestFile(text, fileName, options);
  const findings = [...parsed.findings];
  const value = parsed.value as { params?: unknown } | undefined;
  const params = value && typeof value === 'object' ? value.params : undefined;
  if (parsed.shape && params !== null && typeof params === 'object' && !Array.isArray(params)) {
    const obj = params as Record<string, unknown>;
    findings.push(...schemaFindings(parsed.shape, obj, parsed.source), ...ruleFindings(parsed.shape, obj, parsed.source));
  }
  findings.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return { findings, ...(parsed.request ? { request: parsed.request } : {}) };
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
