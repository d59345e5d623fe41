/**
 * The walls between the rooms (docs/architecture.md#the-walls-between-the-rooms) as the tools
 * check them: ESLint's import and global rules (eslint.config.mjs) fail code that crosses one, and
 * each room's tsconfig gives it only the platform it runs on.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

describe('the walls between the rooms', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: ROOT });

  /** The rules that fired on `code` as if it were the file `file` of the repository. */
  async function fired(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    assert.equal(result!.fatalErrorCount, 0, JSON.stringify(result!.messages));
    return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
  }

  const refused = async (file: string, code: string, rule: string) => {
    const errors = await fired(file, code);
    assert.ok(
      errors.some((e) => e.startsWith(`${rule}:`)),
      `${file} should be refused by ${rule}: ${code}\n${errors.join('\n')}`,
    );
  };
  const accepted = async (file: string, code: string) => assert.deepEqual(await fired(file, code), [], `${file}: ${code}`);

  const IMPORTS = '@typescript-eslint/no-restricted-imports';
  const GLOBALS = 'no-restricted-globals';

  describe('core', () => {
    it('imports no vscode', () => refused('src/core/wall.ts', "import * as vscode from 'vscode';\nexport const w = vscode.window;\n", IMPORTS));
    it('imports nothing from the sandbox, however the path is spelled', async () => {
      await refused('src/core/wall.ts', "import { startSandbox } from '../sandbox/server';\nexport const s = startSandbox;\n", IMPORTS);
      await refused('src/core/runner/wall.ts', "export { startSandbox } from '../../sandbox/server';\n", IMPORTS);
      await refused('src/core/wall.ts', "import type { SandboxHandle } from '../sandbox/options';\nexport type S = SandboxHandle;\n", IMPORTS);
    });
    it('imports nothing from the inspector, the CLI, the extension or the webview', async () => {
      for (const room of ['inspector', 'cli/dispatch', 'extension/config', 'webview/protocol']) {
        await refused('src/core/wall.ts', `import * as other from '../${room}';\nexport const o = other;\n`, IMPORTS);
      }
    });
    it('uses no browser globals', async () => {
      await refused('src/core/wall.ts', 'export const title = document.title;\n', GLOBALS);
      await refused('src/core/wall.ts', 'export const agent = navigator.userAgent;\n', GLOBALS);
      await refused('src/core/wall.ts', "export const kept = localStorage.getItem('k');\n", GLOBALS);
    });
    it('touches nothing itself: no file system, no environment variables, no undici but its types', async () => {
      await refused('src/core/wall.ts', "import * as fs from 'node:fs';\nexport const e = fs.existsSync('x');\n", IMPORTS);
      await refused('src/core/runner/wall.ts', "import { readFileSync } from 'fs';\nexport const r = readFileSync;\n", IMPORTS);
      await refused('src/core/wall.ts', "import { writeFile } from 'node:fs/promises';\nexport const w = writeFile;\n", IMPORTS);
      await refused('src/core/wall.ts', 'export const key = process.env.CARRIER_API_KEY;\n', 'no-restricted-properties');
      await refused('src/core/transport/wall.ts', "import { Agent } from 'undici';\nexport const a = new Agent();\n", IMPORTS);
      await refused('src/core/transport/wall.ts', "import type { Agent } from 'undici/lib/dispatcher/agent.js';\nexport type A = Agent;\n", IMPORTS);
      await refused(
        'src/core/wall.ts',
        "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const fs = require('node:fs');\n",
        'no-restricted-syntax',
      );
      await accepted('src/core/transport/wall.ts', "import type { Dispatcher } from 'undici';\nexport type D = Dispatcher;\n");
    });
    it('imports nothing from the host that makes its context', () =>
      refused('src/core/wall.ts', "import { nodeContext } from '../host';\nexport const c = nodeContext;\n", IMPORTS));
    it('accepts a clean core file: its own modules, Node and packages', () =>
      accepted(
        'src/core/wall.ts',
        [
          "import * as path from 'node:path';",
          "import { parse } from 'jsonc-parser';",
          "import { findShape } from './catalog';",
          "import type { CoreContext } from './context';",
          "export const op = findShape('GetRateQuote', '1.0.3');",
          "export const read = (context: Pick<CoreContext, 'files'>, file: string): unknown => parse(new TextDecoder().decode(context.files.readBounded(path.resolve(file), 1024).bytes));",
          '',
        ].join('\n'),
      ));
  });

  describe('the host', () => {
    it('imports core only from its entry, and no other room', async () => {
      await refused('src/host/wall.ts', "import { send } from '../core/send';\nexport const s = send;\n", IMPORTS);
      await refused('src/host/wall.ts', "import { runCli } from '../cli/dispatch';\nexport const r = runCli;\n", IMPORTS);
      await refused('src/host/wall.ts', "import { startSandbox } from '../sandbox/server';\nexport const s = startSandbox;\n", IMPORTS);
      await accepted(
        'src/host/wall.ts',
        "import * as fs from 'node:fs';\nimport { TlsFileError } from '../core';\nexport const x = [fs.existsSync, TlsFileError];\n",
      );
    });
    it('is reached by the extension only through the engine (coreLight.ts: its file system alone)', async () => {
      await refused('src/extension/wall.ts', "import { nodeContext } from '../host';\nexport const c = nodeContext;\n", IMPORTS);
      await refused('src/extension/coreLight.ts', "import { nodeContext } from '../host';\nexport const c = nodeContext;\n", IMPORTS);
      await accepted('src/extension/coreLight.ts', "import { nodeFiles } from '../host/files';\nexport const f = nodeFiles;\n");
    });
  });

  describe('the sandbox, the inspector and the CLI', () => {
    it('import no vscode', async () => {
      for (const room of ['sandbox', 'inspector', 'cli'])
        await refused(`src/${room}/wall.ts`, "import * as vscode from 'vscode';\nexport const v = vscode;\n", IMPORTS);
    });
    it('import core only from its entry', async () => {
      await refused('src/sandbox/soap/wall.ts', "import { findShape } from '../../core/catalog';\nexport const f = findShape;\n", IMPORTS);
      await refused('src/cli/wall.ts', "import type { Exchange } from '../core/exchange';\nexport type E = Exchange;\n", IMPORTS);
      await accepted('src/sandbox/soap/wall.ts', "import { findShape } from '../../core';\nexport const f = findShape;\n");
      await accepted('src/inspector/wall.ts', "import type { Exchange } from '../core';\nexport type E = Exchange;\n");
    });
    it('use no browser globals', () => refused('src/inspector/wall.ts', 'export const w = window.location.href;\n', GLOBALS));
  });

  describe('the webview', () => {
    it('imports no Node modules', async () => {
      await refused('src/webview/wall.ts', "import * as fs from 'node:fs';\nexport const f = fs;\n", IMPORTS);
      await refused('src/webview/views/wall.ts', "import * as path from 'path';\nexport const p = path;\n", IMPORTS);
      await refused('src/webview/wall.ts', "import { fetch } from 'undici';\nexport const f = fetch;\n", IMPORTS);
    });
    it('uses no Node globals', () => refused('src/webview/wall.ts', 'export const env = process.env;\n', GLOBALS));
    it('imports no vscode and no other room', async () => {
      await refused('src/webview/wall.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", IMPORTS);
      await refused('src/webview/wall.ts', "import { startSandbox } from '../sandbox/server';\nexport const s = startSandbox;\n", IMPORTS);
    });
    it('imports core only from its browser-safe entry', async () => {
      await refused('src/webview/views/wall.ts', "import { BINDING_LABELS } from '../../core';\nexport const b = BINDING_LABELS;\n", IMPORTS);
      await accepted(
        'src/webview/views/wall.ts',
        "import { BINDING_LABELS, type Exchange } from '../../core/view';\nexport const b = BINDING_LABELS;\nexport type E = Exchange;\n",
      );
    });
  });

  describe('vscode', () => {
    it('is imported by the extension and its host tests only', async () => {
      const code = "import * as vscode from 'vscode';\nexport const w = vscode.window;\n";
      await accepted('src/extension/wall.ts', code);
      await accepted('test/vscode/wall.test.ts', code);
      await refused('test/unit/wall.test.ts', code, IMPORTS);
      await refused('bench/rows/wall.ts', code, IMPORTS);
      await refused('scripts/wall.ts', code, IMPORTS);
    });
    it('does not let the extension reach into core past its entry', () =>
      refused('src/extension/panel/wall.ts', "import { MASK } from '../../core/redact';\nexport const m = MASK;\n", IMPORTS));
  });

  describe('the engine door', () => {
    it('refuses a value import of core, the inspector or the sandbox in an extension file', async () => {
      await refused('src/extension/panel/wall.ts', "import { BINDING_LABELS } from '../../core';\nexport const b = BINDING_LABELS;\n", IMPORTS);
      await refused('src/extension/wall.ts', "import { send } from '../core';\nexport const s = send;\n", IMPORTS);
      await refused('src/extension/wall.ts', "export { send } from '../core';\n", IMPORTS);
      await refused('src/extension/inspector/wall.ts', "import { ExchangeStore } from '../../inspector';\nexport const s = ExchangeStore;\n", IMPORTS);
      await refused(
        'src/extension/sandbox/wall.ts',
        "import { operationPageUrl } from '../../sandbox/pages/links';\nexport const o = operationPageUrl;\n",
        IMPORTS,
      );
    });
    it('accepts a type import of core, and the engine through its door', async () => {
      await accepted('src/extension/panel/wall.ts', "import type { Exchange } from '../../core';\nexport type E = Exchange;\n");
      await accepted('src/extension/panel/wall.ts', "import { type Exchange } from '../../core';\nexport type E = Exchange;\n");
      await accepted('src/extension/panel/wall.ts', "import { engine } from '../engineBundle';\nexport const b = () => engine().BINDING_LABELS;\n");
    });
    it("lets engine.ts (the engine bundle's entry) and coreLight.ts (the exception list) import core, through its entry only", async () => {
      await accepted('src/extension/engine.ts', "export { send } from '../core';\n");
      await accepted('src/extension/coreLight.ts', "export { exchangeTitle } from '../core';\n");
      await refused('src/extension/engine.ts', "export { MASK } from '../core/redact';\n", IMPORTS);
      await refused('src/extension/coreLight.ts', "export { startInspector } from '../inspector';\n", IMPORTS);
    });
  });
});

