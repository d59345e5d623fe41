/**
 * The environments file's validator generated ahead of time (src/core/environments/generated/)
 * gives the same errors as ajv compiling schemas/carrier-environments.schema.json at run time, for
 * good files and for files with every kind of mistake the schema knows, and the generated module
 * is the one `npm run generate` would write now.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../schemas/carrier-environments.schema.json';
import { ENVIRONMENTS_AJV_OPTIONS, ENVIRONMENTS_VALIDATOR_FILE, environmentsValidatorSource } from '../../src/core/environments/precompiled';
import { validateEnvironmentsFile } from '../../src/core/environments/generated/validator';

const good = {
  $schema: './schemas/carrier-environments.schema.json',
  sandbox: { dataNamespace: 'http://tempuri.org/', variables: { zip: '1' } },
  staging: {
    description: 'Carrier staging',
    baseUrl: 'https://staging.carrier.example/',
    serviceNamespace: 'http://carrier.example/ws/',
    dataNamespace: 'http://carrier.example/data/',
    pickupNamespace: 'http://carrier.example/pickup/',
    timeoutMs: 10000,
    maxReplyBytes: 1048576,
    tls: { ca: 'certs/ca.pem', cert: 'client.pem', key: 'client.key', rejectUnauthorized: false },
    proxy: 'http://proxy.example:3128',
    variables: { zip: '68507', weight: 1500, live: true },
    secrets: ['zip'],
  },
  local: { baseUrl: 'embedded' },
};

/** One mistake of each kind the schema can find, each in a file of its own, and all of them in one. */
const mistakes: Record<string, unknown> = {
  'not an object': [],
  'a string': 'staging',
  null: null,
  'an entry that is not an object': { staging: 'https://x.example' },
  'no baseUrl': { staging: { timeoutMs: 5000 } },
  'an ftp baseUrl': { staging: { baseUrl: 'ftp://files.example' } },
  'a baseUrl with a query': { staging: { baseUrl: 'https://x.example/?a=1' } },
  'a baseUrl with user:password@': { staging: { baseUrl: 'https://bob:pass@x.example' } },
  'a baseUrl with a user only': { staging: { baseUrl: 'https://token@x.example/path' } },
  'a baseUrl whose port is not a number': { staging: { baseUrl: 'https://bob:pa/ss@x.example' } },
  'an unknown setting': { staging: { baseUrl: 'https://x.example', timeoutMS: 5 } },
  'an API key': { staging: { baseUrl: 'https://x.example', apiKey: 'abc' } },
  'a cert without its key': { staging: { baseUrl: 'https://x.example', tls: { cert: 'c.pem' } } },
  'a key without its cert': { staging: { baseUrl: 'https://x.example', tls: { key: 'k.pem' } } },
  'an unknown TLS setting': { staging: { baseUrl: 'https://x.example', tls: { pfx: 'p.pfx' } } },
  'TLS of the wrong kinds': { staging: { baseUrl: 'https://x.example', tls: { ca: 1, rejectUnauthorized: 'no' } } },
  'numbers out of range and of the wrong kind': { staging: { baseUrl: 'https://x.example', timeoutMs: -1, maxReplyBytes: 'big' } },
  'a fractional timeout': { staging: { baseUrl: 'https://x.example', timeoutMs: 1.5 } },
  'empty and spaced namespaces': { staging: { baseUrl: 'https://x.example', serviceNamespace: '', dataNamespace: 'a b', pickupNamespace: 7 } },
  'a proxy with a path': { staging: { baseUrl: 'https://x.example', proxy: 'http://proxy.example:3128/path' } },
  'bad variables': { staging: { baseUrl: 'https://x.example', variables: { 'bad name': 1, ok: { nested: true }, list: [1] } } },
  'variables not an object': { staging: { baseUrl: 'https://x.example', variables: ['zip'] } },
  'bad secrets': { staging: { baseUrl: 'https://x.example', secrets: ['token', 'token', 'bad name', 3] } },
  'secrets not a list': { staging: { baseUrl: 'https://x.example', secrets: 'token' } },
  'a bad environment name': { 'bad name!': { baseUrl: 'https://x.example' } },
  'a sandbox entry with a bad setting': { sandbox: { baseUrl: 'gopher://x', nope: 1 } },
  '$schema not a string': { $schema: 1 },
};

describe('precompiled environments validator', () => {
  const compiled: ValidateFunction = new Ajv(ENVIRONMENTS_AJV_OPTIONS).compile(schema);
  const generated = validateEnvironmentsFile as ValidateFunction;

  const files: Record<string, unknown> = {
    'a good file': good,
    ...mistakes,
    'every mistake at once': Object.assign({}, ...Object.values(mistakes).filter((m) => m && typeof m === 'object' && !Array.isArray(m))),
  };
  for (const [name, file] of Object.entries(files)) {
    it(`${name}: the same verdict and errors as ajv compiling the schema at run time`, () => {
      const a = compiled(file);
      const b = generated(file);
      assert.equal(b, a);
      assert.deepEqual(generated.errors ?? null, compiled.errors ?? null);
      if (name !== 'a good file') assert.equal(b, false, 'the schema finds the mistake');
    });
  }

  it('is the module npm run generate writes from the schema now', () => {
    const committed = fs.readFileSync(path.join(__dirname, '../..', ENVIRONMENTS_VALIDATOR_FILE), 'utf8');
    assert.equal(committed, environmentsValidatorSource());
  });
});
