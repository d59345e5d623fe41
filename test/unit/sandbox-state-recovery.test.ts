/**
 * Sandbox state that never silently restarts (docs/sandbox.md, State): a data folder whose saved
 * state does not read stops `carrier sandbox` with exit 1 and the file named on stderr (with
 * --quiet too), and changes nothing; `--reset-data` starts empty with the old files kept in a
 * backup folder; and new ids are always above every stored one, whatever the snapshot's counters
 * say (src/sandbox/state/counters.ts), so a new bill of lading never takes a stored one's id.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxStateUnreadableError, startSandbox } from '../../src/sandbox/server';
import { STATE_FILE } from '../../src/sandbox/state/store';
import { safeCounters } from '../../src/sandbox/state/counters';
import { actionOf, child, children, Clock, el, envelope, http, KEY, NS_DISTINCT, soapHeaders, soapResult, textAt, call } from './sandbox-kit';
import { bolRequest, todayUs } from './sandbox-requests';

const ROOT = path.resolve(__dirname, '..', '..');
const BOL = '/1.0.1/BillOfLadingService.asmx';
const TRACE = '/1.0.2/ShipmentTracingService.asmx';
/** The day after the kit's Clock; its pickups are on 11/20/2026. */
const CLOCK_BOL_DATE = '11/19/2026';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-recovery-'));
const backups = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith('sandbox-state.backup-'));

interface Created {
  bolId: number;
  pro: string;
  pickup: string;
}

/** On the kit's Clock with a pickup by default; `{ date: todayUs(), pickup: false }` for a sandbox on the real clock. */
async function createBol(url: string, po: string, { date = CLOCK_BOL_DATE, pickup = true } = {}): Promise<Created> {
  const body = envelope('1.1', el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ po, date, pickup })]), NS_DISTINCT, 'default-xmlns');
  const r = await http(url + BOL, { method: 'POST', body, headers: soapHeaders('1.1', actionOf(NS_DISTINCT, 'CreateBillOfLading'), 'quoted') });
  assert.equal(r.status, 200, r.text);
  const result = soapResult(r.text, 'CreateBillOfLading');
  return { bolId: Number(textAt(result, 'BolID')), pro: textAt(result, 'WebProNumber'), pickup: textAt(result, 'PickupRequestNumber') };
}

/** The PO a trace by BolID finds, or undefined. */
async function poOf(url: string, bolId: number): Promise<string | undefined> {
  const r = await call(
    url,
    TRACE,
    el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', String(bolId))]), el('TraceType', 'BOL')])]),
  );
  const shipments = children(child(r, 'Result'), 'Shipment').filter((s) => !textAt(s, 'ErrorMessage'));
  assert.ok(shipments.length <= 1, `one shipment for BolID ${bolId}`);
  return shipments[0] ? textAt(shipments[0], 'ReferenceNumbers', 'PO') : undefined;
}

/** A data folder holding two bills of lading (with pickups), stopped cleanly: its snapshot. */
async function folderWithTwo(clock: Clock): Promise<{ dir: string; made: Created[] }> {
  const dir = tempDir();
  const sb = await startSandbox({ dataDir: dir, now: clock.now });
  const made = [await createBol(sb.url, 'PO-KEPT-A'), await createBol(sb.url, 'PO-KEPT-B')];
  await sb.close();
  return { dir, made };
}

