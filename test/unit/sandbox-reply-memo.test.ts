/**
 * The reply memo (SandboxOptions.replyMemo, docs/sandbox.md#the-reply-memo): a kept reply is the
 * very reply the sandbox computes, it is served only for the same request, and only replies of
 * operations that read no state are kept.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as net from 'node:net';
import { EmbeddedSandbox } from '../../src/cli/embeddedSandbox';
import { embeddedSandboxKey, parseEnvironments } from '../../src/core/environments';
import { ReplyMemo, type KeptReply } from '../../src/sandbox/http/replyMemo';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { actionOf, Clock, el, envelope, KEY, NS_DISTINCT, soapFault, soapHeaders, textAt, xml, child, type Node } from './sandbox-kit';
import { bolRequest, rate103 } from './sandbox-requests';

const RATE = '/1.0.3/RateQuoteService.asmx';
const BOL = '/1.0.1/BillOfLadingService.asmx';
const HAZ = '/sandbox/BillOfLadingService.asmx';
/** Headers every reply has its own of: not part of the reply. */
const OWN = new Set(['date', 'connection', 'keep-alive']);

interface Raw {
  readonly status: number;
  /** Header lines in the order sent, those in OWN left out. */
  readonly headers: string[];
  readonly body: Buffer;
}

/** A POST as node:http sends it; `chunked` sends the body in two pieces with no Content-Length. */
function post(base: string, path: string, body: string, headers: Record<string, string>, chunked = false): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const url = new URL(base + path);
    const bytes = Buffer.from(body, 'utf8');
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        agent: false,
        headers: { ...headers, ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(bytes.length) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (!OWN.has(res.rawHeaders[i]!.toLowerCase())) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve({ status: res.statusCode!, headers: lines, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (chunked) {
      const half = Math.floor(bytes.length / 2);
      req.write(bytes.subarray(0, half));
      req.end(bytes.subarray(half));
    } else req.end(bytes);
  });
}

const soap11 = (wrapper: Node): { body: string; headers: Record<string, string> } => ({
  body: envelope('1.1', wrapper, NS_DISTINCT, 'default-xmlns'),
  headers: soapHeaders('1.1', actionOf(NS_DISTINCT, wrapper.name), 'quoted'),
});

const rateCall = (weight = '1500', key = KEY) =>
  soap11(
    el('GetRateQuote', [
      el('APIKey', key),
      rate103([el('Item', [el('Class', '50.0'), el('Weight', weight), el('Width', '48.00'), el('Height', '40.00'), el('Length', '48.00')])]),
    ]),
  );

/** A sandbox whose log lines are kept, to read each request's label. */
async function logged(options: Parameters<typeof startSandbox>[0] = {}): Promise<{ sb: SandboxHandle; lines: string[]; last: () => string }> {
  const lines: string[] = [];
  const sb = await startSandbox({ ...options, log: (l) => lines.push(l) });
  return { sb, lines, last: () => lines[lines.length - 1] ?? '' };
}

