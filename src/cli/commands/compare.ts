/**
 * `carrier compare <files…> --env A --env B`: sends each request file to two environments and
 * reports where the replies differ in structure — elements present on one side only, another
 * kind of value, a fault against a success — values aside unless --values. How someone sees where
 * the sandbox differs from the real service, or staging from production.
 */
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  apiKeyFromVariables,
  BINDING_LABELS,
  classifyExchange,
  compareExchanges,
  ENVIRONMENTS_FILE,
  formatFinding,
  hasErrors,
  loadEnvironmentsFrom,
  missingApiKeyMessage,
  readTextFile,
  RequestError,
  SANDBOX_ENVIRONMENT,
  send,
  validateRequestText,
  VERDICT_PHRASES,
  type Binding,
  type Environment,
  type Exchange,
  type ReplyDifference,
  type RequestFile,
  type ResolvedApiKey,
  type CoreContext,
} from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, parseArgs, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';
import { displayPath } from '../displayPath';
import { chooseEnvironment, unknownEnvironment } from '../environment';
import { cannotRead } from '../readError';
import { BINDING_FLAG, VAR_FLAG } from './envelope';
import { SUMMARIES } from './summaries';

const FLAGS: readonly FlagSpec[] = [
  {
    name: 'env',
    short: 'e',
    value: true,
    repeatable: true,
    description: `the two environments from ${ENVIRONMENTS_FILE}; one alone is compared with the file's own (else sandbox)`,
  },
  BINDING_FLAG,
  VAR_FLAG,
  { name: 'values', description: 'compare values and list lengths too, not only the structure' },
  {
    name: 'ignore',
    value: true,
    repeatable: true,
    description: 'a reply path to leave out, with everything below it (Result.MyCarrierID, Result.Charges[*].Amount)',
  },
  { name: 'json', description: 'print one JSON object (format carrier-compare-report, version 1)' },
];

export const COMPARE_REPORT_FORMAT = 'carrier-compare-report';

interface Side {
  readonly environment: Environment;
  readonly apiKey?: ResolvedApiKey;
  readonly sandbox: EmbeddedSandbox;
}

interface FileResult {
  readonly file: string;
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  readonly sides: readonly [Exchange, Exchange];
  readonly differences: readonly ReplyDifference[];
}

export const compare: Command = {
  name: 'compare',
  summary: SUMMARIES.compare,
  usage: [
    'Usage: carrier compare [options] <file>… --env <A> --env <B>',
    '',
    'Sends each request file to both environments and reports where the replies differ: the',
    'outcome (success, fault, in-body error…), the HTTP status, elements present in one reply only',
    'and values of another kind (a number against text, a record against a list). Values are not',
    'compared unless --values; lists are compared by the structure of their items.',
    '',
    'Exit code: 0 the replies agree, 1 they differ, 2 usage, file or environment error (nothing sent).',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const { positionals, flags, lists, variables } = parseArgs(args, FLAGS);
    if (!positionals.length) throw new UsageError('name the request files to compare');
    const envNames = [...(lists.get('env') ?? [])];
    if (envNames.length < 1 || envNames.length > 2) throw new UsageError('name two environments: --env <A> --env <B>');
    const binding = flags.get('binding');
    if (binding !== undefined && !(Object.keys(BINDING_LABELS) as string[]).includes(String(binding)))
      throw new UsageError(`--binding must be one of ${Object.keys(BINDING_LABELS).join(', ')}`);
    const ignore = [...(lists.get('ignore') ?? [])];
    const context = commandContext(io);

    // Every file read and checked before anything is sent.
    const files: Array<{ file: string; shown: string; text: string; request: RequestFile }> = [];
    for (const p of positionals) {
      const file = path.resolve(io.cwd, p);
      const shown = displayPath(file, io.cwd);
      let text: string;
      try {
        text = readTextFile(context, file);
      } catch (err) {
        io.stderr(`${cannotRead('compare', shown, err)}\n`);
        return 2;
      }
      const { request } = validateRequestText(text, file, { context });
      if (!request) return fileErrors(io, context, shown, text, file);
      files.push({ file, shown, text, request });
    }
    if (envNames.length === 1) {
      const own = files[0].request.environment ?? SANDBOX_ENVIRONMENT;
      if (own === envNames[0]) throw new UsageError(`${files[0].shown} is sent to "${own}" already: name the second environment with another --env`);
      envNames.unshift(own);
    }
    if (envNames[0] === envNames[1]) throw new UsageError('name two different environments');

    const loaded = loadEnvironmentsFrom(context, [path.dirname(files[0].file), io.cwd]);
    const sides: Side[] = [];
    for (const name of envNames) {
      const environment = chooseEnvironment(loaded, name, io, unknownEnvironment('compare'));
      if (environment === 2) return 2;
      const apiKey = apiKeyFromVariables(environment.name, io.env, environment.embedded);
      if (!apiKey && !environment.embedded) {
        io.stderr(`carrier compare: ${missingApiKeyMessage(environment.name)}\n`);
        return 2;
      }
      sides.push({ environment, ...(apiKey ? { apiKey } : {}), sandbox: new EmbeddedSandbox() });
    }
    // A file is checked against each environment's own contract (validation follows it).
    for (const f of files) {
      for (const side of sides) {
        const { findings } = validateRequestText(f.text, f.file, { context, environment: side.environment.name });
        if (hasErrors(findings)) return fileErrors(io, context, f.shown, f.text, f.file, side.environment.name);
      }
    }

    const names = [sides[0].environment.name, sides[1].environment.name] as const;
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const results: FileResult[] = [];
    try {
      for (const f of files) {
        const exchanges: Exchange[] = [];
        for (const side of sides) {
          const { request } = validateRequestText(f.text, f.file, { context, environment: side.environment.name });
          exchanges.push(
            await send({
              context,
              request: request!,
              environment: side.environment,
              ...(side.apiKey ? { apiKey: side.apiKey.key } : {}),
              ...(typeof binding === 'string' ? { binding: binding as Binding } : {}),
              variables,
              signal: controller.signal,
              source: f.shown,
              resolveEmbedded: () => side.sandbox.url(side.environment),
            }),
          );
        }
        const pair = [exchanges[0], exchanges[1]] as const;
        results.push({
          file: f.shown,
          operation: f.request.operation,
          version: f.request.version,
          binding: pair[0].binding ?? 'soap11',
          sides: pair,
          differences: compareExchanges(pair[0], pair[1], names, { values: flags.has('values'), ignore }),
        });
        if (controller.signal.aborted) break;
      }
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      io.stderr(`carrier compare: ${err.message}\n`);
      return err.kind === 'sandbox' ? 1 : 2;
    } finally {
      process.off('SIGINT', onSigint);
      await context.http.close();
      for (const side of sides) await side.sandbox.close();
    }

    const differing = results.filter((r) => r.differences.length > 0).length;
    if (flags.has('json')) io.stdout(`${JSON.stringify(jsonReport(results, names, flags.has('values'), ignore), null, 2)}\n`);
    else io.stdout(textReport(results, names));
    return differing > 0 || controller.signal.aborted ? 1 : 0;
  },
};

