/**
 * The floors inside core and the sandbox (docs/architecture.md#the-walls-between-the-rooms) as
 * `npm run lint:deps` checks them: dependency-cruiser with .dependency-cruiser.cjs fails when
 * folders of src/core or src/sandbox, or the files at their tops, import each other in a loop.
 * Each probe is written into a copy of the two rooms, never into the tree, and the copy is
 * checked exactly as `npm run lint` checks the tree.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  readonly type: string;
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

/** What the check finds in `copy`, run as `npm run lint:deps` runs it. */
function violations(copy: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'src/core', 'src/sandbox', '--config', CONFIG, '--output-type', 'json'],
      { cwd: copy, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // It exits with the number of errors; its report is on standard output either way.
        if (!stdout) return reject(error ?? new Error(stderr));
        try {
          resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
        } catch (e) {
          reject(new Error(`${String(e)}\n${stderr}`));
        }
      },
    );
  });
}

/** Each probe: a file written into the copy, and the violation it must cause. */
const PROBES: readonly {
  readonly why: string;
  readonly file: string;
  readonly code: string;
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}[] = [
  {
    why: 'a folder of core importing one above it (generate → runner, while runner → validation → generate)',
    file: 'src/core/generate/loopProbe.ts',
    code: "import type { PlannedRun } from '../runner';\nexport type P = PlannedRun;\n",
    rule: 'no-folder-loop',
    from: 'src/core/generate',
    to: 'src/core/runner',
  },
  {
    why: 'two folders of core importing each other (environments ↔ contract)',
    file: 'src/core/environments/loopProbe.ts',
    code: "export { readStoredContract } from '../contract/snapshot';\n",
    rule: 'no-folder-loop',
    from: 'src/core/environments',
    to: 'src/core/contract',
  },
  {
    why: 'a sandbox helper folder importing the routes above it (http → routes, while routes → http)',
    file: 'src/sandbox/http/loopProbe.ts',
    code: "export { soapRoute } from '../routes/soapRoute';\n",
    rule: 'no-folder-loop',
    from: 'src/sandbox/http',
    to: 'src/sandbox/routes',
  },
  {
    why: "a folder of core importing send.ts, which stands above core's folders (the runner's old link to send)",
    file: 'src/core/runner/loopProbe.ts',
    code: "export { send } from '../send';\n",
    rule: 'no-folder-reaches-core-top',
    from: 'src/core/runner/loopProbe.ts',
    to: 'src/core/send.ts',
  },
  {
    why: 'a folder of the sandbox importing a top file that imports it (http → context.ts → http)',
    file: 'src/sandbox/http/contextProbe.ts',
    code: "import type { SandboxContext } from '../context';\nexport type C = SandboxContext;\n",
    rule: 'no-loop-through-sandbox-context',
    from: 'src/sandbox/http/contextProbe.ts',
    to: 'src/sandbox/context.ts',
  },
  {
    why: 'a new top file of core that imports a folder without being named in the configuration',
    file: 'src/core/topProbe.ts',
    code: "export { loadRun } from './runner';\n",
    rule: 'core-top-files-named',
    from: 'src/core/topProbe.ts',
    to: 'src/core/runner/index.ts',
  },
];

describe('the floors inside core and the sandbox (dependency-cruiser)', function () {
  this.timeout(240_000);
  let copy: string;

  before(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-floors-'));
    for (const room of ['src/core', 'src/sandbox']) fs.cpSync(path.join(ROOT, room), path.join(copy, room), { recursive: true });
  });
  after(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('finds no loop in the tree as it stands', async () => {
    assert.deepEqual(await violations(copy), []);
  });

  it('fails each probe that makes a loop, with the rule that names it', async () => {
    for (const probe of PROBES) fs.writeFileSync(path.join(copy, probe.file), probe.code);
    try {
      const found = await violations(copy);
      const seen = found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
      for (const probe of PROBES) {
        assert.ok(
          found.some((v) => v.rule.name === probe.rule && v.from === probe.from && v.to === probe.to),
          `${probe.why}: expected ${probe.rule}: ${probe.from} → ${probe.to}\nfound:\n${seen.join('\n')}`,
        );
      }
    } finally {
      for (const probe of PROBES) fs.rmSync(path.join(copy, probe.file), { force: true });
    }
  });
});
