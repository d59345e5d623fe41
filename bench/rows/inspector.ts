/**
 * The traffic inspector's overhead: the same prebuilt GetRateQuote envelope posted with undici
 * straight to the sandbox and through `carrier inspect` (its own process, printing a line per
 * exchange as people run it), at concurrency 1 and 16. The ratio is the slowdown: direct
 * throughput over throughput through the inspector.
 *
 * The inspector relays at once and reads (parses, records, prints) each exchange later, when no
 * request is in flight (src/inspector/scheduler.ts), so a closed-loop run of a few hundred
 * requests leaves its whole reading for after its last reply. Were the next run started then,
 * that reading would compete with it — with a direct run as often as not, which is how direct
 * once measured slower than through. So every run through the inspector ends only when the
 * inspector has printed each of its exchanges, and two figures come from it: the client's, up to
 * the last reply (`inspector.cN`), and the whole cost, up to the last exchange recorded
 * (`inspector.cN.recorded`). Both sides use the same number of connections (as many as requests
 * in flight; the inspector opens one to the sandbox for each of its own) and start warm.
 *
 * A second process on the path costs something whatever it does: at concurrency 1 a request
 * wakes two processes instead of one. `inspector.cN.hop` compares the inspector with a bare TCP
 * relay in its own process (bench/children/tcpRelay.ts), so what the inspector itself adds is
 * measured apart from the hop; the target is on that line.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { benchEnvironment, rateQuoteRequest, wireRequest } from '../fixtures/rateQuote';
import { ROOT } from '../lib/child';
import { interleaveSamples, paired } from '../lib/interleave';
import { throughput } from '../lib/load';
import { atMost, type BenchRow, type RowResult } from '../lib/row';
import { startSandboxChild } from '../lib/sandboxChild';

const SETTINGS = [
  { concurrency: 1, requests: 400 },
  { concurrency: 16, requests: 800 },
] as const;

/** Requests each way before anything is measured: the sandbox and the inspector both reach steady code. */
const WARM_UP = { concurrency: 16, requests: 2000 } as const;

/** Longest wait for the inspector to print the exchanges of one run. */
const RECORDING_TIMEOUT_MS = 60_000;

/** `carrier inspect` prints one line per exchange once it is read: `hh:mm:ss.mmm #seq …`. */
const EXCHANGE_LINE = /^\S+ #\d+ /;

interface InspectorProcess {
  readonly url: string;
  /** Resolves once `total` exchanges have been printed since the start. */
  recorded(total: number): Promise<void>;
  readonly printed: number;
  close(): Promise<void>;
}

