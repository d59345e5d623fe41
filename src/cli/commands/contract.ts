/**
 * `carrier contract --env NAME`: every service path's `?WSDL` of an environment held against the
 * catalog — namespaces, operations, bindings, and every record element by element. `--write`
 * puts the live namespaces into the environment's entry (comments and layout kept) and stores the
 * contract beside the environments file, so request files for that environment follow it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  checkContract,
  ContractCancelled,
  contractExitCode,
  ContractReadError,
  ENVIRONMENTS_FILE,
  formatContractReport,
  loadEnvironmentsFrom,
  writeEnvironmentNamespaces,
  writeStoredContract,
  type ContractCheck,
} from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, parseArgs, textFlag, type FlagSpec } from '../args';
import { UsageError, type Command } from '../command';
import { displayPath } from '../displayPath';
import { chooseEnvironment, unknownEnvironment } from '../environment';
import { SUMMARIES } from './summaries';

const FLAGS: readonly FlagSpec[] = [
  { name: 'env', short: 'e', value: true, description: `the environment to check, from ${ENVIRONMENTS_FILE}` },
  { name: 'json', description: 'print the report as one JSON object (format carrier-contract-report, version 1)' },
  { name: 'write', description: "set the live namespaces in the environment's entry and store the contract in .carrier/contracts/<env>.json" },
  { name: 'out', short: 'o', value: true, description: 'folder to write every fetched WSDL (and schema it imports) into' },
];

export const contract: Command = {
  name: 'contract',
  summary: SUMMARIES.contract,
  usage: [
    'Usage: carrier contract --env <name> [--json] [--write] [--out <dir>]',
    '',
    'Fetches <baseUrl>/<version>/<Service>.asmx?WSDL for every service path of the catalog, through',
    "the environment's TLS, proxy, timeout and size limit (no API key is sent), and compares each",
    'with the catalog: the namespaces of every record, operations and bindings present or missing,',
    'and for every record the elements the live contract adds or lacks, their order, types,',
    'minOccurs and maxOccurs, and enumeration values.',
    '',
    '--write sets serviceNamespace, dataNamespace and pickupNamespace of the environment to what the',
    'live service uses, editing carrier.environments.json in place (comments kept), and stores the',
    'contract in .carrier/contracts/<env>.json beside it: validation, completion and envelopes of',
    'request files sent to that environment then follow the live contract, without the network.',
    '',
    'Exit code: 0 nothing differs, 1 something differs, 2 the contract could not be read',
    '(unreachable, not a WSDL, malformed XML) or a usage or environment error.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const { positionals, flags } = parseArgs(args, FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const name = textFlag(flags.get('env'), 'env');
    if (!name) throw new UsageError('name the environment to check: --env <name>');
    const outFlag = textFlag(flags.get('out'), 'out');
    const out = outFlag !== undefined ? path.resolve(io.cwd, outFlag) : undefined;
    if (out && fs.existsSync(out) && !fs.statSync(out).isDirectory()) throw new UsageError(`--out ${outFlag} is a file; name a folder`);

    const context = commandContext(io);
    const loaded = loadEnvironmentsFrom(context, [io.cwd]);
    const environment = chooseEnvironment(loaded, name, io, unknownEnvironment('contract'));
    if (environment === 2) return 2;
    const envFile = loaded.file ? displayPath(loaded.file, io.cwd) : ENVIRONMENTS_FILE;
    if (flags.has('write') && environment.embedded) {
      io.stderr(`carrier contract: "${name}" is the embedded sandbox, which follows the catalog: --write is for a real service's environment\n`);
      return 2;
    }
    if (flags.has('write') && !loaded.file) {
      io.stderr(`carrier contract: --write needs ${ENVIRONMENTS_FILE} with an entry for "${name}"\n`);
      return 2;
    }

    const sandbox = new EmbeddedSandbox();
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    let check: ContractCheck;
    try {
      check = await checkContract({ context, environment, signal: controller.signal, resolveEmbedded: () => sandbox.url(environment) });
    } catch (err) {
      if (err instanceof ContractCancelled) {
        io.stderr('carrier contract: cancelled\n');
        return 2;
      }
      if (err instanceof ContractReadError) {
        io.stderr(`carrier contract: ${err.message}\n`);
        return 2;
      }
      throw err;
    } finally {
      process.off('SIGINT', onSigint);
      await context.http.close();
      await sandbox.close();
    }

    const { report } = check;
    const code = contractExitCode(report);
    io.stdout(flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : formatContractReport(report));
    // With --json, stdout is the report alone; what was written is said on stderr.
    const say = (text: string) => (flags.has('json') ? io.stderr(text) : io.stdout(text));
    for (const s of report.services) if (s.status === 'error') io.stderr(`carrier contract: ${s.error}\n`);

    if (out) {
      const written = writeDocuments(out, check);
      say(`\nWSDLs written to ${displayPath(out, io.cwd)}: ${written.join(', ')}\n`);
    }
    if (flags.has('write')) {
      if (code === 2) {
        io.stderr('carrier contract: nothing written: part of the contract could not be read\n');
        return 2;
      }
      const edit = writeEnvironmentNamespaces(context, loaded.file!, name, report.suggestedNamespaces);
      const stored = writeStoredContract(context, path.dirname(loaded.file!), report);
      say(
        `\n${edit.changed.length ? `${envFile}: set ${edit.changed.join(', ')} of "${name}" (the rest of the file as it was)` : `${envFile}: the namespaces of "${name}" already are the live ones`}\n`,
      );
      say(`Contract stored in ${displayPath(stored, io.cwd)}: request files sent to "${name}" follow it\n`);
    } else if (!flags.has('json') && report.summary.unreadable === 0 && Object.values(report.namespaces).some((n) => n.differs)) {
      say(`\nRun with --write to set the live namespaces in ${envFile} and store the contract.\n`);
    }
    return code;
  },
};

/** `<version>-<Service>.wsdl`, and `<version>-<Service>.<n>.xsd` for what it imports; returns the names. */
function writeDocuments(dir: string, check: ContractCheck): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const [servicePath, documents] of check.documents) {
    const stem = servicePath
      .replace(/^\//, '')
      .replace(/\.asmx$/i, '')
      .replace(/\//g, '-');
    let n = 0;
    for (const [, text] of documents) {
      const name = n === 0 ? `${stem}.wsdl` : `${stem}.${n}.xsd`;
      fs.writeFileSync(path.join(dir, name), text);
      names.push(name);
      n++;
    }
  }
  return names;
}
