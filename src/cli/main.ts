/** Entry point of the `carrier` CLI (bin/carrier.js loads the bundle, or this file through tsx). */
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { endQuietlyOnBrokenPipe } from './brokenPipe';
import { enableCompileCache } from './compileCache';
import { processIo, runCli } from './dispatch';

/*
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 also compiles that module with its
 * optimizing tier, on a background thread the process waits for before it can exit: about 70 ms
 * of CPU in every command that sends, more than a whole `carrier send` spends otherwise. The
 * baseline tier alone parses a reply in a few microseconds, so a short-lived CLI keeps to it
 * (BENCHMARKS.md, runner-throughput). Set before any command module compiles the parser; the
 * extension host is shared with other extensions and is left as it is.
 */
setFlagsFromString('--liftoff-only');

// The built dispatcher (dist/cli.js) loads each command's bundle from dist/cli/ (compileCache.ts).
enableCompileCache(path.join(__dirname, 'cli'));

// A closed pipe ends the command quietly, with status 141 (brokenPipe.ts).
endQuietlyOnBrokenPipe();

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
