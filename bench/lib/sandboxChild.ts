/**
 * A sandbox in a child process of its own, with its pid (for RSS) and a clean stop: for rows and
 * scripts that need several sandboxes, or a data folder, which bench/lib/child.ts's one shared
 * sandbox does not have.
 */
import { spawn } from 'node:child_process';
import { ROOT, tsxArgs } from './child';

export interface SandboxChild {
  readonly url: string;
  readonly pid: number;
  /** Closes stdin (the child stops cleanly) and waits for the exit; SIGKILL after 10 s. */
  close(): Promise<void>;
}

/** `script` (under bench/) prints `{"url": …}` on stdout once listening and stops when stdin closes. */
export function startSandboxChild(script: string, args: readonly string[] = []): Promise<SandboxChild> {
  return startListeningChild(tsxArgs(script, args), script);
}

/** The same for `node <args>` as given: a plain JavaScript server that should load nothing else (not even tsx). */
export function startListeningChild(nodeArgs: readonly string[], script: string): Promise<SandboxChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const early = (code: number | null) => reject(new Error(`${script} exited (${code}) before listening: ${out}`));
    child.on('error', reject);
    child.on('exit', early);
    child.stdout!.setEncoding('utf8').on('data', function onData(d: string) {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.stdout!.off('data', onData);
      child.off('exit', early);
      const { url } = JSON.parse(line) as { url: string };
      resolve({
        url,
        pid: child.pid!,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.stdin!.end();
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
          }),
      });
    });
  });
}
