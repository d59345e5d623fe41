/**
 * The files generated from the catalog: committed copies are fresh, the schemas behave as the
 * brief asks (for ajv here, standing in for VS Code's JSON language service), and every snippet
 * and every defaultSnippet expands to a request file that validates without a finding.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import {
  getEnumeration,
  getRecord,
  operations,
  parametersRecord,
  shapeLabel,
  shapesOf,
  findShape,
  type FieldDef,
  type RecordDef,
} from '../../src/core/catalog';
import {
  generatedFiles,
  requestSchema,
  sampleRequestFile,
  TEMPLATE,
  SAMPLE_INCLUDES,
  SAMPLE_VALUES,
  shapeSchema,
  shapeSchemaPath,
  snippets,
  staleFiles,
  plain,
  sampleFile,
  type GeneratedFile,
  type JsonSchema,
} from '../../src/core/generate';
import { requestFileValidator, validateRequestText } from '../../src/core/validation';

const ROOT = path.join(__dirname, '..', '..');

/** What VS Code does with a snippet: placeholders become their default (first choice), `$n` vanishes. */
function expandSnippet(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && '$}\\,|'.includes(text[i + 1] ?? '')) {
      out += text[++i];
      continue;
    }
    if (c !== '$') {
      out += c;
      continue;
    }
    let j = i + 1;
    const braced = text[j] === '{';
    if (braced) j++;
    while (/\d/.test(text[j] ?? '')) j++;
    if (!braced) {
      i = j - 1;
      continue;
    }
    const kind = text[j++];
    let value = '';
    let first = true;
    for (;;) {
      const d = text[j];
      if (d === undefined) throw new Error(`unterminated placeholder in ${text}`);
      if (d === '\\') {
        if (first) value += text[j + 1];
        j += 2;
      } else if (kind === '|' && d === '|' && text[j + 1] === '}') {
        j += 1;
        break;
      } else if (kind !== '|' && d === '}') break;
      else {
        if (kind === '|' && d === ',') first = false;
        else if (first) value += d;
        j++;
      }
    }
    out += value;
    i = j;
  }
  return out;
}

/** How VS Code turns a defaultSnippets body into snippet text: `^` strings go in raw. */
function bodyText(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('^') ? value.slice(1) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(bodyText).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${bodyText(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function exampleFiles(dir = path.join(ROOT, 'examples')): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? exampleFiles(path.join(dir, e.name)) : e.name.endsWith('.carrier.json') ? [path.join(dir, e.name)] : []));
}

describe('generated files', () => {
  it('the committed schemas and snippets are what the generator makes now (run `npm run generate`)', () => {
    const tree = {
      readFile: (p: string) => (fs.existsSync(path.join(ROOT, p)) ? fs.readFileSync(path.join(ROOT, p), 'utf8') : undefined),
      listFolder: (f: string) => (fs.existsSync(path.join(ROOT, f)) ? fs.readdirSync(path.join(ROOT, f)) : []),
    };
    assert.deepEqual(staleFiles(tree), []);
  });

  it('--check names a changed, a missing and a no-longer-generated file', () => {
    const files: GeneratedFile[] = [
      { path: 'schemas/a.json', content: '{}\n' },
      { path: 'schemas/shapes/b.json', content: '[]\n' },
    ];
    const tree = { readFile: (p: string) => (p === 'schemas/a.json' ? '{ }\n' : undefined), listFolder: () => ['b.json', 'old.json'] };
    assert.deepEqual(staleFiles(tree, files), ['schemas/a.json', 'schemas/shapes/b.json (missing)', 'schemas/shapes/old.json (no longer generated)']);
  });

  it('writes stable two-space JSON with a trailing newline, one schema per shape', () => {
    const files = generatedFiles();
    for (const f of files) {
      assert.ok(f.content.endsWith('}\n'), f.path);
      assert.equal(f.content, JSON.stringify(JSON.parse(f.content), null, 2) + '\n', f.path);
    }
    assert.deepEqual(
      files
        .map((f) => f.path)
        .filter((p) => p.startsWith('schemas/shapes/'))
        .sort(),
      operations.map((op) => `schemas/${shapeSchemaPath(op)}`).sort(),
    );
    assert.ok(!files.some((f) => f.path === 'schemas/carrier-environments.schema.json'), 'the environments schema is not ours');
  });
});

