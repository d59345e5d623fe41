/**
 * Sandbox state that is never lost and costs the same at any size (issue 17, item 6): the data
 * folder is locked by the sandbox that runs on it (a second one refuses, naming the first; a lock
 * left by a dead process is taken over); each change is one journal line on disk before its reply
 * (the snapshot is not rewritten per change); an old state file is still read; a request that
 * fails stores nothing; and `kill -9` in the middle of 32 clients' load loses no bill of lading
 * whose reply was sent. The cost per bill of lading at 10 and at 10,000 is bench/rows/sandboxState.ts's.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findShape } from '../../src/core/catalog';
import { parametersRecord, readSoapParameters } from '../../src/core';
import { parseXml } from '../../src/core/xml/dom';
import { MAX_DEPTH } from '../../src/core/xml/dom';
import { DEFAULT_LIMITS } from '../../src/sandbox/http/limits';
import { normaliseRequest } from '../../src/sandbox/decode/normalise';
import { invoke } from '../../src/sandbox/operations';
import { bodyWrapper } from '../../src/sandbox/soap/envelope';
import { SandboxLockedError, startSandbox } from '../../src/sandbox/server';
import { LOCK_FILE } from '../../src/sandbox/state/lock';
import { STATE_FILE, SandboxStore } from '../../src/sandbox/state/store';
import type { SandboxContext } from '../../src/sandbox/context';
import { actionOf, call, child, children, Clock, el, envelope, http, KEY, NS_DISTINCT, soapHeaders, soapResult, textAt, type Node } from './sandbox-kit';
import { bolRequest, todayUs } from './sandbox-requests';

const ROOT = path.resolve(__dirname, '..', '..');
const BOL = '/1.0.1/BillOfLadingService.asmx';
const TRACE = '/1.0.2/ShipmentTracingService.asmx';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-durable-'));
const journals = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.journal'));
const readState = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')) as { format: number; journal?: number; bols: { bolId: number }[] };

/** The day after the kit's Clock: the BOLDate of bills of lading sent to sandboxes on that clock. */
const CLOCK_BOL_DATE = '11/19/2026';

/** `bol` defaults to one dated today, for sandboxes on the real clock. */
function createBody(po: string, bol: Node = bolRequest({ po, date: todayUs() })): { body: string; headers: Record<string, string> } {
  return {
    body: envelope('1.1', el('CreateBillOfLading', [el('APIKey', KEY), bol]), NS_DISTINCT, 'default-xmlns'),
    headers: soapHeaders('1.1', actionOf(NS_DISTINCT, 'CreateBillOfLading'), 'quoted'),
  };
}

async function createBol(url: string, po: string, date = todayUs()): Promise<number> {
  const r = await http(url + BOL, { method: 'POST', ...createBody(po, bolRequest({ po, date })) });
  if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
  return Number(textAt(soapResult(r.text, 'CreateBillOfLading'), 'BolID'));
}

/** Shipments a trace finds for each number (TraceNumbers 50 at a time), by BOL number or another type. */
async function traced(url: string, numbers: string[], type = 'BOL'): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < numbers.length; i += 50) {
    const chunk = numbers.slice(i, i + 50);
    const r = await call(
      url,
      TRACE,
      el('TraceShipment', [
        el('APIKey', KEY),
        el('request', [
          el(
            'TraceNumbers',
            chunk.map((n) => el('string', n)),
          ),
          el('TraceType', type),
        ]),
      ]),
    );
    for (const s of children(child(r, 'Result'), 'Shipment')) {
      if (textAt(s, 'ErrorMessage')) continue;
      const bolId = Number(textAt(s, 'ReferenceNumbers', 'BOL'));
      found.set(String(bolId), (found.get(String(bolId)) ?? 0) + 1);
    }
  }
  return found;
}

interface CliSandbox {
  readonly proc: ChildProcess;
  readonly url: string;
  readonly output: () => string;
}

/** `carrier sandbox …` in a child process: resolved with its address, or rejected with its output when it exits first. */
function spawnCli(args: string[]): Promise<CliSandbox> {
  const proc = spawn(process.execPath, ['-r', 'tsx/cjs', 'src/cli/main.ts', 'sandbox', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    // tsx compiles the CLI on start: on two cores shared with other suites that can take a while.
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no address within 60 s: ${out}`));
    }, 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^Carrier sandbox listening on (http:\/\/[\d.]+:\d+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1]!, output: () => out });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited ${code}: ${out}`), { code, output: out }));
    });
  });
}

