/**
 * Each command's one line for `carrier --help`. Kept apart from the commands so the dispatcher
 * can list them without loading any command (each is its own bundle: see commands/index.ts).
 */
export const SUMMARIES = {
  validate: 'check request files (*.carrier.json) against the service catalog',
  run: 'run request files and collections as tests (expect, capture, JUnit/JSON reports)',
  report: 'merge the JSON reports of several runs or shards into JUnit, JSON and HTML reports',
  envelope: 'print the exact HTTP request a request file makes, without sending it',
  send: 'send a request file and print the reply',
  sandbox: 'run the embedded sandbox service until Ctrl+C',
  inspect: 'record what a program sends to the service and gets back (a forward proxy on loopback)',
  contract: "check an environment's live WSDLs against the catalog",
  compare: 'send request files to two environments and compare the replies',
  probe: 'send requests generated from the catalog and hold every reply to properties (failures as request files)',
  load: 'send collections as load from virtual users: latency percentiles per operation, errors by class, thresholds',
} as const;
