/**
 * What a bill of lading costs the sandbox as its state grows: CreateBillOfLading over SOAP 1.1,
 * one at a time, against two sandboxes with data folders (each in a process of its own), one
 * holding 10 bills of lading and one 10,000. Every change is a journal append and fsync before
 * the reply (src/sandbox/state/persist.ts), so the two should cost the same; when every change
 * rewrote the whole state file, the 10,000th cost about a thousand times the 10th.
 *
 * Both are filled, stopped and started again from their folders, then warmed with the same
 * number of requests: filling only the large one warmed only its process (the sandbox's CPU per
 * request falls by half over its first few thousand requests), which made 10,000 look cheaper
 * than 10.
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
/** Requests each fresh process gets before anything is measured (both alike). */
const WARM = 600;
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

  constructor(
    readonly sandbox: SandboxChild,
    private readonly tag: string,
  ) {
    this.template = bolBody(sandbox.url);
  }

  /** Stops the sandbox (its state written) and starts a fresh process on the same folder. */
  async restart(start: () => Promise<SandboxChild>): Promise<BolClient> {
    await this.close();
    const next = new BolClient(await start(), this.tag);
    next.n = this.n;
    return next;
  }

  /** One bill of lading (each with its own PO); its round trip in ms. */
  async create(): Promise<number> {
    const po = `PO-${this.tag}-${this.n++}`;
    const t0 = performance.now();
    const r = await request(this.template.url, {
      method: 'POST',
      headers: this.template.headers,
      body: this.template.body.replace(PO, po),
      dispatcher: this.agent,
    });
    const text = await r.body.text();
    const ms = performance.now() - t0;
    if (r.statusCode !== 200 || !text.includes('<WasSuccess>true</WasSuccess>'))
      throw new Error(`CreateBillOfLading: HTTP ${r.statusCode}: ${text.slice(0, 400)}`);
    return ms;
  }

  async fill(count: number, concurrency: number): Promise<void> {
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < count) {
          started++;
          await this.create();
        }
      }),
    );
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
    const startSmall = () => startSandboxChild('children/sandboxData.ts', [path.join(ctx.tmp, 'small')]);
    const startLarge = () => startSandboxChild('children/sandboxData.ts', [path.join(ctx.tmp, 'large')]);
    let small = new BolClient(await startSmall(), 'S');
    let large = new BolClient(await startLarge(), 'L');
    try {
      await small.fill(SMALL, 1);
      const t0 = performance.now();
      await large.fill(LARGE, 16);
      ctx.log(`  ${LARGE.toLocaleString('en-US')} bills of lading stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const t1 = performance.now();
      [small, large] = [await small.restart(startSmall), await large.restart(startLarge)];
      ctx.log(`  both sandboxes started again from their folders in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
      await small.fill(WARM, 4);
      await large.fill(WARM, 4);
      const p = await interleave(
        ctx.runs,
        () => large.medianOf(PER_RUN),
        () => small.medianOf(PER_RUN),
      );
      return [
        {
          id: 'sandbox-state.bol',
          measured: `CreateBillOfLading 1.0.1 SOAP 1.1, one at a time, sandbox with a data folder (own process): median round trip with ${LARGE.toLocaleString('en-US')} bills of lading stored vs ${SMALL} stored (journal append + fsync per change)`,
          a: { label: `at ${LARGE.toLocaleString('en-US')}`, value: p.medianA, unit: 'ms' },
          b: { label: `at ${SMALL}`, value: p.medianB, unit: 'ms' },
          ratio: p.ratio,
          ratioText: `${LARGE.toLocaleString('en-US')} / ${SMALL}`,
          target: atMost(1.5),
          runs: p.runs,
          note: `${PER_RUN} bills of lading per run; both sandboxes restarted from their folders and warmed with ${WARM} more first`,
        },
      ];
    } finally {
      await Promise.all([small.close(), large.close()]);
    }
  },
};
