// Types of code-server-process.js for the TypeScript tests (test/ui) that share it.
import type { ChildProcess } from 'node:child_process';
import type { LaunchOptions } from 'playwright-core';

export const REPO_ROOT: string;
export const CODE_SERVER_BIN: string;
export const CHROMIUM: string;
export function chromiumLaunchOptions(): LaunchOptions;
export function freePort(): Promise<number>;
export function isPortFree(port: number): Promise<boolean>;
export interface CodeServer {
  readonly port: number;
  /** http://127.0.0.1:<port>/ */
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}
export function startCodeServer(options: {
  folder: string;
  port?: number;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<CodeServer>;
export function killTree(child: ChildProcess): Promise<void>;
export function folderUrl(baseUrl: string, folder: string): string;