function startInspector(target: string): Promise<InspectorProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'carrier.js'), 'inspect', '--target', target, '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let partial = '';
    let url: string | undefined;
    let printed = 0;
    let started = false;
    let waiter: { total: number; done: () => void } | undefined;
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`carrier inspect exited ${code} before listening`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (EXCHANGE_LINE.test(line)) printed++;
        else url ??= /listening on (http:\/\/\S+)/.exec(line)?.[1];
      }
      if (waiter && printed >= waiter.total) waiter.done();
      if (!url || started) return;
      started = true;
      child.removeAllListeners('exit');
      resolve({
        url,
        get printed() {
          return printed;
        },
        recorded: (total) =>
          new Promise<void>((done, fail) => {
            if (printed >= total) return done();
            const timer = setTimeout(
              () => fail(new Error(`carrier inspect printed ${printed} of ${total} exchanges in ${RECORDING_TIMEOUT_MS / 1000} s`)),
              RECORDING_TIMEOUT_MS,
            );
            waiter = {
              total,
              done: () => {
                clearTimeout(timer);
                waiter = undefined;
                done();
              },
            };
          }),
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export const inspectorOverhead: BenchRow = {
  id: 'inspector',
  title: 'Traffic inspector: through carrier inspect against direct',
  async run(ctx) {
    const inspector = await startInspector(ctx.sandboxUrl);
    const relay = await startSandboxChild('children/tcpRelay.ts', [ctx.sandboxUrl]);
    const spec = wireRequest(rateQuoteRequest(), benchEnvironment(ctx.sandboxUrl));
    const body = Buffer.from(spec.body, 'utf8');
    const headers = Object.fromEntries(spec.headers);
    const viaUrl = spec.url.replace(ctx.sandboxUrl, inspector.url);
    const hopUrl = spec.url.replace(ctx.sandboxUrl, relay.url);
    const post = (agent: Agent, url: string) => async () => {
      const r = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} from ${url}`);
      await r.body.arrayBuffer();
    };
    /** Requests per second through the inspector: up to the last reply, and up to the last exchange recorded. */
    const through = async (agent: Agent, requests: number, concurrency: number) => {
      const expected = inspector.printed + requests;
      const t0 = performance.now();
      const replied = await throughput(requests, concurrency, post(agent, viaUrl));
      await inspector.recorded(expected);
      return { replied, recorded: requests / ((performance.now() - t0) / 1000) };
    };
    const results: RowResult[] = [];
    try {
      const warm = new Agent({ connections: WARM_UP.concurrency });
      await throughput(WARM_UP.requests, WARM_UP.concurrency, post(warm, spec.url));
      await through(warm, WARM_UP.requests, WARM_UP.concurrency);
      await throughput(WARM_UP.requests, WARM_UP.concurrency, post(warm, hopUrl));
      await warm.close();
      for (const { concurrency, requests } of SETTINGS) {
        // As many connections as requests in flight, on both sides: undici would otherwise open
        // more than that when a reply ends a moment before its connection is free again.
        const agent = new Agent({ connections: concurrency });
        try {
          const s = await interleaveSamples(
            ctx.runs,
            () => throughput(requests, concurrency, post(agent, spec.url)),
            () => through(agent, requests, concurrency),
          );
          const measured = `GetRateQuote 1.0.3 SOAP 1.1 posted with undici, concurrency ${concurrency} (${concurrency} connection${concurrency > 1 ? 's' : ''} each way): direct to the sandbox vs through carrier inspect (own process, a line per exchange)`;
          const replied = paired(
            s.a,
            s.b.map((x) => x.replied),
          );
          const recorded = paired(
            s.a,
            s.b.map((x) => x.recorded),
          );
          results.push(
            {
              id: `inspector.c${concurrency}`,
              measured: `${measured}, up to the last reply`,
              a: { label: 'direct', value: replied.medianA, unit: 'req/s' },
              b: { label: 'through inspector', value: replied.medianB, unit: 'req/s' },
              ratio: replied.ratio,
              ratioText: 'direct / through inspector (slowdown)',
              runs: replied.runs,
              samples: { a: replied.a, b: replied.b },
              note: `${requests} requests per run; the inspector reads them after the last reply, before the next run`,
            },
            {
              id: `inspector.c${concurrency}.recorded`,
              measured: `${measured}, up to the last exchange recorded`,
              a: { label: 'direct', value: recorded.medianA, unit: 'req/s' },
              b: { label: 'through inspector, recorded', value: recorded.medianB, unit: 'req/s' },
              ratio: recorded.ratio,
              ratioText: 'direct / through inspector with its reading (slowdown)',
              runs: recorded.runs,
              samples: { a: recorded.a, b: recorded.b },
              note: `${requests} requests per run, timed until carrier inspect has printed each of them`,
            },
          );
          // At least 10 pairs, as the other rows read against a threshold: at concurrency 16 one
          // pair of this row moved between 0.9 and 1.3 in five-pair runs.
          const hop = await interleaveSamples(
            Math.max(ctx.runs, 10),
            () => throughput(requests, concurrency, post(agent, hopUrl)),
            () => through(agent, requests, concurrency),
          );
          const own = paired(
            hop.a,
            hop.b.map((x) => x.replied),
          );
          results.push({
            id: `inspector.c${concurrency}.hop`,
            measured: `The same at concurrency ${concurrency}: through a bare TCP relay in its own process (the hop alone) vs through carrier inspect, up to the last reply`,
            a: { label: 'bare relay', value: own.medianA, unit: 'req/s' },
            b: { label: 'through inspector', value: own.medianB, unit: 'req/s' },
            ratio: own.ratio,
            ratioText: 'bare relay / through inspector (what the inspector adds)',
            target: atMost(1.1),
            runs: own.runs,
            samples: { a: own.a, b: own.b },
            note: `${requests} requests per run`,
          });
        } finally {
          await agent.close();
        }
      }
    } finally {
      await inspector.close();
      await relay.close();
    }
    return results;
  },
};
