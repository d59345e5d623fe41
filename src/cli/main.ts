/** Entry point of the `carrier` CLI (bin/carrier.js loads the bundle, or this file through tsx). */
import { processIo, runCli } from './dispatch';

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
