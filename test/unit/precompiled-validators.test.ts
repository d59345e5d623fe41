/**
 * The shapes' params validators generated ahead of time (src/core/validation/generated/) give the
 * same errors as ajv compiling the same schemas at run time, for valid params and for params with
 * every kind of mistake, and paramsValidator uses them.
 */
import * as assert from 'node:assert/strict';
import Ajv, { type AnySchema, type ValidateFunction } from 'ajv';
import { operations, shapeLabel } from '../../src/core/catalog';
import { VSCODE_KEYWORDS } from '../../src/core/generate/jsonSchema';
import { sampleRequestFile } from '../../src/core/generate/samples';
import { shapeSchema, shapeSchemaPath } from '../../src/core/generate/schemas';
import { PRECOMPILED } from '../../src/core/validation/generated/validators';
import { AJV_OPTIONS, PARAMS_BASE, withoutAnnotations } from '../../src/core/validation/schemaOptions';
import { paramsValidator } from '../../src/core/validation/schemaValidator';

/** The params with each value, one at a time and all at once, swapped for a wrong kind of value. */
function variants(params: Record<string, unknown>): unknown[] {
  const wrong = (v: unknown): unknown =>
    typeof v === 'string' ? 12 : typeof v === 'number' ? 'twelve' : Array.isArray(v) ? 'a list' : v && typeof v === 'object' ? [] : { no: 1 };
  const deep = (v: unknown): unknown =>
    Array.isArray(v)
      ? [...v.map(deep), 'extra']
      : v && typeof v === 'object'
        ? { ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)])), Unknown: true }
        : wrong(v);
  const out: unknown[] = [params, {}, null, [], 'text', { ...params, NotAField: 1 }, deep(params)];
  for (const key of Object.keys(params)) {
    out.push({ ...params, [key]: wrong(params[key]) });
    const { [key]: _left, ...without } = params;
    out.push(without);
  }
  return out;
}

describe('precompiled params validators', () => {
  const ajv = new Ajv(AJV_OPTIONS);
  for (const keyword of VSCODE_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });

  for (const op of operations) {
    it(`${shapeLabel(op)}: the same errors as ajv compiling its schema at run time`, () => {
      const id = PARAMS_BASE + shapeSchemaPath(op);
      ajv.addSchema(withoutAnnotations(shapeSchema(op)) as AnySchema, id);
      const compiled = ajv.getSchema(`${id}#/definitions/params`)!;
      const generated = PRECOMPILED[shapeLabel(op)] as ValidateFunction;
      assert.ok(generated, `no generated validator for ${shapeLabel(op)}: run npm run generate`);
      assert.equal(paramsValidator(op), generated);
      const params = sampleRequestFile(op).params as Record<string, unknown>;
      for (const v of variants(params)) {
        const a = compiled(v);
        const b = generated(v);
        assert.equal(b, a, JSON.stringify(v));
        assert.deepEqual(generated.errors ?? null, compiled.errors ?? null, JSON.stringify(v));
      }
    });
  }
});
