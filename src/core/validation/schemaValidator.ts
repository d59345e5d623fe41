/**
 * The shapes' params validators: generated ahead of time by ajv's standalone code (precompiled.ts,
 * generated/validators.ts), so no process compiles a schema to validate a file. A shape the
 * generated module lacks is compiled by an ajv set up once per process, the first time a file of
 * that shape is validated, and then reused.
 *
 * ajv itself is required only then (newAjv): loading it costs a process about 10 ms, which every
 * `carrier validate` and the editor's first request file would otherwise pay for nothing.
 */
import type { default as Ajv, AnySchema, Options, ValidateFunction } from 'ajv';
import { operations, shapeLabel } from '../catalog';
import type { OperationDef } from '../catalog/types';
import { ENTRY_SCHEMA, requestSchema, shapeSchema, shapeSchemaPath } from '../generate/schemas';
import { VSCODE_KEYWORDS } from '../generate/jsonSchema';
import { PRECOMPILED } from './generated/validators';
import { AJV_OPTIONS, PARAMS_BASE, withoutAnnotations } from './schemaOptions';

const BASE = PARAMS_BASE;

let ajv: Ajv | undefined;
const paramsValidators = new Map<string, ValidateFunction>();
let entryValidator: ValidateFunction | undefined;

function newAjv(options: Options): Ajv {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the header says
  const { default: AjvClass } = require('ajv') as typeof import('ajv');
  return new AjvClass(options);
}

function instance(): Ajv {
  if (ajv) return ajv;
  ajv = newAjv(AJV_OPTIONS);
  for (const keyword of VSCODE_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });
  return ajv;
}

function ensureShape(op: OperationDef): string {
  const id = BASE + shapeSchemaPath(op);
  const a = instance();
  if (!a.getSchema(id)) a.addSchema(withoutAnnotations(shapeSchema(op)) as AnySchema, id);
  return id;
}

/** Validates a shape's `params` object (errors' instancePath is relative to params). */
export function paramsValidator(op: OperationDef): ValidateFunction {
  const key = shapeLabel(op);
  let fn = paramsValidators.get(key);
  // Generated ahead of time (precompiled.ts); compiled here only for a shape the generated module
  // does not know yet (a catalog edited without `npm run generate`, which check:generated reports).
  fn ??= PRECOMPILED[key] as ValidateFunction | undefined;
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
  const full = newAjv({ allErrors: true, strict: true, allowUnionTypes: true });
  for (const keyword of VSCODE_KEYWORDS) full.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });
  for (const op of operations) full.addSchema(shapeSchema(op), BASE + shapeSchemaPath(op));
  return (entryValidator = full.compile({ ...requestSchema(), $id: BASE + ENTRY_SCHEMA }));
}