describe('generated schemas', () => {
  const validate = requestFileValidator();
  const check = (value: unknown) => (validate(value) ? [] : [...(validate.errors ?? [])]);

  it('the entry schema accepts every example, as VS Code would see it', () => {
    for (const file of exampleFiles()) assert.deepEqual(check(parseJsonc(fs.readFileSync(file, 'utf8'))), [], path.relative(ROOT, file));
  });

  it('an error in a GetRateQuote 1.0.1 file is judged by the 1.0.1 rules only (if/then, not oneOf)', () => {
    const errors = check({ operation: 'GetRateQuote', version: '1.0.1', params: { request: { Accessorials: ['Liftgate'] } } });
    assert.ok(!errors.some((e) => e.keyword === 'oneOf'));
    const enums = errors.filter((e) => e.keyword === 'enum');
    assert.equal(enums.length, 1);
    assert.equal(enums[0].instancePath, '/params/request/Accessorials/0');
    assert.deepEqual((enums[0].params as { allowedValues: string[] }).allowedValues, [...getEnumeration('AccessorialV101').values]);
  });

  it('a date field takes calendar days only: 30 February and 31 April are marked, 29 February only in leap years', () => {
    const file = (day: string) => ({ operation: 'GetTransitTimes', params: { input: { DateOfPickup: day } } });
    const marked = (day: string) => check(file(day)).some((e) => e.instancePath === '/params/input/DateOfPickup');
    for (const day of ['2026-02-28', '2028-02-29', '2000-02-29', '2026-04-30', '2026-12-31', '2026-11-23T09:00:00', '{{run.date}}'])
      assert.equal(marked(day), false, day);
    for (const day of ['2026-02-30', '2026-02-29', '1900-02-29', '2026-04-31', '2026-11-31', '2026-13-01', '2026-00-10']) assert.equal(marked(day), true, day);
  });

  it('SortAndSegregate: valid in 1.0.1 and 1.0.3, invalid in 1.0.0, by the entry schema too', () => {
    const file = (version: string) => ({ operation: 'GetRateQuote', version, params: { request: { Accessorials: ['SortAndSegregate'] } } });
    assert.deepEqual(check(file('1.0.1')), []);
    assert.deepEqual(check(file('1.0.3')), []);
    assert.ok(check(file('1.0.0')).some((e) => e.keyword === 'enum'));
  });

  it('requires operation and params, a version where several exist, and a binding the shape offers', () => {
    assert.deepEqual(
      check({})
        .filter((e) => e.keyword === 'required')
        .map((e) => (e.params as { missingProperty: string }).missingProperty)
        .sort(),
      ['operation', 'params'],
    );
    assert.ok(
      check({ operation: 'GetRateQuote', params: {} }).some(
        (e) => e.keyword === 'required' && (e.params as { missingProperty: string }).missingProperty === 'version',
      ),
    );
    assert.deepEqual(check({ operation: 'GetTerminalInformation', params: {} }), [], 'one version: may be left out');
    assert.ok(check({ operation: 'GetRateQuote', version: '1.0.3', binding: 'get', params: {} }).some((e) => e.instancePath === '/binding'));
    assert.deepEqual(check({ operation: 'GetTerminalInformation', binding: 'get', params: {} }), []);
  });

  it('each shape restricts binding to what it offers and version to itself', () => {
    for (const op of operations) {
      const schema = shapeSchema(op) as { properties: Record<string, JsonSchema> };
      assert.deepEqual(schema.properties.binding.enum, [...op.bindings], shapeLabel(op));
      assert.equal(schema.properties.version.const, op.version);
      assert.equal(schema.properties.operation.const, op.operation);
    }
  });

  it("leaves the catalog's required fields out of `required` (they are warnings), closes closed records, opens open ones", () => {
    for (const op of operations) {
      const definitions = (shapeSchema(op) as { definitions: Record<string, JsonSchema> }).definitions;
      for (const [name, def] of Object.entries(definitions)) {
        assert.equal(def.required, undefined, `${shapeLabel(op)} ${name}`);
        const record = name === 'params' ? parametersRecord(op) : getRecord(name);
        if (record.open) assert.equal(def.additionalProperties, undefined, name);
        else {
          assert.equal(def.additionalProperties, false, name);
          assert.deepEqual(
            Object.keys(def.properties as object),
            record.fields.map((f) => f.name),
            `${name}: every field, in order`,
          );
        }
      }
    }
  });

  it('describes every field, with enumeration values and integer/number types', () => {
    const items = (shapeSchema(findShape('GetRateQuote', '1.0.3')!) as { definitions: Record<string, { properties: Record<string, JsonSchema> }> }).definitions;
    const accessorials = items.RateQuoteRequestV103.properties.Accessorials;
    assert.equal(accessorials.type, 'array');
    assert.deepEqual(((accessorials.items as JsonSchema).anyOf as JsonSchema[])[0].enum, [...getEnumeration('RQAccessorial').values]);
    assert.match(String(accessorials.markdownDescription), /RQAccessorial/);
    assert.deepEqual(items.OverDimension.properties.Pieces.type, ['integer', 'string']);
    assert.deepEqual(items.RateItem.properties.Weight.type, ['number', 'string']);
    for (const op of operations) {
      const definitions = (shapeSchema(op) as { definitions: Record<string, { properties?: Record<string, JsonSchema> }> }).definitions;
      for (const def of Object.values(definitions))
        for (const [name, prop] of Object.entries(def.properties ?? {}))
          assert.ok(typeof prop.description === 'string' && typeof prop.markdownDescription === 'string', `${shapeLabel(op)} ${name}`);
    }
  });

  it('defaultSnippets: one per shape at the top, each expanding to a file that validates', () => {
    const entries = requestSchema().defaultSnippets as Array<{ label: string; body: unknown }>;
    assert.deepEqual(
      entries.map((e) => e.label),
      operations.map(shapeLabel),
    );
    for (const entry of entries) {
      const text = expandSnippet(bodyText(entry.body));
      assert.deepEqual(validateRequestText(text).findings, [], entry.label);
    }
  });
});

