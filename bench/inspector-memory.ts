/**
 * The traffic inspector's own memory under idle connections and large exchanges:
 *
 *   npx tsx bench/inspector-memory.ts [--exchanges 1000] [--mb 17] [--parallel 4] [--connections 400] [--idle-ms 5000] [--json FILE]
 *                                     [--cap-mb N] [--keep-mb N] [--capture-mb N]   (other limits than the defaults)
 *
 * The inspector runs in a process of its own (bench/children/inspector.ts: default limits — a
 * 16 MiB cap per body, 64 MiB of recorded exchanges, 64 MiB of body copies under way — and a key
 * to mask, so every body is searched), in front of a target in this process. The script reads the
 * child's RSS from /proc (VmRSS now, VmHWM the peak, reset between phases) and prints:
 *
 *   1. at rest, after start;
 *   2. with --connections silent connections open, then as many keep-alive connections idle after
 *      one exchange each, and after the idle timeout (shortened to --idle-ms here; 60 s by
 *      default) how many are still open;
 *   3. --exchanges exchanges of --mb MB each, --parallel at a time, alternately a 17 MB upload
 *      and a 17 MB download (an XML reply around a base64 document), each checked whole at the
 *      other end: the peak and final RSS, the time, and what the inspector still keeps.
 *
 * Issue 17 asks for the inspector's memory to be bounded: here, the second half of the exchanges
 * must not raise the RSS peak of the first half by more than 15%, the idle connections must all
 * be closed, and every body must arrive whole (exit code 1 otherwise).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ROOT, tsxArgs } from './lib/child';

const MB = 1024 * 1024;
/** How much more the second half's peak may be than the first's and still count as flat. */
const GROWTH_ALLOWED = 1.15;

interface Options {
  exchanges: number;
  mb: number;
  parallel: number;
  connections: number;
  idleMs: number;
  json?: string;
  limits: string[];
}

