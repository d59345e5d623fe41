/**
 * The carrier clock (src/sandbox/carrier/clock.ts) and shipments that move on it
 * (docs/sandbox-model.md#shipments-move-on-the-carrier-clock): a pickup pending, dispatched and
 * picked up; its bill of lading traced through delivery; documents only after the events that
 * make them. The sandbox runs from a fake real clock the tests move by hand, so no test reads the
 * wall clock and every reading, and so every answer, is the same on every run.
 */
import { strict as assert } from 'node:assert';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { EmbeddedSandbox } from '../../src/cli/embeddedSandbox';
import { parseEnvironments } from '../../src/core/environments';
import { carrierClock, carrierInstant, clockRateProblem, pickupStatusAt, pickupTimes, type PickupTaskStatus } from '../../src/sandbox/carrier';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { requestedPickupTimes } from '../../src/sandbox/state/bolShipment';
import { call, child, children, Clock, el, KEY, NS_SAME, textAt, withChild, type Node } from './sandbox-kit';
import { bolRequest, pickupRequest } from './sandbox-requests';

const ns = NS_SAME;
const MINUTE = 60_000;
/** Wednesday 18 November 2026, 9:00 AM at Burns TN (the kit's clock): a working morning at the shipper. */
const START = new Clock().now();

/** A real clock a test moves: milliseconds of "real" time since it was made. */
class FakeRealClock {
  ms = 0;
  readonly now = (): Date => new Date(Date.UTC(2030, 0, 1) + this.ms);
}

/** A pickup for today at Burns, ready since 8:00 AM, closing at 5:00 PM: it is made an hour after it is asked for. */
const PICKUP_INFO = el('PickupInformation', [
  el('PickupDate', '11/18/2026'),
  el('ReadyTime', '08:00 AM'),
  el('CloseTime', '05:00 PM'),
  el('AdditionalInstructions', 'Ring at dock door'),
]);

function todaysPickup(bolId: number): Node {
  const request = pickupRequest(bolId);
  const pickup = request.children!.find((c) => c.name === 'Pickup')!;
  return withChild(request, 'Pickup', withChild(pickup, 'PickupInformation', PICKUP_INFO));
}

async function createBolAndPickup(url: string): Promise<{ pro: string; bolId: number; taskStatus: string; message: string }> {
  const bol = await call(url, '/1.0.1/BillOfLadingService.asmx', el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ date: '11/18/2026' })]), ns);
  assert.equal(textAt(bol, 'WasSuccess'), 'true', textAt(bol, 'Messages'));
  const bolId = Number(textAt(bol, 'BolID'));
  const pickup = await call(url, '/1.0.3/PickupRequestService.asmx', el('CreatePickupRequest', [el('APIKey', KEY), todaysPickup(bolId)]), ns);
  const message = textAt(pickup, 'Pickup', 'Message');
  assert.equal(textAt(pickup, 'Pickup', 'WasSuccess'), 'true', message);
  return { pro: textAt(bol, 'WebProNumber'), bolId, taskStatus: textAt(pickup, 'Pickup', 'Result', 'TaskStatus', 'Status'), message };
}

interface Traced {
  readonly shortStatus: string;
  readonly codes: string[];
  readonly raw: string;
}

async function trace(url: string, pro: string): Promise<Traced> {
  const r = await call(
    url,
    '/1.0.2/ShipmentTracingService.asmx',
    el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', pro)]), el('TraceType', 'PRO')])]),
    ns,
  );
  const shipment = child(child(r, 'Result'), 'Shipment');
  return {
    shortStatus: textAt(shipment, 'ShortStatus'),
    codes: children(child(shipment, 'StatusHistory'), 'StatusEvent').map((e) => textAt(e, 'Code')),
    raw: JSON.stringify(shipment),
  };
}

async function documentTypes(url: string, pro: string): Promise<string[]> {
  const r = await call(url, '/1.0.0/DocumentRetrievalService.asmx', el('GetDocumentTypes', [el('APIKey', KEY), el('ProNumber', pro)]), ns);
  return children(child(r, 'AvailableDocumentTypes'), 'DocumentType').map((t) => t.text);
}

/** Each distinct value once, in the order first seen. */
const distinctInOrder = (xs: readonly string[]): string[] => xs.filter((x, i) => i === 0 || xs[i - 1] !== x);

describe('the carrier clock', () => {
  it('is a pure function of its start, its rate and the real time elapsed', () => {
    const start = Date.UTC(2026, 10, 18, 15);
    assert.equal(carrierInstant(start, 600, 0).getTime(), start);
    assert.equal(carrierInstant(start, 600, 6_000).getTime(), start + 60 * MINUTE);
    assert.equal(carrierInstant(start, 60, 60_000).getTime(), start + 60 * MINUTE);
    assert.equal(carrierInstant(start, 0.5, 1_000).getTime(), start + 500);
  });

  it('runs from an injected real clock, from its own start or the real one', () => {
    const real = new FakeRealClock();
    const fast = carrierClock({ real: real.now, rate: 600, start: START });
    const plain = carrierClock({ real: real.now, rate: 600 });
    const realAtStart = real.now().getTime();
    assert.equal(fast().getTime(), START.getTime());
    real.ms += 1_500;
    assert.equal(fast().getTime(), START.getTime() + 15 * MINUTE);
    assert.equal(plain().getTime(), realAtStart + 15 * MINUTE);
    assert.equal(carrierClock({ real: real.now }), real.now, 'rate 1 from the real reading is the real clock itself');
  });

  it('refuses a rate that is not a positive number', () => {
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 86_401]) {
      assert.ok(clockRateProblem(rate), String(rate));
      assert.throws(() => carrierClock({ real: () => START, rate }), RangeError);
    }
    for (const rate of [1, 60, 600, 0.5, 86_400]) assert.equal(clockRateProblem(rate), undefined, String(rate));
  });
});

