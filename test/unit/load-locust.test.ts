/**
 * `carrier load --export locust` run by a real Locust (Debian's python3-locust, installed by
 * scripts/ensure-locust.js): a master and two workers on 127.0.0.1 send the exported rate quote
 * to a local server in front of the embedded sandbox (load-kit.ts), and Locust's own request
 * count (its --csv stats) matches what the server served within 1 %; the file holds no key.
 *
 * Debian's Locust says its version is '' and its master then turns workers away as "pre 2.0";
 * the processes start through a small wrapper that gives `locust._version` a version only when
 * it has none (docs/load.md#locust), so a Locust installed properly is left as it is.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runLoadCommand } from '../../src/cli/commands/load';
import { captureIo, delayServer, RATE_QUOTE, type DelayServer } from './load-kit';

const PYTHON = '/usr/bin/python3';

const WRAPPER = `import importlib.util, os, sys, types
spec = importlib.util.find_spec("locust")
try:
    ns = {}
    with open(os.path.join(os.path.dirname(spec.origin), "_version.py")) as f:
        exec(f.read(), ns)
    empty = not ns.get("version")
except OSError:
    empty = False
if empty:
    fake = types.ModuleType("locust._version")
    fake.version = os.environ.get("CARRIER_LOCUST_VERSION", "2.0.0+unknown")
    sys.modules["locust._version"] = fake
from locust.main import main
sys.argv[0] = "locust"
sys.exit(main())
`;

function locustPresent(): boolean {
  return spawnSync(PYTHON, ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("locust") else 1)'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

describe('carrier load --export locust, run by Locust', function () {
  this.timeout(60_000);
  let server: DelayServer | undefined;
  let dir: string | undefined;
  const children: ChildProcess[] = [];
  before(function () {
    if (!locustPresent()) {
      // scripts/ensure-locust.js installs it in `npm run test:unit`; without apt there is nothing to run.
      console.log('    (skipped: Locust is not installed and could not be: apt-get install python3-locust)');
      this.skip();
    }
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await server?.close();
    server = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a master and two workers send the exported requests: Locust counts what the server served (±1 %), no failures', async () => {
    server = await delayServer(() => 0, { cache: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-locust-'));
    fs.copyFileSync(RATE_QUOTE, path.join(dir, 'get-rate-quote.carrier.json'));
    const c = captureIo(dir);
    assert.equal(await runLoadCommand(['get-rate-quote.carrier.json', '--export', 'locust', '--out', 'locust', '--vus', '4'], c.io), 0, c.err());
    const locustfile = path.join(dir, 'locust', 'locustfile.py');
    const text = fs.readFileSync(locustfile, 'utf8');
    assert.match(text, /API_KEY = os\.environ\["CARRIER_API_KEY"\]/);
    assert.match(text, /<APIKey>" \+ xml\(API_KEY\) \+ b"<\/APIKey>/);
    assert.doesNotMatch(text, /sandbox-key|PLACEHOLDER/);
    fs.writeFileSync(path.join(dir, 'run-locust.py'), WRAPPER);

    const port = await freePort();
    const env = { ...process.env, CARRIER_API_KEY: 'sandbox-key', PYTHONDONTWRITEBYTECODE: '1' };
    const common = [path.join(dir, 'run-locust.py'), '-f', locustfile];
    let log = '';
    const start = (args: string[]) => {
      const child = spawn(PYTHON, [...common, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      children.push(child);
      return child;
    };
    const master = start([
      '--headless',
      '--master',
      '--master-bind-host',
      '127.0.0.1',
      '--master-bind-port',
      String(port),
      '--expect-workers',
      '2',
      '-u',
      '4',
      '-r',
      '4',
      '--run-time',
      '5s',
      '--host',
      server.url,
      '--csv',
      'stats',
      '--only-summary',
    ]);
    for (let i = 0; i < 2; i++) start(['--worker', '--master-host', '127.0.0.1', '--master-port', String(port)]);
    const code = await exited(master);
    assert.doesNotMatch(log, /pre 2\.0/);
    const csv = fs.readFileSync(path.join(dir, 'stats_stats.csv'), 'utf8').trim().split('\n');
    const head = csv[0].split(',');
    const aggregated = csv.find((l) => l.split(',')[1] === 'Aggregated')!.split(',');
    const requests = Number(aggregated[head.indexOf('Request Count')]);
    const failures = Number(aggregated[head.indexOf('Failure Count')]);
    const served = server.delays.length;
    assert.equal(failures, 0, log.slice(-3000));
    assert.equal(code, 0, log.slice(-3000));
    assert.ok(requests > 0, log.slice(-3000));
    assert.ok(Math.abs(served - requests) <= Math.max(1, served * 0.01), `Locust counted ${requests}, the server served ${served}`);
    for (const c of children) if (c !== master) await exited(c);
  });
});
