/**
 * Fault injection (X-Carrier-Inject), honoured only with allowInjection: delays, SOAP faults,
 * HTML error pages, truncated and slow bodies, connection resets.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { XmlError, parseXml } from '../../src/core/xml/dom';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { actionOf, call, el, envelope, http as fetchHttp, KEY, NS_DISTINCT, soapFault, soapHeaders, soapResult, textAt } from './sandbox-kit';
import { bolRequest, todayUs } from './sandbox-requests';

const BOL_PATH = '/1.0.1/BillOfLadingService.asmx';
const HAZ = '/sandbox/BillOfLadingService.asmx';
const hazmatBody = envelope('1.1', el('GetHazmatDescription', [el('APIKey', KEY), el('UNNANumber', '1203')]), NS_DISTINCT, 'default-xmlns');

function post(base: string, inject: string | undefined, body = hazmatBody, path = HAZ, version: '1.1' | '1.2' = '1.1') {
  const headers: Record<string, string> = soapHeaders(version, actionOf(NS_DISTINCT, 'GetHazmatDescription'), 'missing');
  if (inject !== undefined) headers['X-Carrier-Inject'] = inject;
  return fetchHttp(base + path, { method: 'POST', body, headers });
}

/** A raw request, to see what fetch would hide: the exact bytes, how many pieces they came in, a reset. */
function raw(base: string, inject: string): Promise<{ status?: number; body: Buffer; error?: NodeJS.ErrnoException; pieces: number }> {
  return new Promise((resolve) => {
    const url = new URL(base + HAZ);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', 'X-Carrier-Inject': inject },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks), pieces: chunks.length }));
        res.on('error', (error) => resolve({ status: res.statusCode, body: Buffer.concat(chunks), error, pieces: chunks.length }));
      },
    );
    req.on('error', (error) => resolve({ body: Buffer.alloc(0), error, pieces: 0 }));
    req.end(hazmatBody);
  });
}

describe('sandbox fault injection', () => {
  let sb: SandboxHandle;
  let plain: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ allowInjection: true });
    plain = await startSandbox({});
  });
  after(async () => {
    await sb.close();
    await plain.close();
  });

  it('delay=MS waits before answering', async () => {
    const started = Date.now();
    const r = await post(sb.url, 'delay=400');
    assert.equal(r.status, 200);
    assert.ok(Date.now() - started >= 390, `${Date.now() - started} ms`);
  });

  it("fault answers a SOAP fault in the request's SOAP version, and does nothing", async () => {
    const before = await call(sb.url, BOL_PATH, el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ date: todayUs() })]));
    const body = envelope('1.2', el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ date: todayUs() })]), NS_DISTINCT, 'default-xmlns');
    const r = await post(sb.url, 'fault', body, BOL_PATH, '1.2');
    assert.equal(r.status, 500);
    assert.equal(r.contentType, 'application/soap+xml; charset=utf-8');
    const f = soapFault(r.text, '1.2');
    assert.equal(f.code, 'soap:Receiver');
    assert.match(f.reason, /Injected fault/);
    const after = await call(sb.url, BOL_PATH, el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ date: todayUs() })]));
    assert.equal(Number(textAt(after, 'BolID')), Number(textAt(before, 'BolID')) + 1, 'the faulted request created nothing');
  });

  it('fault on an HTTP binding is a plain-text 500', async () => {
    const r = await fetchHttp(`${sb.url}${HAZ}/GetHazmatDescription?APIKey=${KEY}&UNNANumber=1203`, { headers: { 'X-Carrier-Inject': 'fault' } });
    assert.equal(r.status, 500);
    assert.match(r.contentType, /^text\/plain/);
  });

  it('html500 answers an HTML error page with status 500', async () => {
    const r = await post(sb.url, 'html500');
    assert.equal(r.status, 500);
    assert.match(r.contentType, /^text\/html/);
    assert.match(r.text, /<title>Runtime Error<\/title>/);
  });

  it('truncate sends the first half of the real reply, which no longer parses', async () => {
    const whole = await post(sb.url, undefined);
    const r = await raw(sb.url, 'truncate');
    assert.equal(r.status, 200);
    assert.equal(r.body.length, Math.floor(Buffer.byteLength(whole.text) / 2));
    assert.ok(whole.text.startsWith(r.body.toString('utf8')));
    assert.throws(() => parseXml(r.body.toString('utf8')), XmlError);
  });

  it('slow-body=MS trickles the whole reply out over that time', async () => {
    const r = await raw(sb.url, 'slow-body=600');
    assert.equal(r.status, 200);
    // A trickle is an order, not a time: the reply came in many pieces, each after a pause
    // (src/sandbox/server.ts writes up to 20), not in one write at the end.
    assert.ok(r.pieces >= 5, `the reply came in ${r.pieces} piece(s)`);
    assert.equal(textAt(soapResult(r.body.toString('utf8'), 'GetHazmatDescription'), 'UNNAList', 'UNorNA', 'Number'), 'UN1203');
  });

  it('reset drops the connection without a reply', async () => {
    const r = await raw(sb.url, 'reset');
    assert.equal(r.status, undefined);
    assert.ok(r.error, 'the client sees an error');
    assert.match(String(r.error!.code), /ECONNRESET|EPIPE|ECONNABORTED/);
  });

  it('combines directives, and refuses unknown ones with 400', async () => {
    const started = Date.now();
    const r = await post(sb.url, 'delay=200, html500');
    assert.equal(r.status, 500);
    assert.ok(Date.now() - started >= 190);
    const bad = await post(sb.url, 'explode');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Unknown injection directive "explode"/);
  });

  it('is ignored entirely without allowInjection', async () => {
    // A delay obeyed would hold the answer for a minute, past this test's timeout: no clock is read.
    for (const inject of ['fault', 'html500', 'truncate', 'reset', 'explode', 'delay=60000']) {
      const r = await post(plain.url, inject);
      assert.equal(r.status, 200, inject);
      assert.equal(textAt(soapResult(r.text, 'GetHazmatDescription'), 'UNNAList', 'UNorNA', 'Number'), 'UN1203');
    }
  });

  it('close() does not wait for an injected delay', async () => {
    const own = await startSandbox({ allowInjection: true });
    const pending = post(own.url, 'delay=60000').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    // Waiting for the delay would take a minute, past this test's timeout: that close() returns is the assertion.
    await own.close();
    await pending;
  });
});
