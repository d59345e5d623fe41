/**
 * `carrier probe`: generates requests from the catalog — valid ones across the input space and
 * invalid ones that break one rule each — sends them with core's send() and holds every reply to
 * the probe's properties; each failure is shrunk by fast-check and written as a request file that
 * `carrier run` fails for the same reason (docs/probe.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  ALL_BINDINGS,
  apiKeyFromVariables,
  CREATING_OPERATIONS,
  creatingAllowed,
  failureFiles,
  loadEnvironmentsFrom,
  missingApiKeyMessage,
  operations,
  readProbeProperties,
  nextPickupDay,
  probeSender,
  RequestError,
  runProbe,
  shapeLabel,
  type Binding,
  type OperationDef,
  type ProbeResult,
  type UserProperty,
} from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, listFlag, parseArgs, textFlag, type FlagSpec } from '../args';
import { UsageError, type Command } from '../command';
import { displayPath } from '../displayPath';
import { chooseEnvironment, unknownEnvironment } from '../environment';
import { SUMMARIES } from './summaries';

/** The seed when none is given: fixed, so two probes without --seed send the same requests. */
export const DEFAULT_SEED = 1;
const DEFAULT_MAX_EXAMPLES = 40;
const PROPERTIES_FILE = 'probe.json';
export const PROBE_REPORT_FORMAT = 'carrier-probe-report';

const FLAGS: readonly FlagSpec[] = [
  { name: 'env', short: 'e', value: true, description: 'the environment to probe (default: the embedded sandbox)' },
  { name: 'operation', value: true, repeatable: true, description: 'only this operation, or Op@version; repeat or comma-separate (default: every operation)' },
  { name: 'binding', short: 'b', value: true, description: `${ALL_BINDINGS.join(', ')} or all (default: soap11 where offered)` },
  { name: 'max-examples', value: true, description: `examples per operation shape and binding (default ${DEFAULT_MAX_EXAMPLES})` },
  { name: 'seed', value: true, description: `the seed of the examples (default ${DEFAULT_SEED}); the same seed sends the same requests` },
  { name: 'out', short: 'o', value: true, description: 'folder for the failure files and probe-report.json (default probe-failures/)' },
  {
    name: 'properties',
    value: true,
    description: `more properties, in the expect language (default ${PROPERTIES_FILE} in the working folder, if there is one)`,
  },
  { name: 'reporter', short: 'r', value: true, repeatable: true, description: 'cli, json (probe-report.json in --out); repeat or comma-separate' },
];

