/**
 * The JSON schema the editor uses for `expect`, `capture` and collection.json says what the
 * runner accepts: the same files pass both, the same mistakes fail both.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse as parseJsonc } from 'jsonc-parser';
import { VSCODE_KEYWORDS } from '../../src/core/generate/jsonSchema';
import { collectionSchema, replyPaths } from '../../src/core/requestFile/expectSchema';
import { parseCollectionConfig } from '../../src/core/runner/collectionConfig';
import { compileRequestFile } from '../../src/core/runner/loadFile';
import { requestFileValidator } from '../../src/core/validation/schemaValidator';
import { findShape } from '../../src/core/catalog';

const ROOT = path.resolve(__dirname, '../..');
const COLLECTIONS = path.join(ROOT, 'examples/collections');

function file(expect: unknown, capture?: unknown) {
  return { operation: 'GetRateQuote', version: '1.0.3', params: {}, expect, ...(capture !== undefined ? { capture } : {}) };
}
const schemaErrors = (value: unknown) => {
  const validate = requestFileValidator();
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};
const runnerProblems = (value: unknown) => compileRequestFile(JSON.stringify(value, null, 2), '/tmp/x.carrier.json').problems.map((p) => p.message);

const good: Array<[string, unknown, unknown?]> = [
  [
    'every key at once',
    {
      status: 200,
      fault: false,
      success: true,
      maxMs: 2000,
      messages: ['Fuel'],
      reply: {
        'Result.ServiceLevels[0].Code': { equals: 'STD' },
        'Result.Charges[*].Amount': { matches: '^\\$' },
        'Result.ServiceLevels': { count: { gte: 1 } },
        'Result.ServiceLevels[?].Code': 'GSDS',
        'Result.Charges[-1].Amount': { gt: '$0.00', lte: 5000 },
        WasSuccess: true,
        'Result.Messages': { count: 1 },
        'Result.Origin.City': { exists: true },
        'Result.MyCarrierID': { absent: true },
        $: { exists: true },
      },
      documents: { count: 0, type: 'pdf', pages: { gte: 1 } },
    },
  ],
  ['a status list and a fault pattern', { status: [500, 200], fault: { code: 'Client', reason: 'STYLE_99' } }],
  [
    'variables where values go',
    { reply: { 'Result.ServiceLevels[0].NetCharge': { equals: '{{net}}', gte: '{{net}}' } } },
    { net: 'Result.ServiceLevels[0].NetCharge' },
  ],
];

const bad: Array<[string, unknown, unknown?]> = [
  ['a misspelt key', { stauts: 200 }],
  ['a status that is not one', { status: 'ok' }],
  ['an unknown assertion', { reply: { A: { equal: 1 } } }],
  ['a count that is not a whole number', { reply: { A: { count: 1.5 } } }],
  ['a document type other than pdf', { documents: { type: 'png' } }],
  ['a fault with an unknown key', { fault: { message: 'x' } }],
  ['a path that is not one', { reply: { 'A..B': 'x' } }],
  ['a comparison with a word', { reply: { A: { lt: 'cheap' } } }],
  ['a capture over every item', {}, { all: 'Result.ServiceLevels[*].Code' }],
  ['a capture name that is not a variable name', {}, { '9lives': 'BolID' }],
];

describe('expect/capture schema agrees with the runner', () => {
  for (const [what, expect, capture] of good) {
    it(`accepts ${what}`, () => {
      assert.deepEqual(schemaErrors(file(expect, capture)), []);
      assert.deepEqual(runnerProblems(file(expect, capture)), []);
    });
  }
  for (const [what, expect, capture] of bad) {
    it(`rejects ${what}`, () => {
      assert.ok(schemaErrors(file(expect, capture)).length > 0, 'the schema rejects it');
      assert.ok(runnerProblems(file(expect, capture)).length > 0, 'the runner rejects it');
    });
  }

  it('offers the reply paths of the shape for completion', () => {
    const paths = replyPaths(findShape('GetRateQuote', '1.0.3')!);
    for (const p of ['WasSuccess', 'Result.ServiceLevels', 'Result.ServiceLevels[0].Code', 'Result.Charges[0].Amount', 'Result.OriginServiceCenter.City'])
      assert.ok(paths.includes(p), p);
    assert.ok(!paths.some((p) => p.includes('APIKey')));
    assert.deepEqual(replyPaths(findShape('CreateBillOfLading', '1.0.1')!).slice(0, 5), ['WasSuccess', 'Messages', 'Messages[0]', 'WebProNumber', 'BolID']);
  });
});

describe('collection.json schema', () => {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  for (const keyword of VSCODE_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'array', 'object', 'boolean', 'number'] });
  const validate = ajv.compile(collectionSchema());

  it('accepts every example collection.json, and so does the runner', () => {
    const files = fs
      .readdirSync(COLLECTIONS)
      .map((d) => path.join(COLLECTIONS, d, 'collection.json'))
      .filter((f) => fs.existsSync(f));
    assert.ok(files.length >= 4);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      assert.equal(validate(parseJsonc(text)), true, `${f}: ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(parseCollectionConfig(text, f).problems, []);
    }
  });

  it('rejects what the runner rejects', () => {
    for (const value of [
      { concurrency: 0 },
      { concurrency: 1.5 },
      { order: 'a' },
      { order: ['a', 'a'] },
      { colour: 'red' },
      { variables: { '1x': 'y' } },
      { variables: { x: { y: 1 } } },
      { environment: '' },
    ]) {
      assert.equal(validate(value), false, JSON.stringify(value));
      assert.ok(parseCollectionConfig(JSON.stringify(value), '/tmp/collection.json').problems.length > 0, JSON.stringify(value));
    }
  });

  it('is the committed schemas/carrier-collection.schema.json', () => {
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/carrier-collection.schema.json'), 'utf8')), collectionSchema());
  });
});
