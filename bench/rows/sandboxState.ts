/**
 * What a bill of lading costs the sandbox as its state grows: CreateBillOfLading over SOAP 1.1,
 * one at a time, against two sandboxes with data folders (each in a process of its own), one
 * holding 10 bills of lading and one 10,000. Every change is a journal append and fsync before
 * the reply (src/sandbox/state/persist.ts), so the two should cost the same; when every change
 * rewrote the whole state file, the 10,000th cost about a thousand times the 10th.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { benchEnvironment, sampleRequest, wireRequest } from '../fixtures/rateQuote';
import { interleave } from '../lib/interleave';
import { atMost, type BenchRow } from '../lib/row';
import { startSandboxChild, type SandboxChild } from '../lib/sandboxChild';
import { median } from '../lib/stats';

const SMALL = 10;
const LARGE = 10_000;
const PER_RUN = 60;
const PO = 'PO-BENCH-0000000';

/** The catalog's sample bill of lading, made valid for today and without a pickup (whose day rules depend on the clock). */
function bolBody(url: string): { body: string; headers: Record<string, string>; url: string } {
  const sample = sampleRequest('CreateBillOfLading', '1.0.1');
  const request = structuredClone(sample.params.request) as Record<string, unknown> & { BillOfLading: Record<string, unknown> };
  const today = new Date();
  request.BillOfLading.BOLDate = `${String(today.getUTCMonth() + 1).padStart(2, '0')}/${String(today.getUTCDate()).padStart(2, '0')}/${today.getUTCFullYear()}`;
  request.BillOfLading.ReferenceNumbers = { PONumber: PO };
  request.AddPickupRequest = false;
  delete request.PickupRequestInfo;
  const spec = wireRequest({ ...sample, params: { ...sample.params, request } }, benchEnvironment(url));
  return { body: spec.body, headers: Object.fromEntries(spec.headers), url: spec.url };
}

class BolClient {
  private n = 0;
  private readonly agent = new Agent();
  private readonly template: { body: string; headers: Record<string, string>; url: string };

  constructor(readonly sandbox: SandboxChild, private readonly tag: string) {
    this.template = bolBody(sandbox.url);
  }

  /** One bill of lading (each with its own PO); its round trip in ms. */
  async create(): Promise<number> {
    const po = `PO-${this.tag}-${this.n++}`;
    const t0 = performance.now();
    const r = await request(this.template.url, { method: 'POST', headers: this.template.headers, body: this.template.body.replace(PO, po), dispatcher: this.agent });
    const text = await r.body.text();
    const ms = performance.now() - t0;
    if (r.statusCode !== 200 || !text.includes('<WasSuccess>true</WasSuccess>')) throw new Error(`CreateBillOfLading: HTTP ${r.statusCode}: ${text.slice(0, 400)}`);
    return ms;
  }

  async fill(count: number, concurrency: number): Promise<void> {
    let started = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (started < count) { started++; await this.create(); }
    }));
  }

  async medianOf(count: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await this.create());
    return median(times);
  }

  async close(): Promise<void> {
    await this.agent.close();
    await this.sandbox.close();
  }
}

export const sandboxState: BenchRow = {
  id: 'sandbox-state',
  title: 'Sandbox state: a bill of lading at 10,000 stored against one at 10',
  async run(ctx) {
    const small = new BolClient(await startSandboxChild('children/sandboxData.ts', [path.join(ctx.tmp, 'small')]), 'S');
    const large = new BolClient(await startSandboxChild('children/sandboxData.ts', [path.join(ctx.tmp, 'large')]), 'L');
    try {
      await small.fill(SMALL, 1);
      const t0 = performance.now();
      await large.fill(LARGE, 16);
      ctx.log(`  ${LARGE.toLocaleString('en-US')} bills of lading stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const p = await interleave(ctx.runs, () => large.medianOf(PER_RUN), () => small.medianOf(PER_RUN));
      return [{
        id: 'sandbox-state.bol',
        measured: `CreateBillOfLading 1.0.1 SOAP 1.1, one at a time, sandbox with a data folder (own process): median round trip with ${LARGE.toLocaleString('en-US')} bills of lading stored vs ${SMALL} stored (journal append + fsync per change)`,
        a: { label: `at ${LARGE.toLocaleString('en-US')}`, value: p.medianA, unit: 'ms' },
        b: { label: `at ${SMALL}`, value: p.medianB, unit: 'ms' },
        ratio: p.ratio,
        ratioText: `${LARGE.toLocaleString('en-US')} / ${SMALL}`,
        target: atMost(1.5),
        runs: p.runs,
        note: `${PER_RUN} bills of lading per run`,
      }];
    } finally {
      await Promise.all([small.close(), large.close()]);
    }
  },
};
