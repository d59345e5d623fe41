/**
 * Captures under load on the embedded sandbox: each virtual user's chain of captures is its own.
 * A collection creates a bill of lading and fetches its PDF by the captured BolID; the sends of
 * the run say which user made them (LoadSendCall), and every PDF request of a user asks for a
 * BolID the sandbox gave that same user in reply to its own CreateBillOfLading.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedSandbox } from '../../src/cli/embeddedSandbox';
import { createRunBackend, loadRun, startLoad, type LoadSendCall, type RunnerBackend } from '../../src/core';
import { nodeContext } from '../../src/host';
import { runLoadCommand } from '../../src/cli/commands/load';
import { captureIo, ROOT } from './load-kit';

const LIFECYCLE = path.join(ROOT, 'examples/collections/bill-of-lading-lifecycle');

describe('carrier load: captures per user on the embedded sandbox', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-load-captures-'));
    for (const f of ['collection.json', '01-create-bill-of-lading.carrier.json', '02-bill-of-lading-pdf.carrier.json'])
      fs.copyFileSync(path.join(LIFECYCLE, f), path.join(dir, f));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("no user ever sends another user's BolID", async () => {
    const context = nodeContext({ env: {} });
    const sandbox = new EmbeddedSandbox();
    const standard = createRunBackend({ context, environmentsFrom: [dir], embeddedUrl: (e) => sandbox.url(e) });
    /** BolIDs by the user whose CreateBillOfLading the sandbox answered with them. */
    const createdBy = new Map<string, number>();
    const asked: Array<{ user: number; bolId: string }> = [];
    const backend: RunnerBackend = {
      environment: (name) => standard.environment(name),
      async send(call) {
        const { user } = call as LoadSendCall;
        if (call.request.operation === 'GetBillOfLadingPdf')
          asked.push({ user, bolId: String((call.request.params as { billOfLadingId: unknown }).billOfLadingId) });
        const exchange = await standard.send(call);
        if (call.request.operation === 'CreateBillOfLading') {
          const id = /<BolID>(\d+)<\/BolID>/.exec(exchange.reply?.bodyText ?? '')?.[1];
          assert.ok(id, 'the sandbox gave a BolID');
          assert.ok(!createdBy.has(id), `BolID ${id} given twice`);
          createdBy.set(id, user);
        }
        return exchange;
      },
    };
    try {
      const plan = loadRun(context, [dir], { baseDir: dir });
      assert.deepEqual(plan.problems, []);
      const report = await startLoad(plan, { backend, vus: 6, iterations: 36 }).done;
      assert.equal(report.iterations, 36);
      assert.equal(report.overall.errors, 0, JSON.stringify(report.operations.map((o) => [o.name, o.errorClasses])));
      assert.deepEqual(
        report.operations.map((o) => [o.name, o.count]),
        [
          ['CreateBillOfLading', 36],
          ['GetBillOfLadingPdf', 36],
        ],
      );
      assert.equal(asked.length, 36);
      assert.equal(new Set(asked.map((a) => a.user)).size, 6);
      for (const a of asked)
        assert.equal(createdBy.get(a.bolId), a.user, `user ${a.user} asked for BolID ${a.bolId}, created by user ${createdBy.get(a.bolId)}`);
      // Every BolID made was asked for once: each pass of a user fetched its own new one.
      assert.equal(new Set(asked.map((a) => a.bolId)).size, 36);
    } finally {
      await context.http.close();
      await sandbox.close();
    }
  });

  it('refuses to send the creating operations to an environment not marked "probe": true, sending nothing', async () => {
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ remote: { baseUrl: 'http://127.0.0.1:9' } }));
    try {
      const c = captureIo(dir);
      const code = await runLoadCommand(['.', '--env', 'remote', '--iterations', '1'], { ...c.io, env: { CARRIER_API_KEY_REMOTE: 'k' } });
      assert.equal(code, 2);
      assert.match(
        c.err(),
        /CreateBillOfLading creates shipments and pickups: carrier load sends it only to an embedded sandbox or an environment marked "probe": true, and remote is neither/,
      );
      assert.match(c.err(), /refused; nothing was sent/);
    } finally {
      fs.rmSync(path.join(dir, 'carrier.environments.json'));
    }
  });
});