describe('the reply memo', () => {
  const clock = new Clock();
  let plain: SandboxHandle;
  let memo: Awaited<ReturnType<typeof logged>>;
  before(async () => {
    plain = await startSandbox({ now: clock.now });
    memo = await logged({ now: clock.now, replyMemo: true });
  });
  after(async () => {
    await plain.close();
    await memo.sb.close();
  });

  it('keeps a GetRateQuote 1.0.3 SOAP 1.1 reply byte for byte as the sandbox computes it, and serves the same request from it', async () => {
    const { body, headers } = rateCall('1510');
    const computed = await post(plain.url, RATE, body, headers);
    assert.equal(computed.status, 200);
    const first = await post(memo.sb.url, RATE, body, headers);
    assert.doesNotMatch(memo.last(), /kept reply/, 'the first is computed');
    assert.match(memo.last(), /GetRateQuote 1\.0\.3 SOAP 1\.1 → 200/);
    const second = await post(memo.sb.url, RATE, body, headers);
    assert.match(memo.last(), /^POST \/1\.0\.3\/RateQuoteService\.asmx GetRateQuote 1\.0\.3 SOAP 1\.1 \(kept reply\) → 200 \(\d+ ms\)$/);
    for (const r of [first, second]) {
      assert.equal(r.status, computed.status);
      assert.deepEqual(r.headers, computed.headers);
      assert.ok(r.body.equals(computed.body), 'the same body bytes');
    }
  });

  it('computes a different body afresh', async () => {
    const a = rateCall('1520');
    const b = rateCall('2520');
    await post(memo.sb.url, RATE, a.body, a.headers);
    await post(memo.sb.url, RATE, a.body, a.headers);
    assert.match(memo.last(), /kept reply/);
    const other = await post(memo.sb.url, RATE, b.body, b.headers);
    assert.doesNotMatch(memo.last(), /kept reply/);
    const computed = await post(plain.url, RATE, b.body, b.headers);
    assert.ok(other.body.equals(computed.body), 'its own reply, not the kept one');
  });

  it('tells SOAPAction and the URL apart', async () => {
    const { body, headers } = rateCall('1530');
    await post(memo.sb.url, RATE, body, headers);
    await post(memo.sb.url, RATE, body, { ...headers, SOAPAction: actionOf(NS_DISTINCT, 'GetRateQuote') });
    assert.doesNotMatch(memo.last(), /kept reply/, 'another SOAPAction spelling is another request');
    await post(memo.sb.url, `${RATE}?x=1`, body, headers);
    assert.doesNotMatch(memo.last(), /kept reply/, 'another URL is another request');
  });

  it('never keeps CreateBillOfLading: the same request twice makes two bills', async () => {
    const { body, headers } = soap11(el('CreateBillOfLading', [el('APIKey', KEY), bolRequest()]));
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await post(memo.sb.url, BOL, body, headers);
      assert.equal(r.status, 200, r.body.toString());
      assert.doesNotMatch(memo.last(), /kept reply/);
      const result = child(child(child(xml(r.body.toString()), 'Body'), 'CreateBillOfLadingResponse'), 'CreateBillOfLadingResult');
      ids.push(textAt(result, 'BolID'));
    }
    assert.notEqual(ids[0], ids[1]);
  });

  it('keeps an HTTP POST binding reply of an operation that reads no state', async () => {
    const form = new URLSearchParams({ APIKey: KEY, UNNANumber: 'UN1203' }).toString();
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const first = await post(memo.sb.url, `${HAZ}/GetHazmatDescription`, form, headers);
    assert.equal(first.status, 200);
    const second = await post(memo.sb.url, `${HAZ}/GetHazmatDescription`, form, headers);
    assert.match(memo.last(), /GetHazmatDescription sandbox HTTP POST \(kept reply\) → 200/);
    assert.ok(second.body.equals(first.body));
  });

  it('answers a body above the bound, or a chunked one, the normal way', async () => {
    const { body, headers } = rateCall('1540');
    // A comment pads the envelope past 64 KiB; it is still the same call.
    const big = body.replace('<soap:Body>', `<!--${' '.repeat(70 * 1024)}--><soap:Body>`);
    for (let i = 0; i < 2; i++) {
      const r = await post(memo.sb.url, RATE, big, headers);
      assert.equal(r.status, 200);
      assert.doesNotMatch(memo.last(), /kept reply/);
      assert.match(memo.last(), /GetRateQuote 1\.0\.3 SOAP 1\.1 → 200/);
    }
    const computed = await post(plain.url, RATE, body, headers);
    for (let i = 0; i < 2; i++) {
      const r = await post(memo.sb.url, RATE, body, headers, true);
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(computed.body));
      assert.doesNotMatch(memo.last(), /kept reply/);
    }
  });

  it('masks the key in the log line of a kept reply', async () => {
    const key = 'Zq8Wm3Kd7Pn2Rt6Yb1Vc5Xf9Lh4Gj0Sa';
    const { body, headers } = rateCall('1550', key);
    await post(memo.sb.url, `${RATE}?apikey=${key}`, body, headers);
    await post(memo.sb.url, `${RATE}?apikey=${key}`, body, headers);
    assert.match(memo.last(), /kept reply/);
    for (const line of memo.lines) assert.ok(!line.includes(key), line);
  });
});