function options(argv: readonly string[]): Options {
  const o: Options = { exchanges: 1000, mb: 17, parallel: 4, connections: 400, idleMs: 5000, limits: [] };
  for (let i = 0; i < argv.length; i++) {
    const value = () => Number(argv[++i]);
    if (argv[i] === '--exchanges') o.exchanges = value();
    else if (argv[i] === '--mb') o.mb = value();
    else if (argv[i] === '--parallel') o.parallel = value();
    else if (argv[i] === '--connections') o.connections = value();
    else if (argv[i] === '--idle-ms') o.idleMs = value();
    else if (argv[i] === '--json') o.json = argv[++i];
    else if (['--cap-mb', '--keep-mb', '--capture-mb'].includes(argv[i])) o.limits.push(argv[i], argv[++i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / MB);

// ---- the inspector's process ----

interface Stats {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  kept: number;
  keptBytes: number;
  lastSeq: number;
}

interface Child {
  readonly url: string;
  readonly pid: number;
  stats(): Promise<Stats>;
  close(): Promise<void>;
}

function startChild(target: string, idleMs: number, limits: readonly string[]): Promise<Child> {
  return new Promise((resolve, reject) => {
    // INSPECTOR_CPU_PROF=<folder>: a CPU profile of the inspector's process (bench/tools/profileSummary.ts reads it).
    const prof = process.env.INSPECTOR_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.INSPECTOR_CPU_PROF] : [];
    const child = spawn(
      process.execPath,
      tsxArgs('children/inspector.ts', ['--target', target, '--idle-ms', String(idleMs), '--secret', 'Bench-Key-0123456789abcdef', ...limits], prof),
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    const waiting: Array<(s: Stats) => void> = [];
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the inspector exited (${code})`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = JSON.parse(out.slice(0, nl)) as { url?: string } & Stats;
        out = out.slice(nl + 1);
        if (line.url) {
          resolve({
            url: line.url,
            pid: child.pid!,
            stats: () =>
              new Promise((done) => {
                waiting.push(done);
                child.stdin!.write('stats\n');
              }),
            close: () =>
              new Promise((done) => {
                child.removeAllListeners('exit');
                child.once('exit', () => done());
                child.stdin!.end();
                setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
              }),
          });
        } else waiting.shift()?.(line);
      }
    });
  });
}

/** VmRSS and VmHWM of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM); sampling covers where it cannot. */
function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Sampled peaks only.
  }
}

/** The peak RSS over a phase (VmHWM, and samples every 20 ms), and the sampled peak of each half when told where the half is. */
class PeakWatch {
  private sampled = 0;
  readonly halves = [0, 0];
  secondHalf = false;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    resetPeak(pid);
    this.timer = setInterval(() => {
      const rss = memoryOf(pid).rss;
      this.sampled = Math.max(this.sampled, rss);
      const h = this.secondHalf ? 1 : 0;
      this.halves[h] = Math.max(this.halves[h], rss);
    }, 20);
  }
  stop(): number {
    clearInterval(this.timer);
    return Math.max(this.sampled, memoryOf(this.pid).peak);
  }
}

// ---- the target and the traffic ----

/** A SOAP-looking reply around a base64 document: what a 17 MB exchange of this service is. */
function bigBody(bytes: number): Buffer {
  const head =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetDocumentsResponse><Document><DocumentData>';
  const tail = '</DocumentData></Document></GetDocumentsResponse></soap:Body></soap:Envelope>';
  const body = Buffer.alloc(bytes, 0x41);
  body.write(head, 0, 'latin1');
  const b64 = Buffer.alloc(Math.floor(((bytes - head.length - tail.length) * 3) / 4), 7).toString('base64');
  body.write(b64, head.length, 'latin1');
  body.write(tail, bytes - tail.length, 'latin1');
  return body;
}

function startTarget(body: Buffer): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let received = 0;
    req.on('data', (c: Buffer) => {
      received += c.length;
    });
    req.on('end', () => {
      if (req.method === 'POST') {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2', 'X-Received': String(received) });
        res.end('ok');
      } else {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': String(body.length) });
        res.end(body);
      }
    });
  });
  server.keepAliveTimeout = 120_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, server })),
  );
}

/** Opens `n` connections that send nothing; resolves once all are connected. */
async function silentConnections(url: string, n: number): Promise<net.Socket[]> {
  const u = new URL(url);
  const sockets: net.Socket[] = [];
  for (let i = 0; i < n; i++) {
    sockets.push(
      await new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(Number(u.port), u.hostname, () => resolve(s));
        s.on('error', reject);
        s.on('close', () => {
          (s as net.Socket & { gone?: boolean }).gone = true;
        });
      }),
    );
  }
  return sockets;
}

/** Opens `n` keep-alive connections, each after one small exchange. */
async function idleConnections(url: string, n: number): Promise<net.Socket[]> {
  const sockets = await silentConnections(url, n);
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          let got = '';
          const onData = (d: Buffer) => {
            got += d.toString('latin1');
            if (got.endsWith('ok')) {
              s.off('data', onData);
              resolve();
            }
          };
          s.on('data', onData);
          s.write('POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi');
        }),
    ),
  );
  return sockets;
}

const open = (sockets: net.Socket[]) => sockets.filter((s) => !(s as net.Socket & { gone?: boolean }).gone).length;

/** One exchange: an upload (odd) or a download (even) of `body`, checked whole. */
function exchange(url: string, agent: http.Agent, i: number, body: Buffer): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const upload = i % 2 === 1;
    const req = http.request(
      `${url}/${upload ? 'upload' : 'download'}/${i}`,
      { method: upload ? 'POST' : 'GET', agent, headers: upload ? { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': String(body.length) } : {} },
      (res) => {
        let size = 0;
        let same = true;
        res.on('data', (c: Buffer) => {
          if (!upload && same) same = c.equals(body.subarray(size, size + c.length));
          size += c.length;
        });
        res.on('end', () => resolve(upload ? res.headers['x-received'] === String(body.length) : same && size === body.length));
      },
    );
    req.on('error', reject);
    req.end(upload ? body : undefined);
  });
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const body = bigBody(o.mb * 1_000_000);
  const target = await startTarget(body);
  const child = await startChild(target.url, o.idleMs, o.limits);
  const results: Record<string, unknown> = { options: o };
  const line = (label: string, text: string) => process.stdout.write(`${label.padEnd(46)} ${text}\n`);
  try {
    process.stdout.write(
      `Traffic inspector memory: RSS of its own process (pid ${child.pid}); ${o.limits.length ? o.limits.join(' ') : 'default limits'}, idle timeout ${o.idleMs} ms\n\n`,
    );
    await sleep(500);
    const rest = memoryOf(child.pid).rss;
    results.atRestMB = mb(rest);
    line('at rest', `${mb(rest)} MB`);

    let watch = new PeakWatch(child.pid);
    const silent = await silentConnections(child.url, o.connections);
    await sleep(1000);
    results.silentMB = mb(memoryOf(child.pid).rss);
    line(`${o.connections} silent connections`, `${results.silentMB} MB (${open(silent)} open)`);
    const idle = await idleConnections(child.url, o.connections);
    await sleep(1000);
    results.idleMB = mb(memoryOf(child.pid).rss);
    line(`+ ${o.connections} idle keep-alive connections`, `${results.idleMB} MB (${open(idle)} open)`);
    await sleep(o.idleMs + 2000);
    results.idlePeakMB = mb(watch.stop());
    results.openAfterIdle = open(silent) + open(idle);
    line('after the idle timeout', `${results.openAfterIdle} of ${2 * o.connections} still open; peak ${results.idlePeakMB} MB`);
    for (const s of [...silent, ...idle]) s.destroy();

    watch = new PeakWatch(child.pid);
    const agent = new http.Agent({ keepAlive: true, maxSockets: o.parallel });
    const started = performance.now();
    let done = 0;
    let whole = 0;
    let nextIndex = 0;
    let lastReport = started;
    const worker = async () => {
      while (nextIndex < o.exchanges) {
        const i = nextIndex++;
        if (await exchange(child.url, agent, i, body)) whole++;
        done++;
        if (done * 2 >= o.exchanges) watch.secondHalf = true;
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          const s = await child.stats();
          process.stderr.write(
            `  ${done} exchanges: RSS ${mb(memoryOf(child.pid).rss)} MB (heap ${mb(s.heapUsed)} MB, buffers ${mb(s.arrayBuffers)} MB, ${s.kept} kept)\n`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: o.parallel }, worker));
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    await sleep(1000);
    const stats = await child.stats();
    results.exchangePeakMB = mb(watch.stop());
    results.halvesPeakMB = watch.halves.map(mb);
    results.exchangeEndMB = mb(memoryOf(child.pid).rss);
    results.seconds = Math.round(seconds);
    results.whole = whole;
    results.kept = stats.kept;
    results.keptMB = Math.round((stats.keptBytes / MB) * 10) / 10;
    line(
      `${o.exchanges} exchanges of ${o.mb} MB, ${o.parallel} at a time`,
      `peak ${results.exchangePeakMB} MB, after ${results.exchangeEndMB} MB; ${Math.round(seconds)} s (${Math.round((o.exchanges * o.mb) / seconds)} MB/s)`,
    );
    line('', `peak of the first half ${watch.halves.map(mb)[0]} MB, of the second ${watch.halves.map(mb)[1]} MB (sampled)`);
    line(
      '',
      `${whole} of ${o.exchanges} bodies arrived whole; ${stats.kept} exchanges kept (${results.keptMB} MB by their weight), heap ${mb(stats.heapUsed)} MB, buffers ${mb(stats.arrayBuffers)} MB`,
    );
    const flat = watch.halves[1] <= watch.halves[0] * GROWTH_ALLOWED;
    const ok = flat && whole === o.exchanges && results.openAfterIdle === 0;
    process.stdout.write(
      `\n${ok ? '✓' : '✗'} ${flat ? 'bounded: the second half did not raise the peak' : 'still growing: the second half raised the peak'}${results.openAfterIdle ? `, ${results.openAfterIdle} connections left open` : ''}${whole < o.exchanges ? `, ${o.exchanges - whole} bodies not whole` : ''}\n`,
    );
    if (o.json) fs.writeFileSync(o.json, `${JSON.stringify(results, null, 2)}\n`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await child.close();
    target.server.closeAllConnections();
    target.server.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
