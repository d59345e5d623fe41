/** Mocha root hooks of the UI suite: each run starts with an empty test-results/ui/. */
import * as fs from 'node:fs';
import { SCREENSHOTS } from './workbench';

export const mochaHooks = {
  beforeAll(): void {
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  },
};