describe('the reply memo, with keys and injection', () => {
  let sandbox: Awaited<ReturnType<typeof logged>>;
  before(async () => {
    sandbox = await logged({ replyMemo: true, apiKeys: [KEY], allowInjection: true });
  });
  after(() => sandbox.sb.close());

  it('gives a wrong API key a fault both times', async () => {
    const { body, headers } = rateCall('1600', 'not-the-key-at-all');
    for (let i = 0; i < 2; i++) {
      const r = await post(sandbox.sb.url, RATE, body, headers);
      assert.equal(r.status, 500);
      assert.match(soapFault(r.body.toString()).reason, /Invalid API key/);
      assert.doesNotMatch(sandbox.last(), /kept reply/);
    }
  });

  it('serves no request with an injection header from the memo, and keeps no reply it computed', async () => {
    const { body, headers } = rateCall('1610');
    await post(sandbox.sb.url, RATE, body, { ...headers, 'X-Carrier-Inject': 'delay=1' });
    await post(sandbox.sb.url, RATE, body, headers);
    assert.doesNotMatch(sandbox.last(), /kept reply/, 'the injected request kept nothing');
    await post(sandbox.sb.url, RATE, body, headers);
    assert.match(sandbox.last(), /kept reply/);
    const faulted = await post(sandbox.sb.url, RATE, body, { ...headers, 'X-Carrier-Inject': 'fault' });
    assert.equal(faulted.status, 500, 'the injection is honoured, not the kept reply');
    assert.doesNotMatch(sandbox.last(), /kept reply/);
    const cut = await post(sandbox.sb.url, RATE, body, { ...headers, 'X-Carrier-Inject': 'truncate' }).catch(() => undefined);
    assert.ok(cut === undefined || cut.status === 200);
    assert.doesNotMatch(sandbox.last(), /kept reply/);
  });
});

describe('the reply memo, with a body that does not come', () => {
  let sandbox: Awaited<ReturnType<typeof logged>>;
  before(async () => {
    sandbox = await logged({ replyMemo: true, limits: { bodyTimeoutMs: 300 } });
  });
  after(() => sandbox.sb.close());

  /** Sends the headers and `sent` of a body that declares more, then waits for what comes back. */
  function partial(sent: string, thenClose = false): Promise<string> {
    return new Promise((resolve, reject) => {
      const url = new URL(sandbox.sb.url);
      const socket = net.connect(Number(url.port), url.hostname);
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      socket.write(`POST ${RATE} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 100\r\n\r\n${sent}`);
      if (thenClose) setTimeout(() => socket.destroy(), 100);
    });
  }

  it('refuses a body that has not arrived by the deadline with a 408, as without the memo', async () => {
    const text = await partial('<soap:');
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /Request Timeout: the body did not arrive within 0\.3 s\./);
    assert.match(sandbox.last(), /SOAP 1\.1 \/1\.0\.3\/RateQuoteService\.asmx → 408/);
  });

  it('says so when the client leaves before its body is complete', async () => {
    await partial('<soap:', true);
    await new Promise((r) => setTimeout(r, 50));
    assert.match(sandbox.last(), /the client left before its body was complete/);
  });
});

