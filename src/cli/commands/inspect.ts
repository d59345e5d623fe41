/**
 * `carrier inspect`: the traffic inspector in the foreground. It listens on loopback, forwards
 * every request to the target (the embedded sandbox unless told otherwise) and prints one line
 * per exchange; with --record it writes each one to a folder that `carrier run` can replay.
 * `carrier inspect --show <file>` prints one recorded exchange readably.
 */
import {
  apiKeyFromVariables,
  BINDING_LABELS,
  classifyExchange,
  ENVIRONMENTS_FILE,
  findEnvironment,
  loadEnvironmentsFrom,
  Redactor,
  SANDBOX_ENVIRONMENT,
  secretValues,
  VERDICT_PHRASES,
  type Environment,
  type LoadedEnvironments,
  type Namespaces,
} from '../../core';
import { nodeFiles } from '../../host';
import * as path from 'node:path';
import {
  DEFAULT_MAX_BODY_BYTES,
  InspectorHostError,
  isLoopback,
  startInspector,
  TargetError,
  tlsOptionsOf,
  type RecordedExchange,
  type RecordEnvironment,
} from '../../inspector';
import { formatExchange, readRecording, RecordingError } from '../../inspector/show';
import type { SandboxHandle } from '../../sandbox/options';
import { startSandbox } from '../../sandbox/server';
import { describeFlags, parseArgs, type FlagSpec, portFlag, textFlag } from '../args';
import { stopSignal } from '../stopSignal';
import { UsageError, type CliIo, type Command } from '../command';
import { displayPath } from '../displayPath';
import { chooseEnvironment } from '../environment';
import { SUMMARIES } from './summaries';

const FLAGS: readonly FlagSpec[] = [
  {
    name: 'target',
    short: 't',
    value: true,
    description: `where to forward: an http(s) base URL or an environment of ${ENVIRONMENTS_FILE} (default: the embedded sandbox, started here)`,
  },
  { name: 'port', short: 'p', value: true, description: 'TCP port to listen on (default 0: a free port chosen by the system)' },
  { name: 'host', value: true, description: 'loopback address to listen on (default 127.0.0.1)' },
  { name: 'record', short: 'r', value: true, description: 'folder to write every exchange to (JSON, raw bodies, and a request file per call)' },
  {
    name: 'max-body',
    value: true,
    description: `bytes of each body kept, parsed and recorded (default ${DEFAULT_MAX_BODY_BYTES}); the rest is forwarded only`,
  },
  { name: 'quiet', short: 'q', description: 'do not print a line per exchange' },
  { name: 'show', value: true, description: 'print a recorded exchange (NNN-<Operation>.exchange.json) readably and exit' },
  { name: 'max-lines', value: true, description: 'with --show: lines of each body printed (the rest is counted, not printed)' },
  { name: 'head', value: true, description: 'the same as --max-lines' },
];

const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

interface ResolvedTarget {
  readonly environment?: Environment;
  /** A base URL, or undefined for the embedded sandbox. */
  readonly url?: string;
}

/** An environment by name, or a URL (whose namespaces are those of the environment at that URL, if one is). */
function resolveTarget(loaded: LoadedEnvironments, target: string | undefined, io: CliIo): ResolvedTarget | number {
  if (target !== undefined && isUrl(target)) {
    const trimmed = target.replace(/\/+$/, '');
    const environment = loaded.environments.find((e) => !e.embedded && e.baseUrl.replace(/\/+$/, '') === trimmed);
    return { url: target, ...(environment ? { environment } : {}) };
  }
  const environment = chooseEnvironment(
    loaded,
    target ?? SANDBOX_ENVIRONMENT,
    io,
    (name, names) => `carrier inspect: "${name}" is neither a URL nor an environment (environments: ${names})`,
  );
  if (environment === 2) return 2;
  return { environment, ...(environment.embedded ? {} : { url: environment.baseUrl }) };
}

