/**
 * `carrier sandbox`: runs the embedded sandbox in the foreground until SIGINT or SIGTERM, then
 * closes it cleanly (the last state write finished) and exits 0.
 */
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, type Namespaces } from '../../core';
import {
  clockRateProblem,
  MAX_CLOCK_RATE,
  REPLAY_FALLBACKS,
  ReplayLoadError,
  SandboxLockedError,
  SandboxStateUnreadableError,
  startSandbox,
  type ReplayFallback,
} from '../../sandbox/server';
import { describeFlags, parseArgs, type FlagSpec, portFlag, textFlag } from '../args';
import { stopSignal } from '../stopSignal';
import { UsageError, type Command } from '../command';
import { SUMMARIES } from './summaries';

const FLAGS: readonly FlagSpec[] = [
  { name: 'port', short: 'p', value: true, description: 'TCP port (default 0: a free port chosen by the system)' },
  { name: 'host', value: true, description: 'interface to listen on (default 127.0.0.1)' },
  { name: 'api-key', value: true, repeatable: true, description: 'accept only this API key (repeat for several; default: any non-empty key)' },
  { name: 'data-dir', value: true, description: 'keep created bills of lading and pickups in this folder across restarts' },
  { name: 'reset-data', description: "start with an empty state: the --data-dir folder's state files are moved into a backup folder there (never deleted)" },
  { name: 'allow-injection', description: 'honour the X-Carrier-Inject request header (delays, faults, broken replies)' },
  { name: 'service-ns', value: true, description: `{service_namespace} URI (default ${DEFAULT_NAMESPACES.service})` },
  { name: 'data-ns', value: true, description: `{data_namespace} URI (default ${DEFAULT_NAMESPACES.data})` },
  { name: 'pickup-ns', value: true, description: `{pickup_namespace} URI (default ${DEFAULT_NAMESPACES.pickup})` },
  {
    name: 'clock-rate',
    value: true,
    description: `run the carrier clock N times faster than real time from the start, so pickups, traces and documents move on (default 1; e.g. 60 or 600; at most ${MAX_CLOCK_RATE})`,
  },
  {
    name: 'replay',
    value: true,
    repeatable: true,
    description:
      'answer from the recordings in this folder (what carrier inspect --record writes; repeat for several): a matching request gets its recorded reply',
  },
  {
    name: 'replay-fallback',
    value: true,
    description: 'what a request no recording matches gets: emulate (the default: the sandbox answers) or fault (a fault naming the closest recording)',
  },
  {
    name: 'reply-memo',
    description:
      'keep the replies of operations that read no state (rate quotes, terminal information, hazmat descriptions) and answer the same request again from memory',
  },
  { name: 'quiet', short: 'q', description: 'do not print a line per request' },
];