describe('each room compiles for its own platform', function () {
  this.timeout(120_000);

  /** TypeScript's complaints about `code` as a file of `room`, compiled with that room's tsconfig.json. */
  function diagnose(room: string, code: string): string[] {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(ROOT, room, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      },
    )!;
    const probe = path.join(ROOT, room, '__platform_probe__.ts');
    const host = ts.createCompilerHost(config.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language, ...rest) =>
      path.resolve(file) === probe ? ts.createSourceFile(file, code, language) : getSourceFile(file, language, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
    const program = ts.createProgram({ rootNames: [probe], options: config.options, host });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  const NODE_CODE =
    "import { readFileSync } from 'node:fs';\nexport const text = (file: string): string => readFileSync(file, 'utf8') + Buffer.byteLength(file) + process.pid;\n";
  const DOM_CODE = 'export const title: string = document.title;\nexport const el: HTMLElement | null = null;\n';

  for (const room of ['src/core', 'src/host', 'src/sandbox', 'src/inspector', 'src/cli', 'src/extension']) {
    it(`${room}: Node's types and no DOM`, () => {
      assert.deepEqual(diagnose(room, NODE_CODE), []);
      const errors = diagnose(room, DOM_CODE);
      assert.ok(
        errors.some((e) => /Cannot find name 'document'/.test(e)),
        errors.join('\n'),
      );
      assert.ok(
        errors.some((e) => /Cannot find name 'HTMLElement'/.test(e)),
        errors.join('\n'),
      );
    });
  }

  it('src/webview: the DOM and no Node types', () => {
    assert.deepEqual(diagnose('src/webview', DOM_CODE), []);
    const errors = diagnose('src/webview', NODE_CODE);
    for (const name of ['process', 'Buffer'])
      assert.ok(
        errors.some((e) => new RegExp(`Cannot find name '${name}'`).test(e)),
        errors.join('\n'),
      );
    assert.ok(
      errors.some((e) => /node:fs/.test(e)),
      errors.join('\n'),
    );
  });
});
