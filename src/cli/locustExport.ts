/**
 * `carrier load --export locust`: the same files as a Locust (≥ 2) locustfile.py, for teams that
 * run their load with Locust (docs/load.md#locust). Each request is built here, by core
 * (prepareRequest → buildHttpRequest), and written as literal bytes with its headers and URL
 * path; what cannot be known until Locust runs is spliced in there:
 *
 * - the API key, from `os.environ["CARRIER_API_KEY"]`: the envelope is built with a placeholder
 *   key, and whatever of the environment's secrets is left is masked by the run's Redactor
 *   (src/core/redact.ts), so no key reaches the file;
 * - a value another request captured (`capture`), looked up in its reply by element local names
 *   along the capture's path with xml.etree.
 *
 * Checks are the simple ones: status, fault or none, WasSuccess, and `expect.reply` paths whose
 * `equals`, `exists` and `absent` translate; anything else is named in a comment as not checked.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from './context';
import {
  createRunBackend,
  environmentNameOf,
  findEnvironment,
  loadEnvironmentsFrom,
  loadRun,
  prepareRequest,
  Redactor,
  relativeTo,
  runVariables,
  selectWhere,
  substituteVariables,
  validateRequestText,
  withProducers,
  type Binding,
  type Environment,
  type RequestFile,
  type TestFilter,
} from '../core';
import { UsageError, type CliIo } from './command';

/** What the export needs of `carrier load`'s settings (commands/load.ts). */
export interface LocustExportSettings {
  readonly inputs: readonly string[];
  readonly vus: number;
  readonly durationMs?: number;
  readonly rampMs: number;
  readonly ratePerSecond?: number;
  readonly environment?: string;
  readonly tags?: { readonly given: readonly string[]; readonly filter: TestFilter };
  readonly variables: Readonly<Record<string, string>>;
  readonly data?: string;
  readonly outGiven?: string;
}

export const LOCUSTFILE = 'locustfile.py';

/** Where the key goes: long and plain, so every spelling of it is itself (no escaping changes it). */
const KEY_PLACEHOLDER = 'CARRIERAPIKEYPLACEHOLDER0000';
const captureToken = (i: number) => `CARRIERCAPTURE${String(i).padStart(4, '0')}X`;

/** Bytes as a Python bytes literal: printable ASCII as is, the rest escaped. */
function pyBytes(text: string): string {
  let out = 'b"';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x22) out += '\\"';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x0d) out += '\\r';
    else if (byte === 0x09) out += '\\t';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

/** A string as a Python str literal (JSON's escapes are Python's for these). */
const pyStr = (text: string) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function pyValue(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  return pyStr(String(v));
}

/**
 * A text with placeholders as a Python expression of bytes: literal parts, the key and captured
 * values spliced in, each escaped for where it goes (`form`: a URL query or form body; else XML).
 */
function spliced(text: string, captures: readonly string[], form: boolean): string {
  const parts: string[] = [];
  const pattern = new RegExp(`${KEY_PLACEHOLDER}|CARRIERCAPTURE(\\d{4})X`, 'g');
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) parts.push(pyBytes(text.slice(last, m.index)));
    const value = m[1] === undefined ? 'API_KEY' : `captured[${pyStr(captures[Number(m[1])])}]`;
    parts.push(`${form ? 'form' : 'xml'}(${value})`);
    last = m.index + m[0].length;
  }
  if (last < text.length || !parts.length) parts.push(pyBytes(text.slice(last)));
  return parts.join(' + ');
}

