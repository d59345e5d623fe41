/**
 * State that survives: a data folder keeps created bills of lading and pickups across restarts,
 * and a sandbox killed at any moment (here: SIGKILL in the middle of a burst of writes) leaves a
 * state file that parses and holds every bill of lading whose reply went out. Also the CLI:
 * `carrier sandbox` prints its address and exits 0 on SIGINT/SIGTERM.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../src/sandbox/server';
import { STATE_FILE } from '../../src/sandbox/state/store';
import { call, child, children, Clock, el, envelope, http, KEY, NS_DISTINCT, soapHeaders, actionOf, soapResult, textAt, pdfTitle } from './sandbox-kit';
import { bolRequest, pickupRequest, todayUs } from './sandbox-requests';

const ROOT = path.resolve(__dirname, '..', '..');
const BOL = '/1.0.1/BillOfLadingService.asmx';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-sandbox-'));
}

interface Child {
  readonly proc: ChildProcess;
  readonly url: string;
  readonly output: () => string;
}

/** `carrier sandbox …` in a child process, resolved once it prints its address. */
function spawnCli(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, ['-r', 'tsx/cjs', 'src/cli/main.ts', 'sandbox', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no address within 20 s: ${out}`));
    }, 20_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /^Carrier sandbox listening on (http:\/\/[\d.]+:\d+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1]!, output: () => out });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening: ${out}`));
    });
  });
}

function exitOf(proc: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve({ code: proc.exitCode, signal: proc.signalCode });
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
}

async function createBol(url: string): Promise<number> {
  const r = await http(url + BOL, {
    method: 'POST',
    body: envelope('1.1', el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ date: todayUs() })]), NS_DISTINCT, 'default-xmlns'),
    headers: soapHeaders('1.1', actionOf(NS_DISTINCT, 'CreateBillOfLading'), 'quoted'),
  });
  if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
  return Number(textAt(soapResult(r.text, 'CreateBillOfLading'), 'BolID'));
}

/** BolIDs the sandbox can find, of those asked for (traced by BOL number, 50 at a time). */
async function known(url: string, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    const r = await call(
      url,
      '/1.0.2/ShipmentTracingService.asmx',
      el('TraceShipment', [
        el('APIKey', KEY),
        el('request', [
          el(
            'TraceNumbers',
            chunk.map((id) => el('string', String(id))),
          ),
          el('TraceType', 'BOL'),
        ]),
      ]),
    );
    for (const s of children(child(r, 'Result'), 'Shipment')) {
      if (!textAt(s, 'ErrorMessage')) found.add(Number(textAt(s, 'ReferenceNumbers', 'BOL')));
    }
  }
  return found;
}