/** What a recording names, so `carrier run <folder>` replays against the target: its environment, or its URL as an environment of the folder. */
function recordTarget(resolved: ResolvedTarget, namespaces: Namespaces): RecordEnvironment {
  if (resolved.environment) return { name: resolved.environment.name };
  const url = new URL(resolved.url!);
  url.username = '';
  url.password = '';
  return { name: 'recorded', baseUrl: url.href.replace(/\/+$/, ''), namespaces };
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toTimeString().slice(0, 8);
}

/** One line per exchange: time, number, request line, what it was, status and time taken. */
export function exchangeLine(r: RecordedExchange): string {
  const x = r.exchange;
  const shownPath = x.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, (q) => (q.length > 60 ? `${q.slice(0, 59)}…` : q));
  const what = x.operation
    ? `${x.operation} ${x.version} ${x.binding ? BINDING_LABELS[x.binding] : ''}`.trim()
    : `unknown (${r.recognition.kind === 'unknown' ? r.recognition.reason : 'not read'})`;
  const verdict = classifyExchange(x);
  const answered = x.wire?.answered;
  // A reply the inspector made itself is said to be so, with why: the client saw that status, not the target's.
  const failed =
    answered && x.error
      ? `${answered.status} from the inspector, not the target (${x.error.kind}: ${x.error.message})`
      : x.error
        ? `✗ ${x.error.kind}`
        : undefined;
  const interim = (x.wire?.interim ?? []).filter((i) => i.status !== 100).map((i) => `${i.status}${i.statusText ? ` ${i.statusText}` : ''}`);
  const status =
    failed ?? (x.reply ? `${x.reply.status}${x.fault ? ` fault ${x.fault.code}` : ''}${interim.length ? ` (after ${interim.join(', ')})` : ''}` : 'no reply');
  const said = verdict.ok || verdict.kind === 'fault' || verdict.kind === 'transport-error' ? '' : ` (${VERDICT_PHRASES[verdict.kind]})`;
  return `${clock(x.startedAt)} #${r.seq} ${x.request.method} ${shownPath}  ${what} → ${status}${said}  ${x.timing ? `${Math.round(x.timing.totalMs * 10) / 10} ms` : ''}`;
}

function show(file: string, io: CliIo, maxLines?: number): number {
  try {
    const { doc } = readRecording(path.resolve(io.cwd, file));
    // Recordings are masked when written; a key where keys stand is masked again here, for
    // recordings edited by hand or written by an older version.
    io.stdout(new Redactor([], { inPlace: true }).text(formatExchange(doc.exchange, doc.files, maxLines === undefined ? {} : { maxLines })));
    return 0;
  } catch (e) {
    if (!(e instanceof RecordingError)) throw e;
    io.stderr(`carrier inspect: ${e.message}\n`);
    return 2;
  }
}

