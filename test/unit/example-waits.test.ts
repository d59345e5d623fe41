/**
 * examples/fast-clock/: a collection that waits. `carrier run` on it books a pickup for the next
 * business day and traces the new PRO until it is picked up, on the embedded sandbox of the
 * example's own carrier.environments.json, whose carrier clock runs 43,200 times faster than
 * real time. It passes, and the console and report.json show the attempts.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';

const ROOT = path.resolve(__dirname, '../..');

async function carrier(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: ROOT, env: {} };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

interface WaitedAttempt {
  readonly number: number;
  readonly held: boolean;
}

describe('examples/fast-clock (a wait on the fast carrier clock)', function () {
  // The pickup is at most 134 carrier hours away (examples/fast-clock/2-trace-until-picked-up.carrier.json).
  this.timeout(60_000);
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-example-waits-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('passes, in its own fast-clock environment, holding after more than one attempt', async () => {
    const r = await carrier(['run', 'examples/fast-clock', '--reporter', 'cli,json', '--out', tmp]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ 1-create-bill-of-lading-with-pickup\.carrier\.json \[soap11\] .*· fast-clock/);
    const line = /✓ 2-trace-until-picked-up\.carrier\.json \[soap11\] .*· fast-clock · attempt (\d+) of 60$/m.exec(r.stdout);
    assert.ok(line, r.stdout);
    // The pickup is at least 13 carrier hours after the run starts (a second of real time): the first trace never has it.
    const heldAt = Number(line[1]);
    assert.ok(heldAt > 1 && heldAt <= 60, line[0]);
    assert.match(r.stdout, /^2 tests: 2 passed, 0 failed, 0 skipped/m);

    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'report.json'), 'utf8')) as {
      tests: { name: string; status: string; waited?: { max: number; heldAt?: number; each: WaitedAttempt[] } }[];
    };
    const trace = report.tests.find((t) => t.name.startsWith('2-trace-until-picked-up'));
    assert.equal(trace?.status, 'passed');
    assert.equal(trace.waited?.max, 60);
    assert.equal(trace.waited.heldAt, heldAt);
    assert.deepEqual(
      trace.waited.each.map((a) => [a.number, a.held]),
      Array.from({ length: heldAt }, (_, i) => [i + 1, i + 1 === heldAt]),
    );
  });
});