/** `expect` as Python checks, and what of it is not checked. */
function checksOf(expect: Readonly<Record<string, unknown>> | undefined): { lines: string[]; status: number; fault: boolean; unchecked: string[] } {
  const e = expect ?? {};
  const unchecked: string[] = [];
  const fault = e.fault === true;
  const status = typeof e.status === 'number' ? e.status : fault ? 500 : 200;
  const lines: string[] = [];
  if (typeof e.success === 'boolean') lines.push(`check_path(root, "WasSuccess", "equals", ${pyValue(e.success)}, problems, optional=True)`);
  const reply = e.reply && typeof e.reply === 'object' ? (e.reply as Record<string, unknown>) : {};
  for (const [p, want] of Object.entries(reply)) {
    const mentions = (v: unknown) => typeof v === 'string' && v.includes('{{');
    if (want === null || typeof want !== 'object') {
      if (mentions(want)) unchecked.push(`${p} (uses a variable)`);
      else lines.push(`check_path(root, ${pyStr(p)}, "equals", ${pyValue(want)}, problems)`);
      continue;
    }
    const rule = want as Record<string, unknown>;
    const keys = Object.keys(rule);
    if (keys.length === 1 && 'equals' in rule && (rule.equals === null || typeof rule.equals !== 'object') && !mentions(rule.equals))
      lines.push(`check_path(root, ${pyStr(p)}, "equals", ${pyValue(rule.equals)}, problems)`);
    else if (keys.length === 1 && typeof rule.exists === 'boolean') lines.push(`check_path(root, ${pyStr(p)}, "exists", ${pyValue(rule.exists)}, problems)`);
    else if (keys.length === 1 && typeof rule.absent === 'boolean') lines.push(`check_path(root, ${pyStr(p)}, "exists", ${pyValue(!rule.absent)}, problems)`);
    else unchecked.push(`${p} (${keys.join(', ')})`);
  }
  for (const k of Object.keys(e)) if (!['status', 'fault', 'success', 'reply'].includes(k)) unchecked.push(k);
  return { lines, status, fault, unchecked };
}

const PRELUDE = `import itertools
import os
import xml.etree.ElementTree as ET
from urllib.parse import quote_plus
from xml.sax.saxutils import escape

from locust import constant, constant_throughput, task

try:
    # FastHttpUser needs geventhttpclient; HttpUser (requests) does the same here, slower.
    from locust import FastHttpUser as CarrierBase
except ImportError:
    from locust import HttpUser as CarrierBase

# The key is read when Locust runs; carrier never writes it into this file.
API_KEY = os.environ["CARRIER_API_KEY"]


def xml(value):
    return escape(str(value)).encode("utf-8")


def form(value):
    return quote_plus(str(value)).encode("ascii")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def lookup(root, path):
    """The elements at a reply path (BillOfLading.Items[0].Weight) by local names: the first
    element named as the path's first step, then child by child."""
    found = [root] if root is not None else []
    for i, part in enumerate(path.split(".")):
        name, _, index = part.partition("[")
        if i == 0:
            here = [e for e in found[0].iter() if local(e.tag) == name] if found else []
        else:
            here = [c for e in found for c in e if local(c.tag) == name]
        if index:
            # A list is the element repeated, or one wrapper whose children are its items.
            if len(here) == 1 and len(here[0]) and len({local(c.tag) for c in here[0]}) == 1:
                here = list(here[0])
            n = int(index.rstrip("]"))
            here = [here[n]] if -len(here) <= n < len(here) else []
        elif i == 0:
            here = here[:1]
        found = here
    return found


def text_at(root, path):
    found = lookup(root, path)
    return None if not found else (found[0].text or "").strip()


def same(text, want):
    if isinstance(want, bool):
        return text.lower() == ("true" if want else "false")
    if isinstance(want, (int, float)):
        try:
            return float(text) == float(want)
        except ValueError:
            return False
    return text == want


def check_path(root, path, how, want, problems, optional=False):
    text = text_at(root, path)
    if how == "exists":
        if (text is not None) != want:
            problems.append(f"{path}: expected {'present' if want else 'absent'}")
    elif text is None:
        if not optional:
            problems.append(f"{path}: missing")
    elif not same(text, want):
        problems.append(f"{path}: expected {want!r}, got {text!r}")


def parse(body):
    try:
        return ET.fromstring(body)
    except ET.ParseError:
        return None


def is_fault(root):
    return root is not None and any(local(e.tag) == "Fault" for e in root.iter())
`;

