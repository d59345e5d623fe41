/**
 * Reads `carrier.environments.json`: JSON with comments, checked against
 * schemas/carrier-environments.schema.json, every problem located so the CLI can print
 * `file:line:col: error: …`. An entry with errors is left out; the others stay usable.
 */
import * as path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { DEFAULT_NAMESPACES } from '../catalog';
import type { CoreContext } from '../context';
import { parseJson } from '../requestFile/jsonc';
import { readTextFile } from '../requestFile/readText';
import { variableNameProblem } from '../requestFile/variables';
import type { JsonSource } from '../requestFile/source';
import { formatPath } from '../requestFile/jsonPath';
import { apiKeyVariable, GENERIC_API_KEY_VARIABLE } from './apiKey';
import { contractFileFor } from './contractFile';
import { validateEnvironmentsFile } from './generated/validator';
import { DEFAULT_MAX_REPLY_BYTES, DEFAULT_TIMEOUT_MS, EMBEDDED_BASE_URL, SANDBOX_ENVIRONMENT, sandboxEnvironment } from './builtin';
import type { Environment, EnvironmentProblem, EnvironmentSettings } from './types';
import { hasUserinfo, userinfoMessage } from './userinfo';

export const ENVIRONMENTS_FILE = 'carrier.environments.json';

export interface LoadedEnvironments {
  /** The built-in sandbox first, then the file's entries in file order. */
  readonly environments: readonly Environment[];
  readonly problems: readonly EnvironmentProblem[];
  /** The file read, when there was one. */
  readonly file?: string;
}

