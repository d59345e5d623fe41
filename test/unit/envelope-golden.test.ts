/**
 * The exact bytes of every request: one golden file per operation shape × binding it offers,
 * from fixed sample request files (test/golden/requests). Compared byte for byte; regenerate with
 * UPDATE_GOLDEN=1 after a deliberate change, and review the diff.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findShape, operations } from '../../src/core/catalog';
import { formatHttpRequest, prepareRequest } from '../../src/core/envelope';
import { validateRequestText } from '../../src/core/validation/validate';
import { environmentAt } from './transport-support';

const GOLDEN = path.join(__dirname, '../golden');
const KEY = 'GOLDEN-KEY-0123456789abcdefABCDEF';
const update = process.env.UPDATE_GOLDEN === '1';

describe('envelope golden files: exact HTTP requests', () => {
  const samples = fs
    .readdirSync(path.join(GOLDEN, 'requests'))
    .filter((f) => f.endsWith('.carrier.json'))
    .sort();

  it('has a sample request for every operation shape', () => {
    for (const op of operations) assert.ok(samples.includes(`${op.operation}-${op.version}.carrier.json`), `sample for ${op.operation} ${op.version}`);
  });

  for (const sample of samples) {
    const text = fs.readFileSync(path.join(GOLDEN, 'requests', sample), 'utf8');
    const { request, findings } = validateRequestText(text, sample);
    const op = request && findShape(request.operation, request.version);
    for (const binding of op?.bindings ?? ['soap11']) {
      const name = `${sample.replace(/\.carrier\.json$/, '')}.${binding}.http`;
      it(name, () => {
        assert.ok(request, findings.map((f) => f.message).join('; '));
        assert.deepEqual(
          findings.filter((f) => f.severity === 'error'),
          [],
        );
        const { spec } = prepareRequest({ request, environment: environmentAt('https://carrier.example.test'), apiKey: KEY, binding });
        const actual = formatHttpRequest(spec);
        const file = path.join(GOLDEN, 'envelopes', name);
        if (update) fs.writeFileSync(file, actual);
        assert.ok(fs.existsSync(file), `${name} is missing: run with UPDATE_GOLDEN=1 to create it`);
        assert.equal(actual, fs.readFileSync(file, 'utf8'));
      });
    }
  }
});
