/**
 * `carrier envelope <file>`: the exact HTTP request a request file makes, without sending it —
 * `METHOD URL`, the headers, a blank line, the body; or a curl command. The key is redacted
 * unless --show-secrets. The embedded sandbox is not started just to print a request, so its
 * address shows as http://embedded-sandbox.invalid (a name that can never resolve).
 */
import * as path from 'node:path';
import {
  ALL_BINDINGS,
  apiKeyFromVariables,
  ENVIRONMENTS_FILE,
  formatFinding,
  formatHttpRequest,
  hasErrors,
  loadEnvironmentsFrom,
  MASK,
  missingApiKeyMessage,
  previewRequest,
  readTextFile,
  RequestError,
  toCurl,
  validateRequestText,
  type Binding,
  type CoreContext,
  type Environment,
  type RequestFile,
  type ResolvedApiKey,
} from '../../core';
import { nodeFiles } from '../../host';
import { describeFlags, parseArgs, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';
import { displayPath } from '../displayPath';
import { chooseEnvironment, unknownEnvironment } from '../environment';
import { cannotRead } from '../readError';
import { SUMMARIES } from './summaries';

export const BINDING_FLAG: FlagSpec = {
  name: 'binding',
  short: 'b',
  value: true,
  description: `binding to use instead of the file's: ${ALL_BINDINGS.join(', ')}`,
};
export const ENV_FLAG: FlagSpec = {
  name: 'env',
  short: 'e',
  value: true,
  description: `environment from ${ENVIRONMENTS_FILE} (default: the file's, else sandbox)`,
};
export const VAR_FLAG: FlagSpec = {
  name: 'var',
  value: true,
  variables: true,
  repeatable: true,
  description: "name=value for {{name}}; repeatable (over the environment's variables)",
};

const FLAGS: readonly FlagSpec[] = [
  BINDING_FLAG,
  ENV_FLAG,
  VAR_FLAG,
  { name: 'curl', description: 'print a curl command that sends the request' },
  { name: 'show-secrets', description: `show the API key and secret variables instead of ${MASK}` },
];

export const envelope: Command = {
  name: 'envelope',
  summary: SUMMARIES.envelope,
  usage: [
    'Usage: carrier envelope [options] <file>',
    '',
    'Prints METHOD URL, the headers, a blank line and the body (or a curl command with --curl).',
    `The API key (CARRIER_API_KEY_<ENV> or CARRIER_API_KEY) is shown as ${MASK} unless --show-secrets.`,
    'For the embedded sandbox the address is shown as http://embedded-sandbox.invalid: the sandbox',
    'is not started to print a request; `carrier send` uses its real http://127.0.0.1:<port>.',
    '',
    'Exit code: 0 printed, 2 usage, file or environment error.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  run(args, io) {
    const { positionals, flags, variables } = parseArgs(args, FLAGS);
    // Printing sends nothing: files and variables are all of the context it needs (no HTTP client loaded).
    const context = { files: nodeFiles, env: io.env };
    const ctx = loadRequestContext(context, positionals, flags, io, 'envelope');
    if (typeof ctx === 'number') return ctx;
    let prepared: ReturnType<typeof previewRequest>;
    try {
      prepared = previewRequest({
        context,
        request: ctx.request,
        environment: ctx.environment,
        variables,
        ...(ctx.apiKey ? { apiKey: ctx.apiKey.key } : {}),
        ...(ctx.binding ? { binding: ctx.binding } : {}),
      });
    } catch (err) {
      if (err instanceof RequestError) {
        io.stderr(`carrier envelope: ${ctx.shown}: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
    if (prepared.keyMissing) io.stderr(`carrier envelope: note: ${missingApiKeyMessage(ctx.environment.name)}; the key is shown as ${MASK}\n`);
    const spec = flags.has('show-secrets') && ctx.apiKey ? prepared.spec : prepared.display;
    const text = flags.has('curl') ? toCurl(spec) : formatHttpRequest(spec);
    io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    return 0;
  },
};

export interface RequestContext {
  readonly file: string;
  /** The file as messages name it (relative to the working folder where possible). */
  readonly shown: string;
  readonly request: RequestFile;
  readonly environment: Environment;
  readonly apiKey?: ResolvedApiKey;
  readonly binding?: Binding;
}

/**
 * The request file read and validated, the environment chosen and the key found — or the exit
 * code (2) after saying what is wrong as `file:line:col: error: …`. Shared with `carrier send`.
 */
export function loadRequestContext(
  context: Pick<CoreContext, 'files' | 'env'>,
  positionals: readonly string[],
  flags: ReadonlyMap<string, string | true>,
  io: CliIo,
  command: string,
): RequestContext | number {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'name exactly one request file' : 'name the request file');
  const binding = flags.get('binding');
  if (binding !== undefined && (typeof binding !== 'string' || !(ALL_BINDINGS as readonly string[]).includes(binding))) {
    throw new UsageError(`--binding must be one of ${ALL_BINDINGS.join(', ')}`);
  }
  const file = path.resolve(io.cwd, positionals[0]);
  const shown = displayPath(file, io.cwd);
  let text: string;
  try {
    text = readTextFile(context, file);
  } catch (err) {
    io.stderr(`${cannotRead(command, shown, err)}\n`);
    return 2;
  }
  // Checked against the environment it goes to: its stored live contract may add elements.
  const envFlag = flags.get('env');
  const { findings, request } = validateRequestText(text, file, { context, ...(typeof envFlag === 'string' ? { environment: envFlag } : {}) });
  if (!request || hasErrors(findings)) {
    for (const f of findings) if (f.severity === 'error') io.stderr(`${formatFinding(shown, f)}\n`);
    if (!findings.some((f) => f.severity === 'error')) io.stderr(`${shown}: error: not a request file\n`);
    return 2;
  }

  // The file's own repository first, then where the command was typed (environments/where.ts).
  const loaded = loadEnvironmentsFrom(context, [path.dirname(file), io.cwd]);
  const environment = chooseEnvironment(loaded, (flags.get('env') as string | undefined) ?? request.environment, io, unknownEnvironment(command));
  if (environment === 2) return 2;
  const apiKey = apiKeyFromVariables(environment.name, context.env, environment.embedded);
  return { file, shown, request, environment, ...(apiKey ? { apiKey } : {}), ...(typeof binding === 'string' ? { binding: binding as Binding } : {}) };
}