function fileErrors(io: CliIo, context: CoreContext, shown: string, text: string, file: string, environment?: string): number {
  const { findings } = validateRequestText(text, file, { context, ...(environment ? { environment } : {}) });
  for (const f of findings) if (f.severity === 'error') io.stderr(`${formatFinding(shown, f)}\n`);
  if (!findings.some((f) => f.severity === 'error')) io.stderr(`${shown}: error: not a request file\n`);
  if (environment) io.stderr(`carrier compare: ${shown} does not validate for environment "${environment}"\n`);
  return 2;
}

function outcome(x: Exchange): string {
  const v = classifyExchange(x);
  const status = x.reply ? `HTTP ${x.reply.status}` : 'no reply';
  return `${status} ${v.ok ? VERDICT_PHRASES.success : VERDICT_PHRASES[v.kind]}`;
}

function textReport(results: readonly FileResult[], names: readonly [string, string]): string {
  const lines: string[] = [];
  const width = Math.max(...names.map((n) => n.length)) + 8;
  for (const r of results) {
    lines.push(`${r.file}  ${r.operation} ${r.version} ${BINDING_LABELS[r.binding]}`);
    lines.push(`  ${names[0]}: ${outcome(r.sides[0])} · ${names[1]}: ${outcome(r.sides[1])}`);
    if (!r.differences.length) lines.push('  ✓ the replies agree');
    for (const d of r.differences) {
      const label = d.kind === 'only-in' ? `only in ${names[d.side!]}` : d.kind;
      lines.push(`  ${label.padEnd(width)} ${d.kind === 'only-in' ? d.path : d.message}`);
    }
    lines.push('');
  }
  const differing = results.filter((r) => r.differences.length).length;
  const total = results.reduce((n, r) => n + r.differences.length, 0);
  lines.push(
    differing
      ? `✗ ${differing} of ${results.length} file${results.length === 1 ? '' : 's'} differ between ${names[0]} and ${names[1]} (${total} difference${total === 1 ? '' : 's'})`
      : `✓ ${results.length} file${results.length === 1 ? '' : 's'}: ${names[0]} and ${names[1]} agree`,
  );
  return `${lines.join('\n')}\n`;
}

function jsonReport(results: readonly FileResult[], names: readonly [string, string], values: boolean, ignore: readonly string[]): Record<string, unknown> {
  const side = (x: Exchange) => {
    const v = classifyExchange(x);
    return {
      endpoint: x.endpoint ?? null,
      status: x.reply?.status ?? null,
      verdict: v.kind,
      ok: v.ok,
      reason: v.reason,
      fault: x.fault ? { code: x.fault.code, reason: x.fault.reason } : null,
    };
  };
  return {
    format: COMPARE_REPORT_FORMAT,
    version: 1,
    environments: names,
    values,
    ignore,
    files: results.map((r) => ({
      file: r.file,
      operation: r.operation,
      version: r.version,
      binding: r.binding,
      sides: [side(r.sides[0]), side(r.sides[1])],
      differences: r.differences,
    })),
    summary: {
      files: results.length,
      differing: results.filter((r) => r.differences.length).length,
      differences: results.reduce((n, r) => n + r.differences.length, 0),
    },
  };
}
