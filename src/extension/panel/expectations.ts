/**
 * A request file's own `expect`, judged against the exchange the panel shows, by the same engine
 * as `carrier run` and the Test Explorer (core's runner: compileRequestFile, evaluateExchange).
 * The panel counts per expectation: each top-level key, each reply path, each message pattern and
 * each documents check. Variables are the ones a send from the editor has: the environment's (as
 * the send found it, from the request file's folder: EnvironmentStore) and the run.* ones
 * (src/core/envelope/prepare.ts).
 */
import * as vscode from 'vscode';
import { findEnvironment, Redactor, runVariables, secretValues, type Exchange, type Failure, type LoadedFile } from '../../core';
import type { ExpectationReport } from '../../webview/protocol';
import type { EnvironmentStore } from '../environments/environmentStore';
import { engine } from '../engineBundle';
import { sourceText, sourceUri } from './requestSource';

type Expect = LoadedFile['expect'];
type Located = { readonly location: { readonly line: number; readonly column: number } };

const at = (l: { readonly line: number; readonly column: number }) => `${l.line}:${l.column}`;

/** Every expectation as the set of places a failure of it can point at. */
function units(e: Expect): Set<string>[] {
  const unit = (...parts: Array<Located | undefined>) => new Set(parts.filter((p): p is Located => p !== undefined).map((p) => at(p.location)));
  const out: Set<string>[] = [];
  if (e.status) out.push(unit(e.status));
  if (e.fault) out.push(unit(e.fault, e.fault.code, e.fault.reason));
  if (e.success) out.push(unit(e.success));
  for (const m of e.messages) out.push(unit(m));
  if (e.maxMs) out.push(unit(e.maxMs));
  for (const a of e.reply) out.push(new Set([at(a.location), ...a.ops.map((o) => at(o.location))]));
  if (e.documents) {
    const checks = [e.documents.count, e.documents.type, e.documents.pages].filter((c): c is NonNullable<typeof c> => c !== undefined);
    if (checks.length === 0) out.push(unit(e.documents));
    for (const c of checks) out.push(unit(c));
  }
  return out;
}

/** Undefined when the exchange has no request file, or the file states no expectation. */
export async function evaluateExpectations(exchange: Exchange, environments: EnvironmentStore): Promise<ExpectationReport | undefined> {
  if (exchange.recorded) return undefined;
  const uri = sourceUri(exchange);
  const text = uri && (await sourceText(uri));
  if (!uri || text === undefined) return undefined;
  const fileName = uri.scheme === 'file' ? uri.fsPath : uri.toString();
  const { compileRequestFile, evaluateExchange } = engine();
  const file = compileRequestFile(text, fileName);
  const expectations = units(file.expect);
  if (expectations.length === 0) return undefined;

  const environment = findEnvironment(environments.definitionsOf(uri), exchange.environment);
  const variables: Record<string, unknown> = { ...runVariables(), ...(environment?.variables ?? {}) };
  const lookup = (name: string): string | undefined => {
    if (!Object.prototype.hasOwnProperty.call(variables, name)) return undefined;
    const v = variables[name];
    return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  };
  // Failures quote expected values, which a variable may have filled from a secret.
  const redactor = new Redactor(secretValues(undefined, variables, environment?.secrets ?? []), { derived: true });
  const failures: Failure[] = redactor.deep(evaluateExchange(exchange, file.expect, lookup, file.location));

  const failed = expectations.filter((u) => failures.some((f) => f.location && u.has(at(f.location))));
  const known = new Set(expectations.flatMap((u) => [...u]));
  return {
    file: vscode.workspace.asRelativePath(uri, true),
    total: expectations.length,
    held: expectations.length - failed.length,
    passed: failures.length === 0,
    failures: failures.map((f) => ({
      message: f.message,
      line: f.location?.line,
      column: f.location?.column,
      implied: !f.location || !known.has(at(f.location)),
    })),
  };
}
