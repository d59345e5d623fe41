/**
 * The sandbox against hostile clients, with ordinary ones running throughout:
 *
 *   npx tsx bench/sandbox-hostile.ts [--clients 16] [--min-seconds 3] [--only case,case] [--json FILE] [--replay]
 *
 * The sandbox runs in a process of its own (bench/children/sandbox.ts, default limits). Sixteen
 * ordinary clients post GetRateQuote 1.0.3 over SOAP 1.1 in a loop from start to end. Each
 * hostile case then runs on raw sockets — again and again for at least --min-seconds, so a
 * refusal that takes a millisecond is measured as a sustained attack — and the script prints,
 * per case, how the sandbox answered it, the ordinary clients' p99 latency over the case, and the
 * sandbox's highest RSS (read from /proc every 20 ms). Targets (issue 17): p99 under 1 s and RSS
 * under 300 MB in every case. Exit code 1 when a case misses one, or is not refused or answered.
 *
 * The XML cases (namespace bomb, 80,000 attributes) measure core's parser, which the sandbox
 * reads envelopes with; their limits are src/core/xml's, not the sandbox's.
 *
 * `--replay`: the same against a sandbox answering from recordings (`carrier sandbox --replay`,
 * docs/sandbox.md#replaying-recordings): the ordinary clients' rate quote is first recorded
 * through the traffic inspector in front of a plain sandbox, so every ordinary request is replayed.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { benchEnvironment, BENCH_KEY, rateQuoteRequest, wireRequest } from './fixtures/rateQuote';
import { startSandboxChild } from './lib/sandboxChild';
import { DEFAULT_NAMESPACES } from '../src/core';
import { startInspector } from '../src/inspector';
import { startSandbox } from '../src/sandbox/server';

const RATE_PATH = '/1.0.3/RateQuoteService.asmx';
const HAZMAT_PATH = '/sandbox/BillOfLadingService.asmx/GetHazmatDescription';
const P99_TARGET_MS = 1000;
const RSS_TARGET_MB = 300;

interface Options {
  clients: number;
  minSeconds: number;
  only?: string[];
  json?: string;
  replay?: boolean;
}

function options(argv: readonly string[]): Options {
  const o: Options = { clients: 16, minSeconds: 3 };
  for (let i = 0; i < argv.length; i++) {
    const value = () => argv[++i] ?? '';
    if (argv[i] === '--clients') o.clients = Number(value()) || 16;
    else if (argv[i] === '--min-seconds') o.minSeconds = Number(value()) || 3;
    else if (argv[i] === '--only') o.only = value().split(',');
    else if (argv[i] === '--json') o.json = value();
    else if (argv[i] === '--replay') o.replay = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The ordinary clients and the sandbox's memory.

interface Sample {
  readonly at: number;
  readonly ms: number;
  readonly ok: boolean;
}

class OrdinaryLoad {
  readonly samples: Sample[] = [];
  private running = true;
  private loops: Promise<void>[] = [];
  private readonly agent = new Agent({ connections: 64 });

  constructor(
    private readonly url: string,
    private readonly clients: number,
  ) {}

  start(): void {
    const spec = wireRequest(rateQuoteRequest(), benchEnvironment(this.url));
    const headers = Object.fromEntries(spec.headers);
    const body = Buffer.from(spec.body, 'utf8');
    const loop = async () => {
      while (this.running) {
        const at = performance.now();
        let ok = false;
        try {
          const r = await request(spec.url, { method: 'POST', headers, body, dispatcher: this.agent, headersTimeout: 60_000, bodyTimeout: 60_000 });
          ok = r.statusCode === 200 && (await r.body.text()).includes('<WasSuccess>true</WasSuccess>');
        } catch {
          ok = false;
        }
        this.samples.push({ at, ms: performance.now() - at, ok });
      }
    };
    this.loops = Array.from({ length: this.clients }, loop);
  }

  /** Requests that started within [from, to]. */
  between(from: number, to: number): Sample[] {
    return this.samples.filter((s) => s.at >= from && s.at <= to);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    await this.agent.close();
  }
}

