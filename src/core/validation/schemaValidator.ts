/**
 * ajv, set up once per process. Each shape's schema is compiled the first time a file of that
 * shape is validated and then reused: the CLI pays only for the shapes it meets, and no call
 * compiles anything twice.
 */
import Ajv, { type AnySchema, type ValidateFunction } from 'ajv';
import { operations, shapeLabel } from '../catalog';
import type { OperationDef } from '../catalog/types';
import { ENTRY_SCHEMA, requestSchema, shapeSchema, shapeSchemaPath } from '../generate/schemas';
import { VSCODE_KEYWORDS } from '../generate/jsonSchema';

/** Any absolute base works: it only lets the entry schema's relative `$ref`s resolve as in VS Code. */
const BASE = 'https://carrier-workbench.invalid/schemas/';

let ajv: Ajv | undefined;
const paramsValidators = new Map<string, ValidateFunction>();
let entryValidator: ValidateFunction | undefined;

function instance(): Ajv {
  if (ajv) return ajv;
  // strict: a schema mistake fails loudly here instead of silently accepting bad files;
  // messages are off because findings are phrased from the catalog, not from ajv's texts;
  // code optimisation only shaves microseconds off validating, but costs a lot of compile time.
  ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, messages: false, code: { optimize: false } });
  for (const keyword of VSCODE_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });
  return ajv;
}

function ensureShape(op: OperationDef): string {
  const id = BASE + shapeSchemaPath(op);
  const a = instance();
  if (!a.getSchema(id)) a.addSchema(withoutAnnotations(shapeSchema(op)) as AnySchema, id);
  return id;
}

/** Hover texts and snippets are for the editor; leaving them out halves ajv's compile time. */
const ANNOTATIONS = new Set<string>(['title', 'description', 'examples', 'default', ...VSCODE_KEYWORDS]);
/** Keywords whose value maps names to schemas (a property may well be called "description"). */
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties']);

function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    out[keyword] = SCHEMA_MAPS.has(keyword) && value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]))
      : withoutAnnotations(value);
  }
  return out;
}

/** Validates a shape's `params` object (errors' instancePath is relative to params). */
export function paramsValidator(op: OperationDef): ValidateFunction {
  const key = shapeLabel(op);
  let fn = paramsValidators.get(key);
  if (!fn) {
    const id = ensureShape(op);
    fn = instance().getSchema(`${id}#/definitions/params`);
    if (!fn) throw new Error(`schema of ${key} has no params definition`);
    paramsValidators.set(key, fn);
  }
  return fn;
}

/** The entry schema as VS Code sees it (every shape behind if/then); for tests and tools. */
export function requestFileValidator(): ValidateFunction {
  if (entryValidator) return entryValidator;
  // Its own ajv, with the schemas exactly as committed (annotations included), as VS Code reads them.
  const full = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  for (const keyword of VSCODE_KEYWORDS) full.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });
  for (const op of operations) full.addSchema(shapeSchema(op), BASE + shapeSchemaPath(op));
  return (entryValidator = full.compile({ ...requestSchema(), $id: BASE + ENTRY_SCHEMA }));
}
