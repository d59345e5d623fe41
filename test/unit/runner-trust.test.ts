/**
 * `carrier run` as a QA engineer relies on it in CI: a folder's settings do not depend on where
 * the run was typed, nothing is skipped in silence, files run before subfolders and reports list
 * tests in the order they ran, and the exit code never says "passed" when nothing did.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { runCli } from '../../src/cli/dispatch';
import { soapReply, SOAP11_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const KEY = 'runner-trust-key-0123456789abcdef';
const TERMINAL = (zip: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: zip, CountryCode: 'USA' }, ...extra }, null, 2);
// Shaped as the catalog has it (Result/TerminalInfo/TerminalDetails): reply paths are held against it.
const REPLY = soapReply(
  '1.1',
  `<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo><TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalCode>LNK</TerminalCode></TerminalDetails></TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse>`,
);

async function carrier(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: { CARRIER_API_KEY: KEY },
  });
  return { code, out, err };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

interface Report {
  tests: Array<{ file: string; status: string; environment?: string; collectionFiles: string[] }>;
}
const readReport = (dir: string): Report => JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as Report;

describe('carrier run: results CI can trust', function () {
  this.timeout(60_000);
  let staging: TestServer;
  let bodies: string[];
  let repo: string;

  before(async () => {
    bodies = [];
    staging = await startServer((_req, res, body) => {
      bodies.push(body.toString('utf8'));
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(REPLY);
    });
  });
  after(async () => {
    await staging.close();
  });
  beforeEach(() => {
    bodies.length = 0;
    repo = tmpDir('carrier-trust-');
    fs.mkdirSync(path.join(repo, '.git'));
    write(path.join(repo, 'carrier.environments.json'), JSON.stringify({ staging: { baseUrl: staging.url } }));
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("applies a parent folder's collection.json from any working directory and any spelling of the path", async () => {
    write(path.join(repo, 'suite/collection.json'), JSON.stringify({ environment: 'staging', variables: { zip: '68507' } }));
    write(path.join(repo, 'suite/sub/a.carrier.json'), TERMINAL('{{zip}}'));
    const elsewhere = tmpDir('carrier-trust-cwd-');
    try {
      const runs = [
        { cwd: repo, args: ['suite/sub'] },
        { cwd: path.join(repo, 'suite/sub'), args: ['.'] },
        { cwd: elsewhere, args: [path.join(repo, 'suite', '..', 'suite', 'sub') + path.sep] },
      ];
      for (const [i, r] of runs.entries()) {
        const out = path.join(elsewhere, `out${i}`);
        const run = await carrier(['run', ...r.args, '-r', 'json', '--out', out], r.cwd);
        assert.equal(run.code, 0, `from ${r.cwd}: ${run.out}${run.err}`);
        const [test] = readReport(out).tests;
        assert.equal(test.environment, 'staging', `from ${r.cwd}`);
        assert.equal(test.collectionFiles.length, 1);
        assert.match(test.collectionFiles[0], /suite\/collection\.json$/);
      }
      assert.equal(bodies.length, 3, "each run reached the collection's environment");
      for (const b of bodies) assert.match(b, /<ZipCode>68507<\/ZipCode>/, "with the collection's variable");
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('"root": true stops the settings from above', async () => {
    write(path.join(repo, 'collection.json'), JSON.stringify({ environment: 'staging' }));
    write(path.join(repo, 'suite/collection.json'), JSON.stringify({ root: true, variables: { zip: '33635' } }));
    write(path.join(repo, 'suite/a.carrier.json'), TERMINAL('{{zip}}'));
    const run = await carrier(['run', 'suite', '-r', 'json', '--out', 'out'], repo);
    assert.equal(run.code, 0, run.out + run.err);
    assert.equal(readReport(path.join(repo, 'out')).tests[0].environment, 'sandbox', 'the root collection names no environment');
    assert.equal(bodies.length, 0);
  });

  it("runs a folder's files before its subfolders, reports them in that order, and runs reports/ folders that are not the report folder", async () => {
    write(path.join(repo, 'suite/collection.json'), JSON.stringify({ environment: 'staging' }));
    write(path.join(repo, 'suite/checks/uses.carrier.json'), TERMINAL('{{code}}', { expect: { status: 200 } }));
    write(path.join(repo, 'suite/setup.carrier.json'), TERMINAL('68507', { capture: { code: 'Result[0].TerminalDetails.TerminalCode' } }));
    write(path.join(repo, 'suite/reports/broken.carrier.json'), TERMINAL('68507', { expect: { status: 404 } }));
    write(path.join(repo, 'suite/.drafts/ignored.carrier.json'), TERMINAL('68507'));
    const run = await carrier(['run', 'suite', '-r', 'cli,junit,json', '--out', 'out'], repo);
    assert.equal(run.code, 1, 'the failing test under reports/ ran and failed');
    assert.deepEqual(
      readReport(path.join(repo, 'out')).tests.map((t) => t.file),
      ['suite/setup.carrier.json', 'suite/checks/uses.carrier.json', 'suite/reports/broken.carrier.json'],
    );
    const junit = fs.readFileSync(path.join(repo, 'out/junit.xml'), 'utf8');
    assert.ok(junit.indexOf('setup.carrier.json') < junit.indexOf('uses.carrier.json'), 'JUnit lists them in the order they ran');
    assert.match(run.err, /not run: suite\/\.drafts\//, 'the skipped folder is named');
    assert.match(bodies[1], /<ZipCode>LNK<\/ZipCode>/, "the subfolder used what the folder's file captured");
  });

  it('a run where no test ran exits 1 unless --pass-with-no-tests', async () => {
    write(
      path.join(repo, 'trace.carrier.json'),
      JSON.stringify({ operation: 'TraceShipment', version: '1.0.2', params: { request: { TraceNumbers: ['056391174'], TraceType: 'PRO' } } }),
    );
    const none = await carrier(['run', '.', '-b', 'get'], repo);
    assert.equal(none.code, 1, none.out + none.err);
    assert.match(none.err, /no tests ran/);
    assert.equal((await carrier(['run', '.', '-b', 'get', '--pass-with-no-tests'], repo)).code, 0);
  });

  it('--out naming a file is a usage error before anything is sent', async () => {
    write(path.join(repo, 'a.carrier.json'), TERMINAL('68507', { environment: 'staging' }));
    write(path.join(repo, 'out.txt'), 'x');
    const run = await carrier(['run', 'a.carrier.json', '--out', 'out.txt', '-r', 'junit'], repo);
    assert.equal(run.code, 2, run.out + run.err);
    assert.match(run.err, /--out out\.txt is a file/);
    assert.equal(bodies.length, 0);
  });

  it('a run that cannot start leaves no earlier report behind', async () => {
    write(path.join(repo, 'out/junit.xml'), '<testsuites tests="1" failures="0"/>');
    write(path.join(repo, 'out/report.json'), '{}');
    write(path.join(repo, 'bad.carrier.json'), '{ "operation": "GetTerminalInformation", ');
    const run = await carrier(['run', 'bad.carrier.json', '-r', 'junit,json', '--out', 'out'], repo);
    assert.equal(run.code, 2);
    assert.ok(!fs.existsSync(path.join(repo, 'out/junit.xml')) && !fs.existsSync(path.join(repo, 'out/report.json')), 'stale reports removed');
  });

  it('finishes with warnings over a symlink loop, a FIFO and a link to /dev/zero', async function () {
    write(path.join(repo, 'suite/a.carrier.json'), TERMINAL('68507', { environment: 'staging' }));
    fs.symlinkSync(path.join(repo, 'suite'), path.join(repo, 'suite/loop'));
    fs.symlinkSync('/dev/zero', path.join(repo, 'suite/zero.carrier.json'));
    try {
      execFileSync('mkfifo', [path.join(repo, 'suite/fifo.carrier.json')]);
    } catch {
      this.skip();
    }
    const run = await carrier(['run', 'suite', '-r', 'json', '--out', 'out'], repo);
    assert.equal(run.code, 0, run.out + run.err);
    assert.equal(readReport(path.join(repo, 'out')).tests.length, 1, 'the one real file ran once');
    assert.match(run.err, /suite\/loop: already visited/);
    assert.match(run.err, /fifo\.carrier\.json: not a regular file/);
    assert.match(run.err, /zero\.carrier\.json: not a regular file/);
  });

  it('refuses a request file over 4 MB in a folder, or named, at its place, and sends nothing', async () => {
    write(path.join(repo, 'suite/a.carrier.json'), TERMINAL('68507', { environment: 'staging' }));
    const big = `${TERMINAL('68507', { environment: 'staging' }).slice(0, -2)},\n  "note": "${'x'.repeat(4 * 1024 * 1024)}"\n}\n`;
    write(path.join(repo, 'suite/big.carrier.json'), big);
    const size = Buffer.byteLength(big);
    for (const target of ['suite', 'suite/big.carrier.json']) {
      const run = await carrier(['run', target], repo);
      assert.equal(run.code, 2, run.out + run.err);
      assert.match(run.err, new RegExp(`big\\.carrier\\.json:1:1: .*is ${size} bytes; a request file may be at most 4194304 bytes`), run.err);
    }
    assert.equal(bodies.length, 0);
  });

  it('says what the validator warns about before running', async () => {
    write(
      path.join(repo, 'a.carrier.json'),
      JSON.stringify(
        {
          operation: 'GetTerminalInformation',
          version: '1.0.2',
          environment: 'staging',
          params: { APIKey: 'literal-key-in-file', ZipCode: '68507', CountryCode: 'USA' },
        },
        null,
        2,
      ),
    );
    const run = await carrier(['run', 'a.carrier.json'], repo);
    assert.match(run.err, /a\.carrier\.json:\d+:\d+: warning: .*APIKey/);
  });
});

describe('carrier run: no spelling of a secret variable in any output', function () {
  this.timeout(60_000);
  // Regular-expression and XML special characters, so escaping changes its spelling everywhere.
  const SECRET = 'c2VjcmV0+dG9r/ZW4=<&>"quoted".*(x)';
  let server: TestServer;
  let repo: string;

  before(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(REPLY);
    });
  });
  after(async () => {
    await server.close();
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('masks it after every transformation: the console, junit.xml and report.json', async () => {
    repo = tmpDir('carrier-secret-');
    fs.mkdirSync(path.join(repo, '.git'));
    write(path.join(repo, 'carrier.environments.json'), JSON.stringify({ staging: { baseUrl: server.url, variables: { token: SECRET }, secrets: ['token'] } }));
    write(
      path.join(repo, 'a.carrier.json'),
      TERMINAL('68507', {
        environment: 'staging',
        expect: {
          messages: ['{{token}}'],
          reply: {
            'Result[0].TerminalDetails.TerminalCode': { matches: '^{{token}}$' },
            // Long enough to be cut in the message, with the cut falling inside the secret.
            'Result[0].TerminalDetails.TerminalName': { equals: `${'y'.repeat(110)}{{token}}` },
          },
        },
      }),
    );
    const run = await carrier(['run', 'a.carrier.json', '-r', 'cli,junit,json', '--out', 'out'], repo);
    assert.equal(run.code, 1, run.out + run.err);
    const texts = {
      console: run.out + run.err,
      junit: fs.readFileSync(path.join(repo, 'out/junit.xml'), 'utf8'),
      json: fs.readFileSync(path.join(repo, 'out/report.json'), 'utf8'),
    };
    // The distinctive middle of the secret, and its start as a truncation would leave it.
    for (const [where, text] of Object.entries(texts)) {
      for (const piece of ['c2VjcmV0', 'dG9r', 'ZW4=']) assert.ok(!text.includes(piece), `${where} shows "${piece}":\n${text}`);
    }
    assert.match(texts.console, /••••/);
  });
});