export async function exportLocust(settings: LocustExportSettings, io: CliIo): Promise<number> {
  const rel = relativeTo(io.cwd);
  const context = commandContext(io);
  const out = path.resolve(io.cwd, settings.outGiven ?? '.');
  if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory() === false) throw new UsageError(`--out ${settings.outGiven}: not a folder`);
  const plan = loadRun(context, settings.inputs, {
    baseDir: io.cwd,
    validate: (text, fileName) =>
      validateRequestText(text, fileName, { context, ...(settings.environment ? { environment: settings.environment } : {}) }).findings,
    ...(settings.environment ? { environment: settings.environment } : {}),
    ...(settings.data !== undefined ? { data: settings.data } : {}),
  });
  try {
    if (plan.problems.length) {
      for (const p of plan.problems) io.stderr(`${p.location ? `${rel(p.location.file)}: ` : ''}error: ${p.message}\n`);
      io.stderr('carrier load: problems in the files to export; nothing was written\n');
      return 2;
    }
    const chosen = settings.tags ? selectWhere(plan.tests, settings.tags.filter) : undefined;
    const only = chosen ? withProducers(plan.tests, chosen.ids) : undefined;
    const starts = [...new Set(plan.tests.map((t) => t.collection.folder)), io.cwd];
    const backend = createRunBackend({ context, environmentsFrom: starts });
    const environments = loadEnvironmentsFrom(context, starts);
    const masker = new Redactor(backend.secretValues(), { derived: true });
    const builtins = runVariables();
    const captureNames: string[] = [];
    const tokenOf = (name: string) => {
      let i = captureNames.indexOf(name);
      if (i < 0) i = captureNames.push(name) - 1;
      return captureToken(i);
    };
    const producers = new Map<string, readonly string[]>();
    const hosts = new Set<string>();
    const methods: string[] = [];
    const steps: string[] = [];
    const groups = new Map<string, { index: number; rows: string[][] }>();
    let lastGroup: string | undefined;
    for (const test of plan.tests) {
      if (only && !only.has(test.id)) continue;
      const file = plan.files.get(test.file);
      if (!file?.request || file.problems.length || plan.unavailable.has(test.id) || plan.rowProblems.has(test.id)) continue;
      const request: RequestFile = file.request;
      const name = environmentNameOf(test, file, settings);
      const environment: Environment | undefined = findEnvironment(environments, name);
      if (!environment) throw new UsageError(`${rel(test.file)}: no environment ${name ?? ''} to export for`);
      if (!environment.embedded && environment.baseUrl) hosts.add(environment.baseUrl.replace(/\/+$/, ''));
      backend.environment(name);
      const captured = test.dependsOn.flatMap((d) => producers.get(d) ?? []);
      const values: Record<string, unknown> = { ...builtins, ...test.collection.variables, ...environment.variables };
      if (test.row) Object.assign(values, test.row.values);
      Object.assign(values, settings.variables);
      for (const c of captured) values[c] = tokenOf(c);
      const binding: Binding = test.binding ?? request.binding ?? 'soap11';
      let params = request.params;
      try {
        if (file.uses.length) params = substituteVariables(request.params, values, ['params']);
      } catch (e) {
        throw new UsageError(`${rel(test.file)}: ${masker.text((e as Error).message)}`);
      }
      const prepared = prepareRequest({
        request: { ...request, params },
        environment,
        apiKey: KEY_PLACEHOLDER,
        binding,
        variables: values,
        // The path alone: Locust puts its --host in front.
        baseUrl: '',
        asWritten: true,
        overlay: null,
      });
      const spec = prepared.spec;
      const form = binding === 'get' || binding === 'post';
      const label = test.operation ?? path.basename(test.file);
      const method = `step_${methods.length + 1}`;
      const captures = Object.entries(request.capture ?? {});
      producers.set(test.id, captures.length ? captures.map(([c]) => c) : []);
      const checks = checksOf(request.expect);
      const mask = (t: string) => masker.text(t);
      const headers = spec.headers.map(([h, v]) => `${pyStr(h)}: ${pyStr(mask(v))}`).join(', ');
      const url = spliced(mask(spec.url), captureNames, true);
      const body = spec.body ? spliced(mask(spec.body), captureNames, form) : 'None';
      const fn = [
        `    def ${method}(self, captured):`,
        `        # ${rel(test.file)}${test.row ? ` [row ${test.row.index}]` : ''}: ${label} over ${binding}`,
        ...checks.unchecked.map((u) => `        # not checked here: expect ${u}`),
        `        url = (${url}).decode("ascii")`,
        `        with self.client.request(${pyStr(spec.method)}, url, data=${body}, headers={${headers}}, name=${pyStr(label)}, catch_response=True) as r:`,
        `            root = parse(r.content)`,
        `            problems = []`,
        `            if r.status_code != ${checks.status}:`,
        `                problems.append(f"status {r.status_code}, expected ${checks.status}")`,
        `            if is_fault(root) != ${checks.fault ? 'True' : 'False'}:`,
        `                problems.append(${checks.fault ? '"no fault, expected one"' : '"a fault"'})`,
        ...checks.lines.map((l) => `            ${l}`),
        ...captures.flatMap(([c, p]) => [
          `            value = text_at(root, ${pyStr(p)})`,
          `            if value is None:`,
          `                problems.append(${pyStr(`capture ${c}: nothing at ${p}`)})`,
          `            else:`,
          `                captured[${pyStr(c)}] = value`,
        ]),
        `            if problems:`,
        `                r.failure("; ".join(problems))`,
        `                return False`,
        `            r.success()`,
        `            return True`,
      ];
      methods.push(fn.join('\n'));
      if (!test.row) {
        lastGroup = undefined;
        steps.push(`        if not self.${method}(captured):\n            return`);
        continue;
      }
      // Rows are dealt in turn across users, as carrier load deals them (src/core/load/run.ts).
      const key = `${plan.segment.get(test.id) ?? 0}\0${test.row.file}`;
      let group = groups.get(key);
      if (!group || lastGroup !== key) {
        groups.set(key, (group = { index: groups.size, rows: [] }));
        steps.push(
          `        row = ROWS_${group.index}[next(DEAL_${group.index}) % len(ROWS_${group.index})]\n        for step in row:\n            if not step(self, captured):\n                return`,
        );
      }
      lastGroup = key;
      let row = group.rows[test.row.index - 1];
      if (!row) group.rows[test.row.index - 1] = row = [];
      row.push(method);
    }
    if (!methods.length) throw new UsageError('nothing to export: no request files');
    const wait = settings.ratePerSecond
      ? `constant_throughput(${Math.round((settings.ratePerSecond / settings.vus) * 1e6) / 1e6})`
      : // Closed model: each user loops without a pause, as carrier load's users do.
        'constant(0)';
    const seconds = Math.max(1, Math.round((settings.durationMs ?? 30_000) / 1000));
    const spawn = settings.rampMs ? Math.max(1, Math.round((settings.vus * 1000) / settings.rampMs)) : settings.vus;
    const host = hosts.size === 1 ? [...hosts][0] : undefined;
    const text = [
      `# Generated by carrier load --export locust from ${settings.inputs.join(' ')}; docs/load.md#locust.`,
      `# Run: CARRIER_API_KEY=… locust -f ${LOCUSTFILE} --headless -u ${settings.vus} -r ${spawn} --run-time ${seconds}s${host ? '' : ' --host <base URL, e.g. carrier sandbox>'}`,
      `# Values of {{run.*}}, the environment, --var and data rows were filled in when it was written.`,
      PRELUDE,
      '',
      'class CarrierUser(CarrierBase):',
      `    wait_time = ${wait}`,
      ...(host ? [`    host = ${pyStr(host)}`] : []),
      '',
      '    @task',
      '    def iteration(self):',
      '        # One pass over the files in collection order; a failed request ends it, as its captures are missing.',
      '        captured = {}',
      ...steps,
      '',
      methods.join('\n\n'),
      '',
      // The rows name CarrierUser's methods, so they follow the class; each group deals its rows in turn.
      ...[...groups.values()].map(
        (g) =>
          `\nROWS_${g.index} = [${g.rows
            .filter(Boolean)
            .map((r) => `[${r.map((m) => `CarrierUser.${m}`).join(', ')}]`)
            .join(', ')}]\nDEAL_${g.index} = itertools.count()`,
      ),
      '',
    ];
    const file = masker.text(text.join('\n'));
    fs.mkdirSync(out, { recursive: true });
    const target = path.join(out, LOCUSTFILE);
    fs.writeFileSync(target, file);
    io.stdout(`Wrote ${rel(target)}: ${methods.length} request${methods.length === 1 ? '' : 's'}; Locust reads the key from CARRIER_API_KEY\n`);
    return 0;
  } finally {
    await context.http.close();
  }
}
