/**
 * Row — the sandbox as a load target (issue 37): autocannon posting the GetRateQuote 1.0.3
 * SOAP 1.1 envelope on 64 connections for 5 s to the sandbox (children/sandbox.ts, its own
 * process) and to a bare node:http server (children/bareServer.js, its own process) answering
 * the very reply bytes the sandbox gave that envelope, interleaved. The sandbox runs as
 * `carrier load` starts its embedded one: with the reply memo (`--reply-memo`), so replies of
 * operations that read no state are kept and the same request is answered from memory. The bare
 * server is the most a Node mock could answer on this machine; the ratio says how much of it the
 * sandbox keeps. Each server's CPU time per request is read from /proc: how far each was from
 * using a whole core.
 */
import * as path from 'node:path';
import { LOAD_CONNECTIONS, LOAD_SECONDS, recordReply, runAutocannon, startBareServer, writeSpec, type CannonRun } from '../fixtures/loadTarget';
import { benchEnvironment, rateQuoteRequest, wireRequest } from '../fixtures/rateQuote';
import { interleaveSamples, paired } from '../lib/interleave';
import { processCpuMs } from '../lib/processCpu';
import { atLeast, type BenchRow, type RowResult } from '../lib/row';
import { startSandboxChild } from '../lib/sandboxChild';
import { median } from '../lib/stats';

interface Measured extends CannonRun {
  readonly ratePerSecond: number;
  /** The server's CPU time per reply, ms. */
  readonly serverCpuMs: number;
}

export const sandboxLoad: BenchRow = {
  id: 'sandbox-load',
  title: 'The sandbox as a load target, against a bare node:http server',
  async run(ctx) {
    const sandbox = await startSandboxChild('children/sandbox.ts', ['--reply-memo']);
    let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
    try {
      const spec = wireRequest(rateQuoteRequest(), benchEnvironment(sandbox.url));
      const recorded = await recordReply(spec, path.join(ctx.tmp, 'reply.json'));
      bare = await startBareServer(path.join(ctx.tmp, 'reply.json'));
      const sandboxSpec = writeSpec(path.join(ctx.tmp, 'sandbox-spec.json'), spec);
      const bareSpec = writeSpec(path.join(ctx.tmp, 'bare-spec.json'), { ...spec, url: spec.url.replace(sandbox.url, bare.url) });
      const measure = async (specFile: string, pid: number): Promise<Measured> => {
        const cpu0 = processCpuMs(pid);
        const run = await runAutocannon(specFile);
        return { ...run, ratePerSecond: run.ok / run.seconds, serverCpuMs: (processCpuMs(pid) - cpu0) / run.ok };
      };
      const server = bare;
      // At least 10 pairs, as the other rows read against a threshold; the one warm-up pair brings both servers to steady code.
      const s = await interleaveSamples(
        Math.max(ctx.runs, 10),
        () => measure(sandboxSpec, sandbox.pid),
        () => measure(bareSpec, server.pid),
      );
      const p = paired(
        s.a.map((r) => r.ratePerSecond),
        s.b.map((r) => r.ratePerSecond),
      );
      const cpu = (runs: Measured[]) => median(runs.map((r) => r.serverCpuMs)).toFixed(3);
      const p99 = (runs: Measured[]) => median(runs.map((r) => r.p99Ms)).toFixed(1);
      const result: RowResult = {
        id: `sandbox-load.c${LOAD_CONNECTIONS}`,
        measured: `GetRateQuote 1.0.3 SOAP 1.1 posted by autocannon (own process) on ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s: the sandbox (own process) as carrier load starts it: replies of operations that read no state are kept (--reply-memo), vs a bare node:http server (own process) answering the sandbox's recorded reply (${recorded.bytes} bytes)`,
        a: { label: 'sandbox', value: p.medianA, unit: 'req/s' },
        b: { label: 'bare server', value: p.medianB, unit: 'req/s' },
        ratio: p.ratio,
        ratioText: 'sandbox / bare server',
        target: atLeast(0.5),
        runs: p.runs,
        samples: { a: p.a, b: p.b },
        note: `server CPU per request ${cpu(s.a)} ms vs ${cpu(s.b)} ms; p99 ${p99(s.a)} ms vs ${p99(s.b)} ms`,
      };
      return [result];
    } finally {
      await bare?.close();
      await sandbox.close();
    }
  },
};
