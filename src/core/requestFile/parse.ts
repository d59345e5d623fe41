/** Request-file text → the RequestFile it names, with located findings. Never throws on bad input. */
import type { Node } from 'jsonc-parser';
import type { OperationDef } from '../catalog/types';
import { parseJson } from './jsonc';
import { readRequestFile, type ReadOptions } from './read';
import type { JsonSource } from './source';
import type { Finding, RequestFile } from './types';

export interface ParsedRequestFile {
  readonly request?: RequestFile;
  /** The shape the file names, when it names one (even if other top-level keys are wrong). */
  readonly shape?: OperationDef;
  /** Syntax and top-level findings; `validateRequestText` adds the params findings. */
  readonly findings: Finding[];
  /** The parsed JSON value (undefined after a syntax error). */
  readonly value?: unknown;
  /** jsonc-parser's syntax tree, built on first read (spreading this object builds it). */
  readonly tree: Node | undefined;
  /** Text, lazy tree, ranges of JSON paths and raw number literals. */
  readonly source: JsonSource;
}

export function parseRequestFile(text: string, fileName?: string, options: Omit<ReadOptions, 'fileName'> = {}): ParsedRequestFile {
  const json = parseJson(text);
  const read = json.ok ? readRequestFile(json.value, json.source, { ...options, ...(fileName !== undefined ? { fileName } : {}) }) : undefined;
  return {
    source: json.source,
    get tree() {
      return json.source.tree;
    },
    findings: [...json.findings, ...(read?.findings ?? [])],
    ...(json.ok ? { value: json.value } : {}),
    ...(read?.request ? { request: read.request } : {}),
    ...(read?.shape ? { shape: read.shape } : {}),
  };
}