describe('generated snippets', () => {
  const all = snippets();

  it('one per shape, each with one prefix: the operation, or "Operation version" where it has several', () => {
    assert.equal(Object.keys(all).length, 13);
    for (const op of operations) {
      const snippet = all[shapeLabel(op)];
      assert.ok(snippet, shapeLabel(op));
      assert.deepEqual(snippet.prefix, [shapesOf(op.operation).length > 1 ? shapeLabel(op) : op.operation]);
    }
  });

  for (const op of operations) {
    it(`${shapeLabel(op)} expands to a complete file that validates without a finding`, () => {
      const snippet = all[shapeLabel(op)];
      const text = expandSnippet(snippet.body.join('\n'));
      const { findings, request } = validateRequestText(text);
      assert.deepEqual(findings, []);
      assert.equal(request?.operation, op.operation);
      assert.equal(request?.version, op.version);
      // The snippet, the schema's defaultSnippet and New Request… come from one sample.
      assert.deepEqual(JSON.parse(text), sampleRequestFile(op, undefined, TEMPLATE));
      const stops = [...snippet.body.join('\n').matchAll(/\$\{(\d+)[:|]/g)].map((m) => Number(m[1]));
      assert.deepEqual(
        stops,
        stops.map((_, i) => i + 1),
        'tab stops numbered 1, 2, 3 … in order',
      );
      assert.ok(stops.length >= 3, 'tab stops on the key values');
    });
  }

  it('uses the realistic values of docs/carrier-facts.md#samples', () => {
    const text = (label: string) => JSON.stringify(sampleRequestFile(operations.find((o) => shapeLabel(o) === label)!));
    for (const v of ['"Burns"', '"37029"', '"Tampa"', '"33635"', '"50.0"', '1500']) assert.ok(text('GetRateQuote 1.0.3').includes(v), v);
    assert.ok(text('TraceShipment 1.0.2').includes('"056391174"'));
    assert.ok(text('GetHazmatDescription sandbox').includes('1203'));
    assert.ok(text('CreatePickupRequest 1.0.3').includes('"03:00 PM"'));
    assert.ok(text('GetTransitTimes 1.0.0').includes('"68507"'));
  });
});

describe('sample values table', () => {
  /** Every `Element` and `Parent.Element` the catalog's request shapes contain. */
  function catalogKeys(): Set<string> {
    const keys = new Set<string>();
    const visit = (record: RecordDef, parent: string, seen: Set<string>) => {
      for (const f of record.fields as readonly FieldDef[]) {
        keys.add(f.name);
        if (parent) keys.add(`${parent}.${f.name}`);
        if (f.record && !seen.has(f.record)) visit(getRecord(f.record), f.name, new Set([...seen, f.record]));
      }
    };
    for (const op of operations) visit(parametersRecord(op), '', new Set());
    return keys;
  }

  it('names only fields the catalog has (so it cannot drift silently)', () => {
    const keys = catalogKeys();
    for (const key of [...Object.keys(SAMPLE_VALUES), ...SAMPLE_INCLUDES]) assert.ok(keys.has(key), key);
  });

  it('gives every sample leaf a non-empty value', () => {
    const leaves = (v: unknown): unknown[] =>
      Array.isArray(v) ? v.flatMap(leaves) : v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v];
    for (const op of operations) for (const leaf of leaves(plain(sampleFile(op)))) assert.notEqual(leaf, '', shapeLabel(op));
  });

  it('covers every operation with a sample per version', () => {
    for (const op of operations)
      assert.ok(shapesOf(op.operation).length >= 1 && Object.keys(sampleRequestFile(op).params as object).length >= 1, shapeLabel(op));
  });
});
