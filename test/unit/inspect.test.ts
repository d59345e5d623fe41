/**
 * The traffic inspector end to end: node-soap, built from the sandbox's ?WSDL fetched through the
 * inspector, calls every SOAP operation through it; a plain HTTP client calls every HTTP GET and
 * POST operation. A tap between inspector and sandbox keeps what the sandbox really received and
 * sent, so the test compares bytes on both sides: client ↔ sandbox, and both ↔ the recording.
 * Then: unknown requests, the key on disk (never), and `carrier run` replaying the recording.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as soap from 'soap';
import { getRecord, offers, parametersRecord, servicePath, servicePaths, shapeLabel, type OperationDef } from '../../src/core/catalog';
import type { RecordDef } from '../../src/core/catalog/types';
import { buildHttpRequest } from '../../src/core/envelope';
import { sampleRequestFile } from '../../src/core/generate';
import { hasErrors, validateRequestText } from '../../src/core/validation';
import { runCli } from '../../src/cli/dispatch';
import { startInspector, type InspectorHandle, type RecordedExchange } from '../../src/inspector';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { closeClientAgent, filesHolding, filesUnder, plainRequest, startTap, tmpDir, type Seen, type Tap } from './inspect-kit';

/** A key whose XML, URL and form spellings all differ from the raw one. */
const KEY = 'Tk3v&Q9z<Lm2+Rx8 Wb/Y4=Hs7Jd1';
const TOKEN = Buffer.from('integration:s3cret-pass').toString('base64');
const HOP = /^(connection|keep-alive|transfer-encoding|proxy-connection|te|trailer|upgrade|expect)$/i;

/** Request-file params → node-soap arguments: a list is its container holding the item element. */
function nodeSoapArgs(op: OperationDef): Record<string, unknown> {
  const params = (sampleRequestFile(op, 'soap11') as { params: Record<string, unknown> }).params;
  const convert = (record: RecordDef, value: unknown): unknown => {
    if (record.open || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const field of record.fields) {
      const v = (value as Record<string, unknown>)[field.name];
      if (v === undefined) continue;
      const inner = field.record ? getRecord(field.record) : undefined;
      const one = (x: unknown) => (inner ? convert(inner, x) : x);
      out[field.name] = field.list && Array.isArray(v) ? { [field.list]: v.map(one) } : one(v);
    }
    return out;
  };
  return convert(parametersRecord(op), { APIKey: KEY, ...params }) as Record<string, unknown>;
}

type Call = (args: unknown, cb: (err: unknown, result: unknown) => void) => void;

const xmlEscaped = KEY.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const formEncoded = new URLSearchParams([['k', KEY]]).toString().slice(2);
const maskAll = (text: string, ...forms: string[]) => forms.reduce((t, f) => t.split(f).join('••••'), text);

