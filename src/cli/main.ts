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

/*
 * `carrier run` goes through a suite's files once, in seconds. V8's default tiers a function up
 * to its optimizing compiler after a few hundred runs, before its feedback has settled: a run of
 * 2,000 tests made 173 optimizing compiles (the engine's runTest and send() two and three times
 * over, 40–60 ms of compiler time each), about 0.8 s of compiler work for a 1 s run. Eight times
 * the default budget waits until the code has run long enough to pay for its optimization: a
 * quarter less CPU and wall time for 2,000 tests, and for 10,000 a little more CPU but less wall
 * time (BENCHMARKS.md, runner-throughput). The servers and loops (inspect, sandbox, load) serve
 * a few paths for as long as they live, and keep V8's default: optimized late, the inspector's
 * relay added a tenth to each round trip.
 */
if (process.argv[2] === 'run') setFlagsFromString('--interrupt-budget=540672');

// The built dispatcher (dist/cli.js) loads each command's bundle from dist/cli/ (compileCache.ts).
enableCompileCache(path.join(__dirname, 'cli'));

// A closed pipe ends the command quietly, with status 141 (brokenPipe.ts).
endQuietlyOnBrokenPipe();

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