describe('the reply memo store', () => {
  const BODY = Buffer.from('<Envelope/>');
  const reply = (n: number, bytes = 10): KeptReply => ({
    status: 200,
    headers: { 'Content-Type': 'text/xml' },
    body: Buffer.alloc(bytes, n),
    label: `reply ${n}`,
    notes: [],
    secrets: [],
  });

  it('keeps at most its entries, evicting the oldest first', () => {
    const memo = new ReplyMemo({ entries: 3, bytes: 1 << 20 });
    for (let i = 0; i < 5; i++) memo.keep(`k${i}`, BODY, reply(i));
    assert.equal(memo.entries, 3);
    assert.equal(memo.get('k0', BODY), undefined);
    assert.equal(memo.get('k1', BODY), undefined);
    assert.equal(memo.get('k4', BODY)?.label, 'reply 4');
    assert.equal(memo.get('k4', Buffer.from('another body')), undefined, 'a key is answered only for its own body');
  });

  it('keeps at most its bytes, and never a reply larger than all of them', () => {
    const memo = new ReplyMemo({ entries: 100, bytes: 5000 });
    for (let i = 0; i < 6; i++) memo.keep(`k${i}`, BODY, reply(i, 1000));
    assert.ok(memo.byteSize <= 5000, String(memo.byteSize));
    assert.equal(memo.get('k0', BODY), undefined);
    assert.ok(memo.get('k5', BODY));
    memo.keep('huge', BODY, reply(9, 6000));
    assert.equal(memo.get('huge', BODY), undefined);
    assert.ok(memo.get('k5', BODY), 'a reply too large to keep evicts nothing');
  });

  it('stays linear over many evictions: the queue of evicted keys is dropped now and then, never walked', () => {
    const memo = new ReplyMemo({ entries: 64, bytes: 1 << 24 });
    let longest = 0;
    for (let i = 0; i < 200_000; i++) {
      memo.keep(`k${i}`, BODY, reply(i & 255, 1));
      longest = Math.max(longest, memo.queued);
    }
    assert.equal(memo.entries, 64);
    assert.ok(memo.get('k199999', BODY));
    // Evicted keys are dropped in one step once 1,024 of them are at least half the queue.
    assert.ok(longest <= 2 * (1024 + 64), `the queue grew to ${longest}`);
  });
});

describe('the replyMemo setting of an embedded environment', () => {
  const environments = parseEnvironments(
    JSON.stringify({ kept: { baseUrl: 'embedded', sandbox: { replyMemo: true } }, plain: { baseUrl: 'embedded' } }),
    '/work/carrier.environments.json',
  );
  const kept = environments.environments.find((e) => e.name === 'kept')!;
  const plainEnv = environments.environments.find((e) => e.name === 'plain')!;

  it('is read from carrier.environments.json, and refused when not a boolean', () => {
    assert.deepEqual(environments.problems, []);
    assert.equal(kept.sandbox?.replyMemo, true);
    assert.notEqual(embeddedSandboxKey(kept), embeddedSandboxKey(plainEnv));
    const wrong = parseEnvironments(JSON.stringify({ sandbox: { sandbox: { replyMemo: 'yes' } } }), '/work/carrier.environments.json');
    assert.ok(
      wrong.problems.some((p) => p.severity === 'error' && p.path.startsWith('sandbox.sandbox')),
      JSON.stringify(wrong.problems),
    );
  });

  /**
   * A memo sandbox reads a small POST's whole body before it routes it; one without the memo
   * answers a 404 from the headers alone. So a POST to no service, its body held back, tells them apart.
   */
  function answersBeforeBody(base: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const url = new URL(base);
      const socket = net.connect(Number(url.port), url.hostname);
      let answered = false;
      socket.on('data', () => {
        answered = true;
      });
      socket.on('error', reject);
      socket.write('POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 5\r\n\r\n');
      setTimeout(() => {
        const before = answered;
        socket.write('hello');
        const done = () => {
          socket.destroy();
          resolve(before);
        };
        if (answered) return done();
        socket.once('data', done);
      }, 300);
    });
  }

  it('starts a sandbox with the memo for an environment that asks, and for every environment of a command that asks', async () => {
    const sandbox = new EmbeddedSandbox();
    const forced = new EmbeddedSandbox({ replyMemo: true });
    try {
      const [a, b] = [await sandbox.url(kept), await sandbox.url(plainEnv)];
      assert.notEqual(a, b, 'two settings, two sandboxes');
      assert.equal(await answersBeforeBody(a), false, 'the memo sandbox waits for the body');
      assert.equal(await answersBeforeBody(b), true, 'the plain sandbox answers from the headers');
      const [c, d] = [await forced.url(kept), await forced.url(plainEnv)];
      assert.equal(c, d, 'with the memo asked for, one sandbox serves both');
      assert.equal(await answersBeforeBody(d), false);
    } finally {
      await sandbox.close();
      await forced.close();
    }
  });
});
