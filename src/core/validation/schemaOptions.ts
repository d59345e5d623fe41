/** What the runtime ajv (schemaValidator.ts) and the generated validators (precompiled.ts) share. */
import type { Options } from 'ajv';
import { VSCODE_KEYWORDS } from '../generate/jsonSchema';

/** Any absolute base works: it only lets the entry schema's relative `$ref`s resolve as in VS Code. */
export const PARAMS_BASE = 'https://carrier-workbench.invalid/schemas/';

// strict: a schema mistake fails loudly here instead of silently accepting bad files;
// messages are off because findings are phrased from the catalog, not from ajv's texts;
// code optimisation only shaves microseconds off validating, but costs a lot of compile time.
export const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true, messages: false, code: { optimize: false } } satisfies Options;

/** Hover texts and snippets are for the editor; leaving them out halves ajv's compile time. */
const ANNOTATIONS = new Set<string>(['title', 'description', 'examples', 'default', ...VSCODE_KEYWORDS]);
/** Keywords whose value maps names to schemas (a property may well be called "description"). */
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties']);

export function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    out[keyword] =
      SCHEMA_MAPS.has(keyword) && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]))
        : withoutAnnotations(value);
  }
  return out;
}