export const probe: Command = {
  name: 'probe',
  summary: SUMMARIES.probe,
  usage: [
    'Usage: carrier probe [options]',
    '',
    "Sends requests generated from the catalog: each shape's sample varied (every enumeration value,",
    'optional parts present and absent, lists of 0, 1 and many, numbers at boundaries) and broken',
    'one rule at a time (a required field missing, a value outside its enumeration or not of its',
    'type, an impossible date, a binding the operation lacks). Every reply is held to properties:',
    'no-5xx-but-faults, no-transport-failure, no-contract-errors, invalid-is-refused,',
    'valid-is-answered, same-twice, and those of probe.json. A failure is shrunk and written to',
    '--out as a request file that `carrier run` fails for the same reason.',
    '',
    'CreateBillOfLading and CreatePickupRequest are probed on the embedded sandbox only, or on an',
    'environment that carrier.environments.json marks "probe": true.',
    '',
    'Exit code: 0 every property held, 1 a property failed, 2 usage, file or environment error.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const parsed = parseArgs(args, FLAGS);
    const { positionals, flags } = parsed;
    if (positionals.length) throw new UsageError(`carrier probe takes no files (got ${positionals[0]})`);
    const binding = textFlag(flags.get('binding'), 'binding');
    if (binding !== undefined && binding !== 'all' && !(ALL_BINDINGS as readonly string[]).includes(binding))
      throw new UsageError(`--binding must be one of ${ALL_BINDINGS.join(', ')} or all`);
    const seed = wholeNumber(flags.get('seed'), 'seed', DEFAULT_SEED, -(2 ** 31), 2 ** 31 - 1);
    const maxExamples = wholeNumber(flags.get('max-examples'), 'max-examples', DEFAULT_MAX_EXAMPLES, 1, 10_000);
    const reporters = listFlag(parsed, 'reporter', ['cli']);
    for (const r of reporters) if (r !== 'cli' && r !== 'json') throw new UsageError(`--reporter must be cli or json, not ${r}`);
    const out = path.resolve(io.cwd, textFlag(flags.get('out'), 'out') ?? 'probe-failures');
    let shapes = chosenShapes(listFlag(parsed, 'operation'));

    const context = commandContext(io);
    const propertiesFlag = textFlag(flags.get('properties'), 'properties');
    const propertiesFile = path.resolve(io.cwd, propertiesFlag ?? PROPERTIES_FILE);
    let properties: UserProperty[] = [];
    if (propertiesFlag !== undefined || fs.existsSync(propertiesFile)) {
      let text: string;
      try {
        text = fs.readFileSync(propertiesFile, 'utf8');
      } catch (err) {
        io.stderr(`carrier probe: cannot read ${displayPath(propertiesFile, io.cwd)}: ${(err as Error).message}\n`);
        return 2;
      }
      const read = readProbeProperties(text, displayPath(propertiesFile, io.cwd));
      if (read.problems.length) {
        for (const p of read.problems) io.stderr(`${p}\n`);
        return 2;
      }
      properties = read.properties;
    }

    const loaded = loadEnvironmentsFrom(context, [io.cwd]);
    const environment = chooseEnvironment(loaded, textFlag(flags.get('env'), 'env'), io, unknownEnvironment('probe'));
    if (environment === 2) return 2;
    const apiKey = apiKeyFromVariables(environment.name, context.env, environment.embedded);
    if (!apiKey && !environment.embedded) {
      io.stderr(`carrier probe: ${missingApiKeyMessage(environment.name)}\n`);
      return 2;
    }
    // Each send of these books a shipment or a pickup: never on a service someone else uses,
    // unless its environment says it may (`"probe": true`).
    if (!creatingAllowed(environment)) {
      const creating = shapes.filter((s) => CREATING_OPERATIONS.includes(s.operation));
      if (creating.length) {
        io.stdout(
          `skipped ${[...new Set(creating.map((s) => s.operation))].join(', ')}: they create shipments and pickups, probed on the embedded sandbox only (or where "probe": true marks the environment)\n`,
        );
        shapes = shapes.filter((s) => !CREATING_OPERATIONS.includes(s.operation));
      }
    }

    // Pickups and transit times are asked for the next day the carrier works: the samples' own day goes by.
    const day = nextPickupDay(new Date(context.clock.now()));
    io.stdout(
      `carrier probe on ${environment.name}, seed ${seed} (carrier probe --seed ${seed} sends the same requests on the same day), ${maxExamples} examples per shape, pickups on ${day.us}\n`,
    );
    const sandbox = new EmbeddedSandbox();
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const sendExample = probeSender({
      context,
      environment,
      ...(apiKey ? { apiKey: apiKey.key } : {}),
      resolveEmbedded: () => sandbox.url(environment),
      signal: controller.signal,
      source: 'carrier probe',
    });

    let result: ProbeResult;
    try {
      result = await runProbe({
        shapes,
        ...(binding ? { binding: binding as Binding | 'all' } : {}),
        seed,
        maxExamples,
        day,
        properties,
        signal: controller.signal,
        send: sendExample,
        onShape: (s) => {
          if (!reporters.includes('cli')) return;
          const failed = s.failures.length ? `, ${s.failures.length} failed: ${s.failures.map((f) => f.property).join(', ')}` : '';
          const notSent = s.notSent ? `, ${s.notSent} not sendable` : '';
          io.stdout(`${s.failures.length ? '✗' : '✓'} ${s.operation} ${s.version} ${s.binding}: ${s.examples} examples${notSent}${failed}\n`);
        },
      });
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      io.stderr(`carrier probe: ${err.message}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSigint);
      await context.http.close();
      await sandbox.close();
    }

    const files = failureFiles(result.failures, seed);
    if (files.length || reporters.includes('json')) fs.mkdirSync(out, { recursive: true });
    for (const f of files) fs.writeFileSync(path.join(out, f.name), f.text);
    if (reporters.includes('json'))
      fs.writeFileSync(path.join(out, 'probe-report.json'), `${JSON.stringify(jsonReport(result, environment.name, files), null, 2)}\n`);
    if (reporters.includes('cli')) {
      if (result.failures.length) io.stdout('\nFailures:\n');
      result.failures.forEach((f, i) =>
        io.stdout(`  ${f.property}: ${f.operation} ${f.version} ${f.binding}: ${f.reason}\n    → ${displayPath(path.join(out, files[i].name), io.cwd)}\n`),
      );
      io.stdout('\nProperties:\n');
      for (const p of result.properties)
        if (p.checked) io.stdout(`  ${p.failed ? '✗' : '✓'} ${p.name}: ${p.checked} examples${p.failed ? `, failed ${p.failed}×` : ''}\n`);
      io.stdout(
        `\nseed ${seed}${result.failures.length ? `: ${result.failures.length} failure${result.failures.length === 1 ? '' : 's'} written to ${displayPath(out, io.cwd)}` : ': every property held'}\n`,
      );
    }
    return result.failures.length ? 1 : 0;
  },
};

function wholeNumber(value: string | true | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value === true || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} needs a whole number from ${min} to ${max}, got ${String(value)}`);
  return n;
}

/** `--operation Op` or `Op@version`, each an operation of the catalog; none given: every shape. */
function chosenShapes(names: readonly string[]): OperationDef[] {
  if (!names.length) return [...operations];
  const chosen: OperationDef[] = [];
  for (const name of names) {
    const [operation, version] = name.split('@');
    const found = operations.filter((o) => o.operation === operation && (version === undefined || o.version === version));
    if (!found.length) {
      const known = [...new Set(operations.map((o) => o.operation))].join(', ');
      throw new UsageError(`--operation ${name}: no such operation${version ? ' version' : ''} (operations: ${known})`);
    }
    for (const f of found) if (!chosen.includes(f)) chosen.push(f);
  }
  return chosen;
}

function jsonReport(result: ProbeResult, environment: string, files: readonly { name: string }[]): Record<string, unknown> {
  return {
    format: PROBE_REPORT_FORMAT,
    version: 1,
    environment,
    seed: result.seed,
    properties: result.properties,
    operations: result.shapes.map((s) => ({
      operation: s.operation,
      version: s.version,
      shape: shapeLabel(s),
      binding: s.binding,
      examples: s.examples,
      notSent: s.notSent,
      failures: s.failures.length,
    })),
    failures: result.failures.map((f, i) => ({
      operation: f.operation,
      version: f.version,
      binding: f.binding,
      property: f.property,
      reason: f.reason,
      file: files[i].name,
      changes: f.example.changes.map((c) => c.label),
    })),
  };
}
