/**
 * A virtual carrier from recordings (issue 35, item 2): a session recorded by the traffic inspector
 * in front of one sandbox is answered by another sandbox started with `replay` (a different carrier
 * clock, so its own answers differ) — every recorded exchange byte for byte, a repeated call in
 * turn, an unmatched call emulated or refused with a fault naming the closest recording, replay.json
 * ignoring parameters, a malformed recording refused with its file's name.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape, type Binding } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { sampleRequestFile } from '../../src/core/generate/samples';
import { runCli } from '../../src/cli/dispatch';
import { startInspector } from '../../src/inspector';
import { ReplayLoadError, startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/server';
import { closeClientAgent, plainRequest, startTap, tmpDir, type Sent } from './inspect-kit';
import { soapFault, textAt, xml } from './sandbox-kit';

const KEY = 'replay-recording-key-4711';
const RECORDED_DAY = new Date('2026-03-02T15:00:00Z');
const OTHER_DAY = new Date('2026-06-15T15:00:00Z');

interface RecordedFiles {
  readonly exchange: string;
  readonly requestBody?: string;
  readonly replyBody?: string;
  readonly requestFile?: string;
}
interface RecordedDoc {
  readonly files: RecordedFiles;
  readonly exchange: {
    readonly request: { readonly method: string; readonly url: string; readonly headers: Array<[string, string]> };
    readonly reply: { readonly status: number; readonly headers: Array<[string, string]> };
  };
}

/** The one shape of an operation, or GetRateQuote's newest. */
const shapeOf = (operation: string) => (findShape(operation) ?? findShape(operation, '1.0.3'))!;

const params = (operation: string): Record<string, unknown> => (sampleRequestFile(shapeOf(operation), 'soap11') as { params: Record<string, unknown> }).params;

/** A bill of lading the recorded day's sandbox accepts: dated the next business day. */
function bolParams(pickupDate = '03/03/2026', weight = 1500): Record<string, unknown> {
  const p = structuredClone(params('CreateBillOfLading')) as {
    request: { BillOfLading: { BOLDate: string; Items: Array<{ Weight: number }> }; PickupRequestInfo: { PickupDate: string } };
  };
  p.request.BillOfLading.BOLDate = '03/03/2026';
  p.request.PickupRequestInfo.PickupDate = pickupDate;
  p.request.BillOfLading.Items[0]!.Weight = weight;
  return p;
}

function call(baseUrl: string, operation: string, binding: Binding, p: Record<string, unknown>): Promise<Sent> {
  const spec = buildHttpRequest({ op: shapeOf(operation), binding, baseUrl, namespaces: DEFAULT_NAMESPACES, params: p, apiKey: KEY });
  const headers = (spec.headers as Array<[string, string]>).filter(([n]) => n.toLowerCase() !== 'content-length');
  return plainRequest(spec.url, spec.method, headers, spec.body ? Buffer.from(spec.body) : undefined);
}

