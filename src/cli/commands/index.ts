/**
 * Every `carrier` command. To add one: write commands/<name>.ts exporting a Command, add its
 * summary to summaries.ts and a line here. esbuild.js builds each command imported here into its
 * own bundle (dist/cli/<name>.js) that the dispatcher loads only when that command runs.
 */
import type { LazyCommand } from '../command';
import { SUMMARIES } from './summaries';

const lazy = (name: keyof typeof SUMMARIES, load: LazyCommand['load']): LazyCommand => ({ name, summary: SUMMARIES[name], load });

// require, not import(): the tests run these sources through tsx's require hook, and in the built
// dispatcher a require of a CommonJS bundle skips the ESM loader's scan of it.
/* eslint-disable @typescript-eslint/no-require-imports */
export const commands: readonly LazyCommand[] = [
  lazy('validate', async () => (require('./validate') as typeof import('./validate')).validate),
  lazy('run', async () => (require('./run') as typeof import('./run')).run),
  lazy('report', async () => (require('./report') as typeof import('./report')).report),
  lazy('envelope', async () => (require('./envelope') as typeof import('./envelope')).envelope),
  lazy('send', async () => (require('./send') as typeof import('./send')).sendCommand),
  lazy('sandbox', async () => (require('./sandbox') as typeof import('./sandbox')).sandbox),
  lazy('inspect', async () => (require('./inspect') as typeof import('./inspect')).inspect),
  lazy('contract', async () => (require('./contract') as typeof import('./contract')).contract),
  lazy('compare', async () => (require('./compare') as typeof import('./compare')).compare),
  lazy('probe', async () => (require('./probe') as typeof import('./probe')).probe),
  lazy('load', async () => (require('./load') as typeof import('./load')).load),
];
/* eslint-enable @typescript-eslint/no-require-imports */