describe('sandbox state', () => {
  it('is kept in a data folder across a restart: bills of lading, their PDFs, pickups and the id counters', async () => {
    const dir = tempDir();
    const clock = new Clock();
    try {
      const first = await startSandbox({ dataDir: dir, now: clock.now });
      // Without a pickup of its own: a bill of lading that has one cannot be linked to another (issue 19).
      const created = await call(first.url, BOL, el('CreateBillOfLading', [el('APIKey', KEY), bolRequest()]));
      const id = Number(textAt(created, 'BolID'));
      const pro = textAt(created, 'WebProNumber');
      const pickup = await call(first.url, '/1.0.3/PickupRequestService.asmx', el('CreatePickupRequest', [el('APIKey', KEY), pickupRequest(id)]));
      assert.equal(textAt(pickup, 'Pickup', 'WasSuccess'), 'true');
      await first.close();
      assert.ok(fs.existsSync(path.join(dir, STATE_FILE)));

      const second = await startSandbox({ dataDir: dir, now: clock.now });
      try {
        const traced = await call(
          second.url,
          '/1.0.2/ShipmentTracingService.asmx',
          el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', pro)]), el('TraceType', 'PRO')])]),
        );
        assert.equal(textAt(child(child(traced, 'Result'), 'Shipment'), 'ReferenceNumbers', 'BOL'), String(id));
        const pdf = await call(
          second.url,
          '/sandbox/BillOfLadingService.asmx',
          el('GetBillOfLadingPdf', [el('APIKey', KEY), el('billOfLadingId', String(id))]),
        );
        assert.equal(await pdfTitle(textAt(pdf, 'PdfDocument')), `Bill of Lading ${id}`);
        const again = await call(second.url, BOL, el('CreateBillOfLading', [el('APIKey', KEY), bolRequest()]));
        assert.equal(Number(textAt(again, 'BolID')), id + 1, 'ids continue after a restart');
        assert.notEqual(textAt(again, 'WebProNumber'), pro);
        const nextPickup = await call(
          second.url,
          '/1.0.3/PickupRequestService.asmx',
          el('CreatePickupRequest', [el('APIKey', KEY), pickupRequest(Number(textAt(again, 'BolID')))]),
        );
        assert.equal(textAt(nextPickup, 'Pickup', 'WasSuccess'), 'true', textAt(nextPickup, 'Pickup', 'Message'));
        const twice = await call(second.url, '/1.0.3/PickupRequestService.asmx', el('CreatePickupRequest', [el('APIKey', KEY), pickupRequest(id)]));
        assert.match(
          textAt(twice, 'Pickup', 'Message'),
          new RegExp(`LinkedBolId ${id} already has pickup request ${textAt(pickup, 'PickupRequestID')}`),
          'the restarted sandbox remembers the first pickup',
        );
        assert.ok(Number(textAt(nextPickup, 'PickupRequestID')) > Number(textAt(pickup, 'PickupRequestID')));
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps nothing on disk without a data folder', async () => {
    const a = await startSandbox({});
    const id = await createBol(a.url);
    await a.close();
    const b = await startSandbox({});
    try {
      assert.equal((await known(b.url, [id])).size, 0);
    } finally {
      await b.close();
    }
  });

  it('survives SIGKILL in the middle of a burst of writes: the file parses and holds every acknowledged bill of lading', async function () {
    this.timeout(120_000);
    const dir = tempDir();
    try {
      const acked: number[] = [];
      for (let round = 0; round < 3; round++) {
        const sb = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']);
        const before = acked.length;
        let stop = false;
        // Killed once this many more are acknowledged: a different moment each round, reached however busy the machine is.
        const killAt = before + 10 + round * 17;
        let reached!: () => void;
        const enough = new Promise<void>((resolve) => (reached = resolve));
        // Eight clients creating bills of lading as fast as they can…
        const clients = Array.from({ length: 8 }, async () => {
          while (!stop) {
            try {
              acked.push(await createBol(sb.url));
              if (acked.length >= killAt) reached();
            } catch {
              return;
            }
          }
        });
        // …until the process is killed without warning, with writes still coming.
        await enough;
        sb.proc.kill('SIGKILL');
        await exitOf(sb.proc);
        stop = true;
        await Promise.all(clients);
        assert.ok(acked.length > before, `round ${round}: some writes were acknowledged before the kill`);
        const text = fs.readFileSync(path.join(dir, STATE_FILE), 'utf8');
        assert.doesNotThrow(() => JSON.parse(text), `round ${round}: the state file parses`);

        const restarted = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']);
        try {
          const found = await known(restarted.url, acked);
          const lost = acked.filter((id) => !found.has(id));
          assert.deepEqual(lost, [], `round ${round}: acknowledged bills of lading lost after the kill`);
          const next = await createBol(restarted.url);
          assert.ok(next > Math.max(...acked), 'no BolID is handed out twice');
          acked.push(next);
        } finally {
          restarted.proc.kill('SIGTERM');
          assert.equal((await exitOf(restarted.proc)).code, 0);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('carrier sandbox (CLI)', function () {
  this.timeout(40_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints its address, serves, and exits 0 on ${signal}`, async () => {
      const sb = await spawnCli(['--port', '0', '--api-key', 'cli-key']);
      const ok = await http(`${sb.url}/sandbox/BillOfLadingService.asmx/GetHazmatDescription?APIKey=cli-key&UNNANumber=1203`);
      assert.equal(ok.status, 200);
      const refused = await http(`${sb.url}/sandbox/BillOfLadingService.asmx/GetHazmatDescription?APIKey=${KEY}&UNNANumber=1203`);
      assert.equal(refused.status, 500, 'only --api-key keys are accepted');
      sb.proc.kill(signal);
      const exit = await exitOf(sb.proc);
      assert.equal(exit.code, 0, sb.output());
      assert.match(sb.output(), /^Carrier sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/);
      assert.match(sb.output(), /GetHazmatDescription sandbox HTTP GET → 200/);
      assert.ok(!sb.output().includes('cli-key'), 'the key never appears in the log');
    });
  }

  it('refuses a bad --port with exit code 2', async () => {
    const proc = spawn(process.execPath, ['-r', 'tsx/cjs', 'src/cli/main.ts', 'sandbox', '--port', 'eighty'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    assert.equal((await exitOf(proc)).code, 2);
    assert.match(err, /--port needs a whole number/);
  });
});