describe('a pickup on the carrier clock', () => {
  it('is pending, dispatched 15 minutes after the request (or 45 before the driver comes), then picked up', () => {
    const asked = new Date(START.getTime());
    const soon = pickupTimes(asked, new Date(asked.getTime() + 60 * MINUTE));
    assert.equal(soon.dispatchedAt.getTime(), asked.getTime() + 15 * MINUTE);
    const later = pickupTimes(asked, new Date(asked.getTime() + 6 * 60 * MINUTE));
    assert.equal(later.dispatchedAt.getTime(), asked.getTime() + (6 * 60 - 45) * MINUTE);
    const at = (minutes: number): PickupTaskStatus => pickupStatusAt(soon, new Date(asked.getTime() + minutes * MINUTE));
    assert.deepEqual([0, 14, 15, 59, 60, 600].map(at), ['Pending', 'Pending', 'Dispatched', 'Dispatched', 'Picked Up', 'Picked Up']);
    const rushed = pickupTimes(asked, new Date(asked.getTime() + 5 * MINUTE));
    assert.equal(rushed.dispatchedAt.getTime(), rushed.pickupAt.getTime(), 'never dispatched after the pickup');
  });
});

describe('sandbox shipments move on the carrier clock (fake real clock, rate 600)', () => {
  const STEP_MS = 3_000; // 30 carrier minutes
  let real: FakeRealClock;
  let sb: SandboxHandle;
  beforeEach(async () => {
    real = new FakeRealClock();
    sb = await startSandbox({ namespaces: ns, now: real.now, clockRate: 600, clockStart: START });
  });
  afterEach(() => sb.close());

  it('moves a pickup and its bill of lading from pending through delivery, documents following the events', async () => {
    const made = await createBolAndPickup(sb.url);
    assert.equal(made.taskStatus, 'Pending');
    // The same times the sandbox reads the pickup from: its information and its request instant.
    const times = requestedPickupTimes(
      { info: { PickupDate: '11/18/2026', ReadyTime: '08:00 AM', CloseTime: '05:00 PM' }, requestedAt: START },
      'America/Chicago',
    )!;
    assert.equal(times.pickupAt.getTime(), START.getTime() + 60 * MINUTE, 'a same-day pickup whose ready time has passed comes an hour after it is asked for');

    const statuses: string[] = [];
    for (let step = 0; step < 24 * 10 && statuses.at(-1) !== 'Delivered'; step++) {
      const carrierNow = new Date(START.getTime() + 600 * real.ms);
      const t = await trace(sb.url, made.pro);
      const docs = await documentTypes(sb.url, made.pro);
      statuses.push(t.shortStatus);
      // The trace and the pickup's own status never contradict each other.
      const pickup = pickupStatusAt(times, carrierNow);
      assert.equal(t.codes.includes('PU'), pickup === 'Picked Up', `step ${step}: ${pickup} vs ${t.codes.join()}`);
      assert.equal(t.codes.includes('DS'), pickup !== 'Pending', `step ${step}: ${pickup} vs ${t.codes.join()}`);
      // Paper appears only after the events that make it.
      assert.equal(docs.includes('BillOfLading'), t.codes.includes('PU'), `step ${step}: ${docs.join()}`);
      assert.equal(docs.includes('DeliveryReceipt'), t.codes.includes('DL'), `step ${step}: ${docs.join()}`);
      real.ms += STEP_MS;
    }
    assert.deepEqual(distinctInOrder(statuses), ['Pickup Scheduled', 'Picked Up', 'In Transit', 'Out For Delivery', 'Delivered']);
    const final = await trace(sb.url, made.pro);
    assert.deepEqual(final.codes.slice(0, 3), ['BOL', 'DS', 'PU']);
    assert.equal(final.codes.at(-1), 'DL');
    assert.ok((await documentTypes(sb.url, made.pro)).includes('Invoice'));
  });

  it('gives the same answers for the same clock readings', async () => {
    const first = await createBolAndPickup(sb.url);
    const seen: string[] = [];
    for (const ms of [0, 3_000, 6_000, 30_000, 200_000]) {
      real.ms = ms;
      seen.push((await trace(sb.url, first.pro)).raw);
    }
    const again = new FakeRealClock();
    const other = await startSandbox({ namespaces: ns, now: again.now, clockRate: 600, clockStart: START });
    try {
      const second = await createBolAndPickup(other.url);
      assert.equal(second.pro, first.pro);
      assert.equal(second.message, first.message);
      const seenAgain: string[] = [];
      for (const ms of [0, 3_000, 6_000, 30_000, 200_000]) {
        again.ms = ms;
        seenAgain.push((await trace(other.url, second.pro)).raw);
      }
      assert.deepEqual(seenAgain, seen);
      assert.equal(new Set(seen).size, seen.length, 'each reading shows the shipment further on');
    } finally {
      await other.close();
    }
  });
});

