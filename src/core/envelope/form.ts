/**
 * Parameters of the HTTP GET and POST bindings (transport rules 5–7, docs/wire.md#transport-rules):
 * name=value pairs in catalog order, every value as text (docs/wire.md#transport-rule-7),
 * formatted exactly as the SOAP envelope would write it.
 */
import type { OperationDef } from '../catalog';
import { toXsdText, ValueError } from '../xml/values';
import type { ScalarOptions } from '../xml/write';
import { EnvelopeError } from './errors';

export function httpParameters(op: OperationDef, params: Record<string, unknown>, scalars: ScalarOptions = {}): [string, string][] {
  const pairs: [string, string][] = [];
  const known = new Set<string>();
  for (const field of op.parameters) {
    known.add(field.name);
    const v = params[field.name];
    // A nil has no spelling in a query string or a form: the parameter is left out.
    if (v === undefined || v === null) continue;
    if (field.type === 'record' || field.list) throw new EnvelopeError(`${field.name}: the HTTP bindings carry only simple values`, field.name);
    pairs.push([field.name, text(field.type, v, field.name, scalars)]);
  }
  // Like the envelope writer, keys the catalog does not know go out after the known ones, so
  // what a person wrote is what is sent (the validator flags them).
  for (const [name, v] of Object.entries(params)) {
    if (known.has(name) || v === undefined || v === null) continue;
    if (typeof v === 'object') throw new EnvelopeError(`${name}: the HTTP bindings carry only simple values`, name);
    pairs.push([name, text('string', v, name, scalars)]);
  }
  return pairs;
}

function text(type: Parameters<typeof toXsdText>[0], v: unknown, name: string, scalars: ScalarOptions): string {
  try {
    return toXsdText(type, v, name, typeof v === 'number' ? scalars.rawNumber?.([name]) : undefined, scalars.asWritten);
  } catch (err) {
    if (err instanceof ValueError) throw new EnvelopeError(err.message, err.path);
    throw err;
  }
}

/** application/x-www-form-urlencoded, as browsers and .NET write it (space as +). */
export function formEncode(pairs: readonly (readonly [string, string])[]): string {
  return new URLSearchParams(pairs.map(([n, v]): [string, string] => [n, v])).toString();
}