export const sandbox: Command = {
  name: 'sandbox',
  summary: SUMMARIES.sandbox,
  usage: [
    'Usage: carrier sandbox [options]',
    '',
    'Serves every operation of the service at its path and version (SOAP 1.1, SOAP 1.2, HTTP GET/POST',
    'where offered) and its WSDL at <path>?WSDL. Prints "Carrier sandbox listening on http://HOST:PORT",',
    'then one line per request, and runs until SIGINT or SIGTERM. With --data-dir, the folder is locked',
    'while it runs: a second sandbox on it exits 1, naming the pid and address of the first. A state there',
    'that does not read stops the start with exit 1, naming the file; --reset-data starts empty instead,',
    'keeping the old files in a backup folder beside them. With --clock-rate N the carrier clock runs N times',
    'faster than real time from the start: --clock-rate 600 makes each real second ten carrier minutes, so a',
    'pickup requested now is picked up within seconds and delivered within minutes.',
    '',
    'With --replay DIR it is a virtual carrier: a call is matched by operation, version, binding and',
    'parameters (the APIKey and the paths DIR/replay.json lists under "ignore" left out) and answered with',
    'the recorded status, headers and body bytes; several recordings of one call answer in turn, the last',
    'repeating. A recording that does not read stops the start with exit 2, naming the file.',
    '',
    'With --reply-memo a reply of an operation that reads neither the state nor the clock (a 200, never a',
    'fault) is kept, and the same request (URL, Content-Type, SOAPAction, body bytes) is answered again with',
    'its bytes, as carrier load starts its embedded sandbox. Not with --replay.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const { positionals, flags, lists } = parseArgs(args, FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const dataDir = textFlag(flags.get('data-dir'), 'data-dir');
    const namespaces: Namespaces = {
      service: textFlag(flags.get('service-ns'), 'service-ns') ?? DEFAULT_NAMESPACES.service,
      data: textFlag(flags.get('data-ns'), 'data-ns') ?? DEFAULT_NAMESPACES.data,
      pickup: textFlag(flags.get('pickup-ns'), 'pickup-ns') ?? DEFAULT_NAMESPACES.pickup,
    };
    const apiKeys = lists.get('api-key') ?? [];
    if (apiKeys.some((k) => !k.trim())) throw new UsageError('--api-key needs a non-empty key');
    const quiet = flags.has('quiet');
    const resetData = flags.has('reset-data');
    if (resetData && !dataDir) throw new UsageError('--reset-data needs --data-dir: without it the state lives in memory');
    const clockRate = clockRateFlag(flags.get('clock-rate'));
    const replayDirs = (lists.get('replay') ?? []).map((d) => {
      if (!d.trim()) throw new UsageError('--replay needs a folder of recordings');
      return path.resolve(io.cwd, d);
    });
    const replayFallback = replayFallbackFlag(flags.get('replay-fallback'));
    if (replayFallback && !replayDirs.length) throw new UsageError('--replay-fallback needs --replay DIR');
    const replyMemo = flags.has('reply-memo');
    if (replyMemo && replayDirs.length) throw new UsageError('--reply-memo does not go with --replay: a replay answers from its recordings in turn');
    // Listen for the signal before starting, so a stop request during start-up is not lost.
    const stopped = stopSignal();
    let handle;
    try {
      handle = await startSandbox({
        port: portFlag(flags.get('port')),
        host: textFlag(flags.get('host'), 'host') ?? '127.0.0.1',
        ...(apiKeys.length ? { apiKeys } : {}),
        ...(dataDir ? { dataDir: path.resolve(io.cwd, dataDir), resetData } : {}),
        allowInjection: flags.has('allow-injection'),
        namespaces,
        ...(clockRate !== undefined ? { clockRate } : {}),
        ...(replayDirs.length ? { replay: { dirs: replayDirs, fallback: replayFallback ?? 'emulate' } } : {}),
        ...(replyMemo ? { replyMemo } : {}),
        // Where the old state went is said even with --quiet: it is the one place it is named.
        log: (line) => {
          if ((!quiet || line.startsWith(STARTING_EMPTY)) && !line.startsWith('Carrier sandbox listening')) io.stdout(`${line}\n`);
        },
      });
    } catch (e) {
      // A recording that does not read is input the user gave, like a bad flag: exit 2, naming the file.
      if (e instanceof ReplayLoadError || (e instanceof Error && e.name === 'ReplayLoadError')) {
        io.stderr(`carrier sandbox: the recording ${(e as Error).message}; the sandbox did not start.\n`);
        return 2;
      }
      // A state that does not read: never a silent restart; said even with --quiet.
      if (e instanceof SandboxStateUnreadableError) {
        io.stderr(unreadableMessage(e, dataDir!));
        return 1;
      }
      // Another sandbox has the data folder: not an internal error, and nothing to retry blindly.
      if (!(e instanceof SandboxLockedError)) throw e;
      io.stderr(`carrier sandbox: ${e.message}\n`);
      return 1;
    }
    io.stdout(`Carrier sandbox listening on ${handle.url}\n`);
    if (clockRate !== undefined && clockRate !== 1 && !quiet) io.stdout(`Carrier clock: ${clockRate}× real time\n`);
    if (replyMemo && !quiet) io.stdout('Reply memo: replies of operations that read no state are kept\n');
    const signal = await stopped;
    if (!quiet) io.stdout(`${signal}: stopping the sandbox\n`);
    await handle.close();
    return 0;
  },
};

/** `--clock-rate N`: a positive number (decimals allowed); anything else is misuse (exit 2). */
function clockRateFlag(value: string | true | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const rate = /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : NaN;
  const problem = clockRateProblem(rate);
  if (problem) throw new UsageError(`--clock-rate ${problem}; got ${JSON.stringify(String(value))}`);
  return rate;
}

/** `--replay-fallback emulate|fault`. */
function replayFallbackFlag(value: string | true | undefined): ReplayFallback | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!(REPLAY_FALLBACKS as readonly string[]).includes(text))
    throw new UsageError(`--replay-fallback is ${REPLAY_FALLBACKS.join(' or ')}; got ${JSON.stringify(String(value))}`);
  return text as ReplayFallback;
}

/** The start of the line the store logs when --reset-data moved the old state aside (state/store.ts). */
const STARTING_EMPTY = 'state: starting empty';

function unreadableMessage(e: SandboxStateUnreadableError, dataDir: string): string {
  return [
    `carrier sandbox: ${e.message}; the sandbox did not start and nothing was changed.`,
    `  To start empty: carrier sandbox --data-dir ${dataDir} --reset-data (the old state files are moved into a sandbox-state.backup-<time> folder in ${e.dataDir}, never deleted).`,
    `  Or mend or restore ${e.file} and start again.`,
    '',
  ].join('\n');
}