// Generated ahead of time from the schema (precompiled.ts), so reading the file compiles nothing.
const validator = validateEnvironmentsFile as ValidateFunction;
function validate(value: unknown): ErrorObject[] {
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** The environments of a workspace folder; only the sandbox when it has no file. */
export function loadEnvironments(context: Pick<CoreContext, 'files'>, workspaceDir: string | undefined): LoadedEnvironments {
  if (!workspaceDir) return { environments: [sandboxEnvironment()], problems: [] };
  const file = path.join(workspaceDir, ENVIRONMENTS_FILE);
  let text: string;
  try {
    text = readTextFile(context, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { environments: [sandboxEnvironment()], problems: [] };
    const problem: EnvironmentProblem = {
      severity: 'error',
      message: `cannot read ${ENVIRONMENTS_FILE}: ${(err as Error).message}`,
      path: '',
      range: zeroRange,
    };
    return { environments: [sandboxEnvironment()], problems: [problem], file };
  }
  return { ...parseEnvironments(text, file), file };
}

const zeroRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Parses the text of an environments file; `fileName` anchors relative TLS paths. */
export function parseEnvironments(text: string, fileName: string): LoadedEnvironments {
  const parsed = parseJson(text);
  const problems: EnvironmentProblem[] = parsed.findings.map((f) => ({
    severity: f.severity === 'error' ? 'error' : 'warning',
    message: f.message,
    path: f.path,
    range: f.range,
  }));
  if (!parsed.ok) return { environments: [sandboxEnvironment()], problems };
  const value = parsed.value;
  const broken = new Set<string>();
  for (const err of validate(value)) {
    const problem = describe(err, parsed.source, value);
    if (!problem) continue;
    problems.push(problem);
    const top = pointerPath(err.instancePath)[0] ?? err.propertyName;
    broken.add(top === undefined ? '' : String(top));
  }
  // A key written twice (an entry, or a setting in one) leaves it unclear which the author meant.
  for (const d of parsed.duplicateKeys?.duplicates ?? []) broken.add(String(d.parent.length ? d.parent[0] : d.key));
  if (parsed.duplicateKeys?.more) broken.add('');
  // A variable named like object machinery (__proto__) would vanish when the variables are merged.
  for (const [name, settings] of Object.entries(value as Record<string, EnvironmentSettings>)) {
    for (const variable of Object.keys(settings?.variables ?? {})) {
      const problem = variableNameProblem(variable);
      if (!problem) continue;
      problems.push({
        severity: 'error',
        message: `${name}.variables: ${problem}`,
        path: `${name}.variables`,
        range: parsed.source.rangeOf([name, 'variables', variable]),
      });
      broken.add(name);
    }
  }
  if (broken.has('')) return { environments: [sandboxEnvironment()], problems: dedupe(problems) };
  const baseDir = path.dirname(path.resolve(fileName));
  const entries = Object.entries(value as Record<string, EnvironmentSettings>).filter(([name]) => name !== '$schema' && !broken.has(name));
  const environments: Environment[] = [sandboxEnvironment()];
  for (const [name, settings] of entries) {
    const env = resolveEnvironment(name, settings, baseDir);
    if (name === SANDBOX_ENVIRONMENT) environments[0] = env;
    else environments.push(env);
  }
  return { environments, problems: dedupe(problems) };
}

/** Applies the defaults to one entry. An entry named `sandbox` adjusts the built-in one. */
export function resolveEnvironment(name: string, settings: EnvironmentSettings, baseDir: string): Environment {
  const base = name === SANDBOX_ENVIRONMENT ? sandboxEnvironment() : undefined;
  const baseUrl = (settings.baseUrl ?? base?.baseUrl ?? EMBEDDED_BASE_URL).replace(/\/+$/, '');
  const tls = settings.tls;
  const embedded = baseUrl === EMBEDDED_BASE_URL;
  // The sandbox keeps the catalog's contract; a real service's stored one is kept here (if any).
  const contractFile = embedded ? undefined : contractFileFor(baseDir, name);
  return {
    name,
    description: settings.description ?? base?.description,
    baseUrl,
    embedded,
    namespaces: {
      service: settings.serviceNamespace ?? DEFAULT_NAMESPACES.service,
      data: settings.dataNamespace ?? DEFAULT_NAMESPACES.data,
      pickup: settings.pickupNamespace ?? DEFAULT_NAMESPACES.pickup,
    },
    timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxReplyBytes: settings.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    tls: tls && {
      caPath: tls.ca === undefined ? undefined : path.resolve(baseDir, tls.ca),
      certPath: tls.cert === undefined ? undefined : path.resolve(baseDir, tls.cert),
      keyPath: tls.key === undefined ? undefined : path.resolve(baseDir, tls.key),
      rejectUnauthorized: tls.rejectUnauthorized ?? true,
    },
    proxy: settings.proxy,
    variables: { ...(settings.variables ?? {}) },
    secrets: [...(settings.secrets ?? [])],
    builtIn: name === SANDBOX_ENVIRONMENT,
    // Only a sandbox this environment starts runs on its settings; a remote service keeps its own clock.
    ...(embedded && settings.sandbox ? { sandbox: { ...settings.sandbox } } : {}),
    ...(settings.probe === true ? { probe: true as const } : {}),
    ...(contractFile ? { contractFile } : {}),
  };
}

/** Finds an environment by name; the sandbox when no name is given. */
export function findEnvironment(loaded: LoadedEnvironments, name: string | undefined): Environment | undefined {
  return loaded.environments.find((e) => e.name === (name ?? SANDBOX_ENVIRONMENT));
}

// ---- ajv errors → located, readable problems ----

const SETTINGS = [
  'description',
  'baseUrl',
  'serviceNamespace',
  'dataNamespace',
  'pickupNamespace',
  'timeoutMs',
  'maxReplyBytes',
  'tls',
  'proxy',
  'variables',
  'secrets',
];

function pointerPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describe(err: ErrorObject, source: JsonSource, root: unknown): EnvironmentProblem | undefined {
  const at = pointerPath(err.instancePath);
  const where = (p: (string | number)[], part: 'key' | 'value' = 'value') => ({ path: formatPath(p), range: source.rangeOf(p, part) });
  const error = (message: string, p = at, part: 'key' | 'value' = 'value'): EnvironmentProblem => ({ severity: 'error', message, ...where(p, part) });
  switch (err.keyword) {
    case 'propertyNames':
      return undefined; // reported by the inner error, which names the property
    case 'enum':
    case 'pattern':
    case 'anyOf':
    case 'const':
      if (err.propertyName !== undefined) return unknownName(err.propertyName, at, error);
      break;
  }
  const name = at.length ? String(at[at.length - 1]) : '';
  switch (err.keyword) {
    case 'required':
      return error(
        `environment "${at[0]}" has no "${(err.params as { missingProperty: string }).missingProperty}": every environment but the built-in sandbox needs a base URL (or "embedded")`,
      );
    case 'additionalProperties': {
      const extra = (err.params as { additionalProperty: string }).additionalProperty;
      return error(`unknown TLS setting "${extra}"; allowed: ca, cert, key, rejectUnauthorized`, [...at, extra], 'key');
    }
    case 'dependencies': {
      const p = err.params as { property: string; missingProperty: string };
      return error(`tls.${p.property} needs tls.${p.missingProperty}: a client certificate comes with its key`, [...at, p.property], 'key');
    }
    case 'pattern':
      if (name === 'baseUrl') {
        // Credentials in the URL: refused, and the message masks the password it quotes.
        const url = valueAt(root, at);
        if (typeof url === 'string' && hasUserinfo(url)) return error(userinfoMessage(url));
        return error('baseUrl must be an http:// or https:// URL (a host, a numeric port if any, a path; no query or fragment), or "embedded"');
      }
      if (name === 'proxy') return error('proxy must be an http:// or https:// URL of the proxy, e.g. http://proxy.example:3128');
      if (/Namespace$/.test(name)) return error(`${name} must be a namespace URI without spaces`);
      return error(`"${at.length > 1 ? at[at.length - 1] : ''}" is not a valid variable name (letters, digits, _ . -)`);
    case 'type':
      return error(`${name || 'the file'} must be ${article((err.params as { type: string | string[] }).type)}`);
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'uniqueItems':
      return error(`${name} ${err.message ?? 'is out of range'}`);
    case 'allOf':
      return undefined;
  }
  return error(`${name || 'the file'}: ${err.message ?? 'is not valid'}`);
}

function valueAt(root: unknown, at: readonly (string | number)[]): unknown {
  let v = root;
  for (const key of at)
    v = v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[String(key)] : undefined;
  return v;
}

function unknownName(
  prop: string,
  at: (string | number)[],
  error: (m: string, p?: (string | number)[], part?: 'key' | 'value') => EnvironmentProblem,
): EnvironmentProblem {
  const p = [...at, prop];
  if (at.length === 0) return error(`"${prop}" is not a valid environment name (letters, digits, . _ - ; starting with a letter or digit)`, p, 'key');
  if (at.length === 2 && at[1] === 'variables') return error(`"${prop}" is not a valid variable name (letters, digits, _ . -)`, p, 'key');
  if (/^api[-_ ]?key$/i.test(prop)) {
    return error(
      `API keys never go in this file: set ${apiKeyVariable(String(at[0]))} or ${GENERIC_API_KEY_VARIABLE} for the CLI, or use "Carrier: Set API Key" in the editor`,
      p,
      'key',
    );
  }
  return error(`unknown setting "${prop}"; allowed: ${SETTINGS.join(', ')}`, p, 'key');
}

function article(type: string | string[]): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => (t === 'object' || t === 'array' || t === 'integer' ? `an ${t}` : `a ${t}`)).join(' or ');
}

function dedupe(problems: EnvironmentProblem[]): EnvironmentProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `file:line:col: severity: message`, 1-based like compilers print. */
export function formatEnvironmentProblem(file: string, p: EnvironmentProblem): string {
  return `${file}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.severity}: ${p.message}`;
}