function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** Highest resident set size of a process while running, from /proc (Linux). */
class RssWatch {
  private max = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number) {}

  read(): number {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  }

  start(): void {
    this.max = this.read();
    this.timer = setInterval(() => {
      const v = this.read();
      if (v > this.max) this.max = v;
    }, 20);
  }

  stop(): number {
    clearInterval(this.timer);
    return Math.max(this.max, this.read());
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile clients on raw sockets: what they send, and how the sandbox ended the exchange.

interface Outcome {
  /** HTTP status of the answer; 0 when there was none. */
  readonly status: number;
  /** A short reason from the answer's body. */
  readonly reason: string;
  readonly ms: number;
  readonly closed: 'end' | 'reset' | 'open';
}

type Talk = (s: net.Socket, answered: () => boolean) => Promise<void>;

function hostile(url: string, talk: Talk, giveUpMs = 120_000): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const s = net.connect(Number(port), hostname);
    let text = '';
    let closed: Outcome['closed'] = 'open';
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      const reason = (/<faultstring>([^<]*)/.exec(body)?.[1] ?? body).replace(/\s+/g, ' ').slice(0, 90);
      resolve({ status, reason, ms: performance.now() - t0, closed });
    };
    const timer = setTimeout(done, giveUpMs);
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      text += d;
      // One answer is all a hostile client waits for; Content-Length says when it is complete.
      const head = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, head))?.[1];
      if (head >= 0 && length !== undefined && text.length >= head + 4 + Number(length) && !/^HTTP\/1\.1 100/.test(text)) {
        closed = 'end';
        done();
      }
    });
    s.on('end', () => {
      if (closed === 'open') closed = 'end';
      done();
    });
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (closed === 'open') closed = e.code === 'ECONNRESET' ? 'reset' : 'end';
      done();
    });
    s.on('close', done);
    s.on('connect', () => {
      void talk(s, () => text.length > 0).catch(() => undefined);
    });
  });
}

/** Writes `body` in 64 KB pieces (chunked framing when asked), stopping once the server answers. */
async function stream(s: net.Socket, answered: () => boolean, body: Buffer, chunked: boolean): Promise<void> {
  for (let i = 0; i < body.length && !answered() && !s.destroyed; i += 64 * 1024) {
    const piece = body.subarray(i, i + 64 * 1024);
    const ok = s.write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
    if (!ok)
      await new Promise((r) => {
        s.once('drain', r);
        setTimeout(r, 100);
      });
  }
  if (chunked && !answered() && !s.destroyed) s.write('0\r\n\r\n');
}

function post(path: string, contentType: string, body: Buffer, chunked: boolean, extra = ''): Talk {
  return async (s, answered) => {
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
    s.write(`POST ${path} HTTP/1.1\r\nHost: sandbox\r\nContent-Type: ${contentType}\r\n${framing}\r\n${extra}\r\n`);
    await stream(s, answered, body, chunked);
  };
}

const SOAP11 = 'text/xml; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';
const ACTION = 'SOAPAction: "http://schemas.carrier-workbench.example/ltl/GetRateQuote"\r\n';

function formOf(fields: number): Buffer {
  const parts = [`APIKey=${BENCH_KEY}`, 'UNNANumber=1203'];
  for (let i = 0; i < fields - 2; i++) parts.push(`f${i}=v`);
  return Buffer.from(parts.join('&'));
}

function envelope(inner: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
}

function bigEnvelope(bytes: number): Buffer {
  const head = `<GetRateQuote xmlns="http://schemas.carrier-workbench.example/ltl/"><APIKey>${BENCH_KEY}</APIKey><request><QuoteType>`;
  const tail = '</QuoteType></request></GetRateQuote>';
  const shell = envelope(`${head}${tail}`);
  return Buffer.from(envelope(`${head}${'x'.repeat(bytes - shell.length)}${tail}`));
}

/** Nested elements each declaring new prefixes: a parser that copies its prefix map per element goes quadratic. */
function namespaceBomb(levels: number, perLevel: number): Buffer {
  let open = '';
  let close = '';
  for (let l = 0; l < levels; l++) {
    let decls = '';
    for (let d = 0; d < perLevel; d++) decls += ` xmlns:p${l}_${d}="urn:b"`;
    open += `<e${decls}>`;
    close = `</e>${close}`;
  }
  return Buffer.from(envelope(`<GetRateQuote xmlns="http://schemas.carrier-workbench.example/ltl/">${open}${close}</GetRateQuote>`));
}

function manyAttributes(n: number): Buffer {
  let attrs = '';
  for (let i = 0; i < n; i++) attrs += ` a${i}="1"`;
  return Buffer.from(envelope(`<GetRateQuote xmlns="http://schemas.carrier-workbench.example/ltl/"${attrs}><APIKey>${BENCH_KEY}</APIKey></GetRateQuote>`));
}