function editSnapshot(dir: string, edit: (state: { next: Record<string, unknown> }) => void): void {
  const file = path.join(dir, STATE_FILE);
  const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { next: Record<string, unknown> };
  edit(state);
  fs.writeFileSync(file, JSON.stringify(state));
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `carrier sandbox …` run to its exit (it is expected to refuse to start), or its address. */
function sandboxCli(args: string[]): Promise<Exit & { url?: string; stop?: () => Promise<Exit> }> {
  const proc = spawn(process.execPath, ['-r', 'tsx/cjs', 'src/cli/main.ts', 'sandbox', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<Exit>((resolve) => proc.once('exit', (code) => resolve({ code, stdout, stderr })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`neither an address nor an exit within 60 s: ${stdout}${stderr}`));
    }, 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /^Carrier sandbox listening on (http:\/\/[\d.]+:\d+)$/m.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({
          code: null,
          stdout,
          stderr,
          url: m[1]!,
          stop: () => {
            proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    void exited.then((r) => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}

describe('sandbox state that does not read stops the start', function () {
  this.timeout(90_000);

  it('carrier sandbox --data-dir with a truncated snapshot: exit 1, the file named on stderr (also with -q), nothing changed; --reset-data starts empty and keeps the old file aside', async () => {
    const clock = new Clock();
    const { dir } = await folderWithTwo(clock);
    try {
      const file = path.join(dir, STATE_FILE);
      const whole = fs.readFileSync(file, 'utf8');
      const truncated = whole.slice(0, Math.floor(whole.length / 2));
      fs.writeFileSync(file, truncated);
      for (const quiet of [[], ['--quiet']]) {
        const r = await sandboxCli(['--port', '0', '--data-dir', dir, ...quiet]);
        assert.equal(r.code, 1, `${quiet.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.ok(r.stderr.includes(`carrier sandbox: the sandbox state in ${file} does not read (not JSON: cut short or damaged)`), r.stderr);
        assert.ok(r.stderr.includes('--reset-data'), r.stderr);
        assert.ok(!/listening/.test(r.stdout), r.stdout);
        assert.equal(fs.readFileSync(file, 'utf8'), truncated, 'the file is left as it was');
        assert.deepEqual(backups(dir), [], 'nothing moved');
      }

      const started = await sandboxCli(['--port', '0', '--data-dir', dir, '--reset-data', '--quiet']);
      assert.ok(started.url, `${started.stdout}${started.stderr}`);
      try {
        const [backup] = backups(dir);
        assert.ok(backup, `a backup folder in ${fs.readdirSync(dir).join(', ')}`);
        assert.ok(started.stdout.includes(`the old state files were moved to ${path.join(dir, backup)}`), started.stdout);
        assert.equal(fs.readFileSync(path.join(dir, backup, STATE_FILE), 'utf8'), truncated, 'the old file is kept, as it was');
        assert.equal((await createBol(started.url, 'PO-FRESH', { date: todayUs(), pickup: false })).bolId, 1001, 'an empty state starts at the first id');
      } finally {
        assert.equal((await started.stop!()).code, 0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a journal line in the middle that does not parse, or a snapshot that is not a state, is refused in process too; setAside keeps the files', async () => {
    const clock = new Clock();
    const { dir } = await folderWithTwo(clock);
    try {
      const journal = path.join(dir, 'sandbox-state.9.journal');
      fs.writeFileSync(journal, 'not json\n{"bol":null}\n');
      const snapshot = JSON.parse(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')) as { journal: number };
      fs.writeFileSync(path.join(dir, STATE_FILE), JSON.stringify({ ...snapshot, journal: 9 }));
      let refused: unknown;
      await startSandbox({ dataDir: dir, now: clock.now }).then(
        (sb) => sb.close(),
        (e: unknown) => {
          refused = e;
        },
      );
      assert.ok(refused instanceof SandboxStateUnreadableError, String(refused));
      // Told apart as data by the extension, which holds another copy of the class (src/extension/sandbox/unreadableState.ts).
      assert.equal(refused.code, 'sandbox-state-unreadable');
      assert.equal(refused.file, journal);
      assert.match(refused.message, /line 1 is not JSON/);
      assert.ok(!refused.message.includes('not json'), "the file's content is not quoted");

      const backup = refused.setAside();
      assert.ok(backup && fs.existsSync(path.join(backup, 'sandbox-state.9.journal')) && fs.existsSync(path.join(backup, STATE_FILE)));
      fs.writeFileSync(path.join(dir, STATE_FILE), JSON.stringify({ format: 2, journal: 0, next: {}, bols: [{ bolId: 'x' }], pickups: [] }));
      await assert.rejects(startSandbox({ dataDir: dir, now: clock.now }), /not a sandbox state: bill of lading 1 has no whole, positive bolId/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox ids stay above every stored one', function () {
  this.timeout(60_000);

  const cases: Record<string, Record<string, unknown>> = {
    'set back below the stored ids': { bol: 1001, pro: 20_000_001, pickup: 7_000_001 },
    negative: { bol: -5, pro: -5, pickup: -5 },
    'not whole numbers': { bol: 1001.5, pro: 'x', pickup: null },
  };
  for (const [name, next] of Object.entries(cases)) {
    it(`a snapshot whose next ids are ${name}: a new bill of lading over HTTP gets ids above the stored ones, which stay intact`, async () => {
      const clock = new Clock();
      const { dir, made } = await folderWithTwo(clock);
      try {
        editSnapshot(dir, (state) => {
          state.next = next;
        });
        const log: string[] = [];
        const sb = await startSandbox({ dataDir: dir, now: clock.now, log: (l) => log.push(l) });
        try {
          assert.ok(
            log.some((l) => l.startsWith('state: the next BolID')),
            log.join('\n'),
          );
          const fresh = await createBol(sb.url, 'PO-NEW');
          assert.ok(fresh.bolId > Math.max(...made.map((m) => m.bolId)), `BolID ${fresh.bolId}`);
          assert.ok(!made.some((m) => m.pro === fresh.pro), `PRO ${fresh.pro}`);
          assert.ok(Number(fresh.pickup) > Math.max(...made.map((m) => Number(m.pickup))), `pickup ${fresh.pickup}`);
          assert.equal(await poOf(sb.url, made[0]!.bolId), 'PO-KEPT-A');
          assert.equal(await poOf(sb.url, made[1]!.bolId), 'PO-KEPT-B');
          assert.equal(await poOf(sb.url, fresh.bolId), 'PO-NEW');
        } finally {
          await sb.close();
        }
        const state = JSON.parse(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')) as { bols: { bolId: number }[]; next: { bol: number } };
        assert.deepEqual(
          state.bols.map((b) => b.bolId),
          [...made.map((m) => m.bolId), made[1]!.bolId + 1],
        );
        assert.equal(state.next.bol, made[1]!.bolId + 2);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("the rule: max(the state's next id, the largest stored id + 1, the first id), per counter", () => {
    const bols = [{ bolId: 1500, pro: '200000500', createdAt: '', billOfLading: {}, pickupRequestNumber: '7000100' }];
    const pickups = [{ id: 7_000_200, createdAt: '', pickup: {} }];
    assert.deepEqual(safeCounters({ bol: 2000, pro: 30_000_000, pickup: 8_000_000 }, bols, pickups).next, { bol: 2000, pro: 30_000_000, pickup: 8_000_000 });
    assert.deepEqual(safeCounters({ bol: 3, pro: -1, pickup: 1.5 }, bols, pickups).next, { bol: 1501, pro: 20_000_051, pickup: 7_000_201 });
    assert.deepEqual(safeCounters(undefined, [], []), { next: { bol: 1001, pro: 20_000_001, pickup: 7_000_001 }, notes: [] });
  });
});
