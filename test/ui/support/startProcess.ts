/**
 * `npm start`'s script (scripts/start/start.js) as a child process, the way a person runs it in a
 * terminal: its output is read for the URL it prints, and Ctrl+C is a SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from '../../../scripts/vscode-host/code-server-process';

export interface StartedWorkbench {
  readonly child: ChildProcess;
  /** The URL line's address, e.g. http://127.0.0.1:41234/?folder=/repo/examples */
  readonly url: string;
  /** Everything the script printed so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the script has ended. */
  readonly exited: Promise<number | string>;
}

export async function runStartScript(args: readonly string[], timeoutMs = 120_000): Promise<StartedWorkbench> {
  // Always code-server, even where a desktop `code` is on the PATH: the test drives a page.
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start', 'start.js'), '--code-server', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, CARRIER_VSCODE_HOST: 'code-server' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no URL within ${timeoutMs / 1000} s; output:\n${text}`)), timeoutMs);
    const poll = setInterval(() => {
      const match = /^\s*Open (http:\/\/\S+)\s*$/m.exec(text);
      if (match) done(undefined, match[1]);
    }, 100);
    void exited.then((code) => done(new Error(`the start script exited with ${code} before printing a URL:\n${text}`)));
    function done(err?: Error, found?: string) {
      clearTimeout(timer);
      clearInterval(poll);
      if (err) reject(err);
      else resolve(found!);
    }
  });
  return { child, url, output: () => text, exited };
}