/** One byte a second: of the headers (`where` = 'headers') or of a declared 1,000-byte body. */
function drip(where: 'headers' | 'body'): Talk {
  return async (s, answered) => {
    if (where === 'headers') s.write('POST /1.0.3/RateQuoteService.asmx HTTP/1.1\r\nHost: sandbox\r\nX-Slow: ');
    else s.write(`POST ${RATE_PATH} HTTP/1.1\r\nHost: sandbox\r\nContent-Type: ${SOAP11}\r\nContent-Length: 1000\r\n${ACTION}\r\n`);
    for (let i = 0; i < 1000 && !answered() && !s.destroyed; i++) {
      s.write(where === 'headers' ? 'a' : '<');
      await sleep(1000);
    }
  };
}

interface Case {
  readonly id: string;
  readonly what: string;
  /** Statuses that count as refused or answered. */
  readonly expect: readonly number[];
  readonly talk: Talk;
  /** Run once only (it takes long by itself). */
  readonly once?: boolean;
}

function cases(): Case[] {
  const form200k = formOf(200_000);
  const form1m = formOf(1_000_000);
  const env20m = bigEnvelope(20 * 1000 * 1000);
  const env7m = bigEnvelope(7 * 1024 * 1024);
  const bomb = namespaceBomb(400, 50);
  const attrs = manyAttributes(80_000);
  const headerLines = Array.from({ length: 10_000 }, (_, i) => `X-H${i}: v\r\n`).join('');
  const query = 'a=1&'.repeat(3_000);
  return [
    {
      id: 'form-200k',
      what: `200,000 form fields (${(form200k.length / 1e6).toFixed(1)} MB), HTTP POST, Content-Length`,
      expect: [413],
      talk: post(HAZMAT_PATH, FORM, form200k, false),
    },
    { id: 'form-200k-chunked', what: '200,000 form fields, HTTP POST, chunked', expect: [400], talk: post(HAZMAT_PATH, FORM, form200k, true) },
    {
      id: 'form-1m',
      what: `1,000,000 form fields (${(form1m.length / 1e6).toFixed(1)} MB), HTTP POST, Content-Length`,
      expect: [413],
      talk: post(HAZMAT_PATH, FORM, form1m, false),
    },
    { id: 'form-1m-chunked', what: '1,000,000 form fields, HTTP POST, chunked', expect: [400], talk: post(HAZMAT_PATH, FORM, form1m, true) },
    {
      id: 'query-3k',
      what: 'a query string of 3,000 fields (HTTP GET)',
      expect: [400],
      talk: async (s) => {
        s.write(`GET ${HAZMAT_PATH}?${query} HTTP/1.1\r\nHost: sandbox\r\n\r\n`);
      },
    },
    { id: 'envelope-20mb', what: '20 MB SOAP envelope, Content-Length', expect: [413], talk: post(RATE_PATH, SOAP11, env20m, false, ACTION) },
    { id: 'envelope-20mb-chunked', what: '20 MB SOAP envelope, chunked', expect: [413], talk: post(RATE_PATH, SOAP11, env20m, true, ACTION) },
    { id: 'envelope-7mb', what: '7 MiB SOAP envelope (under the limit: read and parsed)', expect: [500], talk: post(RATE_PATH, SOAP11, env7m, false, ACTION) },
    {
      id: 'headers-10k',
      what: '10,000 header lines',
      expect: [431],
      talk: async (s) => {
        s.write(`GET ${HAZMAT_PATH} HTTP/1.1\r\nHost: sandbox\r\n${headerLines}\r\n`);
      },
    },
    {
      id: 'ns-bomb',
      what: `namespace bomb: 400 nested elements declaring 50 prefixes each (${(bomb.length / 1e6).toFixed(2)} MB; core's parser)`,
      expect: [500],
      talk: post(RATE_PATH, SOAP11, bomb, false, ACTION),
    },
    {
      id: 'attributes-80k',
      what: `one element with 80,000 attributes (${(attrs.length / 1e6).toFixed(2)} MB; core's parser)`,
      expect: [500],
      talk: post(RATE_PATH, SOAP11, attrs, false, ACTION),
    },
    { id: 'drip-headers', what: 'headers dripped one byte a second', expect: [408], talk: drip('headers'), once: true },
    { id: 'drip-body', what: 'a body dripped one byte a second', expect: [408], talk: drip('body'), once: true },
  ];
}

interface CaseResult {
  readonly id: string;
  readonly what: string;
  readonly outcome: Outcome;
  readonly repeats: number;
  readonly ordinary: number;
  readonly ordinaryFailed: number;
  readonly p99: number;
  readonly rssMb: number;
  readonly pass: boolean;
}