const header = (headers: ReadonlyArray<readonly [string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

async function withReplay<T>(options: SandboxOptions, fn: (sb: SandboxHandle) => Promise<T>): Promise<T> {
  const sb = await startSandbox({ clockStart: OTHER_DAY, ...options });
  try {
    return await fn(sb);
  } finally {
    await sb.close();
  }
}

describe('sandbox replay: a virtual carrier from recordings', function () {
  this.timeout(60_000);
  const root = tmpDir('carrier-replay-');
  const dir = path.join(root, 'rec');
  const docs: Array<{ name: string; doc: RecordedDoc }> = [];

  const recordedReply = (d: RecordedDoc) => (d.files.replyBody ? fs.readFileSync(path.join(dir, d.files.replyBody)) : Buffer.alloc(0));
  const named = (suffix: string) => docs.filter((d) => d.name.endsWith(suffix)).map((d) => d.doc);

  before(async () => {
    const recordedSandbox = await startSandbox({ clockStart: RECORDED_DAY });
    const inspector = await startInspector({
      target: recordedSandbox.url,
      namespaces: DEFAULT_NAMESPACES,
      recordDir: dir,
      recordEnvironment: { name: 'recorded', baseUrl: recordedSandbox.url, namespaces: DEFAULT_NAMESPACES },
    });
    try {
      // One call after another, so the recording's numbers follow this order.
      const sent: Sent[] = [];
      sent.push(await call(inspector.url, 'GetRateQuote', 'soap11', params('GetRateQuote')));
      sent.push(await call(inspector.url, 'TraceShipment', 'soap12', { TraceNumbers: ['056391174'], TraceType: 'PRO' }));
      sent.push(await call(inspector.url, 'GetHazmatDescription', 'get', { UNNANumber: '1203' }));
      sent.push(await call(inspector.url, 'GetHazmatDescription', 'post', { UNNANumber: '1203' }));
      sent.push(await call(inspector.url, 'CreateBillOfLading', 'soap11', bolParams()));
      sent.push(await call(inspector.url, 'CreateBillOfLading', 'soap11', bolParams()));
      for (const s of sent) assert.equal(s.status, 200, s.body.toString());
      await inspector.flush();
    } finally {
      await inspector.close();
      await recordedSandbox.close();
    }
    for (const name of fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.exchange.json'))
      .sort()) {
      docs.push({ name, doc: JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as RecordedDoc });
    }
    assert.equal(docs.length, 6, fs.readdirSync(dir).join(', '));
  });
  after(() => {
    closeClientAgent();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers every recorded request with the recorded status, headers and body bytes, though its own clock differs', async () => {
    await withReplay({ replay: { dirs: [dir] } }, async (sb) => {
      for (const { name, doc } of docs) {
        const { request, reply } = doc.exchange;
        const body = doc.files.requestBody ? fs.readFileSync(path.join(dir, doc.files.requestBody)) : undefined;
        const headers = request.headers.filter(([n]) => !/^(host|content-length|connection|transfer-encoding)$/i.test(n));
        // The recording names the URL as it went to the target; the same path and query go to the replay.
        const target = new URL(request.url, sb.url);
        const got = await plainRequest(`${sb.url}${target.pathname}${target.search}`, request.method, headers, body);
        assert.equal(got.status, reply.status, name);
        assert.ok(got.body.equals(recordedReply(doc)), `${name}: the body differs from the recording:\n${got.body.toString()}`);
        // Every header as recorded, but those of one connection (the server sets its own).
        const own = (hs: ReadonlyArray<readonly [string, string]>) =>
          hs
            .filter(([n]) => !/^(date|connection|keep-alive|content-length|transfer-encoding)$/i.test(n))
            .map(([n, v]) => `${n.toLowerCase()}: ${v}`)
            .sort();
        assert.deepEqual(own(got.headers), own(reply.headers), name);
      }
      // The emulator on the other day refuses the bill of lading's dates: what came back was the recording.
      const emulated = await startSandbox({ clockStart: OTHER_DAY });
      try {
        const own = await call(emulated.url, 'CreateBillOfLading', 'soap11', bolParams());
        assert.equal(textAt(xml(own.body.toString()), 'Body', 'CreateBillOfLadingResponse', 'CreateBillOfLadingResult', 'WasSuccess'), 'false');
      } finally {
        await emulated.close();
      }
    });
  });

  it('answers several recordings of one call in turn, the last repeating', async () => {
    const [first, second] = named('-CreateBillOfLading.exchange.json').map(recordedReply);
    assert.ok(first && second && !first.equals(second), 'the two bills of lading should differ (BolID 1001, 1002)');
    assert.equal(textAt(xml(first.toString()), 'Body', 'CreateBillOfLadingResponse', 'CreateBillOfLadingResult', 'BolID'), '1001');
    await withReplay({ replay: { dirs: [dir] } }, async (sb) => {
      const got = [];
      for (let i = 0; i < 3; i++) got.push((await call(sb.url, 'CreateBillOfLading', 'soap11', bolParams())).body);
      assert.ok(got[0]!.equals(first), got[0]!.toString());
      assert.ok(got[1]!.equals(second), got[1]!.toString());
      assert.ok(got[2]!.equals(second), got[2]!.toString());
    });
  });

  it('`carrier run` of the recording against the replay passes, each reply byte for byte as recorded', async () => {
    await withReplay({ replay: { dirs: [dir] } }, async (sb) => {
      const tap = await startTap(sb.url);
      const envFile = path.join(dir, 'carrier.environments.json');
      const saved = fs.readFileSync(envFile, 'utf8');
      try {
        const envs = JSON.parse(saved) as Record<string, { baseUrl: string }>;
        envs.recorded!.baseUrl = tap.url;
        fs.writeFileSync(envFile, JSON.stringify(envs));
        let out = '';
        const code = await runCli(['run', dir], {
          stdout: (t) => (out += t),
          stderr: (t) => (out += t),
          cwd: root,
          env: { CARRIER_API_KEY_RECORDED: 'another-key-entirely' },
        });
        assert.equal(code, 0, out);
        const withFiles = docs.filter((d) => d.doc.files.requestFile);
        assert.equal(tap.seen.length, withFiles.length, out);
        withFiles.forEach((d, i) => {
          assert.ok(tap.seen[i]!.replyBody!.equals(recordedReply(d.doc)), `${d.name}: ${tap.seen[i]!.replyBody!.toString()}`);
        });
      } finally {
        fs.writeFileSync(envFile, saved);
        await tap.close();
      }
    });
  });

  it('emulates an unmatched request by default', async () => {
    await withReplay({ replay: { dirs: [dir] } }, async (sb) => {
      const p = structuredClone(params('GetRateQuote')) as { request: { Destination: { ZipOrPostalCode: string } } };
      p.request.Destination.ZipOrPostalCode = '45414';
      const got = await call(sb.url, 'GetRateQuote', 'soap11', p);
      assert.equal(got.status, 200, got.body.toString());
      assert.equal(textAt(xml(got.body.toString()), 'Body', 'GetRateQuoteResponse', 'GetRateQuoteResult', 'WasSuccess'), 'true');
      assert.ok(!got.body.equals(recordedReply(named('-GetRateQuote.exchange.json')[0]!)));
    });
  });

  it('under --replay-fallback fault, refuses an unmatched request with a fault of its SOAP version naming the closest recording and what differed', async () => {
    await withReplay({ replay: { dirs: [dir], fallback: 'fault' } }, async (sb) => {
      const p = structuredClone(params('GetRateQuote')) as { request: { Destination: { ZipOrPostalCode: string } } };
      p.request.Destination.ZipOrPostalCode = '45414';
      const got = await call(sb.url, 'GetRateQuote', 'soap11', p);
      assert.equal(got.status, 500);
      assert.match(header(got.headers, 'content-type') ?? '', /^text\/xml/);
      const fault = soapFault(got.body.toString(), '1.1');
      assert.equal(fault.code, 'soap:Client');
      assert.match(fault.reason, /001-GetRateQuote\.exchange\.json/);
      assert.match(fault.reason, /request\.Destination\.ZipOrPostalCode \(recorded "\d+", here "45414"\)/);

      const trace = await call(sb.url, 'TraceShipment', 'soap12', { TraceNumbers: ['I111111111'], TraceType: 'PRO' });
      assert.equal(trace.status, 500);
      assert.match(header(trace.headers, 'content-type') ?? '', /^application\/soap\+xml/);
      const fault12 = soapFault(trace.body.toString(), '1.2');
      assert.equal(fault12.code, 'soap:Sender');
      assert.match(fault12.reason, /002-TraceShipment\.exchange\.json .*TraceNumbers.*recorded "056391174", here "I111111111"/);

      const hazmat = await call(sb.url, 'GetHazmatDescription', 'get', { UNNANumber: '1993' });
      assert.equal(hazmat.status, 500);
      assert.match(header(hazmat.headers, 'content-type') ?? '', /^text\/plain/);
      assert.match(hazmat.body.toString(), /003-GetHazmatDescription\.exchange\.json .*UNNANumber \(recorded "1203", here "1993"\)/);

      // A recorded call still answers as recorded.
      const same = await call(sb.url, 'GetHazmatDescription', 'get', { UNNANumber: '1203' });
      assert.ok(same.body.equals(recordedReply(named('-GetHazmatDescription.exchange.json')[0]!)));
    });
  });

  it('sends a request far larger than any recording to the fallback unread: emulated, or a fault saying so', async () => {
    // 600 items: the envelope is many times the largest recorded request, so no recording can be it.
    const big = structuredClone(params('GetRateQuote')) as { request: { Items: unknown[] } };
    big.request.Items = Array.from({ length: 600 }, () => big.request.Items[0]);
    await withReplay({ replay: { dirs: [dir] } }, async (sb) => {
      const got = await call(sb.url, 'GetRateQuote', 'soap11', big);
      assert.equal(got.status, 200, got.body.toString());
    });
    await withReplay({ replay: { dirs: [dir], fallback: 'fault' } }, async (sb) => {
      const got = await call(sb.url, 'GetRateQuote', 'soap11', big);
      assert.equal(got.status, 500);
      assert.match(soapFault(got.body.toString(), '1.1').reason, /no recording of a request of [\d,]+ bytes: none it holds could be larger than [\d,]+/);
    });
  });

  it("ignores the parameters replay.json names, and only in that folder's recordings", async () => {
    const ignoring = path.join(root, 'ignoring');
    fs.cpSync(dir, ignoring, { recursive: true });
    fs.writeFileSync(path.join(ignoring, 'replay.json'), JSON.stringify({ ignore: ['PickupDate', 'Items[*].Weight'] }));
    const first = recordedReply(named('-CreateBillOfLading.exchange.json')[0]!);
    await withReplay({ replay: { dirs: [ignoring], fallback: 'fault' } }, async (sb) => {
      const got = await call(sb.url, 'CreateBillOfLading', 'soap11', bolParams('03/04/2026', 1600));
      assert.equal(got.status, 200, got.body.toString());
      assert.ok(got.body.equals(first), got.body.toString());
    });
    await withReplay({ replay: { dirs: [dir], fallback: 'fault' } }, async (sb) => {
      const got = await call(sb.url, 'CreateBillOfLading', 'soap11', bolParams('03/04/2026'));
      assert.equal(got.status, 500);
      assert.match(soapFault(got.body.toString()).reason, /request\.PickupRequestInfo\.PickupDate \(recorded "03\/03\/2026", here "03\/04\/2026"\)/);
    });
  });

  it('refuses a malformed recording or replay.json with the file named: the API throws, `carrier sandbox --replay` exits 2', async () => {
    const broken = path.join(root, 'broken');
    fs.cpSync(dir, broken, { recursive: true });
    const name = docs[0]!.name;
    const text = fs.readFileSync(path.join(broken, name), 'utf8');
    fs.writeFileSync(path.join(broken, name), text.slice(0, text.length / 2));
    await assert.rejects(startSandbox({ replay: { dirs: [broken] } }), (e: Error) => e instanceof ReplayLoadError && e.message.includes(name));

    const signals = process.listeners('SIGINT').length;
    let err = '';
    try {
      const code = await runCli(['sandbox', '--replay', broken], { stdout: () => undefined, stderr: (t) => (err += t), cwd: root, env: {} });
      assert.equal(code, 2, err);
      assert.match(err, new RegExp(`${name.replace(/\./g, '\\.')}: is not JSON`));
    } finally {
      // The command listens for a stop before starting; a start that failed leaves that listener.
      for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig).slice(signals)) process.off(sig, l);
    }

    fs.writeFileSync(path.join(broken, name), JSON.stringify({ ...JSON.parse(text), format: 'something-else' }));
    await assert.rejects(
      startSandbox({ replay: { dirs: [broken] } }),
      (e: Error) => e instanceof ReplayLoadError && e.message.includes(name) && /"format"/.test(e.message),
    );

    fs.writeFileSync(path.join(broken, name), text);
    fs.writeFileSync(path.join(broken, 'replay.json'), JSON.stringify({ ignore: ['Items[?].Weight'] }));
    await assert.rejects(startSandbox({ replay: { dirs: [broken] } }), (e: Error) => e instanceof ReplayLoadError && e.message.includes('replay.json'));
  });
});