describe('sandbox over real HTTP at clock rate 600', () => {
  it('shows a new pickup picked up after a few real seconds, statuses in order', async function () {
    this.timeout(60_000);
    // Real elapsed time from the sandbox's own clock; the carrier day is fixed so the pickup is always possible.
    const sb = await startSandbox({ namespaces: ns, clockRate: 600, clockStart: START });
    try {
      const made = await createBolAndPickup(sb.url);
      assert.equal(made.taskStatus, 'Pending');
      const order = ['Pickup Scheduled', 'Picked Up', 'In Transit', 'Out For Delivery', 'Delivered'];
      const seen: string[] = [];
      for (let attempt = 0; attempt < 200 && !seen.includes('Picked Up'); attempt++) {
        seen.push((await trace(sb.url, made.pro)).shortStatus);
        if (!seen.includes('Picked Up')) await new Promise((resolve) => setTimeout(resolve, 150));
      }
      assert.ok(seen.includes('Picked Up'), `never picked up: ${distinctInOrder(seen).join(' → ')}`);
      assert.equal(seen[0], 'Pickup Scheduled');
      const ranks = seen.map((s) => order.indexOf(s));
      assert.ok(
        ranks.every((r, i) => r >= 0 && (i === 0 || r >= ranks[i - 1]!)),
        `out of order: ${distinctInOrder(seen).join(' → ')}`,
      );
    } finally {
      await sb.close();
    }
  });
});

describe('the clock rate setting', () => {
  it("gives each distinct setting of a command's embedded environments a sandbox of its own", async () => {
    const sandbox = new EmbeddedSandbox();
    try {
      const fast = parseEnvironments(
        JSON.stringify({ fast: { baseUrl: 'embedded', sandbox: { clockRate: 600 } } }),
        '/work/carrier.environments.json',
      ).environments.find((e) => e.name === 'fast')!;
      const plain = parseEnvironments(JSON.stringify({ plain: { baseUrl: 'embedded' } }), '/work/carrier.environments.json').environments.find(
        (e) => e.name === 'plain',
      )!;
      const [a, b, c] = [await sandbox.url(fast), await sandbox.url(plain), await sandbox.url(fast)];
      assert.notEqual(a, b, 'a fast clock and the real one are two sandboxes');
      assert.equal(a, c, 'the same setting asks the same sandbox');
    } finally {
      await sandbox.close();
    }
  });

  it('is read from an embedded environment of carrier.environments.json, and only there', () => {
    const loaded = parseEnvironments(
      JSON.stringify({
        sandbox: { sandbox: { clockRate: 60 } },
        fast: { baseUrl: 'embedded', sandbox: { clockRate: 600 } },
        staging: { baseUrl: 'https://staging.carrier.example', sandbox: { clockRate: 600 } },
      }),
      '/work/carrier.environments.json',
    );
    assert.deepEqual(loaded.problems, []);
    const byName = new Map(loaded.environments.map((e) => [e.name, e]));
    assert.equal(byName.get('sandbox')!.sandbox?.clockRate, 60);
    assert.equal(byName.get('fast')!.sandbox?.clockRate, 600);
    assert.equal(byName.get('staging')!.sandbox, undefined, 'a remote service keeps its own clock');
  });

  it('refuses a rate that is not a positive number, or an unknown sandbox setting', () => {
    for (const sandbox of [{ clockRate: 0 }, { clockRate: -5 }, { clockRate: '60' }, { speed: 2 }]) {
      const loaded = parseEnvironments(JSON.stringify({ sandbox: { sandbox } }), '/work/carrier.environments.json');
      assert.ok(
        loaded.problems.some((p) => p.severity === 'error' && p.path.startsWith('sandbox.sandbox')),
        JSON.stringify(loaded.problems),
      );
    }
  });

  it('is refused by `carrier sandbox --clock-rate` unless a positive number (exit 2)', async () => {
    for (const value of ['0', '-5', 'fast', '1e3', '', '86401']) {
      let err = '';
      const io: CliIo = { stdout: () => undefined, stderr: (t) => void (err += t), cwd: process.cwd(), env: {} };
      const code = await runCli(['sandbox', '--clock-rate', value], io);
      assert.equal(code, 2, `--clock-rate ${value}`);
      assert.match(err, /--clock-rate must be/, err);
    }
  });

  it('is described in the help of `carrier sandbox`', async () => {
    let out = '';
    const io: CliIo = { stdout: (t) => void (out += t), stderr: () => undefined, cwd: process.cwd(), env: {} };
    assert.equal(await runCli(['help', 'sandbox'], io), 0);
    assert.match(out, /--clock-rate/);
  });
});