/** The ordinary clients' rate quote, recorded through the inspector in front of a plain sandbox, in a new folder. */
async function recordRateQuote(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-hostile-replay-'));
  const plain = await startSandbox({ port: 0, host: '127.0.0.1' });
  const inspector = await startInspector({
    target: plain.url,
    namespaces: DEFAULT_NAMESPACES,
    recordDir: dir,
    recordEnvironment: { name: 'recorded', baseUrl: plain.url, namespaces: DEFAULT_NAMESPACES },
  });
  try {
    const spec = wireRequest(rateQuoteRequest(), benchEnvironment(inspector.url));
    const r = await request(spec.url, { method: 'POST', headers: Object.fromEntries(spec.headers), body: spec.body });
    await r.body.text();
    if (r.statusCode !== 200) throw new Error(`recording the rate quote: HTTP ${r.statusCode}`);
    await inspector.flush();
  } finally {
    await inspector.close();
    await plain.close();
  }
  return dir;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const recordings = o.replay ? await recordRateQuote() : undefined;
  const sandbox = await startSandboxChild('children/sandbox.ts', recordings ? ['--replay', recordings] : []);
  const load = new OrdinaryLoad(sandbox.url, o.clients);
  const rss = new RssWatch(sandbox.pid);
  const results: CaseResult[] = [];
  const all = cases().filter((c) => !o.only || o.only.includes(c.id));
  process.stderr.write(`sandbox ${sandbox.url} (pid ${sandbox.pid})${recordings ? `, replaying ${recordings}` : ''}, ${o.clients} ordinary clients\n`);
  try {
    load.start();
    await sleep(2000);
    const measure = async (id: string, what: string, run: () => Promise<{ outcome: Outcome; repeats: number; expect: readonly number[] }>) => {
      rss.start();
      const t0 = performance.now();
      const { outcome, repeats, expect } = await run();
      const t1 = performance.now();
      const rssMb = rss.stop();
      const during = load.between(t0, t1);
      const p99 = percentile(
        during.map((s) => s.ms),
        99,
      );
      const ordinaryFailed = during.filter((s) => !s.ok).length;
      const pass = expect.includes(outcome.status) && p99 < P99_TARGET_MS && rssMb < RSS_TARGET_MB && ordinaryFailed === 0;
      results.push({ id, what, outcome, repeats, ordinary: during.length, ordinaryFailed, p99, rssMb, pass });
      process.stderr.write(
        `${pass ? 'PASS' : 'FAIL'}  ${id}: ${outcome.status} in ${outcome.ms.toFixed(0)} ms ×${repeats}, p99 ${p99.toFixed(0)} ms over ${during.length}, RSS ${rssMb.toFixed(0)} MB\n`,
      );
      await sleep(500);
    };
    await measure('baseline', 'no hostile client', async () => {
      await sleep(o.minSeconds * 1000);
      return { outcome: { status: 0, reason: '', ms: 0, closed: 'open' }, repeats: 0, expect: [0] };
    });
    for (const c of all) {
      await measure(c.id, c.what, async () => {
        const until = performance.now() + o.minSeconds * 1000;
        let outcome = await hostile(sandbox.url, c.talk);
        let repeats = 1;
        while (!c.once && performance.now() < until && c.expect.includes(outcome.status)) {
          outcome = await hostile(sandbox.url, c.talk);
          repeats++;
        }
        return { outcome, repeats, expect: c.expect };
      });
    }
  } finally {
    await load.stop();
    await sandbox.close();
    if (recordings) fs.rmSync(recordings, { recursive: true, force: true });
  }

  const rows = results.map((r) => [
    r.pass ? 'PASS' : 'FAIL',
    r.id,
    r.id === 'baseline' ? '—' : `${r.outcome.status} ${r.outcome.closed === 'reset' ? '(reset) ' : ''}in ${r.outcome.ms.toFixed(0)} ms`,
    String(r.repeats),
    `${r.p99.toFixed(0)} ms`,
    `${r.ordinary}${r.ordinaryFailed ? ` (${r.ordinaryFailed} failed)` : ''}`,
    `${r.rssMb.toFixed(0)} MB`,
  ]);
  const header = ['', 'case', 'answer', 'times', 'ordinary p99', 'ordinary requests', 'sandbox RSS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  process.stdout.write(`${line(header)}\n${rows.map(line).join('\n')}\n`);
  for (const r of results) if (r.id !== 'baseline') process.stdout.write(`  ${r.id}: ${r.what} → ${r.outcome.status} ${r.outcome.reason}\n`);
  process.stdout.write(`targets: ordinary p99 < ${P99_TARGET_MS} ms, sandbox RSS < ${RSS_TARGET_MB} MB, every hostile request refused or answered\n`);
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ clients: o.clients, results }, null, 2));
  process.exitCode = results.every((r) => r.pass) ? 0 : 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(2);
});
