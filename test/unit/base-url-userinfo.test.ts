/**
 * A base URL with a user name and password (`http://bob:pass@host`) is refused by the
 * environments file's validation (src/core/environments/userinfo.ts, docs/environments.md): the
 * refusal is located and masks the password, every command that would use the environment stops
 * with exit code 2 before sending anything, and the password is in no output or written file.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatEnvironmentProblem, parseEnvironments } from '../../src/core/environments';
import { hasUserinfo, maskUserinfo } from '../../src/core/environments/userinfo';
import { runCli } from '../../src/cli/dispatch';
import type { CliIo } from '../../src/cli/command';
import { startServer, tmpDir, type TestServer } from './transport-support';

const PASSWORD = 'Hunter2-Pw-8c1f0b7e';
const ROOT = path.join(__dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/terminals/get-terminal-information.carrier.json');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function carrier(args: string[], cwd: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: { NO_COLOR: '1', CARRIER_API_KEY: 'cli-key' },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** Every file under `dir`, as text. */
function filesIn(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of filesIn(full)) out.set(k, v);
    else out.set(full, fs.readFileSync(full).toString('latin1'));
  }
  return out;
}

function environmentsText(baseUrl: string): string {
  return ['{', '  // a service reached with credentials in its address', `  "staging": { "baseUrl": "${baseUrl}" }`, '}', ''].join('\n');
}

describe('a base URL with user:password@', () => {
  let server: TestServer;
  let hostPort: string;
  before(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(500).end('nothing should arrive here');
    });
    hostPort = new URL(server.url).host;
  });
  after(async () => server.close());

  it('masks the password and only the password when shown', () => {
    assert.equal(maskUserinfo('http://bob:pass@host.example/x'), 'http://bob:••••@host.example/x');
    assert.equal(maskUserinfo('https://bob:p@ss:w@host.example'), 'https://bob:••••@host.example');
    assert.equal(maskUserinfo('https://token@host.example'), 'https://••••@host.example');
    assert.equal(hasUserinfo('https://host.example/a@b'), false, 'an @ in the path is no userinfo');
    assert.equal(hasUserinfo('embedded'), false);
  });

  it("core's load returns a located problem that names the masked URL and leaves the entry out", () => {
    const text = environmentsText(`http://bob:${PASSWORD}@${'host.example'}`);
    const { environments, problems } = parseEnvironments(text, 'carrier.environments.json');
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox'],
    );
    assert.equal(problems.length, 1);
    const [p] = problems;
    assert.equal(p.severity, 'error');
    assert.equal(p.path, 'staging.baseUrl');
    assert.deepEqual(p.range.start, { line: 2, character: 26 });
    assert.match(p.message, /^baseUrl must not carry a user name or password \(http:\/\/bob:••••@host\.example\)/);
    assert.match(p.message, /"secrets"/);
    assert.ok(!p.message.includes(PASSWORD));
    assert.equal(formatEnvironmentProblem('carrier.environments.json', p).startsWith('carrier.environments.json:3:27: error: baseUrl must not carry'), true);
  });

  it('a password with a slash in it (not percent-encoded) is refused without being quoted', () => {
    const { environments, problems } = parseEnvironments(environmentsText(`https://bob:${PASSWORD}/x@host.example`), 'carrier.environments.json');
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox'],
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.path, 'staging.baseUrl');
    assert.ok(!problems[0]!.message.includes(PASSWORD), problems[0]!.message);
  });

  it('a URL without credentials, and an @ in the path, stay accepted', () => {
    const { environments, problems } = parseEnvironments(environmentsText('https://host.example/carrier@v2'), 'carrier.environments.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      environments.map((e) => e.name),
      ['sandbox', 'staging'],
    );
  });

  const commands: Record<string, (dir: string) => string[]> = {
    send: (dir) => ['send', path.join(dir, 'request.carrier.json'), '--env', 'staging', '--out', path.join(dir, 'out')],
    run: (dir) => ['run', path.join(dir, 'request.carrier.json'), '--env', 'staging', '--reporter', 'cli,junit,json,html', '--out', path.join(dir, 'out')],
    envelope: (dir) => ['envelope', path.join(dir, 'request.carrier.json'), '--env', 'staging', '--curl'],
    contract: (dir) => ['contract', '--env', 'staging', '--write', '--out', path.join(dir, 'out')],
  };
  for (const [name, args] of Object.entries(commands)) {
    it(`carrier ${name}: exit 2 with the located message, nothing sent, the password nowhere`, async () => {
      const dir = tmpDir('carrier-userinfo-');
      const envText = environmentsText(`http://bob:${PASSWORD}@${hostPort}`);
      fs.writeFileSync(path.join(dir, 'carrier.environments.json'), envText);
      fs.copyFileSync(EXAMPLE, path.join(dir, 'request.carrier.json'));
      const before = server.received.length;
      const r = await carrier(args(dir), dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.ok(
        r.stderr.includes(`carrier.environments.json:3:27: error: baseUrl must not carry a user name or password (http://bob:••••@${hostPort})`),
        r.stderr,
      );
      assert.ok(!(r.stdout + r.stderr).includes(PASSWORD), 'the password is printed');
      assert.equal(server.received.length, before, 'nothing was sent');
      for (const [file, text] of filesIn(path.join(dir, 'out'))) assert.ok(!text.includes(PASSWORD), `the password is in ${file}`);
      // The environments file is left as it was (contract --write did not touch it).
      assert.equal(fs.readFileSync(path.join(dir, 'carrier.environments.json'), 'utf8'), envText);
    });
  }
});
