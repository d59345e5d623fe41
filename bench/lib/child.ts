/** Child processes: a bench script run under tsx that answers with one JSON line. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** `node [flags] -r tsx/cjs script args…`, resolving tsx from the project. */
export function tsxArgs(script: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): string[] {
  return [...nodeFlags, '-r', require.resolve('tsx/cjs'), path.resolve(__dirname, '..', script), ...args];
}

/** Runs a child script (under tsx) to the end and returns its last stdout line parsed as JSON. */
export function runJsonChild<T>(script: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): Promise<T> {
  return runJsonNode<T>(tsxArgs(script, args, nodeFlags), script);
}

/** `node <args>` to the end; its last stdout line parsed as JSON. */
export function runJsonNode<T>(args: readonly string[], label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${label} exited ${code}: ${err.trim() || out.trim()}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${label} printed no JSON: ${out.slice(-500)}${err.slice(-500)}`));
      }
    });
  });
}

export interface SandboxProcess {
  readonly url: string;
  close(): Promise<void>;
}

export function startSandboxProcess(): Promise<SandboxProcess> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, tsxArgs('children/sandbox.ts'), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)));
    child.stdout!.setEncoding('utf8').on('data', function onData(d: string) {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.stdout!.off('data', onData);
      child.removeAllListeners('exit');
      const { url } = JSON.parse(line) as { url: string };
      resolve({
        url,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.stdin!.end();
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
  });
}
