/**
 * carrier.environments.json: defaults, the built-in sandbox, located problems checked against
 * schemas/carrier-environments.schema.json, and where API keys come from.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import {
  apiKeyFromVariables,
  apiKeyVariable,
  ENVIRONMENTS_FILE,
  findEnvironment,
  formatEnvironmentProblem,
  loadEnvironments,
  parseEnvironments,
} from '../../src/core/environments';
import { nodeContext } from '../../src/host';
import { tmpDir } from './transport-support';

const SCHEMA = path.join(__dirname, '../../schemas/carrier-environments.schema.json');

describe('environments: reading carrier.environments.json', () => {
  const context = nodeContext();
  after(() => context.http.close());

  it('applies defaults, resolves TLS paths next to the file and keeps the sandbox first', () => {
    const text = `{
      // Comments are allowed.
      "$schema": "./schemas/carrier-environments.schema.json",
      "staging": {
        "description": "Carrier staging",
        "baseUrl": "https://staging.carrier.example/",
        "serviceNamespace": "http://carrier.example/ws/",
        "timeoutMs": 10000,
        "tls": { "ca": "certs/ca.pem", "cert": "/abs/client.pem", "key": "certs/client.key", "rejectUnauthorized": false },
        "proxy": "http://proxy.example:3128",
        "variables": { "zip": "68507", "weight": 1500, "live": true, "token": "t-1" },
        "secrets": ["token"]
      },
      "local": { "baseUrl": "http://127.0.0.1:8080/carrier" }
    }`;
    const { environments, problems } = parseEnvironments(text, '/work/ws/carrier.environments.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox', 'staging', 'local'],
    );
    const [sandbox, staging, local] = environments;
    assert.equal(sandbox.embedded, true);
    assert.equal(sandbox.baseUrl, 'embedded');
    assert.deepEqual(staging, {
      name: 'staging',
      description: 'Carrier staging',
      baseUrl: 'https://staging.carrier.example',
      embedded: false,
      namespaces: { service: 'http://carrier.example/ws/', data: DEFAULT_NAMESPACES.data, pickup: DEFAULT_NAMESPACES.pickup },
      timeoutMs: 10000,
      maxReplyBytes: 67108864,
      tls: { caPath: '/work/ws/certs/ca.pem', certPath: '/abs/client.pem', keyPath: '/work/ws/certs/client.key', rejectUnauthorized: false },
      proxy: 'http://proxy.example:3128',
      variables: { zip: '68507', weight: 1500, live: true, token: 't-1' },
      secrets: ['token'],
      builtIn: false,
      // Where its stored contract would be, whether or not one has been stored.
      contractFile: '/work/ws/.carrier/contracts/staging.json',
    });
    assert.equal(local.timeoutMs, 30000);
    assert.deepEqual(local.namespaces, DEFAULT_NAMESPACES);
  });

  it('lets an entry named sandbox adjust the built-in one, which stays embedded', () => {
    const { environments } = parseEnvironments(
      '{ "sandbox": { "dataNamespace": "http://tempuri.org/", "variables": { "zip": "1" } } }',
      'carrier.environments.json',
    );
    assert.equal(environments.length, 1);
    assert.equal(environments[0].embedded, true);
    assert.equal(environments[0].namespaces.data, 'http://tempuri.org/');
    assert.deepEqual(environments[0].variables, { zip: '1' });
  });

  it('locates every problem, leaves broken entries out and keeps the rest', () => {
    const text = [
      '{',
      '  "good": { "baseUrl": "https://ok.example" },',
      '  "nourl": { "timeoutMs": 5000 },',
      '  "badurl": { "baseUrl": "ftp://files.example" },',
      '  "typo": { "baseUrl": "https://t.example", "timeoutMS": 5 },',
      '  "keyed": { "baseUrl": "https://k.example", "apiKey": "abc" },',
      '  "halfcert": { "baseUrl": "https://h.example", "tls": { "cert": "c.pem" } },',
      '  "types": { "baseUrl": "https://y.example", "maxReplyBytes": "big", "secrets": "token" },',
      '  "bad name!": { "baseUrl": "https://n.example" }',
      '}',
    ].join('\n');
    const { environments, problems } = parseEnvironments(text, 'carrier.environments.json');
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox', 'good'],
    );
    const lines = problems.map((p) => formatEnvironmentProblem('carrier.environments.json', p));
    const expect = [
      /^carrier\.environments\.json:3:3: error: environment "nourl" has no "baseUrl"/,
      /^carrier\.environments\.json:4:26: error: baseUrl must be an http:\/\/ or https:\/\/ URL/,
      /^carrier\.environments\.json:5:45: error: unknown setting "timeoutMS"; allowed: description, baseUrl, serviceNamespace/,
      /^carrier\.environments\.json:6:46: error: API keys never go in this file: set CARRIER_API_KEY_KEYED or CARRIER_API_KEY/,
      /^carrier\.environments\.json:7:58: error: tls\.cert needs tls\.key/,
      /^carrier\.environments\.json:8:63: error: maxReplyBytes must be an integer/,
      /^carrier\.environments\.json:8:81: error: secrets must be an array/,
      /^carrier\.environments\.json:9:3: error: "bad name!" is not a valid environment name/,
    ];
    for (const re of expect)
      assert.ok(
        lines.some((l) => re.test(l)),
        `${re}\n${lines.join('\n')}`,
      );
    assert.equal(lines.length, expect.length, lines.join('\n'));
  });

  it('reports a syntax error with its position and keeps only the sandbox', () => {
    const { environments, problems } = parseEnvironments('{\n  "a": { "baseUrl": "https://a.example" }\n  "b": {}\n}', 'carrier.environments.json');
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox'],
    );
    assert.equal(formatEnvironmentProblem('f.json', problems[0]), 'f.json:2:42: error: missing comma before "b"');
  });

  it('loads from a workspace folder, and has only the sandbox without a file', () => {
    const dir = tmpDir();
    try {
      assert.deepEqual(
        loadEnvironments(context, dir).environments.map((e) => e.name),
        ['sandbox'],
      );
      assert.equal(loadEnvironments(context, undefined).environments.length, 1);
      fs.writeFileSync(path.join(dir, ENVIRONMENTS_FILE), '{ "prod": { "baseUrl": "https://api.example", "tls": { "ca": "ca.pem" } } }');
      const loaded = loadEnvironments(context, dir);
      assert.equal(loaded.file, path.join(dir, ENVIRONMENTS_FILE));
      assert.equal(findEnvironment(loaded, 'prod')?.tls?.caPath, path.join(dir, 'ca.pem'));
      assert.equal(findEnvironment(loaded, undefined)?.name, 'sandbox');
      assert.equal(findEnvironment(loaded, 'nope'), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ships a schema that is itself valid and accepts the documented example', () => {
    const schema = JSON.parse(fs.readFileSync(SCHEMA, 'utf8'));
    const validate = new Ajv({ strict: false }).compile(schema);
    const documented = {
      staging: {
        baseUrl: 'https://staging.example',
        serviceNamespace: 'urn:s',
        dataNamespace: 'urn:d',
        pickupNamespace: 'urn:p',
        timeoutMs: 30000,
        maxReplyBytes: 67108864,
        tls: { ca: 'ca.pem', cert: 'c.pem', key: 'k.pem', rejectUnauthorized: true },
        proxy: 'http://proxy:3128',
        variables: { a: 'b' },
        secrets: ['a'],
      },
    };
    assert.equal(validate(documented), true, JSON.stringify(validate.errors));
    assert.equal(validate({ staging: { baseUrl: 'https://x', apiKey: 'no' } }), false);
  });
});

describe('environments: API keys', () => {
  it('names the variable: upper case, non-alphanumerics as _', () => {
    assert.equal(apiKeyVariable('staging-eu.2'), 'CARRIER_API_KEY_STAGING_EU_2');
  });

  it("prefers the environment's own variable, then the generic one; the sandbox has a default; remote has none", () => {
    const vars = { CARRIER_API_KEY_STAGING: 'specific', CARRIER_API_KEY: 'generic' };
    assert.deepEqual(apiKeyFromVariables('staging', vars), { key: 'specific', from: 'CARRIER_API_KEY_STAGING', source: 'environment-specific' });
    assert.deepEqual(apiKeyFromVariables('prod', vars), { key: 'generic', from: 'CARRIER_API_KEY', source: 'generic' });
    assert.deepEqual(apiKeyFromVariables('sandbox', {}), { key: 'sandbox-key', from: 'the sandbox default', source: 'sandbox-default' });
    assert.equal(apiKeyFromVariables('sandbox', { CARRIER_API_KEY: 'mine' })?.key, 'mine');
    assert.equal(apiKeyFromVariables('prod', { CARRIER_API_KEY_PROD: '' }), undefined);
  });
});