export const inspect: Command = {
  name: 'inspect',
  summary: SUMMARIES.inspect,
  usage: [
    'Usage: carrier inspect [options]',
    '       carrier inspect --show <NNN-Operation.exchange.json>',
    '',
    'Listens on loopback and forwards every request, unchanged, to the target: point your program at',
    'the printed URL instead of the service. Each exchange is read along the catalog (operation,',
    'version, binding, parameters, reply, fault, findings) and printed as one line; with --record',
    'each is written to the folder as NNN-<Operation>.exchange.json, the raw bodies beside it and,',
    'for a call of the catalog, NNN-<Operation>.carrier.json — so `carrier run <folder>` replays it.',
    'API keys (body, URL, form fields) and credentials in headers are never written or printed.',
    'Runs until SIGINT or SIGTERM.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const { positionals, flags } = parseArgs(args, FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const showFile = textFlag(flags.get('show'), 'show');
    const maxLinesArg = textFlag(flags.get('max-lines'), 'max-lines') ?? textFlag(flags.get('head'), 'head');
    const maxLines = maxLinesArg === undefined ? undefined : Number(maxLinesArg);
    if (maxLines !== undefined && (!Number.isInteger(maxLines) || maxLines < 1))
      throw new UsageError(`--max-lines needs a whole number of lines, 1 or more, got ${maxLinesArg}`);
    if (showFile !== undefined) return show(showFile, io, maxLines);
    if (maxLines !== undefined) throw new UsageError('--max-lines and --head go with --show');

    const host = textFlag(flags.get('host'), 'host') ?? '127.0.0.1';
    if (!isLoopback(host)) throw new UsageError(`--host ${host}: the inspector listens on loopback only (127.0.0.1, ::1 or localhost)`);
    const port = portFlag(flags.get('port'));
    const maxBody = textFlag(flags.get('max-body'), 'max-body');
    const maxBodyBytes = maxBody === undefined ? undefined : Number(maxBody);
    if (maxBodyBytes !== undefined && (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1024))
      throw new UsageError(`--max-body needs a whole number of bytes, 1024 or more, got ${maxBody}`);
    const recordArg = textFlag(flags.get('record'), 'record');
    const recordDir = recordArg === undefined ? undefined : path.resolve(io.cwd, recordArg);
    const quiet = flags.has('quiet');

    // The inspector sends nothing through core: the environments file is all it reads of it.
    const loaded = loadEnvironmentsFrom({ files: nodeFiles }, [io.cwd]);
    const resolved = resolveTarget(loaded, textFlag(flags.get('target'), 'target'), io);
    if (typeof resolved === 'number') return resolved;
    const environment = resolved.environment;
    const namespaces = environment?.namespaces ?? findEnvironment(loaded, SANDBOX_ENVIRONMENT)!.namespaces;
    // Keys known beforehand are hidden even where a program puts them somewhere unexpected.
    const key = environment && !environment.embedded ? apiKeyFromVariables(environment.name, io.env, false)?.key : undefined;
    const secrets = environment ? secretValues(key, environment.variables, environment.secrets) : [];

    const stopped = stopSignal();
    let sandbox: SandboxHandle | undefined;
    let targetUrl = resolved.url;
    try {
      if (!targetUrl) {
        // Started only when needed: inspecting a remote service never runs a sandbox.
        sandbox = await startSandbox({ port: 0, host: '127.0.0.1', namespaces });
        targetUrl = sandbox.url;
      }
      let inspector;
      try {
        inspector = await startInspector({
          target: targetUrl,
          namespaces,
          ...(environment ? { environment: environment.name } : {}),
          port,
          host,
          ...(recordDir ? { recordDir, recordEnvironment: recordTarget(resolved, namespaces) } : {}),
          ...(maxBodyBytes ? { maxBodyBytes } : {}),
          secrets,
          tls: tlsOptionsOf(environment),
          // Each exchange is printed (or recorded) as it is read and never looked up again: none
          // is held in memory, where 500 of them were tens of megabytes the collector kept marking.
          keep: 0,
          log: (line) => io.stderr(`carrier inspect: ${line}\n`),
        });
      } catch (e) {
        if (e instanceof TargetError || e instanceof InspectorHostError) throw new UsageError(e.message);
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
          io.stderr(`carrier inspect: cannot listen on ${host}:${port}: ${(e as Error).message}\n`);
          return 1;
        }
        throw e;
      }
      if (!quiet) inspector.onExchange((r) => io.stdout(`${exchangeLine(r)}\n`));
      io.stdout(`Carrier inspector listening on ${inspector.url} → ${sandbox ? `embedded sandbox ${inspector.target}` : inspector.target}\n`);
      if (recordDir) io.stdout(`Recording to ${displayPath(recordDir, io.cwd)}\n`);
      const signal = await stopped;
      if (!quiet) io.stdout(`${signal}: stopping the inspector\n`);
      await inspector.close();
      return 0;
    } finally {
      await sandbox?.close();
    }
  },
};