describe('traffic inspector: every operation through it, bytes compared on both sides', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let tap: Tap;
  let inspector: InspectorHandle;
  let dir: string;
  /** For each request sent through the inspector, in order: what the client sent and got. */
  const sent: Array<{
    what: string;
    request?: Buffer;
    reply?: Buffer;
    status?: number;
    expectKnown?: { operation: string; version: string; binding: string };
  }> = [];

  before(async () => {
    sandbox = await startSandbox({});
    tap = await startTap(sandbox.url);
    dir = tmpDir('carrier-inspect-');
    inspector = await startInspector({ target: tap.url, namespaces: DEFAULT_NAMESPACES, environment: 'sandbox', recordDir: dir });
  });
  after(async () => {
    await inspector.close();
    await tap.close();
    await sandbox.close();
    closeClientAgent();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const seenFor = (index: number): Seen => {
    const s = tap.seen[index];
    assert.ok(s, `the sandbox never received request #${index + 1}`);
    return s;
  };

  for (const [servicePathText, shapes] of servicePaths()) {
    it(`node-soap from ${servicePathText}?WSDL (fetched through the inspector) calls ${shapes.map((s) => s.operation).join(', ')}`, async () => {
      const before = tap.seen.length;
      // The WSDL names the target's address (the inspector passes requests on unchanged, Host
      // included), so the client is pointed at the inspector as any client is: by its endpoint.
      const client = await soap.createClientAsync(`${inspector.url}${servicePathText}?WSDL`, {
        endpoint: `${inspector.url}${servicePathText}`,
        disableCache: true,
      });
      sent.push({ what: 'WSDL' });
      assert.equal(tap.seen.length, before + 1, 'the WSDL came through the inspector');
      const service = shapes[0].service;
      const port = (client as unknown as Record<string, Record<string, Record<string, Call>>>)[service][`${service}Soap`];
      for (const op of shapes) {
        const index = tap.seen.length;
        await new Promise((resolve, reject) =>
          port[op.operation](nodeSoapArgs(op), (err, result) => (err ? reject(new Error(`${shapeLabel(op)}: ${String(err)}`)) : resolve(result))),
        );
        const s = seenFor(index);
        assert.equal(s.body.toString('utf8'), client.lastRequest, `${shapeLabel(op)}: the sandbox received exactly what node-soap sent`);
        assert.equal(client.lastResponse, s.replyBody!.toString('utf8'), `${shapeLabel(op)}: node-soap received exactly what the sandbox replied`);
        assert.equal(s.headers.find(([n]) => n.toLowerCase() === 'soapaction')?.[1], (client.lastRequestHeaders as Record<string, string>).SOAPAction);
        sent.push({
          what: shapeLabel(op),
          request: Buffer.from(client.lastRequest!, 'utf8'),
          reply: s.replyBody,
          status: 200,
          expectKnown: { operation: op.operation, version: op.version, binding: 'soap11' },
        });
      }
    });
  }

  it('node-soap calls over SOAP 1.2 too', async () => {
    const p = '/1.0.2/ShipmentTracingService.asmx';
    const client = await soap.createClientAsync(`${inspector.url}${p}?WSDL`, {
      endpoint: `${inspector.url}${p}`,
      forceSoap12Headers: true,
      disableCache: true,
    });
    sent.push({ what: 'WSDL' });
    const port = (client as unknown as Record<string, Record<string, Record<string, Call>>>).ShipmentTracingService.ShipmentTracingServiceSoap12;
    const op = servicePaths().get(p)![0];
    const index = tap.seen.length;
    await new Promise((resolve, reject) => port.TraceShipment(nodeSoapArgs(op), (err, result) => (err ? reject(err) : resolve(result))));
    assert.equal(seenFor(index).body.toString('utf8'), client.lastRequest);
    sent.push({
      what: 'TraceShipment SOAP 1.2',
      request: seenFor(index).body,
      reply: seenFor(index).replyBody,
      status: 200,
      expectKnown: { operation: 'TraceShipment', version: '1.0.2', binding: 'soap12' },
    });
  });

  it('a plain HTTP client calls every HTTP GET and POST operation; headers pass unchanged but for Host and hop-by-hop ones', async () => {
    const httpShapes = [...servicePaths().values()].flat().filter((op) => offers(op, 'get'));
    assert.ok(httpShapes.length >= 5);
    for (const op of httpShapes) {
      for (const binding of ['get', 'post'] as const) {
        const params = (sampleRequestFile(op, binding) as { params: Record<string, unknown> }).params;
        const spec = buildHttpRequest({ op, binding, baseUrl: inspector.url, namespaces: DEFAULT_NAMESPACES, params, apiKey: KEY });
        const body = spec.method === 'POST' ? Buffer.from(spec.body, 'utf8') : undefined;
        const headers: Array<[string, string]> = [
          ...(spec.headers as Array<[string, string]>),
          ['X-Client-Trace', `${op.operation}-${binding}`],
          ['Authorization', `Basic ${TOKEN}`],
          ['Connection', 'keep-alive, X-Hop'],
          ['X-Hop', 'for the next hop only'],
          ...(body ? [['Content-Length', String(body.length)] as [string, string]] : []),
        ];
        const index = tap.seen.length;
        const got = await plainRequest(spec.url, spec.method, headers, body);
        const s = seenFor(index);
        assert.equal(got.status, 200, `${shapeLabel(op)} ${binding}: ${got.body.toString()}`);
        assert.equal(s.status, got.status);
        assert.deepEqual(s.body, body ?? Buffer.alloc(0), 'the body reached the sandbox byte for byte');
        assert.deepEqual(got.body, s.replyBody, 'the reply reached the client byte for byte');
        assert.equal(new URL(spec.url).pathname + new URL(spec.url).search, s.url, 'path and query unchanged');
        const passed = s.headers.filter(([n]) => !/^(host|connection)$/i.test(n));
        const expected = headers.filter(([n]) => !/^(host|connection|x-hop)$/i.test(n));
        assert.deepEqual(passed, expected, 'end-to-end headers unchanged, in order, names as sent');
        assert.equal(s.headers.find(([n]) => n === 'Host')?.[1], new URL(tap.url).host, 'Host names the target');
        const replyHeaders = s.replyHeaders!.filter(([n]) => !HOP.test(n));
        for (const h of replyHeaders)
          assert.ok(
            got.headers.some(([n, v]) => n === h[0] && v === h[1]),
            `reply header ${h[0]} passed on`,
          );
        sent.push({
          what: `${shapeLabel(op)} ${binding}`,
          request: body ?? Buffer.alloc(0),
          reply: got.body,
          status: 200,
          expectKnown: { operation: op.operation, version: op.version, binding },
        });
      }
    }
  });

  it('a SOAP client that also puts ?APIKEY= in the URL (seen in the wild) is forwarded as it is', async () => {
    const op = servicePaths()
      .get('/sandbox/BillOfLadingService.asmx')!
      .find((o) => o.operation === 'GetHazmatDescription')!;
    const spec = buildHttpRequest({
      op,
      binding: 'soap11',
      baseUrl: inspector.url,
      namespaces: DEFAULT_NAMESPACES,
      params: { UNNANumber: '1203' },
      apiKey: KEY,
    });
    const url = `${spec.url}?APIKEY=${encodeURIComponent(KEY)}`;
    const index = tap.seen.length;
    const got = await plainRequest(url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
    assert.equal(got.status, 200, got.body.toString());
    assert.equal(seenFor(index).url, `${servicePath(op)}?APIKEY=${encodeURIComponent(KEY)}`);
    sent.push({
      what: 'hazmat with ?APIKEY=',
      request: Buffer.from(spec.body),
      reply: got.body,
      status: 200,
      expectKnown: { operation: 'GetHazmatDescription', version: 'sandbox', binding: 'soap11' },
    });
  });

  it('forwards requests the catalog does not know and records them as unknown', async () => {
    const cases: Array<[string, string, Array<[string, string]>, Buffer | undefined, number]> = [
      ['an unknown path', '/api/v2/rates?zip=33601', [['Accept', 'application/json']], undefined, 404],
      [
        'JSON POSTed to .asmx/GetRateQuote',
        '/1.0.3/RateQuoteService.asmx/GetRateQuote',
        [['Content-Type', 'application/json']],
        Buffer.from(JSON.stringify({ APIKey: KEY, request: {} })),
        500,
      ],
      [
        'malformed XML',
        '/1.0.3/RateQuoteService.asmx',
        [['Content-Type', 'text/xml; charset=utf-8']],
        Buffer.from(`<soap:Envelope><APIKey>${xmlEscaped}</APIKey>`),
        500,
      ],
    ];
    for (const [what, p, headers, body, status] of cases) {
      const index = tap.seen.length;
      const got = await plainRequest(
        `${inspector.url}${p}`,
        body ? 'POST' : 'GET',
        [...headers, ...(body ? [['Content-Length', String(body.length)] as [string, string]] : [])],
        body,
      );
      assert.equal(got.status, status, `${what}: ${got.body.toString()}`);
      assert.deepEqual(seenFor(index).body, body ?? Buffer.alloc(0), `${what} reached the target`);
      sent.push({ what, request: body ?? Buffer.alloc(0), reply: got.body, status });
    }
  });

  let recorded: readonly RecordedExchange[] = [];

  it('records every exchange, read along the catalog, in the order they came', async () => {
    await inspector.flush();
    recorded = inspector.exchanges();
    assert.equal(recorded.length, tap.seen.length);
    assert.equal(recorded.length, sent.length);
    recorded.forEach((r, i) => {
      const want = sent[i];
      assert.equal(r.seq, i + 1);
      assert.equal(r.exchange.request.url.replace(/^http:\/\/[^/]+/, ''), maskAll(tap.seen[i].url, formEncoded, encodeURIComponent(KEY)), want.what);
      if (want.expectKnown) {
        assert.equal(r.recognition.kind, 'operation', `${want.what}: ${JSON.stringify(r.recognition)}`);
        assert.deepEqual({ operation: r.exchange.operation, version: r.exchange.version, binding: r.exchange.binding }, want.expectKnown);
        assert.equal(r.exchange.reply?.status, 200);
        assert.equal(r.exchange.fault, undefined);
        assert.ok(r.exchange.parsed && typeof r.exchange.parsed === 'object', `${want.what}: the reply was read along the catalog`);
        assert.ok(r.exchange.recorded?.params, `${want.what}: the request was read along the catalog`);
        assert.equal((r.exchange.recorded?.params as Record<string, unknown>).APIKey, '••••');
        assert.ok(r.files?.requestFile, `${want.what}: a request file`);
        assert.ok((r.exchange.timing?.totalMs ?? -1) >= 0);
      } else {
        assert.equal(r.recognition.kind, 'unknown', want.what);
        assert.equal(r.exchange.recorded?.recognised, false);
        assert.ok(r.exchange.findings.some((f) => f.kind === 'request' && /Not a call of the catalog/.test(f.message)));
        assert.equal(r.files?.requestFile, undefined, `${want.what}: no request file for an unknown exchange`);
      }
    });
    const documents = recorded.flatMap((r) => r.exchange.documents);
    assert.ok(
      documents.some((d) => d.mediaType === 'application/pdf' && (d.pages ?? 0) >= 1),
      'PDF replies are decoded',
    );
  });

  it('keeps the bytes of both sides: the raw files are what was sent and received, with only the key masked', () => {
    recorded.forEach((r, i) => {
      const want = sent[i];
      const files = r.files!;
      assert.ok(fs.existsSync(path.join(dir, files.exchange)));
      if (want.request?.length) {
        const raw = fs.readFileSync(path.join(dir, files.requestBody!));
        const expected = maskAll(want.request.toString('utf8'), xmlEscaped, formEncoded, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1));
        assert.equal(raw.toString('utf8'), expected, `${want.what}: the recorded request body`);
      } else {
        assert.equal(files.requestBody, undefined);
      }
      if (want.reply) {
        const raw = fs.readFileSync(path.join(dir, files.replyBody!));
        assert.ok(raw.equals(want.reply), `${want.what}: the recorded reply is the reply, byte for byte`);
      }
    });
  });

  it('never lets the key or the credentials reach the disk, in any spelling', () => {
    assert.ok(filesUnder(dir).length > 3 * recorded.length);
    assert.deepEqual(filesHolding(dir, KEY), []);
    assert.deepEqual(filesHolding(dir, TOKEN), []);
    for (const r of recorded) {
      const text = JSON.stringify(r);
      assert.ok(
        !text.includes(KEY) && !text.includes(xmlEscaped) && !text.includes(encodeURIComponent(KEY)) && !text.includes(TOKEN),
        `exchange #${r.seq} in memory holds a secret`,
      );
    }
    const withAuth = recorded.find((r) => r.exchange.request.headers.some(([n]) => n === 'Authorization'))!;
    assert.deepEqual(
      withAuth.exchange.request.headers.find(([n]) => n === 'Authorization'),
      ['Authorization', '••••'],
    );
  });

  it('writes request files that validate, and `carrier run` replays the recording with the same outcomes', async () => {
    const files = recorded.map((r) => r.files?.requestFile).filter((f): f is string => !!f);
    assert.equal(files.length, sent.filter((s) => s.expectKnown).length);
    for (const f of files) {
      const { findings, request } = validateRequestText(fs.readFileSync(path.join(dir, f), 'utf8'), f);
      assert.ok(request && !hasErrors(findings), `${f}: ${findings.map((x) => x.message).join('; ')}`);
      assert.ok(request.expect && request.expect.status === 200, `${f} expects the recorded status`);
    }
    let out = '';
    let err = '';
    const code = await runCli(['run', dir], {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      cwd: dir,
      env: {},
    });
    assert.equal(code, 0, `${out}\n${err}`);
    assert.match(out, new RegExp(`${files.length} tests: ${files.length} passed`));
  });
});
