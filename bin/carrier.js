#!/usr/bin/env node
// The `carrier` CLI. Runs the built bundle; in a checkout that has not been built yet, runs the
// TypeScript sources directly so `npx carrier …` works right after `npm ci`.
const fs = require('node:fs');
const path = require('node:path');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (fs.existsSync(bundle)) {
  require(bundle);
} else {
  require('tsx/cjs');
  require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
}