function exitOf(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

describe('sandbox state: the data folder is locked', function () {
  this.timeout(60_000);

  it("a second sandbox on the same folder refuses to start, naming the first one's pid and address", async () => {
    const dir = tempDir();
    try {
      const first = await startSandbox({ dataDir: dir });
      try {
        await assert.rejects(startSandbox({ dataDir: dir }), (e: unknown) => {
          assert.ok(e instanceof SandboxLockedError);
          assert.equal(e.holderPid, process.pid);
          assert.ok(e.message.includes(`pid ${process.pid}`) && e.message.includes(first.url), e.message);
          return true;
        });
        assert.equal((await http(`${first.url}/1.0.2/ShipmentTracingService.asmx?WSDL`)).status, 200, 'the first keeps serving');
      } finally {
        await first.close();
      }
      assert.ok(!fs.existsSync(path.join(dir, LOCK_FILE)), 'close() unlocks');
      const again = await startSandbox({ dataDir: dir });
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("carrier sandbox: the second process exits 1 with the first one's pid and address", async () => {
    const dir = tempDir();
    try {
      const first = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']);
      try {
        const second = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']).then(
          () => undefined,
          (e: { code: number; output: string }) => e,
        );
        assert.ok(second, 'the second sandbox did not start');
        assert.equal(second.code, 1);
        assert.match(second.output, new RegExp(`in use by another sandbox \\(pid ${first.proc.pid}, ${first.url.replace(/[.]/g, '\\.')}\\)`));
      } finally {
        first.proc.kill('SIGTERM');
        assert.equal(await exitOf(first.proc), 0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lock left by a process that no longer runs, or by an earlier boot, is taken over', async () => {
    const dir = tempDir();
    try {
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
      const boot = Math.round((Date.now() - os.uptime() * 1000) / 10_000) * 10_000;
      for (const lock of [
        { pid: Number(dead), boot, startedAt: new Date().toISOString(), token: 'dead', url: 'http://127.0.0.1:1' },
        // The pid runs (it is this very process), but the lock is from before the machine started.
        { pid: process.pid, boot: boot - 86_400_000, startedAt: '2020-01-01T00:00:00.000Z', token: 'old-boot' },
      ]) {
        fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(lock));
        const lines: string[] = [];
        const sb = await startSandbox({ dataDir: dir, log: (l) => lines.push(l) });
        assert.ok(
          lines.some((l) => l.includes(`took over the lock of pid ${lock.pid}`)),
          lines.join('\n'),
        );
        const held = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; url: string };
        assert.deepEqual([held.pid, held.url], [process.pid, sb.url]);
        await sb.close();
      }
      // A lock file that never got its content (its writer died at once) is taken over once it is old.
      fs.writeFileSync(path.join(dir, LOCK_FILE), '');
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(dir, LOCK_FILE), old, old);
      const sb = await startSandbox({ dataDir: dir });
      await sb.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox state: a journal, not a rewrite per change', function () {
  this.timeout(60_000);

  it('each bill of lading is one journal line; the snapshot is untouched until compaction, and holds everything after a stop', async () => {
    const dir = tempDir();
    try {
      const sb = await startSandbox({ dataDir: dir });
      const snapshotAtStart = fs.readFileSync(path.join(dir, STATE_FILE), 'utf8');
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push(await createBol(sb.url, `PO-J-${i}`));
      assert.equal(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8'), snapshotAtStart, 'the snapshot is not rewritten per change');
      const [journal] = journals(dir);
      assert.ok(journal, `a journal in ${fs.readdirSync(dir).join(', ')}`);
      const lines = fs.readFileSync(path.join(dir, journal), 'utf8').split('\n').filter(Boolean);
      assert.deepEqual(
        lines.map((l) => (JSON.parse(l) as { bol: { bolId: number } }).bol.bolId),
        ids,
      );
      await sb.close();

      const state = readState(dir);
      assert.equal(state.format, 2);
      assert.deepEqual(
        state.bols.map((b) => b.bolId),
        ids,
      );
      assert.deepEqual(journals(dir), [], 'a clean stop folds the journal into the snapshot');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a state file of format 1 (before the journal) and the journal alone after a kill, dropping a last line cut short', async () => {
    const dir = tempDir();
    try {
      const clock = new Clock();
      const sb = await startSandbox({ dataDir: dir, now: clock.now });
      const a = await createBol(sb.url, 'PO-OLD-A', CLOCK_BOL_DATE);
      const b = await createBol(sb.url, 'PO-OLD-B', CLOCK_BOL_DATE);
      const [journal] = journals(dir);
      const lines = fs.readFileSync(path.join(dir, journal!), 'utf8').split('\n').filter(Boolean);
      await sb.close();
      const state = JSON.parse(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')) as { next: unknown; bols: { bolId: number }[]; pickups: unknown[] };

      // Format 1: the whole state in one file, as the sandbox wrote it before the journal.
      fs.writeFileSync(path.join(dir, STATE_FILE), JSON.stringify({ format: 1, next: state.next, bols: state.bols.filter((x) => x.bolId === a), pickups: [] }));
      // A journal as a kill leaves it: b's line whole, then half a line that was never acknowledged.
      fs.writeFileSync(path.join(dir, 'sandbox-state.0.journal'), `${lines[1]}\n${lines[1]!.slice(0, 40)}`);
      const log: string[] = [];
      const again = await startSandbox({ dataDir: dir, now: clock.now, log: (l) => log.push(l) });
      try {
        const found = await traced(again.url, [String(a), String(b)]);
        assert.deepEqual([...found.keys()].sort(), [String(a), String(b)].sort());
        assert.ok(
          log.some((l) => /cut short by a stop mid-write/.test(l)),
          log.join('\n'),
        );
        assert.equal(await createBol(again.url, 'PO-OLD-C', CLOCK_BOL_DATE), b + 1, 'ids continue');
      } finally {
        await again.close();
      }
      assert.equal(readState(dir).format, 2, 'migrated on the first start');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox state: a request that fails stores nothing', function () {
  this.timeout(60_000);

  /** The CreateBillOfLading call as soapRoute binds it. */
  function bolCall(po: string) {
    const op = findShape('CreateBillOfLading', '1.0.1')!;
    const wrapper = bodyWrapper(parseXml(createBody(po, bolRequest({ po })).body), '1.1');
    const { params, issues } = readSoapParameters(op, wrapper, NS_DISTINCT, 'absent');
    return { op, binding: 'soap11' as const, params: normaliseRequest(parametersRecord(op), params, issues).value, ignored: [] };
  }

  it('a reply that cannot be written takes back what the handler created, in memory and on disk', async () => {
    const dir = tempDir();
    const clock = new Clock();
    try {
      const store = await SandboxStore.open(clock.now(), dir, () => undefined);
      const ctx: SandboxContext = { namespaces: NS_DISTINCT, store, now: clock.now, log: () => undefined, allowInjection: false, limits: DEFAULT_LIMITS };
      await assert.rejects(
        invoke(bolCall('PO-FAILS'), ctx, () => {
          throw new Error('the reply cannot be written');
        }),
        /cannot be written/,
      );
      assert.deepEqual(store.findShipments('PO', 'PO-FAILS'), []);
      assert.equal(store.createdBol(1001), undefined);
      const id = await invoke(bolCall('PO-WORKS'), ctx, (result) => result.BolID);
      assert.equal(id, 1002, "the failed call's id stays used");
      await store.close();

      const reopened = await SandboxStore.open(clock.now(), dir, () => undefined);
      try {
        assert.deepEqual(reopened.findShipments('PO', 'PO-FAILS'), []);
        assert.equal(reopened.findShipments('PO', 'PO-WORKS').length, 1);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("over HTTP, at every depth of an open record up to past the parser's limit: stored exactly when the reply is a 200", async () => {
    const dir = tempDir();
    const deep = (n: number): Node => {
      let x: Node = el('x', 'v');
      for (let i = 0; i < n; i++) x = el('x', [x]);
      return x;
    };
    try {
      const sb = await startSandbox({ dataDir: dir });
      try {
        const outcomes: string[] = [];
        for (let depth = MAX_DEPTH - 12; depth <= MAX_DEPTH + 2; depth++) {
          const po = `PO-DEEP-${depth}`;
          const bol = bolRequest({ po, date: todayUs() });
          const inner = bol.children![0]!;
          const withDeep = {
            ...bol,
            children: [
              { ...inner, children: [...inner.children!, el('NoSignatureNotificationContacts', [el('PhoneNumbers', [deep(depth)])])] },
              ...bol.children!.slice(1),
            ],
          };
          const r = await http(sb.url + BOL, { method: 'POST', ...createBody(po, withDeep) });
          const stored = (await traced(sb.url, [po], 'PO')).size > 0;
          outcomes.push(`${depth}: ${r.status}${stored ? ' stored' : ''}`);
          assert.equal(stored, r.status === 200, outcomes.join('; '));
        }
        assert.ok(
          outcomes.some((o) => o.includes(': 500')),
          outcomes.join('; '),
        );
      } finally {
        await sb.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox state: kill -9 under load', function () {
  this.timeout(240_000);

  it('loses no bill of lading whose reply was sent: 32 clients, up to 1,000 requests, SIGKILL mid-load, every acknowledged BolID found after a restart', async () => {
    const dir = tempDir();
    try {
      const sb = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']);
      const acked: number[] = [];
      const failedBeforeKill: string[] = [];
      let started = 0;
      let killed = false;
      const killAt = 300 + Math.floor(Math.random() * 400);
      const client = async (n: number) => {
        while (started < 1000 && !killed) {
          const i = started++;
          try {
            acked.push(await createBol(sb.url, `PO-K-${n}-${i}`));
          } catch (error) {
            if (!killed) failedBeforeKill.push(`client ${n}, request ${i}: ${(error as Error).message}`);
            return;
          }
          if (acked.length >= killAt && !killed) {
            killed = true;
            sb.proc.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 32 }, (_, n) => client(n)));
      await exitOf(sb.proc);
      assert.ok(
        killed && acked.length >= killAt,
        `killed after ${acked.length} acknowledged (kill planned at ${killAt}); failed before the kill: ${failedBeforeKill.slice(0, 5).join('; ') || 'none'}`,
      );

      const restarted = await spawnCli(['--port', '0', '--data-dir', dir, '--quiet']);
      try {
        const found = await traced(restarted.url, acked.map(String));
        const lost = acked.filter((id) => !found.has(String(id)));
        assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged bills of lading lost`);
        assert.ok(
          [...found.values()].every((n) => n === 1),
          'each found once',
        );
        const next = await createBol(restarted.url, 'PO-AFTER');
        assert.ok(next > Math.max(...acked), 'no BolID is handed out twice');
      } finally {
        restarted.proc.kill('SIGTERM');
        assert.equal(await exitOf(restarted.proc), 0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox state: indexed lookups', function () {
  this.timeout(60_000);

  it('finds created bills of lading by PRO (leading zeros dropped, dashes), BolID, PO, shipper and quote numbers, among many', async () => {
    const clock = new Clock();
    const sb = await startSandbox({ now: clock.now });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) ids.push(await createBol(sb.url, `PO-IDX-${i}`, CLOCK_BOL_DATE));
      const pick = ids[37]!;
      const created = await call(
        sb.url,
        TRACE,
        el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', String(pick))]), el('TraceType', 'BOL')])]),
      );
      const pro = textAt(child(child(created, 'Result'), 'Shipment'), 'ShipmentNumber');
      assert.match(pro, /^\d{9}$/);
      const dashed = `${pro.slice(0, 3)}-${pro.slice(3, 6)} ${pro.slice(6)}`;
      for (const [type, number] of [
        ['PRO', pro],
        ['PRO', dashed],
        ['PO', 'po-idx-37'],
        ['CustomerPO', 'PO-IDX-37 '],
        ['BOL', String(pick)],
      ] as const) {
        assert.deepEqual([...(await traced(sb.url, [number], type)).keys()], [String(pick)], `${type} ${number}`);
      }
      // Shared numbers: every BOL carries shipper SH-4471 and quote 7301122, so those find all of them, in order.
      const byShipper = await call(
        sb.url,
        TRACE,
        el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', 'SH-4471')]), el('TraceType', 'Order')])]),
      );
      assert.deepEqual(
        children(child(byShipper, 'Result'), 'Shipment').map((s) => Number(textAt(s, 'ReferenceNumbers', 'BOL'))),
        ids,
      );
      assert.equal((await traced(sb.url, ['7301122'], 'Reference')).size, ids.length);
    } finally {
      await sb.close();
    }
  });
});
