/**
 * Row 2 — the workbench's client against node-soap, the usual Node.js SOAP client: its client is
 * built once from the sandbox's own ?WSDL (outside the timing), then both call the same
 * operations with the same parameters, one request at a time. Core runs as bundled
 * (fixtures/builtCore.ts), and the row in a process of its own (rows/index.ts, lib/ownProcess.ts).
 *
 * The figure is client CPU per request (process.cpuUsage of this process while each side runs;
 * the sandbox is another process), not throughput: one at a time, every request also waits for
 * the sandbox's own time, the same for both clients, which caps a throughput ratio well below
 * the difference between the clients (the throughputs are in the note).
 */
import * as soap from 'soap';
import { Agent, request } from 'undici';
import { findShape, servicePath } from '../../src/core';
import { builtCore } from '../fixtures/builtCore';
import { nodeSoapArgs } from '../fixtures/nodeSoapArgs';
import { benchEnvironment, BENCH_KEY, sampleRequest, wireRequest } from '../fixtures/rateQuote';
import { interleaveSamples, paired } from '../lib/interleave';
import { throughput } from '../lib/load';
import { atLeast, type BenchRow, type RowResult } from '../lib/row';
import { median, pairedRatio } from '../lib/stats';

const OPERATIONS = [
  { operation: 'GetRateQuote', version: '1.0.3' },
  { operation: 'TraceShipment', version: '1.0.2' },
  { operation: 'GetTransitTimes', version: undefined },
  { operation: 'GetTerminalInformation', version: undefined },
] as const;

const REQUESTS = 400;

/**
 * Requests each client sends, in turns, before any run is timed. process.cpuUsage counts every
 * thread, V8's compiler threads too: a side measured while its code is still being optimised
 * (or, for send(), while the records of an operation not sent before get their compiled readers)
 * is charged for the compiling. 150-request runs straight after the first call moved a row by
 * a third between runs; per-request CPU is meant here as the steady state a client settles into.
 */
const WARM_UP = 1000;

interface Load {
  readonly perSecond: number;
  /** Client CPU (user + system) per request, ms. */
  readonly cpuMs: number;
}

async function measured(total: number, call: () => Promise<unknown>): Promise<Load> {
  const cpu = process.cpuUsage();
  const perSecond = await throughput(total, 1, call);
  const used = process.cpuUsage(cpu);
  return { perSecond, cpuMs: (used.user + used.system) / 1000 / total };
}

type PortMethod = (args: unknown, callback: (err: unknown, result: unknown, rawResponse: string) => void) => void;

/** The operation on the WSDL's SOAP 1.1 port (the WSDL also has a 1.2 port), as a promise. */
function soap11Method(client: soap.Client, operation: string): (args: unknown) => Promise<{ result: unknown; raw: string }> {
  const services = client.describe() as Record<string, Record<string, unknown>>;
  const service = Object.keys(services)[0];
  const ports = Object.keys(services[service]);
  const port = ports.find((p) => !/12$/.test(p)) ?? ports[0];
  const method = (client as unknown as Record<string, Record<string, Record<string, PortMethod>>>)[service][port][operation];
  if (!method) throw new Error(`node-soap found no ${operation} on ${service}/${port}`);
  return (args) => new Promise((resolve, reject) => method(args, (err, result, raw) => (err ? reject(err) : resolve({ result, raw }))));
}

export const nodeSoap: BenchRow = {
  id: 'node-soap',
  title: 'Against node-soap',
  async run(ctx) {
    const { classifyExchange, nodeContext, send } = builtCore(ctx.tmp);
    // One context for the row, its pooled dispatchers reused by every send as the product's are.
    const context = nodeContext();
    const environment = benchEnvironment(ctx.sandboxUrl);
    const results: RowResult[] = [];
    const agent = new Agent();
    try {
      for (const { operation, version } of OPERATIONS) {
        const op = findShape(operation, version);
        if (!op) throw new Error(`no shape ${operation} ${version ?? ''}`);
        const sendable = sampleRequest(op.operation, op.version);
        const client = await soap.createClientAsync(`${ctx.sandboxUrl}${servicePath(op)}?WSDL`);
        const fn = soap11Method(client, op.operation);
        const args = nodeSoapArgs(op, sendable.params, BENCH_KEY);

        const check = await send({ context, request: sendable, environment, apiKey: BENCH_KEY });
        if (!classifyExchange(check).ok)
          throw new Error(`${op.operation}: the sandbox did not answer cleanly: ${check.findings.map((f) => f.message).join('; ')}`);
        // A clean answer for both, or the comparison means nothing.
        const theirs = await fn(args);
        if (!theirs.result || typeof theirs.result !== 'object' || /<WasSuccess>false|<ErrorMessage>/.test(theirs.raw)) {
          throw new Error(`${op.operation}: node-soap did not get a clean reply: ${theirs.raw.slice(0, 300)}`);
        }

        for (let i = 0; i < WARM_UP; i += 100) {
          for (let j = 0; j < 100; j++) await send({ context, request: sendable, environment, apiKey: BENCH_KEY });
          for (let j = 0; j < 100; j++) await fn(args);
        }
        const { a, b } = await interleaveSamples(
          ctx.runs,
          () => measured(REQUESTS, () => send({ context, request: sendable, environment, apiKey: BENCH_KEY })),
          () => measured(REQUESTS, () => fn(args)),
        );
        const p = paired(
          a.map((l) => l.cpuMs),
          b.map((l) => l.cpuMs),
        );
        const speed = pairedRatio(
          a.map((l) => l.perSecond),
          b.map((l) => l.perSecond),
        );
        // The floor: undici posting the envelope send() builds, reading the reply's bytes and
        // nothing more. node-soap over it bounds what any client that builds and reads the XML
        // can reach on this row.
        const spec = wireRequest(sendable, environment);
        const body = Buffer.from(spec.body, 'utf8');
        const headers = Object.fromEntries(spec.headers);
        const raw = async () => {
          const r = await request(spec.url, { method: 'POST', headers, body, dispatcher: agent });
          await r.body.arrayBuffer();
        };
        for (let i = 0; i < WARM_UP; i++) await raw();
        const { a: floor, b: theirsAgain } = await interleaveSamples(
          ctx.runs,
          () => measured(REQUESTS, raw),
          () => measured(REQUESTS, () => fn(args)),
        );
        const wire = paired(
          floor.map((l) => l.cpuMs),
          theirsAgain.map((l) => l.cpuMs),
        );
        results.push({
          id: `node-soap.${op.operation}`,
          measured: `${op.operation} ${op.version} SOAP 1.1, one at a time: client CPU per request, send() vs node-soap client (from ?WSDL)`,
          a: { label: 'send()', value: p.medianA, unit: 'ms' },
          b: { label: 'node-soap', value: p.medianB, unit: 'ms' },
          // Less CPU is the claim: node-soap's over ours.
          ratio: pairedRatio(p.b, p.a),
          ratioText: 'node-soap / send CPU',
          target: atLeast(3),
          runs: p.runs,
          note: `${REQUESTS} requests per run after ${WARM_UP} by each client; throughput ${median(a.map((l) => l.perSecond)).toFixed(0)} vs ${median(b.map((l) => l.perSecond)).toFixed(0)} req/s (${speed.toFixed(2)}×), capped by the sandbox's own time per request; the wire's floor, raw undici posting the same envelope: ${wire.medianA.toFixed(3)} ms, node-soap ${pairedRatio(wire.b, wire.a).toFixed(2)}× that`,
        });
      }
    } finally {
      await agent.close();
      await context.http.close();
    }
    return results;
  },
};
